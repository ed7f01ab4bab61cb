"""A rules fix never breaks a game in progress: games finish and verify under the rules revision
they started with, whoever has upgraded; newer or dropped revisions are refused with one line."""

from __future__ import annotations

import random

import attrs
import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.testing import CREATED, registered

JEDI = bs.get_module("jedi-duel")


UPGRADE_AT = 20  # commands played before one player upgrades

# Event types each module appended to its EVENTS in each revision after the first.
NEW_EVENTS = {"jedi-duel": {2: 1}, "duel-of-the-forces": {2: 2, 3: 3}}


def older_installation(module, revision: int = 1) -> bs.Module:
    """The module as an installation from before ``revision + 1``: its spec stops there and
    lacks the event types added since (the rules object is the same: it plays old revisions
    exactly, which the module's own tests pin record for record)."""
    spec = module.spec
    added = sum(n for r, n in NEW_EVENTS[spec.id].items() if r > revision)
    spec = attrs.evolve(
        spec,
        revision=revision,
        version="1.0",
        changes=tuple(c for c in spec.changes if c[0] <= revision),
        events=spec.events[: len(spec.events) - added],
    )
    return bs.Module(spec, module.rules)


def test_a_newer_revision_is_refused_naming_what_is_needed(tmp_path):
    game = bs.Game.new(JEDI, ["ann", "ben"], {}, seed=b"new", created=CREATED)
    path = tmp_path / "new.msgpack"
    bs.save_game(game, path)
    assert game.header.revision == JEDI.spec.revision == 2
    with registered(older_installation(JEDI)):
        with pytest.raises(bs.FutureVersion) as err:
            bs.load_game(path)
    message = str(err.value)
    assert "needs jedi-duel rules revision 2" in message and "\n" not in message
    assert f"upgrade to jedi-duel {JEDI.spec.version} or later" in message


def test_a_dropped_revision_is_refused_never_misjudged(tmp_path):
    with registered(older_installation(JEDI)):
        game = bs.Game.new(bs.get_module("jedi-duel"), ["ann", "ben"], {}, seed=b"old")
    path = tmp_path / "old.msgpack"
    bs.save_game(game, path)
    dropped = bs.Module(attrs.evolve(JEDI.spec, oldest_revision=2), JEDI.rules)
    with registered(dropped):
        with pytest.raises(bs.FutureVersion) as err:
            bs.verify(path)
    assert err.value.code == "unsupported-revision" and "no longer plays" in str(err.value)


def test_show_verify_and_replay_name_an_older_revision_and_what_changed(tmp_path):
    with registered(older_installation(JEDI)):
        game = bs.Game.new(bs.get_module("jedi-duel"), ["ann", "ben"], {}, seed=b"old")
    path = tmp_path / "old.msgpack"
    bs.save_game(game, path)
    changes = JEDI.spec.changes_since(1)
    assert changes
    for args in (["show", path], ["verify", path], ["replay", path, "--to", "0"]):
        result = CliRunner().invoke(cli, [str(a) for a in args])
        assert result.exit_code == 0, result.output
        note = [line for line in result.output.splitlines() if "rules revision 1" in line]
        assert len(note) == 1 and all(change in note[0] for change in changes), result.output


@pytest.mark.parametrize("module_id", ["jedi-duel", "duel-of-the-forces"])
def test_copies_agree_when_only_one_player_has_upgraded(module_id):
    """Half a game by mail between two installations of the older revision; then one player
    upgrades and they finish it: both copies agree, and both installations verify both."""
    module = bs.get_module(module_id)
    if module.spec.revision < 2:
        pytest.skip(f"{module_id} has a single rules revision so far")
    old = older_installation(module, module.spec.revision - 1)
    with registered(old):
        first = bs.Game.new(old, ["ann", "ben"], {}, seed=b"upgrade", created=CREATED)
    data = bs.encode_game(first)
    installs = [old, old]
    copies = []
    for install in installs:
        with registered(install):
            copies.append(bs.load_game(bs.parse_raw(data, "copy")))
    pick = random.Random(3)
    turns = 0
    while copies[0].outcome() is None:
        if turns == UPGRADE_AT:  # part-way: Ben upgrades his boardstate and reloads his copy
            installs[1] = module
            with registered(module):
                copies[1] = bs.load_game(bs.parse_raw(bs.encode_game(copies[1]), "ben"))
        seat = min(copies[0].to_act())
        with registered(installs[seat]):
            base = copies[seat].seq - 1
            copies[seat].play(seat, pick.choice(copies[seat].legal(seat)))
            mail = bs.encode_moves(copies[seat], base)
        other = 1 - seat
        with registered(installs[other]):
            bs.apply_moves(copies[other], bs.parse_raw(mail, "move"))
            applied = copies[other].seq - 1
            if copies[other].reveal_held():  # its own reveal, due now: mailed back
                reply = bs.encode_moves(copies[other], applied)
                with registered(installs[seat]):
                    bs.apply_moves(copies[seat], bs.parse_raw(reply, "reply"))
        turns += 1
        assert turns < 3000
    assert turns > UPGRADE_AT and copies[0].state == copies[1].state
    assert copies[1].header.revision == module.spec.revision - 1
    for install in (old, module):
        with registered(install):
            for copy in copies:
                assert bs.verify(bs.parse_raw(bs.encode_game(copy), "final")).ok
