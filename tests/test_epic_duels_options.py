"""Star Wars Epic Duels: the options a game is created with, and their refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._notation import card_label
from boardstate.testing import checked_options, initial_state, start


def deck_dir() -> Path:
    import boardstate.modules.epic_duels as ed

    return Path(ed.__file__).parent / "decks"


def refusal(raw) -> str:
    with pytest.raises(bs.OptionError) as info:
        checked_options(MODULE, raw)
    return str(info.value)


def test_defaults_are_the_rulebooks_first_game():
    options = checked_options(MODULE)
    assert options["board"] == "geonosis" and options["characters"] == [["obi-wan"], ["dooku"]]


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"characters": "luke,yoda"}, "both on the light side"),
        ({"characters": "luke"}, "1 named for 2 players"),
        ({"characters": "luke,darth"}, "no main character 'darth'"),
        ({"board": "hoth"}, "hoth"),
        ({"alternatives": "no-such-reading"}, "not a reading of the decks in play"),
        ({"alternatives": "cg-force-control", "characters": "luke,vader"}, "not a reading"),
        ({"deck-end": "sometimes"}, "sometimes"),
        ({"destroyed": "never"}, "never"),
    ],
)
def test_bad_options_are_refused_with_one_line(raw, words):
    why = refusal(raw)
    assert words in why and "\n" not in why


def test_a_disputed_reading_is_an_option():
    s = start(MODULE, initial_state(MODULE, raw_options={"alternatives": "cg-force-control"}))[1]
    control = next(c for c in s.roster.cards if c.name == "Force Control")
    assert control.attack.base == 5
    plain = start(MODULE, initial_state(MODULE))[1]
    assert next(c for c in plain.roster.cards if c.name == "Force Control").attack.base == 7


def test_a_players_deck_file_with_printed_values_is_stored_in_the_game(tmp_path):
    text = (deck_dir() / "dooku.toml").read_text()
    mine = tmp_path / "my-dooku.toml"
    taunting = 'name = "Taunting"\npictures = "dooku"\nkind = "power-combat"\nattack = '
    mine.write_text(text.replace(taunting + "7", taunting + "8"))
    options = checked_options(MODULE, {"decks": str(mine)})
    assert "deck-texts" in options and "attack = 8" in dict(options["deck-texts"])["dooku"]
    mine.unlink()  # the game no longer needs the file
    s = start(MODULE, initial_state(MODULE))[1]
    setup = bs.rules.Setup(("ann", "ben"), options, MODULE.spec.revision)
    state = start(MODULE, MODULE.rules.initial(setup))[1]
    taunting = next(k for k, c in enumerate(state.roster.cards) if c.name == "Taunting")
    assert state.roster.cards[taunting].attack.base == 8
    assert card_label(state, 1, taunting) == "Taunting"
    assert s.roster.cards[taunting].attack.base == 7


def test_a_deck_file_for_a_team_not_playing_is_refused(tmp_path):
    mine = tmp_path / "vader.toml"
    mine.write_text((deck_dir() / "vader.toml").read_text())
    assert "vader, who is not playing" in refusal({"decks": str(mine)})


def test_a_broken_deck_file_is_refused_with_file_and_line(tmp_path):
    mine = tmp_path / "dooku.toml"
    text = (deck_dir() / "dooku.toml").read_text()
    mine.write_text(text.replace('verb = "draw"', 'verb = "drew"', 1))
    why = refusal({"decks": str(mine)})
    assert str(mine) in why and "drew" in why
