"""Star Wars Epic Duels as an SVG picture: the board drawing (``boardstate.geometry``) with each
character's token, initials and wound track, the die, and a side panel of the hands, piles and
the card in play; the words the text table says (``_render``) are its own.  Apart from the text
so that a text ``show`` imports no ``xml.etree`` and no styles (issue 29)."""

from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ET

from boardstate.geometry import Piece
from boardstate.geometry._render import svg_element
from boardstate.geometry._style import (
    PATTERNS,
    SIDE_COLOURS,
    SIDE_SHAPES,
    draw_token,
    terrain_styles,
)

from ._hand_svg import draw_hands, hand_words
from ._render import (
    _acting,
    _cell,
    _combat,
    _held,
    _name,
    _plural,
    _request,
    _resolving,
    _turn,
    _where,
    _winners,
    _wounds,
    side_name,
)
from ._state import DIE, DIE_NAMES, NOWHERE, OVER, EpicState

SVG_NS = "http://www.w3.org/2000/svg"
PIECE_COLOURS = {"light": ("#dbe9ff", "black"), "dark": ("#5c0a0a", "white")}
"""Fill and ink of each side's pieces (the light side and the first team a pale blue with black
letters, the dark side and the second team a dark red with white letters): apart in greyscale
too, a contrast ratio of 10 or more between the two fills and between each fill and its ink
(tests/test_epic_duels_render.py)."""
MINOR_SCALE = 0.75
"""A minor character's token against a main character's: smaller, as the pawns are."""
TERRAIN_FILLS = {"water": "#5b93c4", "mist": "#dde6f0"}
"""Fills the picture gives terrain in place of the boards' own: Kamino's water a middle blue
between its light floor and dark starship, the Throne Room's mist a pale blue above its grey
deck, so that the two never look alike, in greyscale either (each has its pattern too: waves,
dots).  Every pair of kinds on one board differs in relative luminance by a contrast ratio of
2 or more (tests/test_epic_duels_render.py)."""
CELL = 64
DIE_SIZE = 40  # side of the die face in the panel
BAR = 50  # width of a wound bar
PANEL = 350  # width of the SVG's side panel
WRAP = 42  # characters on a line of the panel


# ---------------------------------------------------------------------------------- picture
def _initials(name: str, pawn: int) -> str:
    """``Obi-Wan Kenobi`` -> ``OWK``, ``Clone Trooper`` pawn 2 -> ``CT2``; a one-word name keeps
    two letters (``Yoda`` -> ``Yo``, ``Stormtrooper`` pawn 1 -> ``St1``)."""
    words = [w for w in re.split(r"[\s-]+", name) if w]
    if pawn and words and words[-1] == str(pawn):
        words.pop()  # (the printed name ends in the pawn's number)
    letters = words[0][:2].title() if len(words) == 1 else "".join(w[0].upper() for w in words)
    return letters + (str(pawn) if pawn else "")


def token_labels(s: EpicState) -> tuple[str, ...]:
    """Per character, the letters on its token: the initials of its printed name (and its
    pawn's number), unless two characters of the game would share them: then its short name."""
    chars = s.roster.chars
    labels = [_initials(c.name, c.pawn) for c in chars]
    return tuple(label if labels.count(label) == 1 else c.short for label, c in zip(labels, chars))


def _plain(root: ET.Element) -> ET.Element:
    """The board's drawing with its ``xmlns`` written last among the root's attributes, where
    the drawing read back from its text had it (the picture's bytes as they were)."""
    del root.attrib["xmlns"]
    root.set("xmlns", SVG_NS)
    return root


def _sides(s: EpicState) -> tuple[str, ...]:
    """Per seat, the side its pieces are coloured by: light and dark in the duel, the team in
    team games, the player in a free-for-all."""
    return tuple(side_name(s, p).removesuffix(" side") or s.players[p] for p in s.seats)


