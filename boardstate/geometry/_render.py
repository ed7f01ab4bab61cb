"""Drawings of a board, as SVG text and as plain text, from the same cells and terrain.

Both are pure functions of a board and optional pieces; nothing is written to
disk here. SVG is built with xml.etree so every label is escaped.

The SVG is meant to be read without colour too: every terrain kind of a board has its own fill
pattern (defined in the drawing's ``<defs>``) besides its colour, the legend names each kind
next to its swatch, pieces of different sides differ in shape unless their fills differ in
lightness, and the drawing says in words (``<title>``, ``<desc>``) what it shows.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

import attrs

from .._errors import BoardstateError
from ._board import Board, Terrain
from ._grid import Cell

SIDE_COLOURS = ("#1f5fbf", "#b3261e", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")
"""Piece colours, given to sides in sorted order of their names."""

SIDE_SHAPES = ("circle", "square", "diamond", "hexagon", "octagon", "triangle")
"""Piece shapes, given to sides in sorted order of their names (``shapes`` chooses others):
the sides stay apart where their colours look alike (in greyscale, to colour-blind eyes)."""

PATTERNS = {
    "plain": "plain",
    "crosshatch": "cross-hatched",
    "hatch": "hatched",
    "dots": "dotted",
    "waves": "wavy lines",
    "grid": "grid lines",
    "zigzag": "zigzag lines",
    "rings": "rings",
    "vertical": "vertical lines",
    "horizontal": "horizontal lines",
    "checks": "checked",
    "symbol": "marked with its map symbol",
}
"""Fill patterns of terrain, with the words the legend and the description use for them.
``plain`` is the colour alone; ``symbol`` repeats the terrain's map symbol (the last resort,
unique on every board)."""

_NAMED_PATTERNS = {
    "floor": "plain",
    "ground": "plain",
    "grass": "plain",
    "sand": "plain",
    "obstacle": "crosshatch",
    "wall": "crosshatch",
    "rock": "crosshatch",
    "pillar": "crosshatch",
    "water": "waves",
    "ocean": "waves",
    "sea": "waves",
    "river": "waves",
    "lake": "waves",
    "mist": "dots",
    "fog": "dots",
    "smoke": "dots",
    "cloud": "dots",
    "pit": "hatch",
    "chasm": "hatch",
    "lava": "zigzag",
    "fire": "zigzag",
    "forest": "rings",
    "trees": "rings",
    "bush": "rings",
}
"""Usual terrain names and their patterns (water waves, mist dots), so that a kind looks the same
on every board and mist never looks like water; other names go by what the terrain blocks."""

_BLOCKING_PATTERNS = {
    (False, False): "plain",
    (True, True): "crosshatch",
    (True, False): "hatch",
    (False, True): "dots",
}

_DEFAULT_FILLS = {
    (False, False): "#eeeeee",
    (True, False): "#6fa8dc",
    (False, True): "#bbbbbb",
    (True, True): "#555555",
}
_NAMED_COLOURS = {
    "white": "#ffffff",
    "black": "#000000",
    "gray": "#808080",
    "grey": "#808080",
    "silver": "#c0c0c0",
    "red": "#ff0000",
    "green": "#008000",
    "blue": "#0000ff",
    "yellow": "#ffff00",
    "navy": "#000080",
}
_DARK_INK, _LIGHT_INK = "#1a1a1a", "#f2f2f2"
_PIECE_MARKS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


LABELS = ("numbers", "chess")
"""Axis label styles: ``numbers`` (columns and rows from 0 at the top left, as cells are
written) or ``chess`` (columns a, b, c... from the left, rows 1, 2, 3... from the bottom)."""


@attrs.frozen
class Piece:
    """Something drawn on a cell: a short label, the side it belongs to, an optional note (a
    second, smaller line in SVG, e.g. wounds left; after the piece in the text legend), and an
    optional ring: a dashed ring round the piece in SVG, with ``ring`` as its class (e.g.
    ``held``)."""

    label: str
    side: str = ""
    note: str = ""
    ring: str = ""


@attrs.frozen
class TerrainStyle:
    """How a terrain kind is drawn: its fill colour, its pattern (a key of ``PATTERNS``), the
    ink of the pattern's marks, and the id of the ``<pattern>`` (empty for ``plain``)."""

    fill: str
    pattern: str
    ink: str
    id: str = ""

    @property
    def paint(self) -> str:
        """The ``fill`` attribute of a cell of this kind."""
        return f"url(#{self.id})" if self.id else self.fill


