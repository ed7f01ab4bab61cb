"""A schema change never breaks a game: a game written under schema 1 of an event, read by an
installation where that event is at schema 2 (with its upcaster), verifies; adding to it is
refused with a one-line error naming `boardstate migrate`; the migrated file plays on."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.rules import GameSpec, Module, Option, Outcome, event


class Counting(NamedTuple):
    players: tuple
    total: int = 0
    turn: int = 0
    bonus: int = 0


def counting_module(schema: int) -> Module:
    """Players take turns adding 1-3 to a total; 10 or more ends it.  ``schema`` 2 adds a bonus
    to the ``counting.added`` event, given only under the new option ``bonus`` (so the upcaster
    fills in what the rules give an old game: no bonus)."""
    if schema == 1:

        @event("counting.added")
        class Added:
            seat: int
            amount: int
    else:

        @event("counting.added", 2, upcasters={1: lambda f: (f[0], f[1], 0)})
        class Added:
            seat: int
            amount: int
            bonus: int

    class Rules:
        def initial(self, setup):
            return Counting(setup.players, bonus=int(setup.options.get("bonus", "0")))

        def start(self, table):
            pass

        def to_act(self, s):
            return (s.turn,)

        def legal(self, s, seat):
            return (1, 2, 3)

        def parse(self, s, seat, text):
            if text.strip() not in ("1", "2", "3"):
                raise bs.InvalidCommand(f"say 1, 2 or 3, not {text!r}")
            return int(text)

        def notation(self, s, seat, command):
            return str(command)

        def decide(self, table, moves):
            ((seat, amount),) = moves
            fields = (seat, amount) if schema == 1 else (seat, amount, table.state.bonus)
            table.emit(Added(*fields))

        def evolve(self, s, e):
            bonus = e.bonus if schema == 2 else 0
            return s._replace(total=s.total + e.amount + bonus, turn=1 - e.seat)

        def outcome(self, s):
            if s.total < 10:
                return None
            return Outcome((0, 0), (1 - s.turn,), "ten reached")

        def view(self, s, seat):
            return s

        def render(self, s, seat):
            return f"total {s.total}"

    spec = GameSpec(
        "counting",
        "Counting",
        "1.0",
        2,
        2,
        (Option("bonus", None, "added to every move"),) if schema == 2 else (),
        (Added,),
        "1 | 2 | 3",
    )
    return Module(spec, Rules())


@pytest.fixture
def install():
    """Put a module into the registry for the length of a test."""
    registry = bs.installed_modules()
    added = []

    def put(module):
        registry[module.spec.id] = module
        added.append(module.spec.id)

    yield put
    for key in added:
        registry.pop(key, None)


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def outcome_of(*args):
    """``(exit status, stdout, stderr)`` of a command."""
    try:
        result = run(*args)
    except SystemExit as exc:  # (the group exits itself on a usage error)
        return exc.code, "", ""
    return result.exit_code, result.stdout, result.stderr


def test_a_game_made_under_schema_1_verifies_refuses_moves_and_migrates(tmp_path, install):
    game_file, bob_file = tmp_path / "game.msgpack", tmp_path / "bob.msgpack"
    install(counting_module(1))
    assert (
        run(
            "new", "counting", "--player", "ann", "--player", "ben", "--seed", "s", "-o", game_file
        ).exit_code
        == 0
    )
    assert run("move", game_file, "2", "--as", "ann").exit_code == 0
    bob_file.write_bytes(game_file.read_bytes())
    assert (
        run("move", game_file, "3", "--as", "ben", "--out", tmp_path / "m1.msgpack").exit_code == 0
    )
    before = game_file.read_bytes()

    install(counting_module(2))  # the installation upgrades: counting.added is now schema 2
    code, out, err = outcome_of("verify", game_file)
    assert code == 0, err
    assert "3 records re-derived" in out
    assert bs.verify(game_file, fast=False).ok

    code, _, err = outcome_of("move", game_file, "1", "--as", "ann")
    assert code == 2 and err.count("\n") == 1 and "boardstate migrate" in err
    code, _, err = outcome_of("apply", bob_file, tmp_path / "m1.msgpack")
    assert code == 2 and err.count("\n") == 1 and "boardstate migrate" in err
    assert game_file.read_bytes() == before  # nothing was written
    code, out, _ = outcome_of("show", game_file, "--as", "ann")
    assert code == 0 and "total 5" in out

    # Both players migrate their own copies: the same new game, so move files flow again.
    assert run("migrate", game_file, "-o", tmp_path / "ann2.msgpack").exit_code == 0
    assert run("migrate", bob_file, "-o", tmp_path / "ben2.msgpack").exit_code == 0
    ann = bs.load_game(tmp_path / "ann2.msgpack")
    assert [e.bonus for r in ann.records for e in r.events] == [0, 0]
    assert bs.verify(tmp_path / "ann2.msgpack").ok
    # A move file made before migrating belongs to the old game id.
    code, _, err = outcome_of("apply", tmp_path / "ben2.msgpack", tmp_path / "m1.msgpack")
    assert code == 1 and "another game" in err
    assert (
        run(
            "move", tmp_path / "ann2.msgpack", "1", "--as", "ann", "--out", tmp_path / "m2.msgpack"
        ).exit_code
        == 0
    )
    ann = bs.load_game(tmp_path / "ann2.msgpack")
    assert ann.records[-1].events[0].bonus == 0  # written under schema 2
    assert "counting.added" in ann.header.events[0] and ann.header.events[0][1] == 2
    assert bs.verify(tmp_path / "ann2.msgpack").ok
    code, _, err = outcome_of(
        "migrate", tmp_path / "ann2.msgpack", "-o", tmp_path / "again.msgpack"
    )
    assert code == 2 and "nothing to migrate" in err


def test_a_newer_schema_is_refused_with_one_line(tmp_path, install):
    game_file = tmp_path / "game.msgpack"
    install(counting_module(2))
    run("new", "counting", "--player", "ann", "--player", "ben", "-o", game_file)
    run("move", game_file, "2", "--as", "ann")
    install(counting_module(1))
    code, _, err = outcome_of("verify", game_file)
    assert code == 2 and err.count("\n") == 1 and "schema 2" in err
