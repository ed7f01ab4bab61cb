"""A board drawn as SVG, from the same cells, terrain and pieces as its text drawing (``_text``).

Both are pure functions of a board and optional pieces; nothing is written to
disk here. SVG is built with xml.etree so every label is escaped.

The SVG is meant to be read without colour too: every terrain kind of a board has its own fill
pattern (defined in the drawing's ``<defs>``) besides its colour, the legend names each kind
next to its swatch, pieces of different sides differ in shape unless their fills differ in
lightness, and the drawing says in words (``<title>``, ``<desc>``) what it shows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

from .._errors import BoardstateError
from ._board import Board, Terrain, drawn_by
from ._grid import Cell
from ._style import (
    PATTERNS,
    SIDE_COLOURS,
    SIDE_SHAPES,
    TerrainStyle,
    define_pattern,
    draw_token,
    svg_num,
    terrain_styles,
)
from ._text import Piece, _axis, _check_labels, _column_name, _square_label


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


def _blocks_text(terrain: Terrain) -> str:
    return f"blocks {' and '.join(terrain.blocks)}" if terrain.blocks else "open"


def _description(
    board: Board,
    styles: Mapping[str, TerrainStyle],
    pieces: Mapping[Cell, Piece],
    labels: str,
    named: bool = True,
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
    if board.named and named:
        squares = ", ".join(
            f"{square.name} at {_square_label(board, square.cell, labels)}"
            for square in board.named
        )
        text.append(f"Named squares: {squares}.")
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
    return f"{piece.name or piece.label}{side} at {_square_label(board, cell, labels)}{note}{ring}"


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
    named: bool = True,
) -> str:
    """The board as a standalone SVG document: terrain, grid, named squares, pieces, coordinates,
    and (``legend``) a legend of the terrain kinds and the sides under the board.

    ``labels``: ``"numbers"`` (cell coordinates) or ``"chess"`` (a-j from the left, 1-7 from the
    bottom); ``colours``: side -> (fill, ink) of its pieces (other sides: ``SIDE_COLOURS``, white);
    ``shapes``: side -> one of ``SIDE_SHAPES`` (other sides: by sorted name); ``fills`` and
    ``patterns``: terrain name -> its colour / pattern (see :func:`terrain_styles`);
    ``named``: draw and list the board's named squares (False: a game past its set-up, where
    they say nothing).
    """
    drawing = svg_element(
        board,
        pieces,
        cell_size=cell_size,
        labels=labels,
        colours=colours,
        shapes=shapes,
        fills=fills,
        patterns=patterns,
        legend=legend,
        named=named,
    )
    return ET.tostring(drawing, encoding="unicode") + "\n"


def svg_element(
    board: Board,
    pieces: Mapping[Cell, Piece] | None,
    *,
    cell_size: int,
    labels: str,
    colours: Mapping[str, tuple[str, str]] | None,
    shapes: Mapping[str, str] | None,
    fills: Mapping[str, str] | None,
    patterns: Mapping[str, str] | None,
    legend: bool,
    named: bool,
) -> ET.Element:
    """``render_svg``'s drawing as its element (indented), for a picture that holds the board:
    it is not written out as text to be parsed back (1 ms of an Epic Duels ``show --svg``)."""
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
        board, styles, pieces, labels, named
    )
    defs = ET.SubElement(svg, "defs")
    tile = max(4, cell_size // 4)
    symbols = {t.name: t.symbol for t in board.terrain}
    for name, style in styles.items():
        if style.id:
            define_pattern(defs, style, symbols[name], tile)
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
    for square in board.named if named else ():
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
        r = radius * piece.scale
        draw_token(group, shape, cx, cy, r, fill)
        ET.SubElement(
            group,
            "text",
            {
                "x": str(cx),
                "y": str(cy + cell_size // 18 - lift),
                "text-anchor": "middle",
                "font-size": svg_num(cell_size / 6 * _text_scale(piece.scale)),
                "font-weight": "bold",
                "fill": ink,
                "class": "label",
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
                    "font-size": svg_num(cell_size / 8 * _text_scale(piece.scale)),
                    "fill": ink,
                    "class": "note",
                },
            ).text = piece.note
        if piece.track is not None:
            _track(group, piece.track, cx, y + cell_size, cell_size)
        if piece.ring:
            ET.SubElement(
                group,
                "circle",
                {
                    "cx": str(cx),
                    "cy": str(cy),
                    "r": svg_num(r + 4 if shape == "circle" else r * 1.3 + 3),
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
    return svg


def _text_scale(scale: float) -> float:
    """A lesser token's letters shrink less than the token itself, to stay legible."""
    return 1 - (1 - scale) / 2


def _track(parent: ET.Element, track: tuple[int, int], cx: float, bottom: float, size: int) -> None:
    """A piece's track (class ``track``): a light bar along the bottom of its cell, the part
    ``left`` of ``full`` dark (class ``left``)."""
    left, full = track
    width, height = size * 3 / 4, max(3, size // 14)
    x, y = cx - width / 2, bottom - height - max(2, size // 30)
    bar = ET.SubElement(
        parent, "g", {"class": "track", "data-left": str(left), "data-full": str(full)}
    )
    ET.SubElement(
        bar,
        "rect",
        {
            "x": svg_num(x),
            "y": svg_num(y),
            "width": svg_num(width),
            "height": svg_num(height),
            "fill": "#e6e6e6",
            "stroke": "#1a1a1a",
            "stroke-width": "0.75",
        },
    )
    if full > 0 and left > 0:
        ET.SubElement(
            bar,
            "rect",
            {
                "x": svg_num(x),
                "y": svg_num(y),
                "width": svg_num(width * min(left, full) / full),
                "height": svg_num(height),
                "fill": "#1a1a1a",
                "class": "left",
            },
        )


drawn_by(render_svg)  # a board shows itself in a notebook (Board._repr_svg_)
