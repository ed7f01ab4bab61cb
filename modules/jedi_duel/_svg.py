"""The table of Jedi Duel as an SVG picture (``boardstate show --svg``), as one seat (or a
spectator, None) sees it.

The state given is already the seat's view (``_rules.view``): every card the seat does not
own is sealed.  A card is named only when this copy holds its value; anything else is drawn as
a card back.  The picture shows what ``render`` shows: whose turn and what is asked, the draw
deck as a count, the discard pile's top card and size, each player's stance card, fatigue (a
bar with the number as text) and hand, the attack under way, the hand a Force Sense showed the
viewer, and the winner at the end.

Accessible: a ``<title>`` and ``<desc>`` in words, every card a shape with a text label (and a
``<title>`` of its own), a legend, and suit fills told apart in greyscale (diamonds light,
hearts mid-light, spades mid-dark, clubs dark; Jokers white with a dashed frame; backs
hatched).  Deterministic: the same state gives the same bytes.  Self-contained: no scripts,
fonts, images or links.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

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

from ._cards import (
    AREA_NAMES,
    BLACK_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    IS_JOKER,
    RANK,
    RANK_NAMES,
    RED_JOKER,
    SPADES,
    SUIT,
    SUIT_SYMBOLS,
    pretty,
)
from ._combat import START_FATIGUE, column
from ._render import _ASKED, _COLUMNS, _attack_json, attack_words
from ._rules import outcome
from ._state import NO_CARD, OVER, RETURN, JediState

WIDTH = 900
MARGIN = 20
INK = "#000000"
PAPER = "#ffffff"
SUIT_WORDS = {CLUBS: "clubs", DIAMONDS: "diamonds", HEARTS: "hearts", SPADES: "spades"}
# Suit fills, apart in greyscale (relative luminance about 0.79, 0.39, 0.16, 0.03), with black
# ink on the light two and white ink on the dark two; every card also says its suit in words.
SUIT_FILLS = {DIAMONDS: "#ffe3a3", HEARTS: "#e8909a", SPADES: "#4f6f9f", CLUBS: "#16381f"}
SUIT_INKS = {DIAMONDS: INK, HEARTS: INK, SPADES: PAPER, CLUBS: PAPER}
JOKER_FILL = "#ffffff"  # told apart by its dashed frame and the word "Joker"
TRACK_FILL = "#eeeeee"  # the fatigue bar: what is lost, light
FATIGUE_FILL = "#555555"  # ... and what is left, dark
SUIT_ROLES = {
    DIAMONDS: "high area and stance",
    HEARTS: "middle area and stance",
    SPADES: "low area and stance",
    CLUBS: "wild: any area",
}
POWERS = {11: "Heal", 12: "Push", 13: "Sense"}  # the Force power a royal calls
CARD_W, CARD_H = 54, 76


# ---------------------------------------------------------------------------------- words
def card_words(c: int) -> str:
    """A card in words: ``Q of hearts``, ``red Joker``."""
    if c == RED_JOKER:
        return "red Joker"
    if c == BLACK_JOKER:
        return "black Joker"
    return f"{RANK_NAMES[RANK[c]]} of {SUIT_WORDS[SUIT[c]]}"


def winners(s: JediState) -> tuple[int, ...]:
    result = outcome(s)
    return result.winners if result is not None else ()


def _winner_text(s: JediState) -> str:
    names = [s.players[w] for w in winners(s)]
    if not names:
        return "no winner"
    return ("winner: " if len(names) == 1 else "winners: ") + words_and(names)


def whose_turn(s: JediState) -> str:
    """``turn 9: ann's turn; ann to attack ...``, ``setting up: ben to show ...``, or
    ``turn 30: game over, winner: ann``."""
    if s.phase == OVER:
        return f"turn {s.turns}: game over, {_winner_text(s)}"
    when = f"turn {s.turns}: {s.players[s.turn]}'s turn" if s.turn >= 0 else "setting up"
    if s.queue:
        return f"{when}; {s.players[s.queue[0]]} to {_ASKED.get(s.phase, 'act')}"
    return when


def _stance_words(s: JediState, seat: int) -> str:
    if s.stance_card[seat] == NO_CARD:
        return "no stance yet"
    return f"{AREA_NAMES[s.stance_area[seat]]} stance ({card_words(s.stance_card[seat])})"


def _known(cards) -> list[int | None]:
    return [c.value if c.known else None for c in cards]


def _hand_words(cards: list[int | None]) -> str:
    return ", ".join(card_words(c) if c is not None else "a face-down card" for c in cards)


def _deck_top(s: JediState, seat: int | None) -> int | None:
    """Revision 1: the deck's top card, when the viewer put it back (and so knows it)."""
    if seat is None or not s.deck or not s.deck[0].owned_by(seat) or not s.deck[0].known:
        return None
    return s.deck[0].value


