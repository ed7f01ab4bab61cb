"""Jedi Duel drawn as an SVG picture (``boardstate show --svg``): well formed and standalone,
the viewer's own cards face up, nobody else's hidden card anywhere in it, whose turn and the
winner in the title, fatigue as a bar with its number, suits apart in greyscale."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from itertools import combinations

import attrs
import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli
from boardstate.modules.jedi_duel import MODULE, SPEC
from boardstate.modules.jedi_duel._cards import name, pretty
from boardstate.modules.jedi_duel._state import DEFEND, LOOK, NO_CARD, OVER, RETURN
from boardstate.modules.jedi_duel._svg import card_words, svg

SVG = "{http://www.w3.org/2000/svg}"
RULES = MODULE.rules
REVISION_1 = bs.Module(attrs.evolve(SPEC, revision=1), MODULE.rules)
PLAYERS = ["ann", "ben", "cat"]


# ---------------------------------------------------------------------------------- games
def play(players, seed: int, until=lambda s: False, module=MODULE) -> bs.Game:
    """A random game through the engine, stopped when ``until(state)`` holds (or at its end)."""
    game = bs.Game.new(module, list(players), {}, seed=b"svg-%d" % seed)
    pick = random.Random(seed)
    for _ in range(5000):
        if game.outcome() is not None or until(game.state):
            return game
        (seat,) = game.to_act()
        game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
    raise AssertionError("the game did not end")


def first(predicate, players=PLAYERS, module=MODULE) -> bs.Game:
    for seed in range(40):
        game = play(players, seed, predicate, module)
        if game.outcome() is None and predicate(game.state):
            return game
    raise AssertionError("no game reached the state wanted")


@pytest.fixture(scope="module")
def midgame() -> bs.Game:
    return first(lambda s: s.turns >= 6 and s.phase != OVER)


@pytest.fixture(scope="module")
def finished() -> bs.Game:
    game = play(PLAYERS, 3)
    assert game.outcome() is not None
    return game


@pytest.fixture(scope="module")
def games(midgame, finished) -> list[bs.Game]:
    """Positions of every kind: set-up, mid-game, an attack, Force Sense, Low stance's return,
    the end, and a rules revision 1 game."""
    return [
        bs.Game.new(MODULE, PLAYERS, {}, seed=b"svg-setup"),
        midgame,
        first(lambda s: s.phase == DEFEND),
        first(lambda s: s.phase == LOOK),
        first(lambda s: s.phase == RETURN),
        first(lambda s: s.turns >= 5, ["ann", "ben", "cat", "dan", "eve", "fay"]),
        first(lambda s: s.turns >= 8, module=REVISION_1),
        finished,
    ]


def drawn(game: bs.Game, seat):
    """(the picture, its parsed root) of ``game`` as ``seat`` sees it."""
    picture = svg(game.decider.view(game.state, seat), seat)
    return picture, ET.fromstring(picture)


def texts(element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def title_of(card) -> str:
    return card.find(f"{SVG}title").text


def cards(element, kind: str = "") -> list[ET.Element]:
    return [
        g
        for g in element.iter(f"{SVG}g")
        if g.get("class", "").split()[:1] == ["card"]
        and (not kind or kind in g.get("class", "").split())
    ]


def player(root, seat: int) -> ET.Element:
    return root.find(f".//{SVG}g[@id='player-{seat}']")


def luminance(colour: str) -> float:
    """The relative luminance (WCAG) of ``#rrggbb``."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# ---------------------------------------------------------------------------------- the document
def test_every_position_draws_a_well_formed_standalone_picture(games):
    for game in games:
        for seat in [*range(len(game.players)), None]:
            picture, root = drawn(game, seat)
            assert root.tag == f"{SVG}svg" and picture.startswith("<svg")
            assert root.get("role") == "img" and root.get("font-family") == "sans-serif"
            width, height = int(root.get("width")), int(root.get("height"))
            assert root.get("viewBox") == f"0 0 {width} {height}" and width > 0 and height > 0
            assert [child.tag for child in root[:2]] == [f"{SVG}title", f"{SVG}desc"]
            assert root[1].text.startswith("Jedi Duel, ")
            tags = {el.tag.split("}")[1] for el in root.iter()}
            assert not tags & {"script", "image", "use", "a", "foreignObject", "style", "font"}
            assert not any("href" in key for el in root.iter() for key in el.attrib)
            assert picture.count("http") == 1  # the namespace, and no other address
            assert "url(" not in picture and "@import" not in picture


