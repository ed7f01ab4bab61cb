"""The line table: for every pair of cells, which cells the line between them crosses.

Built once per grid, then read with plain ints: a query is one list lookup and one ``&``.
On a square grid the integer cell walk builds it (a few milliseconds, no shapely or numpy
to import: a command that asks for sight starts fast); any other grid asks shapely (an
STRtree over the prepared cell squares, one bulk query for all centre-to-centre segments),
and a test holds the two equal on every board.  Pieces are not in the table; the caller's
occupancy mask is and-ed in at query time.
"""

from __future__ import annotations

import attrs

from ._grid import Grid, SquareGrid
from ._walk import walk_cells_between

CELL_INTERIOR_MEETS_LINE = "T********"
"""DE-9IM pattern of ``cell.relate(segment)``: the cell's open interior meets the segment.

A segment that only touches a cell's boundary (runs along an edge, or passes
through a corner) does not match, so it does not cross that cell.
"""


@attrs.frozen
class LineTable:
    """``between[i][j]``: bitmask of the cells crossed by the segment from centre i to centre j.

    The two end cells are never in the mask; ``between[i][j] == between[j][i]``.
    """

    between: tuple[tuple[int, ...], ...]


def line_table_of(grid: Grid) -> LineTable:
    """The table by the integer walk on a square grid, by shapely on any other."""
    return walk_line_table(grid) if type(grid) is SquareGrid else build_line_table(grid)


def walk_line_table(grid: SquareGrid) -> LineTable:
    """Walk each centre-to-centre segment from cell to cell (exact integer arithmetic)."""
    cells = grid.cells()
    width = grid.width
    rows = [[0] * len(cells) for _ in cells]
    for i, a in enumerate(cells):
        for j in range(i + 1, len(cells)):
            crossed = 0
            for col, row in walk_cells_between(a, cells[j]):
                crossed |= 1 << (row * width + col)
            rows[i][j] = rows[j][i] = crossed
    return LineTable(between=tuple(tuple(row) for row in rows))


def build_line_table(grid: Grid) -> LineTable:
    """Ask shapely, in one bulk query, which cells each centre-to-centre segment crosses."""
    import shapely  # (here, not at the top: only a line table needs it)

    cells = grid.cells()
    count = len(cells)
    tree = shapely.STRtree([grid.polygon(c) for c in cells])
    squares = tree.geometries
    shapely.prepare(squares)
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count)]
    rows = [[0] * count for _ in range(count)]
    if not pairs:
        return LineTable(between=tuple(tuple(row) for row in rows))
    centres = [grid.centre(c) for c in cells]
    segments = shapely.linestrings([[centres[i], centres[j]] for i, j in pairs])
    segment_hits, cell_hits = tree.query(segments, predicate="intersects")
    crossed = shapely.relate_pattern(
        squares[cell_hits], segments[segment_hits], CELL_INTERIOR_MEETS_LINE
    )
    for segment, cell, is_crossed in zip(
        segment_hits.tolist(), cell_hits.tolist(), crossed.tolist()
    ):
        i, j = pairs[segment]
        if is_crossed and cell != i and cell != j:
            rows[i][j] |= 1 << cell
            rows[j][i] |= 1 << cell
    return LineTable(between=tuple(tuple(row) for row in rows))
