"""Player names (issue 24, item 7): one name grammar (``boardstate._names.is_name``), used
by ``new`` (every new game), by key names, and so by the notation, where a name is one word
(``give NAME``, ``sense NAME ...``).  A name with a space, a quote or markup is refused when
the game is made, with one line; every name the grammar allows plays in every command that
names a player.  Files made before the grammar still read (their names are escaped where
they are shown: tests/test_replay_html.py, tests/test_jupyter.py)."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate._names import is_name
from boardstate.cli import cli
from boardstate.keys import _check_name


def run(*args) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "name", ["ann smith", "O'Brien", 'say "hi"', "<b>x</b>", "a;b", "a=b", "a/b", ".hidden"]
)
def test_new_refuses_a_name_that_is_not_one_word_of_the_grammar(tmp_path, name):
    """Before: 'ann smith' was accepted, and 'give ann smith' listed but unplayable."""
    out = tmp_path / "g.msgpack"
    rc, _, err = run("new", "duel-of-the-forces", "--player", name, "--player", "bob", "-o", out)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and "[bad-player]" in lines[0], err
    assert "internal error" not in err and not out.exists()
    assert not is_name(name)
    with pytest.raises(bs.OptionError):
        _check_name(name)  # (the same grammar names keys)


NAMES = ["Zoë", "ann-1", "b.o_b", "Ørjan", "x9"]


@pytest.mark.parametrize("module_id, count", [("duel-of-the-forces", 4), ("jedi-duel", 5)])
def test_every_command_listed_for_a_grammar_name_plays(module_id, count):
    """Random games to the end whose players hold every kind of character the grammar
    allows: each command ``legal`` lists (``give NAME``, ``sense NAME CARD`` ...) is played
    through the notation."""
    names = NAMES[:count]
    assert all(is_name(n) for n in names)
    game = bs.Game.new(bs.get_module(module_id), names, {}, seed=b"names")
    pick = random.Random(3)
    named = 0
    for _ in range(5000):
        if game.outcome() is not None:
            break
        seat = pick.choice(game.to_act())
        commands = game.legal(seat)
        for command in commands:
            assert game.is_legal(seat, command), command
        named += sum(any(n in c.split() for n in names) for c in commands)
        game.play(seat, pick.choice(commands))
    assert game.outcome() is not None
    assert named, "no command named a player"


CONTROLS = "\x00\x1f\x7f\x85\x9f\u2028\u2029\u200e\u200f\u202a\u202e\u2066\u2069"
"""The ends of each range of characters a read player's name may not hold."""


@pytest.mark.parametrize("char", CONTROLS)
def test_a_read_players_name_with_a_control_character_is_refused(char):
    """``check_players`` (every header read) refuses C0 and C1 controls, DEL, the line and
    paragraph separators and the bidirectional marks; the characters next to each range
    (a space, ``~``, U+00A0, U+2027, U+202F, U+2065, U+206A, U+200D) pass."""
    from boardstate._names import check_players

    spec = bs.get_module("jedi-duel").spec
    with pytest.raises(bs.OptionError, match="control character"):
        check_players(spec, ["ann", f"b{char}n"])
    for fine in " ~\xa0\u2027\u202f\u2065\u206a\u200d":
        check_players(spec, ["ann", f"b{fine}n"])