def _column_name(col: int) -> str:
    """A column's chess-style name: a-z from the left, then aa, ab, ... (as spreadsheets)."""
    name = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        name = chr(ord("a") + rest) + name
    return name


def _square_label(board: Board, cell: Cell, labels: str = "numbers") -> str:
    """How the drawings name ``cell``: ``(col, row)``, or chess-style (``a1`` bottom left)."""
    _check_labels(labels)
    if labels == "chess":
        return f"{_column_name(cell[0])}{board.height - cell[1]}"
    return f"({cell[0]}, {cell[1]})"


def _check_labels(labels: str) -> None:
    if labels not in LABELS:
        raise BoardstateError(
            f"axis labels must be one of {', '.join(LABELS)}, not {labels!r}", code="bad-option"
        )


def _axis(board: Board, labels: str) -> tuple[list[str], list[str]]:
    """The column and row labels, left to right and top to bottom."""
    if labels == "chess":
        columns = [_column_name(col) for col in range(board.width)]
        return columns, [str(board.height - row) for row in range(board.height)]
    return [str(col) for col in range(board.width)], [str(row) for row in range(board.height)]


def _fill(terrain: Terrain) -> str:
    return terrain.fill or _DEFAULT_FILLS[(terrain.blocks_movement, terrain.blocks_sight)]


def relative_luminance(colour: str) -> float | None:
    """The WCAG relative luminance (0 black to 1 white) of ``#rgb``, ``#rrggbb`` or a few colour
    names; None for anything else."""
    text = _NAMED_COLOURS.get(colour.strip().lower(), colour.strip())
    if re.fullmatch(r"#[0-9a-fA-F]{3}", text):
        text = "#" + "".join(c * 2 for c in text[1:])
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        return None

    def linear(channel: str) -> float:
        c = int(channel, 16) / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(text[i : i + 2]) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(fill: str) -> str:
    """Marks drawn on ``fill``: dark on light colours, light on dark ones."""
    luminance = relative_luminance(fill)
    return _LIGHT_INK if luminance is not None and luminance < 0.18 else _DARK_INK


def _wanted(terrain: Terrain) -> list[str]:
    """The patterns a terrain kind would take, best first: by its name, by what it blocks (only
    open ground is plain), then any."""
    words = re.split(r"[^a-z]+", terrain.name.lower())
    by_name = [_NAMED_PATTERNS[w] for w in words if w in _NAMED_PATTERNS]
    open_ground = not (terrain.blocks_movement or terrain.blocks_sight)
    by_blocking = _BLOCKING_PATTERNS[(terrain.blocks_movement, terrain.blocks_sight)]
    rest = [p for p in PATTERNS if p not in ("plain", "symbol")]
    return [p for p in [*by_name, by_blocking, *rest, "symbol"] if p != "plain" or open_ground]


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "kind"


