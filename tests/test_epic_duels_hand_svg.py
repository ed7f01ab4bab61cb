"""Epic Duels: a player's own hand drawn in the picture (issue 23, item 5).

In ``show --svg --as P``, the HTML replay and Jupyter, the viewer's hand is drawn as cards (kind,
name, the character it shows, attack and defence values, a talent card's effect in a few words,
the card's full words in its ``<title>``); every other hand as backs that say the deck each card
came from (Master Play: two decks in one hand).  Nothing the viewer may not see gets in: the
picture is the same whatever the other hands hold.  Faces are legible: every line inside its
card and apart from the next, kinds apart in greyscale, ink readable on each.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from itertools import combinations

import pytest
from test_replay_html import unpacked

import boardstate as bs
from boardstate._html import replay_html
from boardstate.geometry._style import relative_luminance
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._decks import builtin_decks
from boardstate.modules.epic_duels._hand_svg import (
    CARD_H,
    CARD_W,
    EFFECT_LINES,
    EFFECT_WIDTH,
    KIND_FILLS,
    NAME_LINES,
    NAME_WIDTH,
    card_face,
    card_words,
    character_name,
    effect_lines,
    value_words,
)
from boardstate.modules.epic_duels._notation import card_label
from boardstate.modules.epic_duels._state import MOVE, put
from boardstate.modules.epic_duels._svg import svg
from boardstate.testing import random_game

SVG = "{http://www.w3.org/2000/svg}"
WIDE = {"": 0.64, "bold": 0.70}
"""A letter's width in ems, on average over a line, at most: measured once in headless Chromium's
sans-serif (DejaVu Sans) over every line of every card face (widest: 'Padmé may move up', 0.62;
bold 'Royal Command', 0.70)."""


class _Found(Exception):
    pass


def game_when(predicate, players=2, options=None, seeds=range(8)) -> bs.Game:
    kept = {}

    def stop(game):
        if game.state.roster is not None and predicate(game.state):
            kept["game"] = game
            raise _Found

    for seed in seeds:
        try:
            random_game(MODULE, seed, players, options=options or {}, check_each=stop)
        except _Found:
            return kept["game"]
    raise AssertionError("no game reached the state wanted")


@pytest.fixture(scope="module")
def duel() -> bs.Game:
    """Kamino, Luke against Vader, a few turns in, both hands holding talent cards."""

    def talents(s):
        kinds = {s.roster.cards[c.value].kind for c in s.hands[0]}
        return s.phase == MOVE and s.turns >= 3 and kinds - {"combat"}

    return game_when(talents, options={"board": "kamino", "characters": "luke,vader"})


@pytest.fixture(scope="module")
def master() -> bs.Game:
    """Master Play for four: two decks per hand, the backs of both kinds in some hand."""

    def mixed(s):
        return s.phase == MOVE and any(len(set(b)) > 1 for b in s.backs[1:])

    return game_when(mixed, players=4, options={"variant": "master"})


def seen_by(game, seat):
    return game.decider.view(game.state, seat)


def drawn(game, seat) -> ET.Element:
    return ET.fromstring(svg(seen_by(game, seat), seat))


def faces(root) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("card face")]


def backs(root) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if g.get("class") == "card back"]


def texts(group) -> list[str]:
    return [t.text for t in group.iter(f"{SVG}text")]


def title(group) -> str:
    return group.find(f"{SVG}title").text


# ---------------------------------------------------------------------------------- your hand
def test_your_hand_is_drawn_card_by_card(duel):
    s = seen_by(duel, 0)
    root = drawn(duel, 0)
    own = root.find(f".//{SVG}g[@class='own-hand']")
    drawn_faces = faces(own)
    hand = [c.value for c in s.hands[0]]
    assert len(drawn_faces) == len(hand) >= 4
    assert f"Your hand: {len(hand)} cards" in texts(root)
    for face, card in zip(drawn_faces, hand):
        c = s.roster.cards[card]
        words = texts(face)
        assert title(face) == card_words(s, 0, card)
        assert title(face).startswith(f"{card_label(s, 0, card)}: ")  # (what you type)
        assert face.get("class") == f"card face {c.kind}"
        name = character_name(s, card) if c.kind == "combat" else c.name
        assert " ".join(textwrap.wrap(name, NAME_WIDTH)) in " ".join(words)
        assert character_name(s, card) in " ".join(words)
        for word, value in (("attack", c.attack), ("defence", c.defense)):
            if value is not None:
                assert word in words and value_words(value) in " ".join(words)
            else:
                assert word not in words
        if c.kind != "combat":
            assert words[-len(effect_lines(c.text)) :] == effect_lines(c.text)
            assert c.text in title(face)  # (the full text in the card's title)
    kinds = {face.get("class").split()[2] for face in drawn_faces}
    assert "combat" in kinds and kinds - {"combat"}


def test_the_description_names_your_hand_and_only_the_backs_of_the_others(duel, master):
    s = seen_by(duel, 0)
    desc = drawn(duel, 0).find(f"{SVG}desc").text
    labels = ", ".join(card_label(s, 0, c.value) for c in s.hands[0])
    assert f"ann (you): {len(s.hands[0])} cards in hand ({labels})," in desc
    assert f"ben: {len(s.hands[1])} cards in hand (from vader's deck)," in desc
    m = seen_by(master, 0)
    desc = drawn(master, 0).find(f"{SVG}desc").text
    for p in (1, 2, 3):
        teams = [m.roster.teams[g] for g in m.backs[p]]
        if len(set(teams)) > 1:
            counts = {t: teams.count(t) for t in dict.fromkeys(teams)}
            assert ", ".join(f"{n} from {t}'s deck" for t, n in counts.items()) in desc


# ---------------------------------------------------------------------------------- backs
@pytest.mark.parametrize("seat", [0, 2, None])
def test_other_hands_are_backs_that_say_their_deck(master, seat):
    s = seen_by(master, seat)
    root = drawn(master, seat)
    hands = root.findall(f".//{SVG}g[@class='hands']/{SVG}g[@class='hand']")
    others = [p for p in s.seats if p != seat]
    assert len(hands) == len(others)
    for p, hand in zip(others, hands):
        assert texts(hand)[0] == f"{s.players[p]}: {len(s.hands[p])} card" + (
            "" if len(s.hands[p]) == 1 else "s"
        )
        drawn_backs = backs(hand)
        decks = [s.roster.teams[g] for g in s.backs[p]]
        assert [b.find(f"{SVG}text[@class='deck']").text for b in drawn_backs] == decks
        assert [title(b) for b in drawn_backs] == [f"card back: {d}" for d in decks]
        assert not faces(hand)
    if seat is None:
        assert not faces(root) and root.find(f".//{SVG}g[@class='own-hand']") is None
    else:
        assert len(faces(root)) == len(s.hands[seat])


# ---------------------------------------------------------------------------------- nothing hidden
def _other_cards(s, seat):
    """The table with every other hand changed: the same number of cards from the same decks,
    other cards (its player's draw pile's, known in the full table)."""
    hands = s.hands
    for p in s.seats:
        if p == seat or not hands[p]:
            continue
        new = []
        for k, g in enumerate(s.backs[p]):
            pile = [c for c in s.piles[g] if c.value != hands[p][k].value]
            new.append(pile[k % len(pile)] if pile else hands[p][k])
        hands = put(hands, p, tuple(new))
    assert hands != s.hands
    return s._replace(hands=hands)


@pytest.mark.parametrize("which", ["duel", "master"])
def test_the_picture_is_the_same_whatever_the_other_hands_hold(duel, master, which):
    game = duel if which == "duel" else master
    full = game.state
    changed = _other_cards(full, 0)
    for seat in (0, None):
        picture = svg(seen_by(game, seat), seat)
        assert svg(full, seat) == picture
        assert svg(changed, seat) == picture
        assert svg(game.decider.view(changed, seat), seat) == picture
    # ... and seat 0's own cards are what change its picture
    mine = _other_cards(full, 1)
    assert svg(mine, 0) != svg(full, 0) and svg(mine, 1) == svg(full, 1)


def test_another_hand_s_cards_are_never_named_in_the_picture(duel):
    s = duel.state
    picture = svg(seen_by(duel, 0), 0)
    public = {card_label(s, 1, c) for c in s.discards[1]}
    theirs = {card_label(s, 1, c.value) for c in s.hands[1]} - public
    assert theirs
    assert not any(f">{label}<" in picture or f"{label}:" in picture for label in theirs)
    ours = svg(seen_by(duel, 1), 1)
    assert all(f"{label}: " in ours for label in theirs)  # (the search is not blind)


def test_a_notebook_and_the_replay_page_show_your_hand_and_only_yours(duel):
    s = duel.state
    mine = {card_label(s, 0, c.value) for c in s.hands[0]}
    public = {card_label(s, p, c) for p in (0, 1) for c in s.discards[p]}
    theirs = {card_label(s, 1, c.value) for c in s.hands[1]} - public - mine
    position = duel.position(seat=0)
    spectator = duel.position()
    assert all(f"{label}: " in position.svg() for label in mine)
    assert faces(ET.fromstring(position.svg())) and not faces(ET.fromstring(spectator.svg()))
    assert not any(f"{label}: " in spectator._repr_html_() for label in mine - public)
    page = unpacked(replay_html(duel, 0))
    assert all(f"{label}: " in page for label in mine)
    assert theirs and not any(f"{label}: " in page for label in theirs)
    assert 'class="card face' not in unpacked(replay_html(duel, None))


# ---------------------------------------------------------------------------------- legible
def _every_card():
    """(state, seat, card) for every distinct card of the twelve built-in decks."""
    out = []
    for cast in ("obi-wan,yoda,mace,luke,anakin,han", "vader,maul,boba,jango,emperor,dooku"):
        game = bs.Game.new(
            MODULE,
            ["a", "b", "c", "d", "e", "f"],
            {"variant": "free-for-all", "characters": cast},
            seed=b"faces",
        )
        s = game.state
        for card in range(len(s.roster.cards)):
            out.append((s, s.roster.group_seat[s.roster.card_group[card]], card))
    return out


def test_every_card_of_every_deck_is_legible():
    """Every line inside its card, one under another without touching, the name never cut."""
    cards = _every_card()
    assert len({(s.roster.teams[s.roster.card_group[c]]) for s, _, c in cards}) == 12
    for s, seat, card in cards:
        parent = ET.Element("g")
        face = card_face(parent, s, seat, card, 0, 0)
        c = s.roster.cards[card]
        name = character_name(s, card) if c.kind == "combat" else c.name
        assert len(textwrap.wrap(name, NAME_WIDTH)) <= NAME_LINES, name
        lines = face.findall("text")
        previous = None
        for line in lines:
            size = float(line.get("font-size"))
            wide = WIDE[line.get("font-weight") or ""] * size
            half = len(line.text) * wide / 2
            x, y = float(line.get("x")), float(line.get("y"))
            assert 3 <= x - half and x + half <= CARD_W - 3, (c.name, line.text)
            assert size <= y <= CARD_H - 4, (c.name, line.text)
            if previous is not None and abs(float(previous.get("x")) - x) < 1:
                assert y - float(previous.get("y")) >= size, (c.name, line.text)
            previous = line
        for line in effect_lines(c.text) if c.kind != "combat" else ():
            assert len(line) <= EFFECT_WIDTH + 2  # (' …')


def test_the_effect_in_a_few_words_is_the_card_text_cut_by_one_rule():
    texts_ = {c.text for deck in builtin_decks().values() for c in deck.cards if c.text}
    assert len(texts_) > 50
    cut = 0
    for text in texts_:
        lines = effect_lines(text)
        assert 1 <= len(lines) <= EFFECT_LINES
        shown = " ".join(lines)
        if shown.endswith(" …"):
            cut += 1
            assert text.startswith(shown[:-2])
        else:
            assert shown == " ".join(text.split())
    assert 0 < cut < len(texts_)  # (most fit; the long ones end in an ellipsis)


def test_the_kinds_of_card_are_apart_in_greyscale():
    def contrast(a, b):
        la, lb = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
        return (la + 0.05) / (lb + 0.05)

    for a, b in combinations(KIND_FILLS.values(), 2):
        assert contrast(a, b) >= 1.5, (a, b)
    for fill in KIND_FILLS.values():
        assert contrast(fill, "#000000") >= 7
    for s, seat, card in _every_card()[::7]:
        face = card_face(ET.Element("g"), s, seat, card, 0, 0)
        assert {t.get("fill") for t in face.iter("text")} == {"#000000"}


def test_a_full_hand_wraps_into_rows_inside_the_picture(duel):
    s = seen_by(duel, 0)
    big = s._replace(hands=put(s.hands, 0, s.piles[0][:14]), backs=put(s.backs, 0, (0,) * 14))
    root = ET.fromstring(svg(big, 0))
    width, height = int(root.get("width")), int(root.get("height"))
    own = faces(root.find(f".//{SVG}g[@class='own-hand']"))
    assert len(own) == 14
    boxes = [
        (float(r.get("x")), float(r.get("y"))) for r in (face.find(f"{SVG}rect") for face in own)
    ]
    assert len({y for _, y in boxes}) == 2
    assert all(0 <= x and x + CARD_W <= width and y + CARD_H <= height for x, y in boxes)
    for (x1, y1), (x2, y2) in combinations(boxes, 2):
        assert abs(x1 - x2) >= CARD_W or abs(y1 - y2) >= CARD_H  # (no two overlap)