def _looks(s: EpicState) -> tuple[dict, dict]:
    """(side -> (fill, ink), side -> shape) of the pieces: the first two sides (light and dark
    in the duel, the two teams) pale blue and dark red discs (``PIECE_COLOURS``); any further
    sides of a free-for-all other colours and other shapes (a square, a diamond, ...)."""
    firsts = list(dict.fromkeys(_sides(s)))
    colours = {
        side: PIECE_COLOURS.get(side.split()[0], PIECE_COLOURS[("light", "dark")[i]])
        for i, side in enumerate(firsts[:2])
    }
    colours.update((side, (fill, "white")) for side, fill in zip(firsts[2:], SIDE_COLOURS[2:]))
    shapes = {side: "circle" for side in firsts[:2]}
    shapes.update(zip(firsts[2:], SIDE_SHAPES[1:]))
    return colours, shapes


def _die_words(s: EpicState) -> str:
    """``3-ALL: every character moves up to 3 squares``."""
    squares, every = DIE[s.die]
    who = "every character" if every else "one character"
    return f"{DIE_NAMES[s.die]}: {who} moves up to {squares} squares"


def _wound_words(s: EpicState, char: int) -> str:
    """``12 of 17 wound points left``, or ``destroyed``."""
    hp = s.roster.chars[char].hp
    if not s.alive(char):
        return "destroyed"
    return f"{max(0, hp - s.damage[char])} of {hp} wound points left"


def _title(s: EpicState) -> str:
    """The picture's title: ``Kamino Platform, turn 4: ann's turn``."""
    if s.phase == OVER:
        return f"{s.roster.board.title}, turn {s.turns}: game over, {_winners(s)}"
    return f"{s.roster.board.title}, {_turn(s).split(' (', 1)[0]}"


def _describe(s: EpicState, seat) -> str:
    """The position in words (the picture's ``<desc>``): what the picture shows, nothing more."""
    rs = s.roster
    text = [_title(s) + "."]
    if s.phase == OVER:
        text.append(f"The game ended: {s.end_reason}.")
    if s.die >= 0:
        actions = "" if s.phase == OVER else f"; {_plural(s.actions, 'action')} left"
        text.append(f"Last die roll {_die_words(s)}{actions}.")
    if _acting(s):
        text.append(_acting(s)[0].upper() + _acting(s)[1:] + ".")
    for i, c in enumerate(rs.chars):
        where = _where(s, i)
        if where is None:
            place = "destroyed" if not s.alive(i) else "not placed yet"
        else:
            place = f"on {where}, {_wound_words(s, i)}"
        held = f", {_held(s, i)}" if _held(s, i) else ""
        whose = ", ".join(x for x in (c.short, _name(s, c.seat), side_name(s, c.seat)) if x)
        text.append(f"{c.name} ({whose}): {place}{held}.")
    for p in s.seats:
        groups = rs.groups_of(p)
        you = " (you)" if p == seat else ""
        out = ", out of the game" if s.out[p] else ""
        hand = f" ({hand_words(s, seat, p)})" if s.hands[p] else ""
        text.append(
            f"{s.players[p]}{you}: {_plural(len(s.hands[p]), 'card')} in hand{hand}, "
            f"{sum(len(s.piles[g]) for g in groups)} in the draw pile, "
            f"{sum(len(s.discards[g]) for g in groups)} discarded{out}."
        )
    combat = _combat(s)
    if combat:
        text.append(
            f"Combat: {combat['attacker']} attacks {combat['defender']}; attack card: "
            f"{combat['attack']}; defence card: {combat['defence']}."
        )
    frame = _resolving(s)
    if frame:
        text.append(f"Resolving: {frame['card']} ({frame['player']}).")
    if _request(s):
        text.append(f"Asked: {_request(s)}.")
    styles = terrain_styles(rs.board, fills=TERRAIN_FILLS)
    kinds = "; ".join(
        f"{t.name} ({_blocks(t)}, {PATTERNS[styles[t.name].pattern]})"
        for t in dict.fromkeys(rs.board.terrain)
    )
    text.append(f"Terrain: {kinds}.")
    return " ".join(text)


