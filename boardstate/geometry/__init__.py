"""Board geometry: grids, terrain, named squares, movement, line of sight, drawings.

Game-agnostic. A module ships boards as TOML data files (see docs/geometry.md)
and its rules call the :class:`Board` queries they need.
"""

from .._errors import BoardError, OffBoard
from ._board import Board, Cells, NamedSquare, Terrain
from ._grid import Cell, Grid, SquareGrid
from ._loader import BoardCatalog, load_board, parse_board
from ._render import Piece, free_marks, render_svg, render_text

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
