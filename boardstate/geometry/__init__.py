"""Board geometry: grids, terrain, named squares, movement, line of sight, drawings.

Game-agnostic. A module ships boards as TOML data files (see docs/geometry.md)
and its rules call the :class:`Board` queries they need.
"""

from typing import TYPE_CHECKING

from .._errors import BoardError, OffBoard
from .._lazy import on_first_use_names
from ._board import Board, Cells, NamedSquare, Terrain
from ._grid import Cell, Grid, SquareGrid
from ._loader import BoardCatalog, load_board, parse_board

__all__ = [
    "Board",
    "BoardCatalog",
    "BoardError",
    "Cell",
    "Cells",
    "Grid",
    "NamedSquare",
    "OffBoard",
    "Piece",
    "SquareGrid",
    "Terrain",
    "free_marks",
    "load_board",
    "parse_board",
    "render_svg",
    "render_text",
]

DRAWING = {"Piece": "_text", "free_marks": "_text", "render_text": "_text", "render_svg": "_render"}
"""The drawing's names (the text drawing, ``_text``; the SVG, ``_render``, with ``xml.etree`` and
the styles): imported when first asked for, so a command that only asks the board's questions
(lines, moves) does not load them, and one that draws text loads no SVG."""

if TYPE_CHECKING:
    from ._render import render_svg
    from ._text import Piece, free_marks, render_text

__getattr__, __dir__ = on_first_use_names(globals(), DRAWING)
