"""Line of sight asked of shapely directly, one query at a time.

Slow (a geometry per query) but with no table in between: the oracle the
tests hold the table against, and the benchmark's "direct shapely" row.
"""

from __future__ import annotations

from collections.abc import Iterable

import shapely

from ._grid import Cell, Grid
from ._lines import CELL_INTERIOR_MEETS_LINE


class DirectSight:
    """Per-query shapely answers on one grid: an STRtree of cell squares, prepared once."""

    def __init__(self, grid: Grid, sight_blocking: Iterable[Cell] = ()) -> None:
        self._grid = grid
        self._tree = shapely.STRtree([grid.polygon(c) for c in grid.cells()])
        self._squares = self._tree.geometries
        shapely.prepare(self._squares)
        self._sight_blocking = frozenset(grid.index(c) for c in sight_blocking)

    def cells_between(self, a: Cell, b: Cell) -> frozenset[Cell]:
        """Cells other than a and b whose open interior the centre-to-centre segment meets."""
        return frozenset(self._grid.cell(i) for i in self._crossed(a, b, None))

    def line_of_sight(self, a: Cell, b: Cell, occupied: Iterable[Cell] = ()) -> bool:
        """True unless a crossed cell blocks sight by terrain or holds a piece."""
        blocking = self._sight_blocking | {self._grid.index(c) for c in occupied}
        return not self._crossed(a, b, blocking)

    def _crossed(self, a: Cell, b: Cell, only: frozenset[int] | set[int] | None) -> list[int]:
        if a == b:
            return []
        ends = (self._grid.index(a), self._grid.index(b))
        segment = shapely.LineString([self._grid.centre(a), self._grid.centre(b)])
        candidates = [
            i
            for i in self._tree.query(segment, predicate="intersects").tolist()
            if i not in ends and (only is None or i in only)
        ]
        if not candidates:
            return []
        meets = shapely.relate_pattern(self._squares[candidates], segment, CELL_INTERIOR_MEETS_LINE)
        return [i for i, hit in zip(candidates, meets.tolist()) if hit]
