"""Drawings of a board as plain text: its map with row and column labels, pieces as marks, and a
legend (``render_text``), and the pieces drawn on a board (``Piece``), which the SVG drawing
(``_render``) shares.  Apart from the SVG so that a text drawing imports no ``xml.etree`` and no
styles (issue 29: a text ``show`` is a command of its own)."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from .._errors import BoardstateError
from ._board import Board
from ._grid import Cell

_PIECE_MARKS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

LABELS = ("numbers", "chess")
"""Axis label styles: ``numbers`` (columns and rows from 0 at the top left, as cells are
written) or ``chess`` (columns a, b, c... from the left, rows 1, 2, 3... from the bottom)."""


@attrs.frozen
class Piece:
    """Something drawn on a cell: a short label, the side it belongs to, an optional note (a
    second, smaller line in SVG, e.g. wounds left; after the piece in the text legend), and an
    optional ring: a dashed ring round the piece in SVG, with ``ring`` as its class (e.g.
    ``held``).

    In SVG only: ``name``, what the piece's ``<title>`` and the drawing's ``<desc>`` call it
    (default: its label, e.g. initials on the token and the full id in words); ``scale``, the
    token's size against a full piece's (e.g. 0.75 for a lesser piece); ``track``, ``(left,
    full)``: a bar under the token, the part left dark (e.g. wound points left of the full)."""

    label: str
    side: str = ""
    note: str = ""
    ring: str = ""
    name: str = ""
    scale: float = attrs.field(
        default=1.0, validator=attrs.validators.and_(attrs.validators.gt(0), attrs.validators.le(1))
    )
    track: tuple[int, int] | None = None


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