def _sensed(s: JediState, seat: int | None) -> tuple[int, list[int | None]] | None:
    """Force Sense: (whose hand, its cards) when the viewer is the looker."""
    if seat is None or not s.peek or s.turn != seat:
        return None
    return s.peek[0], _known(s.peek[1])


def _attack_words(s: JediState) -> str | None:
    attack = _attack_json(s)
    return attack_words(attack) if attack else None


def description(s: JediState, seat: int | None) -> str:
    """The position in words (the picture's ``<desc>``)."""
    parts = [f"Jedi Duel, {whose_turn(s)}."]
    if s.phase == OVER and s.end_reason:
        parts.append(f"Game over: {s.end_reason}.")
    deck = f"Draw deck: {plural(len(s.deck), 'card')}, run out {s.passes} of {len(s.players)} times"
    top = _deck_top(s, seat)
    if top is not None:
        deck += f", top {card_words(top)} (put back by you)"
    parts.append(deck + ".")
    if s.discard:
        parts.append(
            f"Discard pile: {plural(len(s.discard), 'card')}, top {card_words(s.discard[-1])}."
        )
    else:
        parts.append("Discard pile: empty.")
    for i, name in enumerate(s.players):
        you = " (you)" if i == seat else ""
        if not s.alive(i):
            parts.append(f"{name}{you}: out of the duel.")
            continue
        text = (
            f"{name}{you}: fatigue {s.fatigue[i]} of {START_FATIGUE}, "
            f"{_stance_words(s, i)}, {plural(len(s.hands[i]), 'card')} in hand"
        )
        if i == seat and s.hands[i]:
            text += f" ({_hand_words(_known(s.hands[i]))})"
        if s.immune[i]:
            text += ", immune to Force Push/Pull"
        parts.append(text + ".")
    attack = _attack_words(s)
    if attack:
        parts.append(f"Attack: {attack}.")
    sensed = _sensed(s, seat)
    if sensed:
        parts.append(f"You sense {s.players[sensed[0]]}'s hand: {_hand_words(sensed[1])}.")
    return " ".join(parts)


# ---------------------------------------------------------------------------------- shapes
def _face(parent, x, y, c: int, *, w: int = CARD_W, h: int = CARD_H, cls: str = "") -> ET.Element:
    """A card face up: its suit's fill, rank and suit symbol large, the suit in words (and the
    Force power of a royal) below, and a ``<title>`` naming it."""
    if IS_JOKER[c]:
        kind, fill, ink = "joker", JOKER_FILL, INK
        lines = [("Joker", 14), ("red" if c == RED_JOKER else "black", 10)]
    else:
        suit = SUIT[c]
        kind, fill, ink = SUIT_WORDS[suit], SUIT_FILLS[suit], SUIT_INKS[suit]
        lines = [(pretty(c), 18), (SUIT_WORDS[suit], 10)]
        if RANK[c] in POWERS:
            lines.append((POWERS[RANK[c]], 10))
    group = element(parent, "g", {"class": f"card face {kind}" + (f" {cls}" if cls else "")})
    element(group, "title", {}, card_words(c))
    rect = {"x": x, "y": y, "width": w, "height": h, "rx": 5, "fill": fill, "stroke": INK}
    element(group, "rect", rect | {"stroke-width": 1.5})
    if IS_JOKER[c]:  # a shape apart from colour: a dashed inner frame
        inner = {"x": x + 4, "y": y + 4, "width": w - 8, "height": h - 8, "rx": 3}
        element(group, "rect", inner | {"fill": "none", "stroke": INK, "stroke-dasharray": "3 2"})
    gap = 4
    card_lines(group, x, y, w, h, lines, gap=gap, ink=ink)
    return group


def _slot(parent, x, y, text: str) -> None:
    """An empty place on the table, the size of a card: a dashed outline saying what is not
    there, one word a line."""
    empty_slot(parent, x, y, CARD_W, CARD_H, text.split(), rx=5, size=10, baseline=0)