def test_the_same_state_draws_the_same_bytes(midgame, tmp_path):
    path = tmp_path / "g.msgpack"
    bs.save_game(midgame, path)
    again = bs.load_game(path)
    for seat in (0, 1, None):
        assert drawn(midgame, seat)[0] == drawn(midgame, seat)[0] == drawn(again, seat)[0]


def test_every_card_is_a_shape_with_words(games):
    for game in games:
        for seat in (0, None):
            _, root = drawn(game, seat)
            for card in cards(root):
                assert card.find(f"{SVG}rect") is not None and title_of(card)
                if "back" in card.get("class").split():
                    assert title_of(card) == "card back"
                else:
                    assert texts(card) and texts(card)[0]


def test_player_names_are_escaped(monkeypatch):
    # (a name from a file made before the name grammar: new games refuse it, files still read)
    monkeypatch.setattr("boardstate._header.check_new_names", lambda players: None)
    game = bs.Game.new(MODULE, ["<ann&co>", 'ben"b"'], {}, seed=b"svg-names")
    picture, root = drawn(game, 0)
    words = root.find(f"{SVG}title").text + root.find(f"{SVG}desc").text
    assert "<ann&co>" in words and "<ann&co>" not in picture
    assert "&lt;ann&amp;co&gt;" in picture
    assert any(t.startswith('ben"b"') or 'ben"b"' in t for t in texts(root))


# ---------------------------------------------------------------------------------- what is seen
def _labels(value: int) -> tuple[str, ...]:
    return (name(value), pretty(value), card_words(value))


def _appears(label: str, picture: str) -> bool:
    """``label`` as a word of its own anywhere in the document (text, titles, attributes)."""
    return re.search(rf"(?<!\w){re.escape(label)}(?!\w)", picture) is not None


def _big(value: int) -> str:
    """The large label on a card's face: ``Q♥``, or ``Joker`` (its colour below)."""
    return "Joker" if value >= 52 else pretty(value)


def _pairs(raw, view):
    """(the full state's secret, the view's) for every card held in secret: hands, deck, the
    cards a Force Sense saw."""
    for full, seen in zip(raw.hands, view.hands):
        yield from zip(full, seen)
    yield from zip(raw.deck, view.deck)
    if raw.peek:
        yield from zip(raw.peek[1], view.peek[1])


def test_the_viewer_sees_their_own_hand_and_nothing_hidden(games):
    checked = 0
    for game in games:
        raw = game.state
        for seat in [*range(len(game.players)), None]:
            view = game.decider.view(raw, seat)
            picture, root = drawn(game, seat)
            if seat is not None:  # the viewer's own cards, face up, in text and in words
                hand = player(root, seat).find(f"{SVG}g[@class='hand']")
                faces = cards(hand, "face")
                assert [title_of(c) for c in faces] == [
                    card_words(c.value) for c in view.hands[seat]
                ]
                assert [texts(c)[0] for c in faces] == [_big(c.value) for c in view.hands[seat]]
            # Drawn from the full state, the picture is the same: it reads only what the seat
            # may know, whatever it is given.
            assert svg(raw, seat) == picture
            known = {c.value for _, c in _pairs(raw, view) if c.known}
            known |= set(view.discard) | set(view.stance_card)
            for full, seen in _pairs(raw, view):
                if seen.known:
                    continue
                assert full.known  # (the full state holds every card)
                assert full.salt.hex() not in picture and full.commitment.hex() not in picture
                if full.value in known:
                    continue  # (seen another way: a card the viewer's Force Sense showed)
                for label in _labels(full.value):
                    assert not _appears(label, picture), (seat, label)
                checked += 1
    assert checked > 100


def test_a_spectator_sees_no_face_in_any_hand(games):
    for game in games:
        _, root = drawn(game, None)
        assert svg(game.state, None) == drawn(game, None)[0]  # (the full state draws the same)
        for seat in range(len(game.players)):
            hand = player(root, seat).find(f"{SVG}g[@class='hand']")
            assert not cards(hand, "face")
            assert len(cards(hand, "back")) == len(game.state.hands[seat])
        assert root.find(f".//{SVG}g[@class='sensed']") is None
        assert "(you)" not in " ".join(texts(root))


def test_force_sense_shows_the_looker_the_sensed_hand_only():
    game = first(lambda s: s.phase == LOOK)
    s = game.state
    looker, target = s.turn, s.peek[0]
    _, root = drawn(game, looker)
    sensed = player(root, target).find(f"{SVG}g[@class='sensed']")
    assert [title_of(c) for c in cards(sensed, "face")] == [card_words(c.value) for c in s.peek[1]]
    for other in (p for p in range(len(s.players)) if p != looker):
        _, root = drawn(game, other)
        assert root.find(f".//{SVG}g[@class='sensed']") is None


