"""A module's data stored in a game file's header (so that the file carries its own cards) is
checked as the data file it came from is: Duel of the Forces' ``cards`` option is read into the
deck file's classes with the deck file's converter, so a crafted header with ``true`` or -99 for
a villain's points, or a villain listed twice, is one line and exit 2, never a game played with
cards no deck file could give (before: ``Card(name, points, pair)`` from whatever it held);
Jedi Duel's stored Playaid likewise (before: ``int(x)`` of whatever it held), and Epic Duels'
stored deck texts are read as that team's deck file is (before: any team's deck, or an internal
error for a text of another shape)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_hardening_files import craft, refused, run, split, write

ROOT = Path(__file__).parent.parent
DOTF_SAMPLE = ROOT / "replays" / "duel-of-the-forces-parlett-english-2p.msgpack"
DOTF_CARDS = ROOT / "modules" / "duel_of_the_forces" / "cards.toml"


def with_option(data: bytes, key: str, change) -> bytes:
    """``data`` with its header's option ``key`` as ``change(*parts)`` gives it (the stored
    value's parts as lists of lists, changed in place, or a new value returned), the game id
    and the chain made again: a forger's file."""
    header, _ = split(data)
    options = [list(pair) for pair in header["options"]]
    for pair in options:
        if pair[0] == key:
            parts = [p if isinstance(p, str) else [_listed(row) for row in p] for p in pair[1]]
            pair[1] = change(*parts) or parts
    return craft(data, options=options)


def _listed(row):
    return list(row) if isinstance(row, (list, tuple)) else row


def with_cards(data: bytes, change) -> bytes:
    return with_option(data, "cards", change)


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


# ------------------------------------------------------------------------------- Jedi Duel
JEDI_SAMPLE = ROOT / "replays" / "jedi-duel-2p.msgpack"
JEDI_PLAYAID = ROOT / "modules" / "jedi_duel" / "playaid.toml"


def _attack(row: int, area: int, value):
    def change(name, attack, defence):
        attack[row][area] = value

    return change


def _defence(area: int, value):
    def change(name, attack, defence):
        defence[area] = value

    return change


CRAFTED_PLAYAIDS = [
    (_attack(0, 2, True), "playaid: attack.high.low: must be a whole number, got True"),
    (_attack(1, 0, -1), "playaid: attack.middle.high: must be from 0 to 13, got -1"),
    (_attack(2, 1, "1"), "playaid: attack.low.middle: must be a whole number, got '1'"),
    (_defence(0, 14), "playaid: defence.high: must be from 0 to 13, got 14"),
    (lambda name, attack, defence: ["  ", attack, defence], "playaid: name: must be a non-empty"),
    (lambda name, attack, defence: [7, attack, defence], "playaid: name: must be a string"),
    (lambda name, attack, defence: [name, attack[:2], defence], "not [name, attack rows"),
    (lambda name, attack, defence: [name, attack, defence + [1]], "not [name, attack rows"),
    (lambda name, attack, defence: [name, attack], "not [name, attack rows"),
]


@pytest.mark.parametrize("change, words", CRAFTED_PLAYAIDS, ids=range(len(CRAFTED_PLAYAIDS)))
def test_a_crafted_headers_playaid_is_refused_in_one_line(tmp_path, change, words):
    crafted = with_option(JEDI_SAMPLE.read_bytes(), "playaid", change)
    path = write(tmp_path, "crafted.msgpack", crafted)
    for command in ("verify", "replay"):
        line = refused(run(command, path))
        assert words in line, line


def test_true_for_a_modifier_of_one_is_refused_after_the_honest_game_was_read(tmp_path):
    assert run("verify", JEDI_SAMPLE)[0] == 0
    crafted = with_option(JEDI_SAMPLE.read_bytes(), "playaid", _attack(1, 1, True))
    line = refused(run("verify", write(tmp_path, "crafted.msgpack", crafted)))
    assert "attack.middle.middle: must be a whole number, got True" in line


def test_a_game_of_a_players_own_playaid_is_read_back_and_a_crafted_one_refused(tmp_path):
    own = tmp_path / "own.toml"
    own.write_text(JEDI_PLAYAID.read_text().replace("name = ", 'name = "mine" #', 1))
    game = tmp_path / "own.msgpack"
    new = ("new", "jedi-duel", "--player", "a", "--player", "b")
    assert run(*new, "--option", f"playaid={own}", "-o", game)[0] == 0
    rc, out, err = run("verify", game)
    assert rc == 0, err
    crafted = with_option(game.read_bytes(), "playaid", _defence(2, 99))
    line = refused(run("verify", write(tmp_path, "crafted.msgpack", crafted)))
    assert "playaid: defence.low: must be from 0 to 13, got 99" in line


# ------------------------------------------------------------------------------ Epic Duels
EPIC_DECKS = ROOT / "modules" / "epic_duels" / "decks"


@pytest.fixture(scope="module")
def own_decks_game(tmp_path_factory) -> bytes:
    """An Epic Duels game made with a player's deck files (stored in its header as text)."""
    game = tmp_path_factory.mktemp("epic") / "own.msgpack"
    decks = f"decks={EPIC_DECKS / 'luke.toml'},{EPIC_DECKS / 'vader.toml'}"
    new = ("new", "epic-duels", "--player", "ann", "--player", "ben", "--option", decks)
    rc, _, err = run(*new, "--option", "characters=luke,vader", "--seed", "decks", "-o", game)
    assert rc == 0, err
    assert run("verify", game)[0] == 0
    return game.read_bytes()


def _deck_text(team: str) -> str:
    return (EPIC_DECKS / f"{team}.toml").read_text()


CRAFTED_DECK_TEXTS = [  # (the stored value, what the one line says)
    (
        lambda: [["luke", _deck_text("dooku")], ["vader", _deck_text("vader")]],
        "deck file for luke:7: team: a deck for team 'luke' is needed, not for 'dooku'",
    ),
    (
        lambda: [["luke", _deck_text("luke").replace("team", "tem", 1)]],
        "deck file for luke:1: team: missing field",
    ),
    (lambda: [["luke", 5]], "deck-texts: not [team, deck file text] pairs"),
    (lambda: "luke", "deck-texts: not [team, deck file text] pairs"),
    (lambda: [["luke", _deck_text("luke"), 1]], "deck-texts: not [team, deck file text] pairs"),
    (lambda: [["luke", _deck_text("luke")]] * 2, "one per team, sorted by team"),
    (lambda: [["vader", _deck_text("vader")], ["luke", _deck_text("luke")]], "sorted by team"),
    (lambda: [["rey", _deck_text("luke")]], "unknown team 'rey'"),
]


@pytest.mark.parametrize("stored, words", CRAFTED_DECK_TEXTS, ids=range(len(CRAFTED_DECK_TEXTS)))
def test_a_crafted_headers_deck_texts_are_refused_in_one_line(
    tmp_path, own_decks_game, stored, words
):
    """Before: a deck of another team played as this one's, and a text of another shape was
    'the rules cannot take this record (AttributeError: ...)' with exit 1."""
    crafted = with_option(own_decks_game, "deck-texts", lambda *parts: stored())
    line = refused(run("verify", write(tmp_path, "crafted.msgpack", crafted)))
    assert words in line and "corrupt header" in line, line
