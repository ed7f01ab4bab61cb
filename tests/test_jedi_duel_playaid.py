"""The Stance Playaid as data: the shipped reconstruction, loading another, and located errors."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import pytest

import boardstate as bs
from boardstate.modules.jedi_duel import MODULE, SPEC
from boardstate.modules.jedi_duel._playaid import builtin_playaid, data_digest, parse_playaid
from boardstate.testing import checked_options, initial_state

REPLAYS = Path(__file__).resolve().parent.parent / "replays"

GOOD = """\
name = "house Playaid"

[attack.high]
high = 0
middle = 1
low = 2

[attack.middle]
high = 1
middle = 0
low = 1

[attack.low]
high = 2
middle = 1
low = 0

[defence]
high = 3
middle = 2
low = 5
"""


def test_the_shipped_playaid_is_the_documented_reconstruction():
    """ "it will be +1 or +2" (attack) and "(+2, +3 or +5)" (defence)."""
    p = builtin_playaid()
    assert p.attack == ((1, 1, 2), (1, 1, 1), (2, 1, 1))
    assert {x for row in p.attack for x in row} == {1, 2}
    assert p.defence == (5, 2, 3) and sorted(p.defence) == [2, 3, 5]
    assert "reconstruction" in p.name
    assert SPEC.data_digest == data_digest()


def test_the_reference_notes_reading_is_shipped_too():
    text = files("boardstate.modules.jedi_duel").joinpath("playaid-notes.toml").read_text()
    p = parse_playaid(text, "playaid-notes.toml")
    assert p.defence == (2, 5, 3) and p.attack == builtin_playaid().attack


def test_a_game_plays_with_another_playaid_and_the_file_records_it(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text(GOOD)
    game = bs.Game.new(MODULE, ["ann", "ben"], {"playaid": str(path)}, seed=b"p")
    assert game.state.speed == ((0, 1, 2), (1, 0, 1), (2, 1, 0)) and game.state.defence == (3, 2, 5)
    out = tmp_path / "g.msgpack"
    bs.save_game(game, out)
    path.unlink()  # the header carries the tables: the game no longer needs the file
    again = bs.load_game(out)
    assert again.state.defence == (3, 2, 5) and bs.verify(out).ok


@pytest.mark.parametrize(
    "change,where",
    [
        (("low = 5", "low = 5.5"), ("21", "defence.low", "whole number")),
        (
            ("middle = 0\nlow = 1\n\n[attack.low]", "middle = 0\n\n[attack.low]"),
            ("8", "attack.middle.low", "missing"),
        ),
        (("high = 3", "high = 30"), ("19", "defence.high", "0 to 13")),
        (("[defence]\n", "[defence]\nmiddel = 2\n"), ("19", "defence.middel", "unknown field")),
        (('name = "house Playaid"', 'name = ""'), ("1", "name", "non-empty")),
        (("[attack.low]", "[attack.low"), ("13", "not valid TOML", "")),
    ],
)
def test_a_mistake_in_a_playaid_file_names_file_line_and_field(tmp_path, change, where):
    path = tmp_path / "bad.toml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(bs.OptionError) as info:
        checked_options(MODULE, {"playaid": str(path)})
    line, field, reason = where
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert field in str(info.value) and reason in str(info.value)


def test_a_missing_playaid_file_is_an_option_error(tmp_path):
    with pytest.raises(bs.OptionError, match="cannot read"):
        checked_options(MODULE, {"playaid": str(tmp_path / "none.toml")})


@pytest.mark.parametrize(
    "raw", [{"colour": "red"}, {"fumble-stance": "sideways"}, {"queen-vs-lightning": "maybe"}]
)
def test_bad_options_are_refused(raw):
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, raw)


def test_player_names_must_differ_beyond_case():
    with pytest.raises(bs.OptionError):
        checked_options(MODULE, {}, players=["Ann", "ann"])


def test_the_header_stores_the_same_options_as_before():
    """The options a new game's header stores are those of the sample games (made before the
    module moved onto the kit): choices checked and lower-cased, the Playaid's tables copied."""
    assert checked_options(MODULE, {}) == {
        "playaid": builtin_playaid().to_option(),
        "fumble-stance": "card",
        "queen-vs-lightning": "shields",
    }
    assert checked_options(MODULE, {"fumble-stance": " AREA", "queen-vs-lightning": "No"}) == {
        "playaid": builtin_playaid().to_option(),
        "fumble-stance": "area",
        "queen-vs-lightning": "no",
    }
    sample = bs.load_game(REPLAYS / "jedi-duel-4p.msgpack").header
    assert dict(sample.options) == checked_options(MODULE, {}, players=sample.players)


def test_the_options_set_up_the_table():
    s = initial_state(MODULE, raw_options={"fumble-stance": "area", "queen-vs-lightning": "no"})
    assert not s.fumble_sets_area and not s.queen_stops_lightning
    assert s.speed == builtin_playaid().attack and s.defence == builtin_playaid().defence