# ---------------------------------------------------------------------------------- the table
def test_the_title_names_whose_turn_and_what_is_asked(games):
    for game in games:
        s = game.state
        if s.phase == OVER:
            continue
        _, root = drawn(game, None)
        title = root.find(f"{SVG}title").text
        acting = s.players[s.queue[0]]
        assert f"{acting} to " in title
        if s.turn >= 0:
            assert f"turn {s.turns}: {s.players[s.turn]}'s turn" in title
        else:
            assert "setting up" in title
        head = player(root, s.queue[0]).find(f"{SVG}text").text
        assert head.startswith("\u25b6 ") and acting in head


def test_the_end_names_the_winner(finished):
    outcome = finished.outcome()
    (winner,) = outcome.winners
    for seat in (0, None):
        _, root = drawn(finished, seat)
        title = root.find(f"{SVG}title").text
        assert title.endswith(f"game over, winner: {finished.players[winner]}")
        assert "winner" in player(root, winner).find(f"{SVG}text").text
        for loser in (p for p in range(3) if p != winner):
            assert "winner" not in player(root, loser).find(f"{SVG}text").text


def test_stances_fatigue_deck_and_discard(games):
    for game in games:
        s = game.state
        _, root = drawn(game, 0)
        for seat in range(len(s.players)):
            row = player(root, seat)
            stance = row.find(f"{SVG}g[@class='stance']")
            if s.stance_card[seat] == NO_CARD:
                assert not cards(stance) and "no" in texts(stance)
            else:
                (card,) = cards(stance, "face")
                assert title_of(card) == card_words(s.stance_card[seat])
            fatigue = row.find(f"{SVG}g[@class='fatigue']")
            number = max(0, s.fatigue[seat])
            assert f"fatigue {number}" in " ".join(texts(fatigue))
            bars = fatigue.findall(f"{SVG}rect")
            if number:
                assert int(bars[1].get("width")) * 21 == int(bars[0].get("width")) * number
            else:
                assert len(bars) == 1
        table = " ".join(texts(root.find(f"{SVG}g[@class='table']")))
        assert f"{len(s.deck)} card" in table
        discard = root.find(f".//{SVG}g[@class='discard']")
        if s.discard:
            (top,) = cards(discard, "face")
            assert title_of(top) == card_words(s.discard[-1])
            assert f"{len(s.discard)} card" in " ".join(texts(discard))


def test_the_attack_under_way_is_drawn():
    game = first(lambda s: s.phase == DEFEND and s.attack[1] != NO_CARD)
    _, root = drawn(game, None)
    (card,) = cards(root, "attack-card")
    assert title_of(card) == card_words(game.state.attack[1])
    assert "Attack: " in " ".join(texts(root))


# ---------------------------------------------------------------------------------- greyscale
def test_the_suits_are_apart_in_greyscale(games):
    fills, inks = {}, {}
    for game in games:
        _, root = drawn(game, 0)
        for card in cards(root, "face"):
            kind = card.get("class").split()[2]
            fills.setdefault(kind, set()).add(card.find(f"{SVG}rect").get("fill"))
            inks.setdefault(kind, set()).update(t.get("fill") for t in card.iter(f"{SVG}text"))
    suits = ("diamonds", "hearts", "spades", "clubs")
    assert set(suits) <= set(fills)
    assert all(len(fills[s]) == 1 and len(inks[s]) == 1 for s in suits)
    for a, b in combinations(suits, 2):
        (fa,), (fb,) = fills[a], fills[b]
        assert contrast(fa, fb) >= 1.5, (a, b)  # apart when printed in grey
    for kind, (fill,) in ((k, fills[k]) for k in suits):
        (ink,) = inks[kind]
        assert contrast(fill, ink) >= 4.5, kind  # the label reads on its card


# ---------------------------------------------------------------------------------- the command
def test_show_svg_writes_the_seats_picture(midgame, tmp_path):
    path = tmp_path / "duel.msgpack"
    bs.save_game(midgame, path)
    target = tmp_path / "pos.svg"
    result = CliRunner().invoke(cli, ["show", str(path), "--as", "ben", "--svg", "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8") == drawn(midgame, 1)[0]
    spectator = CliRunner().invoke(cli, ["show", str(path), "--svg"])
    assert spectator.exit_code == 0 and spectator.stdout == drawn(midgame, None)[0]