def terrain_styles(
    board: Board,
    *,
    fills: Mapping[str, str] | None = None,
    patterns: Mapping[str, str] | None = None,
) -> dict[str, TerrainStyle]:
    """Per terrain kind of ``board`` (in the order they first appear), how it is drawn.

    ``fills`` and ``patterns`` (terrain name -> colour / key of ``PATTERNS``) choose for some
    kinds; the rest keep the board's fill and take a pattern by name (water waves, mist dots,
    obstacles cross-hatched), else by what they block, never one that another kind of the
    board has.
    """
    fills, patterns = fills or {}, patterns or {}
    for name, pattern in patterns.items():
        if pattern not in PATTERNS:
            raise BoardstateError(
                f"terrain {name!r}: pattern must be one of {', '.join(PATTERNS)}, not {pattern!r}",
                code="bad-option",
            )
    kinds = list(dict.fromkeys(board.terrain))
    chosen = {t.name: patterns[t.name] for t in kinds if t.name in patterns}
    used = set(chosen.values())
    for terrain in kinds:
        if terrain.name not in chosen:
            # ('symbol' shows the kind's own map symbol: it may serve any number of kinds)
            chosen[terrain.name] = next(
                p for p in _wanted(terrain) if p not in used or p == "symbol"
            )
            used.add(chosen[terrain.name])
    styles, ids = {}, set()
    for terrain in kinds:
        fill = fills.get(terrain.name) or _fill(terrain)
        pattern = chosen[terrain.name]
        pattern_id = ""
        if pattern != "plain":
            pattern_id = f"terrain-{_slug(terrain.name)}"
            while pattern_id in ids:
                pattern_id += "-"
            ids.add(pattern_id)
        styles[terrain.name] = TerrainStyle(fill, pattern, _ink(fill), pattern_id)
    return styles


def _n(value: float) -> str:
    """A coordinate as SVG text: at most two decimals, no trailing zeros."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _define_pattern(defs: ET.Element, style: TerrainStyle, symbol: str, tile: int) -> None:
    """A ``<pattern>`` of ``style``: its fill under its marks, one ``tile`` square repeated."""
    t = tile * 2 if style.pattern == "symbol" else tile
    pattern = ET.SubElement(
        defs,
        "pattern",
        {
            "id": style.id,
            "class": f"pattern-{style.pattern}",
            "patternUnits": "userSpaceOnUse",
            "width": str(t),
            "height": str(t),
        },
    )
    ET.SubElement(pattern, "rect", {"width": str(t), "height": str(t), "fill": style.fill})
    ink = style.ink
    line = {"fill": "none", "stroke": ink, "stroke-width": _n(max(1.0, t / 10))}
    q = t / 4

    def path(d: str) -> None:
        ET.SubElement(pattern, "path", {"d": d, **line})

    rising = f"M0,{t} L{t},0 M{_n(-q)},{_n(q)} L{_n(q)},{_n(-q)} M{_n(t - q)},{_n(t + q)} L{_n(t + q)},{_n(t - q)}"
    falling = f"M0,0 L{t},{t} M{_n(t - q)},{_n(-q)} L{_n(t + q)},{_n(q)} M{_n(-q)},{_n(t - q)} L{_n(q)},{_n(t + q)}"
    kind = style.pattern
    if kind == "crosshatch":
        path(f"{rising} {falling}")
    elif kind == "hatch":
        path(rising)
    elif kind == "dots":
        for cx, cy in ((t / 2, t / 2), (0, 0), (t, 0), (0, t), (t, t)):
            ET.SubElement(
                pattern, "circle", {"cx": _n(cx), "cy": _n(cy), "r": _n(t / 8), "fill": ink}
            )
    elif kind == "waves":
        path(f"M0,{_n(t / 2)} Q{_n(q)},{_n(t / 5)} {_n(t / 2)},{_n(t / 2)} T{t},{_n(t / 2)}")
    elif kind == "grid":
        path(f"M0,{_n(t / 2)} H{t} M{_n(t / 2)},0 V{t}")
    elif kind == "zigzag":
        path(f"M0,{_n(t * 0.7)} L{_n(t / 2)},{_n(t * 0.3)} L{t},{_n(t * 0.7)}")
    elif kind == "rings":
        ET.SubElement(pattern, "circle", {"cx": _n(t / 2), "cy": _n(t / 2), "r": _n(q), **line})
    elif kind == "vertical":
        path(f"M{_n(t / 2)},0 V{t}")
    elif kind == "horizontal":
        path(f"M0,{_n(t / 2)} H{t}")
    elif kind == "checks":
        for x in (0, t / 2):
            ET.SubElement(
                pattern,
                "rect",
                {"x": _n(x), "y": _n(x), "width": _n(t / 2), "height": _n(t / 2), "fill": ink},
            )
    elif kind == "symbol":
        ET.SubElement(
            pattern,
            "text",
            {
                "x": _n(t / 2),
                "y": _n(t * 0.68),
                "text-anchor": "middle",
                "font-size": _n(t * 0.5),
                "fill": ink,
            },
        ).text = symbol


def _side_colours(
    pieces: Mapping[Cell, Piece], chosen: Mapping[str, tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    sides = sorted({piece.side for piece in pieces.values()})
    return {
        side: chosen.get(side) or (SIDE_COLOURS[i % len(SIDE_COLOURS)], "white")
        for i, side in enumerate(sides)
    }


def _side_shapes(pieces: Mapping[Cell, Piece], chosen: Mapping[str, str]) -> dict[str, str]:
    for side, shape in chosen.items():
        if shape not in SIDE_SHAPES:
            raise BoardstateError(
                f"side {side!r}: shape must be one of {', '.join(SIDE_SHAPES)}, not {shape!r}",
                code="bad-option",
            )
    sides = sorted({piece.side for piece in pieces.values()})
    return {
        side: chosen.get(side) or SIDE_SHAPES[i % len(SIDE_SHAPES)] for i, side in enumerate(sides)
    }


def draw_token(
    parent: ET.Element, shape: str, cx: float, cy: float, r: float, fill: str, **attributes: str
) -> ET.Element:
    """A piece's token (class ``token``): a ``SIDE_SHAPES`` shape of about radius ``r``."""
    common = {"fill": fill, "stroke": "black", "class": "token", **attributes}
    if shape == "circle":
        return ET.SubElement(parent, "circle", {"cx": _n(cx), "cy": _n(cy), "r": _n(r), **common})
    if shape == "square":
        half = r * 0.9
        return ET.SubElement(
            parent,
            "rect",
            {
                "x": _n(cx - half),
                "y": _n(cy - half),
                "width": _n(2 * half),
                "height": _n(2 * half),
                **common,
            },
        )
    corners, radius, turn = {
        "diamond": (4, r * 1.2, -90),
        "hexagon": (6, r * 1.05, 0),
        "octagon": (8, r * 1.02, 22.5),
        "triangle": (3, r * 1.35, -90),
    }[shape]
    if shape == "triangle":
        cy += r * 0.3  # the label sits in the wide part
    points = " ".join(
        f"{_n(cx + radius * math.cos(math.radians(turn + i * 360 / corners)))},"
        f"{_n(cy + radius * math.sin(math.radians(turn + i * 360 / corners)))}"
        for i in range(corners)
    )
    return ET.SubElement(parent, "polygon", {"points": points, **common})