def _blocks(terrain) -> str:
    return f"blocks {' and '.join(terrain.blocks)}" if terrain.blocks else "open"


def _die_face(parent: ET.Element, s: EpicState, x: int, y: int, size: int) -> None:
    """The die as rolled: a white face with its number (and ALL) as text."""
    squares, every = DIE[s.die]
    face = ET.SubElement(parent, "g", {"class": "die-face"})
    ET.SubElement(face, "title").text = f"die: {DIE_NAMES[s.die]}"
    ET.SubElement(
        face,
        "rect",
        {
            "x": str(x),
            "y": str(y),
            "width": str(size),
            "height": str(size),
            "rx": str(size // 6),
            "fill": "white",
            "stroke": "black",
            "stroke-width": "2",
        },
    )
    middle = x + size // 2
    ET.SubElement(
        face,
        "text",
        {
            "x": str(middle),
            "y": str(y + (size * 11 // 20 if every else size * 7 // 10)),
            "text-anchor": "middle",
            "font-size": str(size // 2),
            "font-weight": "bold",
            "class": "die-number",
        },
    ).text = str(squares)
    if every:
        ET.SubElement(
            face,
            "text",
            {
                "x": str(middle),
                "y": str(y + size * 17 // 20),
                "text-anchor": "middle",
                "font-size": str(size // 4),
                "font-weight": "bold",
                "class": "die-all",
            },
        ).text = "ALL"


def _wound_bar(parent: ET.Element, x: int, y: int, left: int, full: int, words: str) -> None:
    """Wound points left as a bar: the part left dark on a light track, a tick per point."""
    bar = ET.SubElement(parent, "g", {"class": "wound-bar"})
    ET.SubElement(bar, "title").text = words
    width, height = BAR, 10
    ET.SubElement(
        bar,
        "rect",
        {
            "x": str(x),
            "y": str(y),
            "width": str(width),
            "height": str(height),
            "fill": "#e6e6e6",
            "stroke": "#333333",
        },
    )
    if left > 0:
        ET.SubElement(
            bar,
            "rect",
            {
                "x": str(x),
                "y": str(y),
                "width": str(round(width * left / full)),
                "height": str(height),
                "fill": "#444444",
                "class": "left",
            },
        )


def _hp_left(s: EpicState, char: int) -> int:
    return max(0, s.roster.chars[char].hp - s.damage[char]) if s.alive(char) else 0


def svg(s: EpicState, seat) -> str:
    """The table as an SVG picture: the board with the pieces (a token per character in its
    side's colour and shape, its initials, wounds left as numbers and as a track under it, a
    minor's token smaller), its terrain legend, and a panel with whose turn, the die as rolled,
    every character's wounds (as text and a bar), the piles and the end; under them the hands
    (the viewer's own face up).  Its ``<title>`` and ``<desc>`` say the position in words."""
    rs = s.roster
    board = rs.board
    sides = _sides(s)
    colours, shapes = _looks(s)
    labels = token_labels(s)
    pieces = {}
    for i, c in enumerate(rs.chars):
        if s.square[i] != NOWHERE:
            pieces[_cell(s, s.square[i])] = Piece(
                labels[i],
                sides[c.seat],
                _wounds(s, i),
                "held" if s.held[i] > 0 else "",  # a held character: a dashed ring round it
                name=c.short,
                scale=1.0 if c.main else MINOR_SCALE,
                track=(_hp_left(s, i), c.hp),
            )
    drawing = svg_element(
        board,
        pieces,
        cell_size=CELL,
        labels="chess",
        colours=colours,
        shapes=shapes,
        fills=TERRAIN_FILLS,
        named=False,  # (as the text map: the mains stand on their squares from the first record)
        patterns=None,
        legend=True,
    )
    root = _plain(drawing)
    root.find("title").text = _title(s)
    root.find("desc").text = _describe(s, seat)
    board_width, board_height = int(root.get("width")), int(root.get("height"))

    panel = ET.Element("g", {"class": "panel", "font-size": "13"})
    x = board_width + 8
    y = 28
    step = 18

    def line(text: str, *, bold: bool = False, indent: int = 0, cls: str = "") -> None:
        nonlocal y
        for i, part in enumerate(textwrap.wrap(text, WRAP - indent // 7) or [""]):
            attributes = {"x": str(x + indent + (12 if i else 0)), "y": str(y)}
            if bold:
                attributes["font-weight"] = "bold"
            if cls:
                attributes["class"] = cls
            ET.SubElement(panel, "text", attributes).text = part
            y += step

    if s.phase == OVER:
        line(f"Turn {s.turns}: game over, {_winners(s)}", bold=True, cls="outcome")
        line(s.end_reason, cls="outcome")
    else:
        turn = _turn(s).split(" (", 1)[0]
        line(turn[0].upper() + turn[1:], bold=True, cls="turn")
    if s.die >= 0:
        top = y - 12
        _die_face(panel, s, x, top, DIE_SIZE)
        x += DIE_SIZE + 10
        line(f"{'Last roll' if s.phase == OVER else 'Die'}: {DIE_NAMES[s.die]}", cls="die")
        squares, every = DIE[s.die]
        line(f"{'every character' if every else 'one character'} moves up to {squares}", cls="die")
        if s.phase != OVER:
            line(f"{_plural(s.actions, 'action')} left", cls="die")
        x -= DIE_SIZE + 10
        y = max(y, top + DIE_SIZE + 4 + step)
    if _acting(s):
        line(_acting(s)[0].upper() + _acting(s)[1:], cls="to-act")
    y += step // 2
    line("Characters (wounds left)", bold=True)
    for i, c in enumerate(rs.chars):
        size = 6 if c.main else 6 * MINOR_SCALE
        draw_token(panel, shapes[sides[c.seat]], x + 6, y - 4, size, colours[sides[c.seat]][0])
        ET.SubElement(
            panel,
            "text",
            {"x": str(x + 16), "y": str(y), "font-weight": "bold", "class": "token-label"},
        ).text = labels[i]
        where = _where(s, i)
        text = f"{c.short} ({_name(s, c.seat)})" + (f" {where}" if where else "")
        ET.SubElement(
            panel, "text", {"x": str(x + 54), "y": str(y), "class": "character"}
        ).text = text
        bar_x = x + 200
        _wound_bar(panel, bar_x, y - 10, _hp_left(s, i), c.hp, _wound_words(s, i))
        ET.SubElement(
            panel, "text", {"x": str(bar_x + BAR + 6), "y": str(y), "class": "wounds"}
        ).text = _wounds(s, i)
        y += step
        if _held(s, i):
            line(f"{_held(s, i)} (dashed ring)", indent=16, cls="held")
    y += step // 2
    for p in s.seats:
        groups = rs.groups_of(p)
        discards = sum(len(s.discards[g]) for g in groups)
        pile = sum(len(s.piles[g]) for g in groups)
        you = " (you)" if p == seat else ""
        out = ", out" if s.out[p] else ""
        line(
            f"{s.players[p]}{you}: hand {len(s.hands[p])}, pile {pile}, discards {discards}{out}",
            cls="player",
        )
    combat = _combat(s)
    if combat:
        attacker, defender = (rs.chars[k].short for k in s.combat[:2])
        line(f"Combat: {attacker} attacks {defender}", cls="combat")
        line(f"attack card: {combat['attack']}", indent=16, cls="combat")
        line(f"defence card: {combat['defence']}", indent=16, cls="combat")
    frame = _resolving(s)
    if frame:
        line(f"Resolving: {frame['card']} ({frame['player']})", cls="resolving")
    if _request(s):
        line(f"Asked: {_request(s)}", cls="request")

    width = board_width + PANEL
    height = draw_hands(panel, s, seat, max(board_height, y), width)
    root.set("width", str(width))
    root.set("height", str(height))
    root.set("viewBox", f"0 0 {width} {height}")
    background = root.find("rect")
    if background is not None:
        background.set("width", str(width))
        background.set("height", str(height))
    root.append(panel)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode") + "\n"
