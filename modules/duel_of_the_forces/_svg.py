"""The table of Duel of the Forces as an SVG picture (``boardstate show --svg``), as one seat
(or a spectator, None) sees it.

The state given is already the seat's view.  The picture shows what ``render`` shows: the
villain up for grabs, the stock as a count, each player's hero, score, captured villains and
last bid, and the viewer's own hand face up; other hands are drawn as card backs with a count
(the text view names only the viewer's own hand, and so does this).  A stock card is never
named: under rules revisions 1 and 2 the stock is face down, and in revision 3 it is the public
list of what is left, which the text view gives as a count too.

Accessible: a ``<title>`` and ``<desc>`` in words, every card a shape with a text label (and a
``<title>`` of its own), a legend, and fills told apart in greyscale (rebel cards light, Empire
villains mid, Darth Vader black with white ink, backs hatched).  Deterministic: the same state
gives the same bytes.  Self-contained: no scripts, fonts, images or links.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from collections import Counter

from boardstate.rules import (
    card_back,
    card_lines,
    element,
    empty_slot,
    label,
    picture,
    plural,
    words_and,
)

from . import _scoring
from ._render import EDITION_NAMES, card_text, offer_text
from ._report import report
from ._rules import to_act
from ._state import BID, NOT_BIDDING, OFFER, OVER, R2, R2_DECISION, DuelState

WIDTH = 940
MARGIN = 20
INK = "#000000"
PAPER = "#ffffff"
# Fills, apart in greyscale (relative luminance about 0.81, 0.32, 0.01, 0.11): the rebel side
# light with black ink, the Empire's villains mid with black ink, Darth Vader black with white
# ink; a card back (the kit's ``card_back``) is dark grey with a white frame and hatching.
REBEL_FILL = "#dceaf7"
VILLAIN_FILL = "#b8955a"
VADER_FILL = "#1f1f1f"
SIDE_FILLS = {"rebel": REBEL_FILL, "villain": VILLAIN_FILL, "vader": VADER_FILL}


# ---------------------------------------------------------------------------------- words
def _hero(s: DuelState, seat: int) -> str:
    return s.heroes[seat].capitalize()


def rebel_label(s: DuelState, seat: int, card: int) -> str:
    """A rebel card in words: ``R2-D2`` or ``Luke 5``."""
    return "R2-D2" if card == R2 else f"{_hero(s, seat)} {card}"


def _icons(s: DuelState, seat: int, card: int) -> int:
    return s.cards.icon_map[s.heroes[seat]][card - 1]


def winners(s: DuelState) -> tuple[int, ...]:
    return _scoring.outcome(s.captured, s.cards.deck, s.edition, s.end_reason).winners


def _winner_text(s: DuelState) -> str:
    names = [s.players[w] for w in winners(s)]
    if not names:
        return "no winner"
    return ("winner: " if len(names) == 1 else "winners: ") + words_and(names)


def whose_turn(s: DuelState) -> str:
    """``ann and ben to bid``, ``ann to keep or give ...``, or ``game over, winner: ann``."""
    if s.phase == OVER:
        return f"game over, {_winner_text(s)}"
    acting = [s.players[i] for i in to_act(s)]
    if s.phase == BID:
        return f"{words_and(acting)} to bid" if acting else "the next villain to turn up"
    if s.phase == R2_DECISION:
        return f"{s.players[s.r2_seat]} to keep or give the card R2-D2 turned up"
    if s.phase == OFFER:
        return f"{s.players[s.asked]} to choose"
    return words_and(acting) + " to act"


def _score(s: DuelState, seat: int) -> int:
    return _scoring.score(s.captured[seat], s.cards.deck, s.edition)


def _captured_groups(s: DuelState, seat: int) -> list[tuple[int, int]]:
    """(deck index of the first card, count) per distinct card captured, in capture order."""
    deck = s.cards.deck
    counts = Counter((deck[c].name, deck[c].points) for c in s.captured[seat])
    first = {}
    for c in s.captured[seat]:
        first.setdefault((deck[c].name, deck[c].points), c)
    return [(first[key], counts[key]) for key in first]


def _bid_text(s: DuelState, seat: int) -> str | None:
    if not s.bids or seat >= len(s.bids):
        return None
    bid = s.bids[seat]
    return "no bid" if bid == NOT_BIDDING else rebel_label(s, seat, bid)


def description(s: DuelState, seat: int | None) -> str:
    """The position in words (the picture's ``<desc>``)."""
    parts = [
        f"Duel of the Forces, {EDITION_NAMES[s.edition]} rules, round {s.rounds}: {whose_turn(s)}."
    ]
    if s.phase == OVER:
        parts.append(f"Game over: {s.end_reason}.")
    elif s.villain is not None:
        parts.append(f"Up for grabs: {card_text(s, s.villain)}.")
    if s.phase == R2_DECISION and s.r2_card is not None:
        parts.append(
            f"{s.players[s.r2_seat]}'s R2-D2 turned up {card_text(s, s.r2_card)} "
            f"(keep it, or give it to a player)."
        )
    if s.phase == OFFER:
        parts.append(f"Choice: {offer_text(s)}.")
    parts.append(f"Stock: {plural(len(s.stock), 'card')}.")
    if s.set_aside:
        parts.append(f"Set aside: {', '.join(card_text(s, c) for c in s.set_aside)}.")
    for i, name in enumerate(s.players):
        you = ", you" if i == seat else ""
        hand = plural(len(s.hands[i]), "card")
        if i == seat and s.hands[i]:
            hand += " (" + ", ".join(rebel_label(s, i, c) for c in s.hands[i]) + ")"
        captured = ", ".join(card_text(s, c) for c in s.captured[i]) or "nothing"
        text = (
            f"{name} ({_hero_name(s, i)}{you}): score {_score(s, i)}, "
            f"{hand} in hand, captured {captured}"
        )
        bid = _bid_text(s, i)
        if bid:
            text += f", last bid {bid}"
        parts.append(text + ".")
    line = report(s)
    if line:
        parts.append(f"Last round: {line}")
    return " ".join(parts)


def _hero_name(s: DuelState, seat: int) -> str:
    return dict(s.cards.hero_names).get(s.heroes[seat], _hero(s, seat))


def _task(s: DuelState) -> str:
    """What the seats to act are asked for, in a few words."""
    if s.phase == BID:
        return "to bid"
    if s.phase == R2_DECISION:
        return "to keep or give R2-D2's card"
    return "to choose"


# ---------------------------------------------------------------------------------- shapes
def _face(parent, x, y, w, h, *, side: str, title: str, lines, cls: str = "") -> ET.Element:
    """A card face up: a rounded rect in the side's fill, its label in lines of text (the
    first one large), and a ``<title>`` naming it."""
    group = element(parent, "g", {"class": f"card face {side}" + (f" {cls}" if cls else "")})
    element(group, "title", {}, title)
    fill = SIDE_FILLS[side]
    ink = PAPER if side == "vader" else INK
    rect = {"x": x, "y": y, "width": w, "height": h, "rx": 6, "fill": fill, "stroke": INK}
    rect["stroke-width"] = 1.5
    element(group, "rect", rect)
    if side == "vader":  # a shape apart from colour: an inner frame
        inner = {"x": x + 3, "y": y + 3, "width": w - 6, "height": h - 6, "rx": 4}
        element(group, "rect", inner | {"fill": "none", "stroke": PAPER, "stroke-width": 1})
    gap = 3 if h < 60 else 6
    card_lines(group, x, y, w, h, lines, gap=gap, ink=ink)
    return group


def _empire(parent, x, y, w, h, s: DuelState, card: int, *, count: int = 1, big=False, cls=""):
    """An Empire card face up: a villain (name, points) or a Darth Vader (minus points)."""
    c = s.cards.deck[card]
    side = "vader" if c.vader else "villain"
    points = f"{c.points:+d} points" if c.vader else plural(c.points, "point")
    size = 14 if big else 10
    words = textwrap.wrap(c.name, 12 if big else 20)
    lines = [(word, size) for word in words]
    if big:
        lines.append((f"{c.points:+d}" if c.vader else str(c.points), 26))
        lines.append(("point" if abs(c.points) == 1 else "points", 11))
    else:
        lines.append((points + (f" x{count}" if count > 1 else ""), 10))
    title = card_text(s, card) + (f", {count} cards" if count > 1 else "")
    return _face(parent, x, y, w, h, side=side, title=title, lines=lines, cls=cls)


def _rebel(parent, x, y, s: DuelState, seat: int, card: int, *, small: bool = False):
    """A rebel card face up: R2-D2, or the force with the hero and its icons."""
    w, h = (56, 46) if small else (60, 84)
    if card == R2:
        lines = [("R2-D2", 12 if small else 13)] + ([] if small else [("droid", 10)])
        title = "R2-D2"
    else:
        icons = _icons(s, seat, card)
        lines = [(str(card), 16 if small else 22), (_hero(s, seat), 10)]
        if not small:
            lines.append((plural(icons, "icon"), 10))
        title = f"{rebel_label(s, seat, card)} ({plural(icons, 'icon')})"
    return _face(parent, x, y, w, h, side="rebel", title=title, lines=lines)


# ---------------------------------------------------------------------------------- picture
def svg(s: DuelState, seat: int | None) -> str:
    """The table as a standalone SVG document."""
    title = f"Duel of the Forces ({EDITION_NAMES[s.edition]}), round {s.rounds}: {whose_turn(s)}"
    root = picture(title, description(s, seat))
    background = element(root, "rect", {"x": 0, "y": 0, "fill": PAPER, "class": "background"})

    x0 = MARGIN
    y = 30
    for k, words in enumerate(textwrap.wrap(title, 80)):
        label(root, x0, y, words, size=17, bold=True, cls="heading" if k == 0 else "")
        y += 22
    status = element(root, "g", {"class": "status"})
    notes = []
    if s.phase == OVER:
        notes.append(f"Game over: {s.end_reason}")
    elif s.phase == R2_DECISION and s.r2_card is not None:
        notes.append(
            f"{s.players[s.r2_seat]}'s R2-D2 turned up {card_text(s, s.r2_card)}: "
            "keep it, or give it to a player"
        )
    elif s.phase == OFFER:
        notes.append(f"Choice: {offer_text(s)}")
    for note in notes:
        for part in textwrap.wrap(note, 110):
            label(status, x0, y, part, size=13)
            y += 18

    # The middle of the table: the villain up, the stock, R2-D2's card, the set-aside pile.
    y += 6
    table = element(root, "g", {"class": "table"})
    top = y + 16
    label(table, x0, y + 4, "Up for grabs", size=13, bold=True)
    if s.villain is not None and s.phase != OVER:
        _empire(table, x0, top, 120, 150, s, s.villain, big=True, cls="up-for-grabs")
    else:
        empty_slot(table, x0, top, 120, 150, ["none up"])
    sx = x0 + 150
    label(table, sx, y + 4, "Stock", size=13, bold=True)
    stock = element(table, "g", {"class": "stock"})
    if s.stock:
        for k in range(min(3, len(s.stock)) - 1, -1, -1):  # a little pile: three backs at most
            card_back(stock, sx + 4 * k, top + 4 * k, 100, 140, labelled=k == 0)
    else:
        empty_slot(stock, sx, top, 100, 140, ["empty"])
    label(stock, sx, top + 170, f"{plural(len(s.stock), 'card')} face down", size=12)
    rx = sx + 140
    if s.phase == R2_DECISION and s.r2_card is not None:
        label(table, rx, y + 4, f"R2-D2 of {s.players[s.r2_seat]} turned up", size=13, bold=True)
        _empire(table, rx, top, 120, 150, s, s.r2_card, big=True, cls="r2-card")
        rx += 220
    if s.set_aside:
        label(table, rx, y + 4, "Set aside (nobody won them)", size=13, bold=True)
        for k, card in enumerate(s.set_aside):
            _empire(table, rx + (k % 3) * 118, top + (k // 3) * 50, 112, 44, s, card)
    y = top + 190

    # The players.
    acting = set(to_act(s)) if s.phase != OVER else set()
    won = set(winners(s)) if s.phase == OVER else set()
    for i, name in enumerate(s.players):
        group = element(root, "g", {"class": "player", "id": f"player-{i}"})
        element(group, "rect", {"x": 8, "y": y - 4, "width": WIDTH - 16, "height": 2, "fill": INK})
        y += 18
        you = " (you)" if i == seat else ""
        head = f"{name}{you}, {_hero_name(s, i)}: score {_score(s, i)}"
        if i in acting:
            head = "\u25b6 " + head + f" \u2014 {_task(s)}"
        if i in won:
            head = "\u2605 " + head + " \u2014 winner"
        label(group, x0, y, head, size=15, bold=True, cls="player-name")
        bid = _bid_text(s, i)
        if bid:
            label(group, WIDTH - MARGIN, y, f"last bid: {bid}", size=13, anchor="end", cls="bid")
        y += 10
        row = y
        # The hand: faces for its holder, backs for everyone else.
        hand = s.hands[i]
        hand_label = f"Hand: {plural(len(hand), 'card')}"
        hand_group = element(group, "g", {"class": "hand"})
        label(hand_group, x0, y + 26, hand_label, size=12)
        hx = x0 + 130
        if i == seat:
            for k, card in enumerate(hand):
                _rebel(hand_group, hx + k * 66, y + 4, s, i, card)
            y += 96
        elif hand:
            for k in range(len(hand)):
                card_back(hand_group, hx + k * 22, y + 4, 34, 48, labelled=False)
            y += 60
        else:
            y += 40
        # The last bid, face up (it was revealed).
        if bid and s.bids[i] != NOT_BIDDING:
            _rebel(group, WIDTH - MARGIN - 56, row + 4, s, i, s.bids[i], small=True)
            y = max(y, row + 56)
        # The captured pile, one card per kind with its count.
        captured = element(group, "g", {"class": "captured"})
        groups = _captured_groups(s, i)
        label(captured, x0, y + 26, f"Captured: {plural(len(s.captured[i]), 'card')}", size=12)
        per_row = 6
        for k, (card, count) in enumerate(groups):
            cx = x0 + 130 + (k % per_row) * 118
            cy = y + 4 + (k // per_row) * 50
            _empire(captured, cx, cy, 112, 44, s, card, count=count)
        rows = max(1, -(-len(groups) // per_row))
        y += 8 + rows * 50

    # What the last decision settled.
    line = report(s)
    if line:
        y += 16
        result = element(root, "g", {"class": "report"})
        label(result, x0, y, "Last round", size=13, bold=True)
        y += 18
        for part in textwrap.wrap(line, 120):
            label(result, x0, y, part, size=12)
            y += 16

    # The legend: every fill with its words.
    y += 12
    legend = element(root, "g", {"class": "legend"})
    label(legend, x0, y, "Legend", size=13, bold=True)
    y += 10
    entries = (
        ("rebel", "Rebel card (force, hero, icons for ties)"),
        ("villain", "Empire villain (points)"),
        ("vader", "Darth Vader (minus points, inner frame)"),
        ("back", "Card back (hidden or face down)"),
    )
    for k, (kind, words) in enumerate(entries):
        lx = x0 + (k % 2) * 440
        ly = y + (k // 2) * 30
        swatch = element(legend, "g", {"class": f"legend-{kind}"})
        if kind == "back":
            card_back(swatch, lx, ly, 24, 24, labelled=False)
        else:
            rect = {"x": lx, "y": ly, "width": 24, "height": 24, "rx": 3}
            element(swatch, "rect", rect | {"fill": SIDE_FILLS[kind], "stroke": INK})
            if kind == "vader":
                inner = {"x": lx + 3, "y": ly + 3, "width": 18, "height": 18, "rx": 2}
                element(swatch, "rect", inner | {"fill": "none", "stroke": PAPER})
        label(swatch, lx + 32, ly + 17, words, size=12)
    y += 64

    height = int(y)
    root.set("width", str(WIDTH))
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {WIDTH} {height}")
    background.set("width", str(WIDTH))
    background.set("height", str(height))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"