def _blocks_text(terrain: Terrain) -> str:
    return f"blocks {' and '.join(terrain.blocks)}" if terrain.blocks else "open"


def _description(
    board: Board,
    styles: Mapping[str, TerrainStyle],
    pieces: Mapping[Cell, Piece],
    labels: str,
) -> str:
    """The drawing in words (its ``<desc>``)."""
    if labels == "chess":
        axes = (
            f"columns a to {_column_name(board.width - 1)} from the left, "
            f"rows 1 to {board.height} from the bottom"
        )
    else:
        axes = "squares named (column, row) from (0, 0) at the top left"
    counts = {name: 0 for name in styles}
    for terrain in board.terrain:
        counts[terrain.name] += 1
    kinds = "; ".join(
        f"{t.name}, {_blocks_text(t)}, {PATTERNS[styles[t.name].pattern]}, "
        f"{counts[t.name]} square{'' if counts[t.name] == 1 else 's'}"
        for t in dict.fromkeys(board.terrain)
    )
    text = [f"{board.title}: {board.width} columns by {board.height} rows, {axes}."]
    text.append(f"Terrain: {kinds}.")
    if board.named:
        named = ", ".join(
            f"{square.name} at {_square_label(board, square.cell, labels)}"
            for square in board.named
        )
        text.append(f"Named squares: {named}.")
    if pieces:
        drawn = "; ".join(
            _piece_words(board, cell, pieces[cell], labels)
            for cell in sorted(pieces, key=lambda c: (c[1], c[0]))
        )
        text.append(f"Pieces: {drawn}.")
    else:
        text.append("No pieces.")
    return " ".join(text)