def _fatigue_bar(parent, x, y, s: JediState, seat: int) -> None:
    """Fatigue: a bar of 21 points, what is left dark, ticks between the Playaid's columns,
    and the number in words beside it."""
    group = element(parent, "g", {"class": "fatigue"})
    fatigue = max(0, s.fatigue[seat])
    element(group, "title", {}, f"fatigue {fatigue} of {START_FATIGUE}")
    unit = 10
    track = {"x": x, "y": y, "width": unit * START_FATIGUE, "height": 16, "fill": TRACK_FILL}
    element(group, "rect", track | {"stroke": INK})
    if fatigue:
        element(
            group,
            "rect",
            {"x": x, "y": y, "width": unit * fatigue, "height": 16, "fill": FATIGUE_FILL},
        )
    for point in (7, 14):  # the columns 7-1, 14-8, 21-15
        tx = x + unit * point
        element(group, "path", {"d": f"M{tx} {y - 3}V{y + 19}", "stroke": INK, "stroke-width": 1})
    words = (
        f"fatigue {fatigue} of {START_FATIGUE} (column {_COLUMNS[column(fatigue)]})"
        if fatigue
        else "fatigue 0: out of the duel"
    )
    label(group, x, y + 32, words, size=12, cls="fatigue-text")


def _row_of_cards(parent, x, y, cards: list[int | None], marked: set[int]) -> int:
    """A hand: faces for the cards known, backs for the rest, each numbered by its position
    (as the commands count them), eight to a row.  Returns the y below it."""
    per_row = 8
    for k, c in enumerate(cards):
        cx = x + (k % per_row) * (CARD_W + 6)
        cy = y + (k // per_row) * (CARD_H + 22)
        if c is None:
            card_back(parent, cx, cy, CARD_W, CARD_H)
        else:
            _face(parent, cx, cy, c)
        mark = f"{k + 1}" + (" back?" if k in marked else "")
        label(parent, cx + CARD_W / 2, cy + CARD_H + 14, mark, size=11, anchor="middle")
    rows = max(1, -(-len(cards) // per_row))
    return y + rows * (CARD_H + 22) + 4


# ---------------------------------------------------------------------------------- picture
def svg(s: JediState, seat: int | None) -> str:
    """The table as a standalone SVG document."""
    title = f"Jedi Duel, {whose_turn(s)}"
    root = picture(title, description(s, seat))
    background = element(root, "rect", {"x": 0, "y": 0, "fill": PAPER, "class": "background"})

    x0 = MARGIN
    y = 30
    for k, part in enumerate(textwrap.wrap(title, 85)):
        label(root, x0, y, part, size=17, bold=True, cls="heading" if k == 0 else "")
        y += 22
    status = element(root, "g", {"class": "status"})
    notes = []
    if s.phase == OVER and s.end_reason:
        notes.append(f"Game over: {s.end_reason}")
    attack = _attack_words(s)
    if attack:
        notes.append(f"Attack: {attack}")
    for note in notes:
        for part in textwrap.wrap(note, 110):
            label(status, x0, y, part, size=13)
            y += 18

    # The middle of the table: the draw deck, the discard pile, the card of the attack.
    y += 6
    table = element(root, "g", {"class": "table"})
    top = y + 16
    label(table, x0, y + 4, "Draw deck", size=13, bold=True)
    deck = element(table, "g", {"class": "deck"})
    known_top = _deck_top(s, seat)
    if s.deck:
        for k in range(min(3, len(s.deck)) - 1, -1, -1):
            if k == 0 and known_top is not None:
                _face(deck, x0, top, known_top, cls="deck-top")
            else:
                card_back(deck, x0 + 3 * k, top + 3 * k, CARD_W, CARD_H, labelled=k == 0)
    else:
        _slot(deck, x0, top, "empty")
    label(deck, x0, top + CARD_H + 22, plural(len(s.deck), "card"), size=12)
    runs = f"run out {s.passes} of {len(s.players)} times"
    label(deck, x0, top + CARD_H + 38, runs, size=12)
    if known_top is not None:
        label(deck, x0, top + CARD_H + 54, "top put back by you", size=12)
    dx = x0 + 180
    label(table, dx, y + 4, "Discard pile", size=13, bold=True)
    pile = element(table, "g", {"class": "discard"})
    if s.discard:
        if len(s.discard) > 1:
            card_back(
                pile, dx + 4, top + 4, CARD_W, CARD_H, labelled=False
            )  # (the cards under it: only a count)
        _face(pile, dx, top, s.discard[-1], cls="discard-top")
        label(pile, dx, top + CARD_H + 22, plural(len(s.discard), "card"), size=12)
        top_words = f"top: {card_words(s.discard[-1])}"
        label(pile, dx, top + CARD_H + 38, top_words, size=12)
    else:
        _slot(pile, dx, top, "empty")
        label(pile, dx, top + CARD_H + 22, "0 cards", size=12)
    info = _attack_json(s)
    if info and info.get("card"):
        ax = dx + 180
        label(table, ax, y + 4, f"Attack by {info['attacker']}", size=13, bold=True)
        group = element(table, "g", {"class": "attack"})
        _face(group, ax, top, s.attack[1], cls="attack-card")
        if info["kind"] == "blow":
            words = [
                f"to the {info['area']} area",
                f"speed {info['speed']}",
                f"stance defence {info['defence']}",
            ]
        else:
            words = ["a Joker"]
        for k, word in enumerate(words):
            label(group, ax + CARD_W + 10, top + 16 + 16 * k, word, size=12)
    y = top + CARD_H + 66

    # The players.
    acting = s.queue[0] if s.queue and s.phase != OVER else -1
    won = set(winners(s)) if s.phase == OVER else set()
    sensed = _sensed(s, seat)
    for i, name in enumerate(s.players):
        group = element(root, "g", {"class": "player", "id": f"player-{i}"})
        element(group, "rect", {"x": 8, "y": y - 4, "width": WIDTH - 16, "height": 2, "fill": INK})
        y += 18
        head = name + (" (you)" if i == seat else "")
        if i == s.turn and s.phase != OVER:
            head += ", playing"
        if i == acting:
            head = "\u25b6 " + head + f" \u2014 to {_ASKED.get(s.phase, 'act')}"
        if i in won:
            head = "\u2605 " + head + " \u2014 winner"
        if not s.alive(i):
            head += " \u2014 out of the duel"
        label(group, x0, y, head, size=15, bold=True, cls="player-name")
        if s.immune[i]:
            immune = "immune to Force Push/Pull"
            label(group, WIDTH - MARGIN, y, immune, size=12, anchor="end", cls="immune")
        y += 10
        row = y
        # The stance.
        stance = element(group, "g", {"class": "stance"})
        label(stance, x0, row + 14, "Stance", size=12)
        if s.stance_card[i] != NO_CARD:
            _face(stance, x0, row + 20, s.stance_card[i], cls="stance-card")
            area = f"{AREA_NAMES[s.stance_area[i]]} stance"
            label(stance, x0, row + 20 + CARD_H + 14, area, size=12, cls="stance-area")
        else:
            _slot(stance, x0, row + 20, "no stance")
        # The fatigue.
        label(group, x0 + 100, row + 14, "Fatigue", size=12)
        _fatigue_bar(group, x0 + 100, row + 24, s, i)
        # The hand: faces for the cards this copy holds, backs for the rest.
        hx = x0 + 350
        hand = element(group, "g", {"class": "hand"})
        cards = _known(s.hands[i]) if i == seat else [None] * len(s.hands[i])
        label(hand, hx, row + 14, f"Hand: {plural(len(cards), 'card')}", size=12)
        returnable = set(s.returnable) if s.phase == RETURN and i == seat == s.turn else set()
        y = _row_of_cards(hand, hx, row + 20, cards, returnable)
        if returnable:
            words = "Low stance: put one of the cards marked 'back?' back on the deck"
            label(hand, hx, y, words, size=12)
            y += 16
        if sensed and sensed[0] == i:
            seen = element(group, "g", {"class": "sensed"})
            label(seen, hx, y + 10, f"You sense {name}'s hand (Force Sense):", size=12)
            y = _row_of_cards(seen, hx, y + 18, sensed[1], set())
        y += 6

    # The legend: every fill with its words.
    y += 10
    legend = element(root, "g", {"class": "legend"})
    label(legend, x0, y, "Legend", size=13, bold=True)
    y += 10
    entries = [
        (SUIT_FILLS[suit], f"{SUIT_SYMBOLS[suit]} {SUIT_WORDS[suit]}: {SUIT_ROLES[suit]}")
        for suit in (DIAMONDS, HEARTS, SPADES, CLUBS)
    ]
    entries.append((JOKER_FILL, "Joker (dashed frame)"))
    entries.append((None, "Card back (hidden or face down)"))
    entries.append((FATIGUE_FILL, "Fatigue left (dark bar; ticks between the columns)"))
    for k, (fill, words) in enumerate(entries):
        lx = x0 + (k % 2) * 440
        ly = y + (k // 2) * 30
        swatch = element(legend, "g", {"class": "legend-entry"})
        if fill is None:
            card_back(swatch, lx, ly, 24, 24, labelled=False)
        else:
            rect = {"x": lx, "y": ly, "width": 24, "height": 24, "rx": 3}
            element(swatch, "rect", rect | {"fill": fill, "stroke": INK})
            if fill == JOKER_FILL:
                inner = {"x": lx + 4, "y": ly + 4, "width": 16, "height": 16, "rx": 2}
                dashed = {"fill": "none", "stroke": INK, "stroke-dasharray": "3 2"}
                element(swatch, "rect", inner | dashed)
        label(swatch, lx + 32, ly + 17, words, size=12)
    y += 30 * ((len(entries) + 1) // 2) + 10

    height = int(y)
    root.set("width", str(WIDTH))
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {WIDTH} {height}")
    background.set("width", str(WIDTH))
    background.set("height", str(height))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"
