"""The four Epic Duels battle scenes as data, checked against the reference's maps and start squares."""

import pytest

from boardstate.geometry import Board, OffBoard
from boardstate.modules.epic_duels.boards import BOARDS, SCENES
from geometry_helpers import EPIC_BOARDS, at

# Transcribed from the board scans of the public Confirmation/Epic-Duels clone, rows top to bottom.
# Letters are start squares (floor). Kamino's cols 6-8 of rows 0 and 6 are '~' here
# (water on the scan, where the reference map shows '#'): see test_kamino_edge_water_choice_changes_nothing.
REFERENCE_MAPS = {
    "geonosis": """
        . . . . . . L . . H
        . . . . . # # # A .
        J . . . . . W # . .
        . . E . . . . . O .
        V B . M . . . . . Y
        . . . . . . . . . #
        # # # # D . # # # #""",
    "kamino": """
        . . M . . . ~ ~ ~ #
        . . . . . H ~ ~ ~ .
        B . . . . . . W . .
        . . J # . O Y . A .
        . # # # . . . . . L
        E . # # . . ~ ~ ~ .
        . V . D . . ~ ~ ~ #""",
    "throne-room": """
        A . . H # # # # # #
        ~ . ~ . . . . B # #
        ~ . ~ ~ . . . . . .
        . . L . . . D M V E
        ~ W ~ ~ . . . . . .
        ~ . ~ O . . . J # #
        Y . . . # # # # # #""",
    "carbon-chamber": """
        # # # J . . . . # #
        # # . . . . . O . Y
        . . . . . . . . H .
        M D E . V L . . . .
        . . . . . . . W . .
        # # . . . . . . . A
        # # # B . . . . # #""",
}

LETTER_NAMES = {
    "Y": "yoda",
    "O": "obi-wan",
    "W": "mace",
    "L": "luke",
    "A": "anakin",
    "H": "han",
    "V": "vader",
    "M": "maul",
    "B": "boba",
    "J": "jango",
    "E": "emperor",
    "D": "dooku",
}

# Start squares as (row, col), as the reference lists them in prose.
REFERENCE_STARTS = {
    "kamino": {
        "emperor": (5, 0),
        "vader": (6, 1),
        "mace": (2, 7),
        "obi-wan": (3, 5),
        "anakin": (3, 8),
    },
    "throne-room": {
        "anakin": (0, 0),
        "han": (0, 3),
        "luke": (3, 2),
        "mace": (4, 1),
        "obi-wan": (5, 3),
        "yoda": (6, 0),
        "emperor": (3, 9),
    },
    "carbon-chamber": {
        "dooku": (3, 1),
        "emperor": (3, 2),
        "vader": (3, 4),
        "han": (2, 8),
        "luke": (3, 5),
    },
    "geonosis": {"han": (0, 9)},
}


def reference_grid(scene: str) -> list[list[str]]:
    return [line.split() for line in REFERENCE_MAPS[scene].strip().splitlines()]


def test_scenes_are_the_four_battle_scenes_in_rulebook_order():
    assert list(BOARDS) == list(SCENES) == ["geonosis", "kamino", "throne-room", "carbon-chamber"]
    assert [BOARDS[s].title for s in SCENES] == [
        "Geonosis Arena",
        "Kamino Platform",
        "Emperor's Throne Room",
        "Carbon-Freezing Chamber",
    ]


@pytest.mark.parametrize("scene", SCENES)
def test_board_is_ten_columns_by_seven_rows(scene):
    board = BOARDS[scene]
    assert (board.width, board.height) == (10, 7)
    assert len(board.cells) == 70


@pytest.mark.parametrize("scene", SCENES)
def test_terrain_and_start_squares_match_the_reference_map(scene):
    board = BOARDS[scene]
    for row, symbols in enumerate(reference_grid(scene)):
        for col, symbol in enumerate(symbols):
            cell = at(row, col)
            terrain = board.terrain_at(cell)
            if symbol in LETTER_NAMES:
                assert board.square(LETTER_NAMES[symbol]) == cell
                assert terrain.name == "floor"
            else:
                assert terrain.symbol == symbol, (scene, row, col)


@pytest.mark.parametrize("scene", SCENES)
def test_every_board_names_all_twelve_start_squares(scene):
    assert sorted(BOARDS[scene].named_squares) == sorted(LETTER_NAMES.values())


def test_all_48_start_squares_are_distinct_floor_squares():
    total = 0
    for board in EPIC_BOARDS:
        cells = list(board.named_squares.values())
        assert len(set(cells)) == 12
        assert all(board.enterable(cell) for cell in cells)
        total += len(cells)
    assert total == 48


@pytest.mark.parametrize("scene", list(REFERENCE_STARTS))
def test_scan_start_squares_win_over_the_java_clone(scene):
    board = BOARDS[scene]
    for name, (row, col) in REFERENCE_STARTS[scene].items():
        assert board.square(name) == at(row, col), name


@pytest.mark.parametrize(
    ("scene", "terrain", "blocks_movement", "blocks_sight", "count"),
    [
        ("geonosis", "obstacle", True, True, 13),
        ("kamino", "obstacle", True, True, 8),
        ("kamino", "water", True, False, 12),
        ("throne-room", "obstacle", True, True, 16),
        ("throne-room", "mist", True, False, 10),
        ("carbon-chamber", "obstacle", True, True, 14),
    ],
)
def test_obstacles_block_shots_and_water_or_mist_only_movement(
    scene, terrain, blocks_movement, blocks_sight, count
):
    board = BOARDS[scene]
    found = [t for t in board.terrain if t.name == terrain]
    assert len(found) == count
    assert (found[0].blocks_movement, found[0].blocks_sight) == (blocks_movement, blocks_sight)


def test_floor_blocks_nothing_on_every_board():
    for board in EPIC_BOARDS:
        floor = {t for t in board.terrain if t.name == "floor"}
        assert len(floor) == 1
        assert not any(t.blocks_movement or t.blocks_sight for t in floor)


def test_kamino_edge_water_choice_changes_no_straight_shot():
    """Cols 6-8 of rows 0 and 6 are water on the scan but obstacles in the Java clone.

    No straight line between two enterable squares crosses them, so Epic Duels plays the same either way.
    """
    kamino = BOARDS["kamino"]
    edge = {at(row, col) for row in (0, 6) for col in (6, 7, 8)}
    assert {kamino.terrain_at(c).name for c in edge} == {"water"}
    as_obstacles = kamino.sight_blocking_mask | kamino.mask(edge)
    enterable = [i for i, c in enumerate(kamino.cells) if kamino.enterable(c)]
    table = kamino.line_table.between
    straight = [
        (i, j)
        for i in enterable
        for j in enterable
        if kamino.is_straight_line(kamino.cells[i], kamino.cells[j])
    ]
    assert len(straight) > 500
    for i, j in straight:
        assert not table[i][j] & kamino.mask(edge)
        assert bool(table[i][j] & as_obstacles) == bool(table[i][j] & kamino.sight_blocking_mask)


def test_square_lookup_names_the_known_squares_when_missing():
    with pytest.raises(OffBoard, match="no square named 'grievous'.*known: anakin, boba"):
        BOARDS["geonosis"].square("grievous")


def test_boards_are_loaded_once_and_compare_by_value():
    assert BOARDS["kamino"] is BOARDS["kamino"]
    assert isinstance(BOARDS["kamino"], Board)
    assert BOARDS["kamino"] != BOARDS["geonosis"]
