"""A module's data stored in a game file's header (so that the file carries its own cards) is
checked as the data file it came from is: Duel of the Forces' ``cards`` option is read into the
deck file's classes with the deck file's converter, so a crafted header with ``true`` or -99 for
a villain's points, or a villain listed twice, is one line and exit 2, never a game played with
cards no deck file could give (before: ``Card(name, points, pair)`` from whatever it held)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hardening_files import craft, refused, run, split, write

ROOT = Path(__file__).parent.parent
DOTF_SAMPLE = ROOT / "replays" / "duel-of-the-forces-parlett-english-2p.msgpack"
DOTF_CARDS = ROOT / "modules" / "duel_of_the_forces" / "cards.toml"


def with_cards(data: bytes, change) -> bytes:
    """``data`` with its header's ``cards`` option as ``change(deck, names, icons)`` gives it
    (lists to change in place), the game id and the chain made again: a forger's file."""
    header, _ = split(data)
    options = [list(pair) for pair in header["options"]]
    for pair in options:
        if pair[0] == "cards":
            deck, names, icons = ([list(row) for row in part] for part in pair[1])
            pair[1] = change(deck, names, icons) or [deck, names, icons]
    return craft(data, options=options)


def _index(deck, points: int) -> int:
    return next(i for i, card in enumerate(deck) if card[1] == points)


def _set_points(points: int, value):
    def change(deck, names, icons):
        deck[_index(deck, points)][1] = value

    return change


def _twice(deck, names, icons):
    """The last villain renamed as the first: two villains of one name, not in a row."""
    last = max(i for i, card in enumerate(deck) if card[1] > 0)
    deck[last][0] = deck[0][0]


def _vader_first(deck, names, icons):
    vader = next(i for i, card in enumerate(deck) if card[1] < 0)
    deck.insert(0, deck.pop(vader))


def _seven_icons(deck, names, icons):
    icons[0][1] = list(icons[0][1])[:7]


def _hero_twice(deck, names, icons):
    names[1] = names[0]


def _other_hero(deck, names, icons):
    names[3][0] = icons[3][0] = "chewbacca"


CRAFTED = [
    (_set_points(10, True), "villain[0].points: must be a whole number, got True"),
    (_set_points(10, -99), "points: must be a whole number from 1 to 10, got -99"),
    (_set_points(9, 11), "points: must be a whole number from 1 to 10, got 11"),
    (_set_points(5, "5"), "points: must be a whole number, got '5'"),
    (_set_points(-3, -99), "vader.penalties: must be a whole number from 1 to 20, got 99"),
    (_twice, "is listed twice"),
    (_vader_first, "not as a deck file makes them"),
    (_seven_icons, "icons"),
    (_hero_twice, "heroes.han.name: missing field"),
    (_other_hero, "needs exactly the heroes luke, han, leia, yoda"),
    (lambda deck, names, icons: "cards", "not [deck, heroes' names, heroes' icons]"),
    (lambda deck, names, icons: [deck, names], "not [deck, heroes' names, heroes' icons]"),
]


@pytest.mark.parametrize("change, words", CRAFTED, ids=range(len(CRAFTED)))
def test_a_crafted_headers_cards_are_refused_in_one_line(tmp_path, change, words):
    path = write(tmp_path, "crafted.msgpack", with_cards(DOTF_SAMPLE.read_bytes(), change))
    for command in ("verify", "replay"):
        line = refused(run(command, path))
        assert words in line and "cards:" in line, line


def test_true_for_a_one_point_villain_is_refused_after_the_honest_game_was_read(tmp_path):
    """``true == 1`` and hashes alike: the cards kept by value would answer the crafted header
    with the honest game's cards, read first in the same process."""
    assert run("verify", DOTF_SAMPLE)[0] == 0
    crafted = with_cards(DOTF_SAMPLE.read_bytes(), _set_points(1, True))
    line = refused(run("verify", write(tmp_path, "crafted.msgpack", crafted)))
    assert "points: must be a whole number, got True" in line


def test_a_game_of_a_players_own_deck_is_read_back_and_a_crafted_one_refused(tmp_path):
    """A deck file's cards stored in the header are a deck file's again: the game verifies."""
    text = DOTF_CARDS.read_text()
    at = text.index("[[villain]]")
    own = '[[villain]]\nname = "Clone Trooper"\npoints = 2\ncopies = 3\n\n'
    deck = tmp_path / "own.toml"
    deck.write_text(text[:at] + own + text[at:])
    game = tmp_path / "own.msgpack"
    new = ("new", "duel-of-the-forces", "--player", "a", "--player", "b")
    assert run(*new, "--option", f"deck={deck}", "-o", game)[0] == 0
    rc, out, err = run("verify", game)
    assert rc == 0, err
    crafted = with_cards(game.read_bytes(), _set_points(2, 0))
    line = refused(run("verify", write(tmp_path, "crafted.msgpack", crafted)))
    assert "villain[0].points: must be a whole number from 1 to 10, got 0" in line