def _piece_words(board: Board, cell: Cell, piece: Piece, labels: str) -> str:
    side = f" ({piece.side})" if piece.side else ""
    note = f": {piece.note}" if piece.note else ""
    ring = f", {piece.ring}" if piece.ring else ""
    return f"{piece.label}{side} at {_square_label(board, cell, labels)}{note}{ring}"


def render_svg(
    board: Board,
    pieces: Mapping[Cell, Piece] | None = None,
    *,
    cell_size: int = 60,
    labels: str = "numbers",
    colours: Mapping[str, tuple[str, str]] | None = None,
    shapes: Mapping[str, str] | None = None,
    fills: Mapping[str, str] | None = None,
    patterns: Mapping[str, str] | None = None,
    legend: bool = True,
) -> str:
    """The board as a standalone SVG document: terrain, grid, named squares, pieces, coordinates,
    and (``legend``) a legend of the terrain kinds and the sides under the board.

    ``labels``: ``"numbers"`` (cell coordinates) or ``"chess"`` (a-j from the left, 1-7 from the
    bottom); ``colours``: side -> (fill, ink) of its pieces (other sides: ``SIDE_COLOURS``, white);
    ``shapes``: side -> one of ``SIDE_SHAPES`` (other sides: by sorted name); ``fills`` and
    ``patterns``: terrain name -> its colour / pattern (see :func:`terrain_styles`).
    """
    _check_labels(labels)
    pieces = pieces or {}
    column_labels, row_labels = _axis(board, labels)
    styles = terrain_styles(board, fills=fills, patterns=patterns)
    side_colours = _side_colours(pieces, colours or {})
    side_shapes = _side_shapes(pieces, shapes or {})
    margin = cell_size // 2
    row_step = max(14, cell_size // 3)
    legend_rows = len(styles) + len(side_colours) if legend else 0
    width = board.width * cell_size + 2 * margin
    height = board.height * cell_size + 3 * margin
    legend_top = board.height * cell_size + 2 * margin + 4  # under the column labels
    if legend_rows:
        height = legend_top + legend_rows * row_step + margin // 2
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "font-family": "sans-serif",
            "role": "img",
            "aria-labelledby": "drawing-title drawing-desc",
        },
    )
    ET.SubElement(svg, "title", {"id": "drawing-title"}).text = board.title
    ET.SubElement(svg, "desc", {"id": "drawing-desc"}).text = _description(
        board, styles, pieces, labels
    )
    defs = ET.SubElement(svg, "defs")
    tile = max(4, cell_size // 4)
    symbols = {t.name: t.symbol for t in board.terrain}
    for name, style in styles.items():
        if style.id:
            _define_pattern(defs, style, symbols[name], tile)
    ET.SubElement(svg, "rect", {"width": str(width), "height": str(height), "fill": "white"})
    ET.SubElement(
        svg,
        "text",
        {
            "x": str(width // 2),
            "y": str(margin - 6),
            "text-anchor": "middle",
            "font-size": str(margin * 2 // 3),
        },
    ).text = board.title
    top = margin

    def corner(cell: Cell) -> tuple[int, int]:
        return margin + cell[0] * cell_size, top + cell[1] * cell_size

    for col in range(board.width):
        ET.SubElement(
            svg,
            "text",
            {
                "x": str(margin + col * cell_size + cell_size // 2),
                "y": str(top + board.height * cell_size + margin * 2 // 3),
                "text-anchor": "middle",
                "font-size": str(margin // 2),
            },
        ).text = column_labels[col]
    for row in range(board.height):
        ET.SubElement(
            svg,
            "text",
            {
                "x": str(margin // 2),
                "y": str(top + row * cell_size + cell_size // 2 + margin // 6),
                "text-anchor": "middle",
                "font-size": str(margin // 2),
            },
        ).text = row_labels[row]
    cells = ET.SubElement(svg, "g", {"class": "cells"})
    for cell, terrain in zip(board.cells, board.terrain):
        x, y = corner(cell)
        ET.SubElement(
            cells,
            "rect",
            {
                "x": str(x),
                "y": str(y),
                "width": str(cell_size),
                "height": str(cell_size),
                "fill": styles[terrain.name].paint,
                "stroke": "#333333",
                "stroke-width": "1",
                "class": f"terrain {terrain.name}",
                "data-cell": f"{cell[0]},{cell[1]}",
            },
        )
    names = ET.SubElement(svg, "g", {"class": "named-squares"})
    for square in board.named:
        x, y = corner(square.cell)
        ET.SubElement(
            names,
            "text",
            {
                "x": str(x + cell_size // 2),
                "y": str(y + cell_size // 5),
                "text-anchor": "middle",
                "font-size": str(cell_size // 6),
                "fill": "#222222",
            },
        ).text = square.name
    tokens = ET.SubElement(svg, "g", {"class": "pieces"})
    radius = cell_size * 3 // 10
    for cell, piece in pieces.items():
        x, y = corner(cell)
        fill, ink = side_colours[piece.side]
        lift = cell_size // 12 if piece.note else 0
        group = ET.SubElement(
            tokens, "g", {"class": f"piece side-{piece.side}" if piece.side else "piece"}
        )
        ET.SubElement(group, "title").text = _piece_words(board, cell, piece, labels)
        cx, cy = x + cell_size // 2, y + cell_size * 3 // 5
        shape = side_shapes[piece.side]
        draw_token(group, shape, cx, cy, radius, fill)
        ET.SubElement(
            group,
            "text",
            {
                "x": str(cx),
                "y": str(cy + cell_size // 18 - lift),
                "text-anchor": "middle",
                "font-size": str(cell_size // 6),
                "fill": ink,
            },
        ).text = piece.label
        if piece.note:
            ET.SubElement(
                group,
                "text",
                {
                    "x": str(cx),
                    "y": str(cy + cell_size // 18 + cell_size // 7),
                    "text-anchor": "middle",
                    "font-size": str(cell_size // 8),
                    "fill": ink,
                    "class": "note",
                },
            ).text = piece.note
        if piece.ring:
            ET.SubElement(
                group,
                "circle",
                {
                    "cx": str(cx),
                    "cy": str(cy),
                    "r": _n(radius + 4 if shape == "circle" else radius * 1.3 + 3),
                    "fill": "none",
                    "stroke": "black",
                    "stroke-width": "2",
                    "stroke-dasharray": "4 3",
                    "class": piece.ring,
                },
            )
    if legend_rows:
        key = ET.SubElement(svg, "g", {"class": "legend", "font-size": str(margin // 2)})
        y = legend_top
        box = row_step - 4
        for terrain in dict.fromkeys(board.terrain):
            style = styles[terrain.name]
            ET.SubElement(
                key,
                "rect",
                {
                    "x": str(margin),
                    "y": str(y),
                    "width": str(box),
                    "height": str(box),
                    "fill": style.paint,
                    "stroke": "#333333",
                    "class": f"swatch {terrain.name}",
                },
            )
            ET.SubElement(
                key,
                "text",
                {"x": str(margin + box + 6), "y": str(y + box - 2), "class": "terrain-legend"},
            ).text = f"{terrain.name}: {_blocks_text(terrain)} ({PATTERNS[style.pattern]})"
            y += row_step
        for side, (fill, _) in side_colours.items():
            draw_token(key, side_shapes[side], margin + box / 2, y + box / 2, box / 2, fill)
            ET.SubElement(
                key,
                "text",
                {"x": str(margin + box + 6), "y": str(y + box - 2), "class": "side-legend"},
            ).text = f"pieces: {side}" if side else "pieces"
            y += row_step
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def render_text(
    board: Board,
    pieces: Mapping[Cell, Piece] | None = None,
    *,
    labels: str = "numbers",
    marks: Mapping[Cell, str] | None = None,
    named: bool = True,
) -> str:
    """The board as its ASCII map with row and column labels, pieces as marks, and a legend.

    ``labels``: ``"numbers"`` (row and column numbers, cells in the legend as ``(col, row)``) or
    ``"chess"`` (columns a-j along the top and bottom, rows numbered from the bottom, cells in
    the legend as ``e4``).  A column label longer than one character shows its last one.
    ``marks``: the mark of each piece (cell -> one character), listed in that order, for a
    caller whose pieces keep their marks from one drawing to the next; without it, pieces are
    marked 1-9, a-z, A-Z in reading order.  ``named``: draw and list the board's named squares
    (False: a game past its set-up, where they say nothing).
    """
    _check_labels(labels)
    pieces = pieces or {}
    marks = (
        _piece_marks(board, pieces, named) if marks is None else _given(board, pieces, marks, named)
    )
    column_labels, row_labels = _axis(board, labels)
    header = "    " + " ".join(label[-1] for label in column_labels)
    lines = [board.title, header]
    for row in range(board.height):
        symbols = []
        for col in range(board.width):
            cell = (col, row)
            square = board.named_square_at(cell) if named else None
            symbols.append(
                marks.get(cell)
                or (square.symbol if square and square.symbol else board.terrain_at(cell).symbol)
            )
        lines.append(f"{row_labels[row]:>3} " + " ".join(symbols))
    if labels == "chess":
        lines.append(header)
    lines.append("")
    for terrain in dict.fromkeys(board.terrain):
        blocks = terrain.blocks
        lines.append(
            f"  {terrain.symbol}  {terrain.name}: blocks {' and '.join(blocks) or 'nothing'}"
        )
    for square in board.named if named else ():
        where = _square_label(board, square.cell, labels)
        lines.append(f"  {square.symbol or ' '}  {square.name} at {where}")
    for cell, mark in marks.items():
        piece = pieces[cell]
        side = f" ({piece.side})" if piece.side else ""
        note = f": {piece.note}" if piece.note else ""
        lines.append(f"  {mark}  {piece.label}{side} at {_square_label(board, cell, labels)}{note}")
    return "\n".join(lines) + "\n"


def _taken(board: Board, named: bool) -> set[str]:
    """The map's own symbols (terrain, and named squares when drawn): no piece's mark."""
    return {t.symbol for t in board.terrain} | (
        {square.symbol for square in board.named} if named else set()
    )


def free_marks(board: Board, named: bool = True) -> list[str]:
    """The marks pieces may take on ``board``: 1-9, a-z, A-Z minus the map's own symbols."""
    taken = _taken(board, named)
    return [mark for mark in _PIECE_MARKS if mark not in taken]


def _given(
    board: Board, pieces: Mapping[Cell, Piece], marks: Mapping[Cell, str], named: bool
) -> dict[Cell, str]:
    """The caller's marks, checked: one per piece, one character each, none a map symbol, no
    two alike."""
    if set(marks) != set(pieces):
        raise BoardstateError(
            "piece marks must mark every piece and nothing else", code="bad-option"
        )
    taken = _taken(board, named)
    values = list(marks.values())
    for cell, mark in marks.items():
        if len(mark) != 1 or mark in taken or values.count(mark) > 1:
            raise BoardstateError(
                f"piece mark {mark!r} at {cell}: one character, not a map symbol, used once",
                code="bad-option",
            )
    return dict(marks)


def _piece_marks(board: Board, pieces: Mapping[Cell, Piece], named: bool = True) -> dict[Cell, str]:
    """One character per piece, in reading order, from 1-9, a-z, A-Z minus the map's own symbols."""
    free = free_marks(board, named)
    if len(pieces) > len(free):
        reason = (
            f"text rendering can mark at most {len(free)} pieces on this board, not {len(pieces)}"
        )
        raise BoardstateError(reason, code="too-many-pieces")
    return {cell: free[i] for i, cell in enumerate(sorted(pieces, key=lambda c: (c[1], c[0])))}
