"""Line of sight: the rulebook's cases, the exact corner semantics, and the table against shapely and a walk."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardstate.geometry import OffBoard, SquareGrid
from boardstate.geometry._exact import DirectSight
from boardstate.geometry._lines import build_line_table
from boardstate.geometry._walk import walk_cells_between, walk_line_of_sight
from boardstate.modules.epic_duels.boards import BOARDS
from geometry_helpers import EPIC_BOARDS, at, small_board

THRONE = BOARDS["throne-room"]
GEONOSIS = BOARDS["geonosis"]
KAMINO = BOARDS["kamino"]


# -- the rulebook's cases, on positions set up on the real boards ------------------------------


def test_rulebook_clear_diagonal():
    """'An unobstructed straight line on the diagonal can be drawn between the two.'"""
    clone, dooku = at(2, 4), at(4, 6)
    assert THRONE.cells_between(clone, dooku) == (at(3, 5),)
    assert THRONE.straight_line_of_sight(clone, dooku, {clone, dooku})


def test_rulebook_shoots_over_the_blue_mist():
    clone, droid = at(2, 1), at(2, 4)
    assert [THRONE.terrain_at(c).name for c in THRONE.cells_between(clone, droid)] == [
        "mist",
        "mist",
    ]
    assert THRONE.straight_line_of_sight(clone, droid, {clone, droid})
    assert THRONE.path(clone, droid) != (clone, at(2, 2), at(2, 3), droid)


def test_rulebook_shoots_over_the_water_on_kamino():
    clone, droid = at(1, 5), at(1, 9)
    assert {KAMINO.terrain_at(c).name for c in KAMINO.cells_between(clone, droid)} == {"water"}
    assert KAMINO.straight_line_of_sight(clone, droid, {clone, droid})


def test_rulebook_obstacle_blocks_the_shot():
    """'This line cannot pass through any space with an obstacle (such as fallen pillars, or the starship).'"""
    assert not GEONOSIS.straight_line_of_sight(at(1, 4), at(1, 8))  # along the fallen pillar
    assert not GEONOSIS.straight_line_of_sight(at(0, 6), at(2, 8))  # diagonal through its end
    assert not KAMINO.straight_line_of_sight(at(3, 2), at(3, 4))  # Jango's square past Slave I
    assert GEONOSIS.straight_line_of_sight(at(0, 4), at(0, 8))  # the row above the pillar is clear


def test_rulebook_piece_in_between_blocks_the_shot_friend_or_foe():
    clone, droid, other = at(2, 1), at(2, 6), at(2, 4)
    assert THRONE.straight_line_of_sight(clone, droid, {clone, droid})
    assert not THRONE.straight_line_of_sight(clone, droid, {clone, droid, other})
    assert not THRONE.straight_line_of_sight(clone, droid, THRONE.mask({other}))


def test_rulebook_not_on_a_straight_line():
    """'Super Battle Droid 2 is not in a straight line ... Count Dooku is not in a straight line on the diagonal.'"""
    clone = at(2, 4)
    for target in (at(3, 6), at(5, 5), at(4, 7)):
        assert THRONE.line_of_sight(clone, target)  # nothing in the way at any angle...
        assert not THRONE.straight_line_of_sight(clone, target)  # ...but no row, column or diagonal


def test_rook_lines_exclude_diagonals_on_request():
    assert THRONE.straight_line_of_sight(at(2, 4), at(4, 6))
    assert not THRONE.straight_line_of_sight(at(2, 4), at(4, 6), diagonal=False)
    assert THRONE.straight_line_of_sight(at(2, 4), at(2, 9), diagonal=False)


# -- exact semantics ------------------------------------------------------------------------------


def test_diagonal_neighbours_see_each_other_between_two_blockers():
    board = small_board(".#", "#.")
    assert board.cells_between((0, 0), (1, 1)) == ()
    assert board.line_of_sight((0, 0), (1, 1))


def test_exact_diagonal_crosses_only_the_diagonal_squares():
    board = small_board(".#.", "#.#", ".#.")
    assert board.cells_between((0, 0), (2, 2)) == ((1, 1),)
    assert board.line_of_sight((0, 0), (2, 2))
    assert not board.line_of_sight((0, 0), (2, 2), {(1, 1)})


def test_line_through_a_corner_enters_neither_side_square():
    board = small_board("....", "....")
    # (0.5, 0.5) -> (3.5, 1.5) passes exactly through the grid corner at (2, 1).
    assert board.cells_between((0, 0), (3, 1)) == ((1, 0), (2, 1))
    assert board.line_of_sight((0, 0), (3, 1), {(2, 0), (1, 1)})
    assert not board.line_of_sight((0, 0), (3, 1), {(1, 0)})


def test_knight_move_crosses_both_squares_it_passes_between():
    board = small_board("..", "..", "..")
    assert board.cells_between((0, 0), (1, 2)) == ((0, 1), (1, 1))


def test_end_squares_never_block():
    board = small_board("#.#")
    assert board.line_of_sight((0, 0), (2, 0), {(0, 0), (2, 0)})
    assert not board.line_of_sight((0, 0), (2, 0), {(1, 0)})
    assert board.line_of_sight((1, 0), (1, 0), {(1, 0)})


def test_water_lets_sight_through_and_obstacles_do_not():
    board = small_board(".~.", ".#.")
    assert board.line_of_sight((0, 0), (2, 0))
    assert not board.line_of_sight((0, 1), (2, 1))


def test_off_board_cells_are_refused():
    with pytest.raises(OffBoard, match=r"cell \(10, 0\) is off the 10x7 board"):
        GEONOSIS.line_of_sight((0, 0), (10, 0))
    with pytest.raises(OffBoard, match="off the 10x7 board"):
        GEONOSIS.mask([(-1, 0)])


# -- the table against direct shapely, against the walk, and symmetric ----------------------------


@pytest.mark.parametrize("board", EPIC_BOARDS, ids=lambda b: b.id)
def test_table_equals_direct_shapely_for_every_pair(board):
    direct = DirectSight(board.grid)
    for a in board.cells:
        for b in board.cells:
            assert set(board.cells_between(a, b)) == direct.cells_between(a, b), (a, b)


@pytest.mark.parametrize("board", EPIC_BOARDS, ids=lambda b: b.id)
def test_table_equals_the_cell_walk_for_every_pair(board):
    for a in board.cells:
        for b in board.cells:
            assert board.cells_between(a, b) == tuple(
                sorted(walk_cells_between(a, b), key=lambda c: (c[1], c[0]))
            )


@pytest.mark.parametrize("board", EPIC_BOARDS, ids=lambda b: b.id)
def test_straight_lines_cross_exactly_the_squares_strictly_between(board):
    for a in board.cells:
        for b in board.cells:
            if a != b and board.is_straight_line(a, b):
                steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
                dc, dr = (b[0] - a[0]) // steps, (b[1] - a[1]) // steps
                stepped = {(a[0] + k * dc, a[1] + k * dr) for k in range(1, steps)}
                assert set(board.cells_between(a, b)) == stepped


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 12), st.integers(1, 12))
def test_walk_equals_shapely_table_on_any_grid_size(width, height):
    grid = SquareGrid(width, height)
    table = build_line_table(grid).between
    for i, a in enumerate(grid.cells()):
        for j, b in enumerate(grid.cells()):
            assert table[i][j] == sum(1 << grid.index(c) for c in walk_cells_between(a, b))


boards = st.sampled_from(EPIC_BOARDS)


@st.composite
def positions(draw):
    board = draw(boards)
    cells = st.sampled_from(board.cells)
    return board, draw(cells), draw(cells), draw(st.frozensets(cells, max_size=12))


@settings(max_examples=300, deadline=None)
@given(positions())
def test_line_of_sight_is_symmetric(position):
    board, a, b, occupied = position
    assert board.line_of_sight(a, b, occupied) == board.line_of_sight(b, a, occupied)
    assert board.straight_line_of_sight(a, b, occupied) == board.straight_line_of_sight(
        b, a, occupied
    )


@settings(max_examples=300, deadline=None)
@given(positions())
def test_line_of_sight_with_pieces_equals_direct_shapely_and_the_walk(position):
    board, a, b, occupied = position
    direct = DirectSight(board.grid, [c for c in board.cells if board.terrain_at(c).blocks_sight])
    expected = direct.line_of_sight(a, b, occupied)
    assert board.line_of_sight(a, b, occupied) == expected
    assert board.line_of_sight(a, b, board.mask(occupied)) == expected
    blocked = board.sight_blocking_mask | board.mask(occupied)
    assert walk_line_of_sight(board.width, a, b, blocked) == expected
