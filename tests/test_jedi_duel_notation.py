"""Jedi Duel commands as a player types them in an email, and through the command line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_jedi_duel_rules import FULL_DECK, HIGH, LOW, MIDDLE, c, table

import boardstate as bs
from boardstate.cli import app
from boardstate.modules.jedi_duel import MODULE

RULES = MODULE.rules


@pytest.fixture
def duel():
    return table(
        players=("Alice", "Bob", "Bea"),
        hands=[["4S", "3C", "RJ", "KH"], ["2H"], ["5D"]],
        stances=[("8H", MIDDLE), ("9D", HIGH), ("7S", LOW)],
        deck=FULL_DECK,
    )


@pytest.mark.parametrize(
    "text,command",
    [
        ("attack bob 4S", ("attack", 1, c("4S"), 2)),
        ("Attack BOB 4s", ("attack", 1, c("4S"), 2)),
        ("attack bob 4♠", ("attack", 1, c("4S"), 2)),
        ("attack bea 3C high", ("attack", 2, c("3C"), 0)),
        ("attack bea 3c medium", ("attack", 2, c("3C"), 1)),
        ("attack bob joker", ("attack", 1, c("RJ"), -1)),
        ("sense bea KH", ("sense", 2, c("KH"))),
        ("discard kh", ("discard", c("KH"))),
        ("discard TD", ("discard", c("10D"))),
        ("show", ("show",)),
        ("Keep", ("keep",)),
    ],
)
def test_typed_commands_parse(duel, text, command):
    assert RULES.parse(duel, 0, text) == command


@pytest.mark.parametrize(
    "text,error",
    [
        ("", bs.InvalidCommand),
        ("dance", bs.InvalidCommand),
        ("attack zed 4S", bs.InvalidCommand),
        ("attack b 4S", bs.AmbiguousCommand),
        ("attack bob 3C", bs.AmbiguousCommand),
        ("attack bob 11S", bs.InvalidCommand),
        ("attack bob 4S sideways", bs.InvalidCommand),
        ("stance 3C", bs.AmbiguousCommand),
        ("take now", bs.InvalidCommand),
        ("lightning KH QH", bs.InvalidCommand),
        ("attack 4S", bs.AmbiguousCommand),
        ("show bob", bs.InvalidCommand),
        ("keep 9H", bs.InvalidCommand),
    ],
)
def test_bad_text_is_refused_with_the_right_error(duel, text, error):
    with pytest.raises(error):
        RULES.parse(duel, 0, text)


def test_with_one_opponent_the_target_may_be_left_out():
    s = table(hands=[["4S", "KH"], ["2H"]], stances=[("8H", MIDDLE), ("9D", HIGH)])
    assert RULES.parse(s, 0, "attack 4S") == ("attack", 1, c("4S"), 2)
    assert RULES.parse(s, 0, "sense KH") == ("sense", 1, c("KH"))


def test_every_canonical_form_reads_back(duel):
    for command in RULES.legal(duel, 0):
        assert RULES.parse(duel, 0, RULES.notation(duel, 0, command)) == command
    assert RULES.notation(duel, 0, ("attack", 2, c("3C"), 1)) == "attack Bea 3C middle"
    assert (
        RULES.notation(
            duel, 0, ("lightning", tuple(sorted(c(x) for x in ("JD", "QS", "KC", "KH"))))
        )
        == "lightning KC JD KH QS"
    )
    assert (
        RULES.notation(duel, 0, ("force-defend", c("QH"), c("2D"))) == "force-defend QH fumble 2D"
    )


def test_the_revision_2_answers_are_single_words():
    assert RULES.notation(None, 0, ("show",)) == "show"
    assert RULES.notation(None, 0, ("keep",)) == "keep"
    assert "\nshow " in MODULE.spec.notation and "\nkeep " in MODULE.spec.notation


def test_secret_choices_are_written_as_positions():
    """A swap after Force Sense and a Low-stance return name no card in the public log."""
    assert RULES.notation(None, 0, ("swap", 1, 3)) == "swap 2 4"
    assert RULES.notation(None, 0, ("return", 5)) == "return 6"


def _cli(*args):
    result = CliRunner().invoke(app.cli, [str(a) for a in args], catch_exceptions=False)
    return result


def test_a_game_through_the_command_line(tmp_path):
    path = tmp_path / "g.msgpack"
    assert (
        _cli(
            "new", "jedi-duel", "--player", "ann", "--player", "ben", "--seed", "cli", "-o", path
        ).exit_code
        == 0
    )
    game = bs.load_game(path)
    for _ in range(12):
        seat = game.to_act()[0]
        name = game.players[seat]
        listed = json.loads(_cli("legal", path, "--as", name, "--json").output)["commands"]
        assert listed == game.legal(seat)
        result = _cli("move", path, "--as", name, listed[-1])
        assert result.exit_code == 0, result.output
        game = bs.load_game(path)
    shown = _cli("show", path, "--as", "ann")
    assert "your hand:" in shown.output and shown.output.count("your hand:") == 1
    data = json.loads(_cli("show", path, "--as", "ben", "--json").output)
    assert data["game"] == "jedi-duel" and "hand" in data["players"][1]
    assert "hand" not in data["players"][0]
    assert all(x for x in data["players"][1]["hand"])
    assert _cli("verify", path).exit_code == 0


def test_an_illegal_move_names_the_rule(tmp_path):
    path = tmp_path / "g.msgpack"
    _cli("new", "jedi-duel", "--player", "ann", "--player", "ben", "--seed", "cli2", "-o", path)
    game = bs.load_game(path)
    name = game.players[game.to_act()[0]]
    result = _cli("move", path, "--as", name, "attack ann 4S")
    assert result.exit_code != 0
    assert "Jedi Duel" in result.output


def _a_return_step():
    """A game where a Low-stance player must put a card back (``return N``)."""
    from boardstate.testing import random_game

    for seed in range(300):
        game = random_game(MODULE, seed, players=2, stop_after=1)
        while game.outcome() is None:
            seat = game.to_act()[0]
            legal = game.legal(seat)
            if legal[0].startswith("return "):
                return game, seat
            game.play(seat, legal[0])
    raise AssertionError("no game reached a return step")


@pytest.mark.parametrize("word", ["0", "9", "9" * 5000, "²", "-1"])
def test_a_hand_position_outside_the_hand_is_refused_cleanly(word):
    """Positions count from 1 to the hand's size; anything else is a clear refusal (a
    5000-digit number once made an internal error, and 0 named the last card)."""
    game, seat = _a_return_step()
    with pytest.raises(bs.InvalidCommand) as err:
        game.play(seat, f"return {word}")
    assert err.value.code == "bad-position"
    assert game.is_legal(seat, game.legal(seat)[0])
