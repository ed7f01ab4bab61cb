"""Drawings of a board, as SVG text and as plain text, from the same cells and terrain.

Both are pure functions of a board and optional pieces; nothing is written to
disk here. SVG is built with xml.etree so every label is escaped.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping

import attrs

from .._errors import BoardstateError
from ._board import Board, Terrain
from ._grid import Cell

SIDE_COLOURS = ("#1f5fbf", "#b3261e", "#2e7d32", "#8e24aa", "#ef6c00", "#00838f")
"""Piece colours, given to sides in sorted order of their names."""

_DEFAULT_FILLS = {
    (False, False): "#eeeeee",
    (True, False): "#6fa8dc",
    (False, True): "#bbbbbb",
    (True, True): "#555555",
}
_PIECE_MARKS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


LABELS = ("numbers", "chess")
"""Axis label styles: ``numbers`` (columns and rows from 0 at the top left, as cells are
written) or ``chess`` (columns a, b, c... from the left, rows 1, 2, 3... from the bottom)."""


@attrs.frozen
class Piece:
    """Something drawn on a cell: a short label, the side it belongs to, and an optional note
    (a second, smaller line in SVG, e.g. wounds left; after the piece in the text legend)."""

    label: str
    side: str = ""
    note: str = ""


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


def _side_colours(
    pieces: Mapping[Cell, Piece], chosen: Mapping[str, tuple[str, str]]
) -> dict[str, tuple[str, str]]:
    sides = sorted({piece.side for piece in pieces.values()})
    return {
        side: chosen.get(side) or (SIDE_COLOURS[i % len(SIDE_COLOURS)], "white")
        for i, side in enumerate(sides)
    }


def render_svg(
    board: Board,
    pieces: Mapping[Cell, Piece] | None = None,
    *,
    cell_size: int = 60,
    labels: str = "numbers",
    colours: Mapping[str, tuple[str, str]] | None = None,
) -> str:
    """The board as a standalone SVG document: terrain, grid, named squares, pieces, coordinates.

    ``labels``: ``"numbers"`` (cell coordinates) or ``"chess"`` (a-j from the left, 1-7 from the
    bottom); ``colours``: side -> (fill, ink) of its pieces (other sides: ``SIDE_COLOURS``, white).
    """
    _check_labels(labels)
    pieces = pieces or {}
    column_labels, row_labels = _axis(board, labels)
    margin = cell_size // 2
    width, height = (
        board.width * cell_size + 2 * margin,
        board.height * cell_size + 2 * margin + margin,
    )
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "viewBox": f"0 0 {width} {height}",
            "font-family": "sans-serif",
        },
    )
    ET.SubElement(svg, "title").text = board.title
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
                "fill": _fill(terrain),
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
    side_colours = _side_colours(pieces, colours or {})
    tokens = ET.SubElement(svg, "g", {"class": "pieces"})
    for cell, piece in pieces.items():
        x, y = corner(cell)
        fill, ink = side_colours[piece.side]
        lift = cell_size // 12 if piece.note else 0
        group = ET.SubElement(
            tokens, "g", {"class": f"piece side-{piece.side}" if piece.side else "piece"}
        )
        ET.SubElement(
            group,
            "circle",
            {
                "cx": str(x + cell_size // 2),
                "cy": str(y + cell_size * 3 // 5),
                "r": str(cell_size * 3 // 10),
                "fill": fill,
                "stroke": "black",
            },
        )
        ET.SubElement(
            group,
            "text",
            {
                "x": str(x + cell_size // 2),
                "y": str(y + cell_size * 3 // 5 + cell_size // 18 - lift),
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
                    "x": str(x + cell_size // 2),
                    "y": str(y + cell_size * 3 // 5 + cell_size // 18 + cell_size // 7),
                    "text-anchor": "middle",
                    "font-size": str(cell_size // 8),
                    "fill": ink,
                    "class": "note",
                },
            ).text = piece.note
    ET.indent(svg)
    return ET.tostring(svg, encoding="unicode") + "\n"


def render_text(
    board: Board, pieces: Mapping[Cell, Piece] | None = None, *, labels: str = "numbers"
) -> str:
    """The board as its ASCII map with row and column labels, pieces as marks, and a legend.

    ``labels``: ``"numbers"`` (row and column numbers, cells in the legend as ``(col, row)``) or
    ``"chess"`` (columns a-j along the top and bottom, rows numbered from the bottom, cells in
    the legend as ``e4``).  A column label longer than one character shows its last one.
    """
    _check_labels(labels)
    pieces = pieces or {}
    marks = _piece_marks(board, pieces)
    column_labels, row_labels = _axis(board, labels)
    header = "    " + " ".join(label[-1] for label in column_labels)
    lines = [board.title, header]
    for row in range(board.height):
        symbols = []
        for col in range(board.width):
            cell = (col, row)
            named = board.named_square_at(cell)
            symbols.append(
                marks.get(cell)
                or (named.symbol if named and named.symbol else board.terrain_at(cell).symbol)
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
    for square in board.named:
        where = _square_label(board, square.cell, labels)
        lines.append(f"  {square.symbol or ' '}  {square.name} at {where}")
    for cell, mark in marks.items():
        piece = pieces[cell]
        side = f" ({piece.side})" if piece.side else ""
        note = f": {piece.note}" if piece.note else ""
        lines.append(f"  {mark}  {piece.label}{side} at {_square_label(board, cell, labels)}{note}")
    return "\n".join(lines) + "\n"


def _piece_marks(board: Board, pieces: Mapping[Cell, Piece]) -> dict[Cell, str]:
    """One character per piece, in reading order, from 1-9, a-z, A-Z minus the map's own symbols."""
    taken = {t.symbol for t in board.terrain} | {square.symbol for square in board.named}
    free = [mark for mark in _PIECE_MARKS if mark not in taken]
    if len(pieces) > len(free):
        reason = (
            f"text rendering can mark at most {len(free)} pieces on this board, not {len(pieces)}"
        )
        raise BoardstateError(reason, code="too-many-pieces")
    return {cell: free[i] for i, cell in enumerate(sorted(pieces, key=lambda c: (c[1], c[0])))}
