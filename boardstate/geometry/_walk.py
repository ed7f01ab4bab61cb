"""A pure-integer cell walk with the same exact semantics as the line table.

It steps from cell to cell along the centre-to-centre segment, deciding at
each grid line whether the segment crosses a vertical line, a horizontal line,
or both at once (a corner, which it passes without entering the two side
cells). Used to cross-check the shapely table and as the benchmark's baseline.
Square grids only.
"""

from __future__ import annotations

from ._grid import Cell


def walk_cells_between(a: Cell, b: Cell) -> list[Cell]:
    """Cells whose open interior the segment between the centres of a and b meets, in order."""
    if a == b:
        return []
    col, row = a
    cols_to_go, rows_to_go = abs(b[0] - col), abs(b[1] - row)
    col_step = 1 if b[0] > col else -1
    row_step = 1 if b[1] > row else -1
    crossed_cols = crossed_rows = 0
    visited = []
    while crossed_cols < cols_to_go or crossed_rows < rows_to_go:
        # The segment meets its next vertical grid line at t = (1/2 + crossed_cols) / cols_to_go
        # and its next horizontal one at t = (1/2 + crossed_rows) / rows_to_go; compare exactly.
        order = (1 + 2 * crossed_cols) * rows_to_go - (1 + 2 * crossed_rows) * cols_to_go
        if order <= 0:
            col += col_step
            crossed_cols += 1
        if order >= 0:
            row += row_step
            crossed_rows += 1
        visited.append((col, row))
    visited.pop()
    return visited


def walk_line_of_sight(width: int, a: Cell, b: Cell, blocked: int) -> bool:
    """True unless a cell strictly between a and b is set in ``blocked`` (bit ``row*width+col``)."""
    col, row = a
    cols_to_go, rows_to_go = abs(b[0] - col), abs(b[1] - row)
    col_step = 1 if b[0] > col else -1
    row_step = 1 if b[1] > row else -1
    crossed_cols = crossed_rows = 0
    steps_left = cols_to_go + rows_to_go
    while True:
        order = (1 + 2 * crossed_cols) * rows_to_go - (1 + 2 * crossed_rows) * cols_to_go
        if order <= 0:
            col += col_step
            crossed_cols += 1
            steps_left -= 1
        if order >= 0:
            row += row_step
            crossed_rows += 1
            steps_left -= 1
        if steps_left <= 0:
            return True
        if blocked >> (row * width + col) & 1:
            return False
