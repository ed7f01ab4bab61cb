"""The hands in the picture (``show --svg --as P``, the HTML replay, Jupyter): the viewer's own
cards face up, every other hand as backs that say which deck each card came from.

The state given is the viewer's view: others' hands are sealed there, and nothing here reads
their values anyway; a hand is drawn face up only for the seat that holds it, and a card of it
only when that copy knows its value (else its back).  What a back shows (its deck) is public:
``EpicState.backs``.

A face says what the card is from the deck data alone, the same rule for every card: its kind,
its name, the character it shows, its attack and defence values, and for a talent card its
effect in a few words (``effect_lines``).  Faces are told apart by kind in greyscale too (basic
combat white, power combat light, special mid-dark; black ink on each) and by the kind in
words.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

from boardstate.rules import card_back, element, label, plural

from ._characters import cast
from ._notation import card_label
from ._state import EpicState
from ._vocabulary import Value

CARD_W, CARD_H = 100, 150  # a face
BACK_W, BACK_H = 48, 64  # a back in another player's hand
GAP = 6
MARGIN = 16
INK = "#000000"
KIND_FILLS = {"combat": "#ffffff", "power-combat": "#a9c8ee", "special": "#d98c3a"}
"""Relative luminance 1, 0.56 and 0.34: apart in greyscale (contrast ratio 1.5 or more between
any two), black ink legible on each (7 or more)."""
KIND_WORDS = {"combat": "basic combat", "power-combat": "power combat", "special": "special"}
QUANTITY_WORDS = {
    "cards-in-hand": "cards in hand",
    "attack-value": "the attack",
    "damage-dealt": "damage dealt",
}
EFFECT_WIDTH, EFFECT_LINES = 16, 4
"""A talent card's effect in a few words: its text (the deck file's ``text``) wrapped to lines of
at most EFFECT_WIDTH characters, the first EFFECT_LINES kept, the last ending in an ellipsis when
the text goes on (``textwrap.wrap``'s ``max_lines``).  One rule for every card; the full text is
in the card's ``<title>``."""
NAME_WIDTH, NAME_LINES = 13, 3  # a card's name, in bold
LINE_WIDTH = 17  # a line in small letters (the kind, the character)
SIZES = {
    "kind": 8,
    "name": 10,
    "character": 8.5,
    "value": 18,
    "words": 8,
    "caption": 8,
    "effect": 9,
}


# ---------------------------------------------------------------------------------- words
def effect_lines(text: str) -> list[str]:
    """A talent card's effect in a few words, as the lines drawn (see EFFECT_WIDTH)."""
    return textwrap.wrap(text, EFFECT_WIDTH, max_lines=EFFECT_LINES, placeholder=" …")


def _lines(text: str, width: int, most: int = 1) -> list[str]:
    return textwrap.wrap(text, width, max_lines=most, placeholder=" …") or [""]


def value_words(value: Value | None) -> str | None:
    """``5``, ``3 or 6`` (a value that depends on the play: the effect says when), ``cards in
    hand``; None when the card has no such value."""
    if value is None:
        return None
    if value.quantity is not None:
        return QUANTITY_WORDS.get(value.quantity, value.quantity.replace("-", " "))
    if value.conditional:
        return f"{value.base} or {value.then}"
    return str(value.base)


def character_name(s: EpicState, card: int) -> str:
    """The character a card shows: ``Boba Fett``, ``Super Battle Droid``."""
    rs = s.roster
    c = rs.cards[card]
    team = cast().by_id(rs.teams[rs.card_group[card]])
    who = team.character(c.pictures) if team is not None else None
    return who.name if who is not None else c.pictures


def card_words(s: EpicState, seat: int, card: int) -> str:
    """A face in words (its ``<title>``, the description): ``Kyber Dart: power combat card of
    Boba Fett, attack 9. If the attack destroys the defender, draw 3 cards.``"""
    c = s.roster.cards[card]
    kind = KIND_WORDS.get(c.kind, c.kind) + (", not an action" if c.free else "")
    values = [
        f"{word} {value_words(v)}"
        for word, v in (("attack", c.attack), ("defence", c.defense))
        if v is not None
    ]
    text = f"{card_label(s, seat, card)}: {kind} card of {character_name(s, card)}"
    text += "".join(f", {v}" for v in values) + "."
    return text + (f" {c.text}" if c.text else "")


def hand_words(s: EpicState, seat, owner: int) -> str:
    """What a hand shows ``seat``: its cards to its holder (``jango 1/4, Rocket Retreat``),
    else the deck of each back (``from dooku's deck``; Master Play: ``2 from dooku's deck, 1
    from maul's``); '' for an empty hand."""
    hand = s.hands[owner]
    if not hand:
        return ""
    if seat is not None and seat == owner:
        return ", ".join(card_label(s, owner, c.value) if c.known else "a card" for c in hand)
    counts: dict[str, int] = {}
    for g in s.backs[owner]:
        team = s.roster.teams[g]
        counts[team] = counts.get(team, 0) + 1
    if len(counts) == 1:
        return f"from {next(iter(counts))}'s deck"
    return ", ".join(f"{n} from {team}'s deck" for team, n in counts.items())


# ---------------------------------------------------------------------------------- shapes
def card_face(parent: ET.Element, s: EpicState, seat: int, card: int, x: int, y: int):
    """A card of the viewer's hand face up (class ``card face KIND``)."""
    c = s.roster.cards[card]
    group = element(parent, "g", {"class": f"card face {c.kind}"})
    element(group, "title", {}, card_words(s, seat, card))
    rect = {"x": x, "y": y, "width": CARD_W, "height": CARD_H, "rx": 6}
    element(group, "rect", rect | {"fill": KIND_FILLS.get(c.kind, "#ffffff"), "stroke": INK})
    middle = x + CARD_W / 2
    baseline = y + 12
    kind = KIND_WORDS.get(c.kind, c.kind)  # (a free card's text says it is not an action)
    label(group, middle, baseline, kind, size=SIZES["kind"], anchor="middle", cls="kind")
    who = character_name(s, card)
    name = who if c.kind == "combat" else c.name
    for line in _lines(name, NAME_WIDTH, NAME_LINES):
        baseline += 13
        label(group, middle, baseline, line, size=SIZES["name"], bold=True, anchor="middle")
    if c.kind != "combat":
        baseline += 12
        for line in _lines(who, LINE_WIDTH):
            label(group, middle, baseline, line, size=SIZES["character"], anchor="middle")
    values = [(w, value_words(v)) for w, v in (("attack", c.attack), ("defence", c.defense))]
    values = [(w, v) for w, v in values if v is not None]
    if values:
        baseline = max(baseline + 22, y + CARD_H * 3 // 5) if c.kind == "combat" else baseline + 22
        columns = [middle] if len(values) == 1 else [x + CARD_W * 0.27, x + CARD_W * 0.73]
        for at, (word, value) in zip(columns, values):
            if len(value) <= 2:  # a number, large
                label(group, at, baseline, value, size=SIZES["value"], bold=True, anchor="middle")
            else:  # words ('3 or 6', 'cards in hand'): small, in up to two lines
                lines = _lines(value, 16 // len(values), 2)
                for k, line in enumerate(lines):
                    line_y = baseline - 9 * (len(lines) - 1 - k)
                    label(group, at, line_y, line, size=SIZES["words"], bold=True, anchor="middle")
            label(group, at, baseline + 10, word, size=SIZES["caption"], anchor="middle")
        baseline += 10
    if c.kind != "combat" and c.text:
        baseline += 3
        for line in effect_lines(c.text):
            baseline += 11
            label(
                group, middle, baseline, line, size=SIZES["effect"], anchor="middle", cls="effect"
            )
    return group


def _back(parent, s: EpicState, group_index: int, x: int, y: int, w: int, h: int):
    return card_back(parent, x, y, w, h, note=s.roster.teams[group_index])


def draw_hands(parent: ET.Element, s: EpicState, seat, top: int, width: int) -> int:
    """The viewer's hand face up, then the other hands as backs; returns the bottom."""
    area = element(parent, "g", {"class": "hands", "font-size": 13})
    y = top
    right = width - MARGIN
    if seat is not None and 0 <= seat < len(s.hands):
        hand = s.hands[seat]
        y += 16
        label(area, MARGIN, y, f"Your hand: {plural(len(hand), 'card')}", bold=True, cls="hand")
        y += 8
        x = MARGIN
        mine = element(area, "g", {"class": "own-hand"})
        for k, c in enumerate(hand):
            if x + CARD_W > right:
                x, y = MARGIN, y + CARD_H + GAP
            if c.known:
                card_face(mine, s, seat, c.value, x, y)
            else:
                _back(mine, s, s.backs[seat][k], x, y, CARD_W, CARD_H)
            x += CARD_W + GAP
        y += (CARD_H if hand else 0) + GAP
    others = [p for p in s.seats if p != seat]
    if not others:
        return y
    y += 18
    heading = "Other hands" if seat is not None else "Hands"
    label(area, MARGIN, y, f"{heading} (each back says its deck)", bold=True)
    y += 8
    x, row = MARGIN, y
    for p in others:
        hand = s.hands[p]
        words = f"{s.players[p]}: {plural(len(hand), 'card')}"
        block = max(len(words) * 7, len(hand) * (BACK_W + 4) - 4)
        if x > MARGIN and x + block > right:
            x, row = MARGIN, row + 16 + BACK_H + GAP + 4
        theirs = element(area, "g", {"class": "hand"})
        backs = f" ({hand_words(s, None, p)})" if hand else ""
        element(theirs, "title", {}, f"{s.players[p]}'s hand: {plural(len(hand), 'card')}{backs}")
        label(theirs, x, row + 14, words, size=12)
        for k, g in enumerate(s.backs[p]):
            _back(theirs, s, g, x + k * (BACK_W + 4), row + 20, BACK_W, BACK_H)
        x += block + 24
    return row + 20 + BACK_H + GAP
