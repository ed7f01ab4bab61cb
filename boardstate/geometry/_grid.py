"""Grids: where cells are, which touch, and the exact shape of each cell.

A grid knows nothing of terrain or pieces. Boards put data on a grid and ask
it questions; a hex grid can be added later by implementing :class:`Grid`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import attrs

from .._errors import OffBoard

if TYPE_CHECKING:  # (shapely is imported where a polygon is made: commands start faster)
    import shapely

Cell = tuple[int, int]
"""A cell as ``(col, row)``: column from the left, row from the top, both from 0."""

_ORTHOGONAL = ((0, -1), (-1, 0), (1, 0), (0, 1))
_DIAGONAL = ((-1, -1), (1, -1), (-1, 1), (1, 1))


class Grid(Protocol):
    """What a board needs from its grid (square today, hex possible)."""

    width: int
    height: int

    @property
    def size(self) -> int: ...

    def cells(self) -> tuple[Cell, ...]: ...

    def contains(self, cell: Cell) -> bool: ...

    def index(self, cell: Cell) -> int: ...

    def cell(self, index: int) -> Cell: ...

    def neighbours(self, cell: Cell, *, diagonal: bool = False) -> tuple[Cell, ...]: ...

    def distance(self, a: Cell, b: Cell, *, diagonal: bool = False) -> int: ...

    def is_straight_line(self, a: Cell, b: Cell, *, diagonal: bool = True) -> bool: ...

    def centre(self, cell: Cell) -> tuple[int, int]: ...

    def polygon(self, cell: Cell) -> shapely.Polygon: ...


@attrs.frozen
class SquareGrid:
    """A ``width`` x ``height`` grid of unit squares, indexed row by row.

    Geometry is in *doubled* coordinates: cell ``(c, r)`` is the square
    ``[2c, 2c+2] x [2r, 2r+2]`` with centre ``(2c+1, 2r+1)``. Every corner and
    centre is then an integer, so shapely's answers about lines through
    corners are exact, not subject to rounding.
    """

    width: int
    height: int

    @property
    def size(self) -> int:
        return self.width * self.height

    def cells(self) -> tuple[Cell, ...]:
        return tuple((col, row) for row in range(self.height) for col in range(self.width))

    def contains(self, cell: Cell) -> bool:
        col, row = cell
        return 0 <= col < self.width and 0 <= row < self.height

    def index(self, cell: Cell) -> int:
        if not self.contains(cell):
            raise OffBoard(f"cell {cell} is off the {self.width}x{self.height} grid")
        return cell[1] * self.width + cell[0]

    def cell(self, index: int) -> Cell:
        if not 0 <= index < self.size:
            raise OffBoard(f"cell index {index} is off the {self.width}x{self.height} grid")
        row, col = divmod(index, self.width)
        return (col, row)

    def neighbours(self, cell: Cell, *, diagonal: bool = False) -> tuple[Cell, ...]:
        """On-grid cells sharing an edge (and a corner too, with ``diagonal``)."""
        steps = _ORTHOGONAL + _DIAGONAL if diagonal else _ORTHOGONAL
        col, row = cell
        return tuple(
            (col + dc, row + dr) for dc, dr in steps if self.contains((col + dc, row + dr))
        )

    def distance(self, a: Cell, b: Cell, *, diagonal: bool = False) -> int:
        """Steps between cells ignoring terrain: Manhattan, or Chebyshev with ``diagonal``."""
        dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
        return max(dc, dr) if diagonal else dc + dr

    def is_straight_line(self, a: Cell, b: Cell, *, diagonal: bool = True) -> bool:
        """Same row or column (a rook line), or also an exact diagonal (a queen line)."""
        dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
        return dc == 0 or dr == 0 or (diagonal and dc == dr)

    def centre(self, cell: Cell) -> tuple[int, int]:
        return (2 * cell[0] + 1, 2 * cell[1] + 1)

    def polygon(self, cell: Cell) -> shapely.Polygon:
        col, row = cell
        import shapely

        return shapely.box(2 * col, 2 * row, 2 * col + 2, 2 * row + 2)
