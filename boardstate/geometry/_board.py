"""A board: terrain and named squares on a grid, and every spatial question a rule asks.

Boards are immutable data. The line table is built on first use (by the integer
cell walk on a square grid) and kept on the board. Occupancy is never stored: each
query takes the cells of pieces (or a bitmask from :meth:`Board.mask`) as arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cached_property
from types import MappingProxyType

import attrs

from .._errors import BoardError, OffBoard
from ._grid import Cell, Grid
from ._lines import LineTable, line_table_of
from ._movement import reachable_ends, shortest_path

Cells = Iterable[Cell] | int
"""Occupancy argument: any iterable of cells, or a bitmask made by :meth:`Board.mask`."""


@attrs.frozen
class Terrain:
    """A class of cell: what it blocks, and how to draw it."""

    name: str
    symbol: str
    blocks_movement: bool = False
    blocks_sight: bool = False
    fill: str = ""
    about: str = ""

    @property
    def blocks(self) -> tuple[str, ...]:
        """What the terrain stops: ``movement`` and/or ``sight``."""
        return tuple(
            what
            for what, on in (("movement", self.blocks_movement), ("sight", self.blocks_sight))
            if on
        )


@attrs.frozen
class NamedSquare:
    """A cell with a name (a start square, a throne), and the map symbol that marks it."""

    name: str
    cell: Cell
    symbol: str = ""


@attrs.frozen(slots=False)
class Board:
    """Terrain per cell (row by row) and named squares on a grid."""

    id: str
    title: str
    grid: Grid
    terrain: tuple[Terrain, ...]
    named: tuple[NamedSquare, ...] = ()
    source: str = ""

    def __attrs_post_init__(self) -> None:
        if len(self.terrain) != self.grid.size:
            reason = f"board {self.id!r}: {len(self.terrain)} terrain cells for a grid of {self.grid.size}"
            raise BoardError(reason, path=self.source or "<board>")

    # -- cells and terrain ---------------------------------------------------

    @property
    def width(self) -> int:
        return self.grid.width

    @property
    def height(self) -> int:
        return self.grid.height

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """All cells, row by row from the top left."""
        return self.grid.cells()

    def terrain_at(self, cell: Cell) -> Terrain:
        return self.terrain[self.grid.index(cell)]

    def enterable(self, cell: Cell) -> bool:
        """On the board and on terrain a piece may stand on."""
        return self.grid.contains(cell) and not self.terrain_at(cell).blocks_movement

    def empty_cells(self, occupied: Cells = 0) -> tuple[Cell, ...]:
        """Cells a piece could be put on: enterable terrain, no piece (row by row)."""
        return self.cells_of(self.walkable_mask & ~self._bits(occupied))

    @cached_property
    def named_squares(self) -> Mapping[str, Cell]:
        return MappingProxyType({square.name: square.cell for square in self.named})

    def square(self, name: str) -> Cell:
        """The cell of a named square (e.g. a character's start square)."""
        cell = self.named_squares.get(name)
        if cell is None:
            known = ", ".join(sorted(self.named_squares)) or "none"
            raise OffBoard(f"board {self.id!r} has no square named {name!r} (known: {known})")
        return cell

    def named_square_at(self, cell: Cell) -> NamedSquare | None:
        return self._named_by_cell.get(cell)

    @cached_property
    def _named_by_cell(self) -> dict[Cell, NamedSquare]:
        return {square.cell: square for square in self.named}

    # -- adjacency and distance ----------------------------------------------

    def neighbours(self, cell: Cell, *, diagonal: bool = False) -> tuple[Cell, ...]:
        """On-board cells sharing an edge (or also a corner), whatever their terrain."""
        return self.grid.neighbours(cell, diagonal=diagonal)

    def adjacent(self, a: Cell, b: Cell, *, diagonal: bool = False) -> bool:
        """a and b share an edge (or, with ``diagonal``, at least a corner); a cell is not adjacent to itself."""
        return a != b and self.grid.distance(a, b, diagonal=diagonal) == 1

    def distance(self, a: Cell, b: Cell, *, diagonal: bool = False) -> int:
        """Grid steps ignoring terrain and pieces (Manhattan, or Chebyshev with ``diagonal``)."""
        return self.grid.distance(a, b, diagonal=diagonal)

    # -- occupancy masks -----------------------------------------------------

    def mask(self, cells: Iterable[Cell]) -> int:
        """Bitmask of cells (bit ``row*width+col``): build it once per position, pass it to many queries."""
        index = self._index
        bits = 0
        try:
            for cell in cells:
                bits |= 1 << index[cell]
        except (
            KeyError
        ) as error:  # one dict lookup per cell is the fast path; a miss is translated here
            raise self._off_board(error.args[0]) from None
        return bits

    def cells_of(self, mask: int) -> tuple[Cell, ...]:
        """The cells set in a bitmask, row by row."""
        return tuple(cell for i, cell in enumerate(self.cells) if mask >> i & 1)

    def _off_board(self, cell: object) -> OffBoard:
        """One message for every query given a cell this board does not have."""
        return OffBoard(f"cell {cell} is off the {self.width}x{self.height} board {self.id!r}")

    def _bits(self, cells: Cells) -> int:
        return (
            cells if type(cells) is int else self.mask(cells)
        )  # type(), not isinstance: a bool is not a mask

    @cached_property
    def _index(self) -> dict[Cell, int]:
        return {cell: i for i, cell in enumerate(self.cells)}

    @cached_property
    def walkable_mask(self) -> int:
        """Cells whose terrain lets a piece enter."""
        return self.mask(c for c, t in zip(self.cells, self.terrain) if not t.blocks_movement)

    @cached_property
    def sight_blocking_mask(self) -> int:
        """Cells whose terrain stops a line of sight crossing them."""
        return self.mask(c for c, t in zip(self.cells, self.terrain) if t.blocks_sight)

    # -- movement ------------------------------------------------------------

    @cached_property
    def _orthogonal(self) -> tuple[tuple[int, ...], ...]:
        index = self._index
        return tuple(tuple(index[n] for n in self.grid.neighbours(c)) for c in self.cells)

    def reachable(
        self, start: Cell, budget: int, friends: Cells = (), enemies: Cells = ()
    ) -> dict[Cell, int]:
        """Where a piece on ``start`` may end a move of up to ``budget`` orthogonal steps.

        Maps each end cell to its fewest steps; ``start`` itself (0 steps) is
        always included. Steps never enter movement-blocking terrain or an
        enemy's cell; they may pass through friends; no end cell holds a piece.
        The mover's own cell is ignored if it appears in ``friends``/``enemies``.
        """
        cell_at = self.cells
        ends = reachable_ends(
            self._orthogonal,
            self.walkable_mask,
            self.grid.index(start),
            budget,
            self._bits(friends),
            self._bits(enemies),
        )
        return {cell_at[i]: steps for i, steps in ends.items()}

    def path(
        self,
        start: Cell,
        goal: Cell,
        budget: int | None = None,
        friends: Cells = (),
        enemies: Cells = (),
    ) -> tuple[Cell, ...] | None:
        """A shortest legal move from start to goal (both included), or None if there is none within budget."""
        found = self.index_path(
            self.grid.index(start),
            self.grid.index(goal),
            budget,
            self._bits(friends),
            self._bits(enemies),
        )
        return None if found is None else tuple(self.cells[i] for i in found)

    def index_path(
        self, start: int, goal: int, budget: int | None, friends: int, enemies: int
    ) -> list[int] | None:
        """``path`` on cell indices, ``friends`` and ``enemies`` as bitmasks of them: for a
        game that keeps its pieces' squares as indices (no cells made and read back)."""
        limit = self.grid.size if budget is None else budget
        return shortest_path(
            self._orthogonal, self.walkable_mask, start, goal, limit, friends, enemies
        )

    # -- line of sight -------------------------------------------------------

    @cached_property
    def line_table(self) -> LineTable:
        """Which cells each centre-to-centre line crosses; built on first use."""
        return line_table_of(self.grid)

    def cells_between(self, a: Cell, b: Cell) -> tuple[Cell, ...]:
        """Cells other than a and b whose open interior the segment between their centres meets."""
        return self.cells_of(self.line_table.between[self.grid.index(a)][self.grid.index(b)])

    def line_of_sight(self, a: Cell, b: Cell, occupied: Cells = 0) -> bool:
        """Any-angle sight: no crossed cell blocks sight by terrain or holds a piece.

        The end cells never block (the shooter and the target stand there).
        """
        index = self._index
        blocked = occupied if type(occupied) is int else self.mask(occupied)  # as in _bits
        try:
            crossed = self.line_table.between[index[a]][index[b]]
        except KeyError as error:
            raise self._off_board(error.args[0]) from None
        return not crossed & (self.sight_blocking_mask | blocked)

    def is_straight_line(self, a: Cell, b: Cell, *, diagonal: bool = True) -> bool:
        """Same row or column, or (with ``diagonal``) the same exact diagonal."""
        return self.grid.is_straight_line(a, b, diagonal=diagonal)

    def straight_line_of_sight(
        self, a: Cell, b: Cell, occupied: Cells = 0, *, diagonal: bool = True
    ) -> bool:
        """Epic Duels' ranged attack line: a straight line (row, column, exact diagonal) that nothing blocks."""
        return self.grid.is_straight_line(a, b, diagonal=diagonal) and self.line_of_sight(
            a, b, occupied
        )

    # -- pictures ------------------------------------------------------------

    def _repr_svg_(self) -> str | None:
        """The board as IPython displays it in a notebook: ``render_svg(board)``."""
        return _PICTURE[0](self) if _PICTURE else None


# The drawing sits above the board (``_render`` imports ``Board``), so the board does not import
# it: ``_render`` names its ``render_svg`` here when the package is imported.
_PICTURE: list = []


def drawn_by(draw) -> None:
    """``draw(board) -> str`` makes every board's picture in a notebook (``_repr_svg_``)."""
    _PICTURE[:] = [draw]
