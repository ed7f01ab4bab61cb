"""Shared helpers for the geometry tests: the reference's (row, col) notation and small boards."""

from boardstate.geometry import Board, parse_board
from boardstate.modules.epic_duels.boards import BOARDS

EPIC_BOARDS = [BOARDS[scene] for scene in BOARDS]


def at(row: int, col: int) -> tuple[int, int]:
    """A cell named the way the reference file does, (row, col), as the library's (col, row)."""
    return (col, row)


def small_board(*rows: str, board_id: str = "test") -> Board:
    """A board from map rows: '.' floor, '#' blocks movement and sight, '~' blocks movement only."""
    text = (
        "map = '''\n"
        + "\n".join(rows)
        + "\n'''\n"
        + """title = "Test"
[terrain.floor]
symbol = "."
[terrain.obstacle]
symbol = "#"
blocks = ["movement", "sight"]
[terrain.water]
symbol = "~"
blocks = ["movement"]
"""
    )
    return parse_board(text, board_id)
