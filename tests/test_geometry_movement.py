"""Movement and adjacency: hand-checked moves, and reachability against a brute-force walk search."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardstate.modules.epic_duels.boards import BOARDS
from geometry_helpers import EPIC_BOARDS, at, small_board

GEONOSIS = BOARDS["geonosis"]


def brute_force_ends(board, start, budget, friends, enemies):
    """Every sequence of up to ``budget`` orthogonal steps, tried one by one."""
    friends, enemies = set(friends) - {start}, set(enemies) - {start}
    best: dict = {}

    def walk(cell, taken):
        if cell == start or cell not in friends | enemies:
            best[cell] = min(best.get(cell, taken), taken)
        if taken == budget:
            return
        for nxt in board.neighbours(cell):
            if board.enterable(nxt) and nxt not in enemies:
                walk(nxt, taken + 1)

    walk(start, 0)
    return best


@st.composite
def moves(draw):
    board = draw(st.sampled_from(EPIC_BOARDS))
    floor = [c for c in board.cells if board.enterable(c)]
    start = draw(st.sampled_from(floor))
    others = draw(st.lists(st.sampled_from(floor), max_size=10, unique=True))
    split = draw(st.integers(0, len(others)))
    return board, start, draw(st.integers(0, 6)), others[:split], others[split:]


@settings(max_examples=150, deadline=None)
@given(moves())
def test_reachable_equals_brute_force_search(move):
    board, start, budget, friends, enemies = move
    assert board.reachable(start, budget, friends, enemies) == brute_force_ends(
        board, start, budget, friends, enemies
    )


@settings(max_examples=150, deadline=None)
@given(moves(), st.data())
def test_path_is_a_legal_shortest_move(move, data):
    board, start, budget, friends, enemies = move
    ends = board.reachable(start, budget, friends, enemies)
    goal = data.draw(st.sampled_from(board.cells))
    path = board.path(start, goal, budget, friends, enemies)
    if goal not in ends:
        assert path is None
        return
    assert path[0] == start and path[-1] == goal and len(path) - 1 == ends[goal]
    for step, nxt in zip(path, path[1:]):
        assert board.adjacent(step, nxt)
        assert board.enterable(nxt) and nxt not in enemies


def test_cannot_enter_obstacles_water_or_mist():
    kamino, throne = BOARDS["kamino"], BOARDS["throne-room"]
    assert at(1, 6) not in kamino.reachable(at(1, 5), 5)
    assert at(2, 2) not in throne.reachable(at(2, 1), 5)
    assert at(1, 5) not in GEONOSIS.reachable(at(1, 4), 5)


def test_reach_counts_steps_around_the_pillar():
    # From (row 2, col 8) to (row 2, col 6) the pillar at (2,7),(1,7) forces a detour through row 3.
    assert GEONOSIS.path(at(2, 8), at(2, 6)) == (at(2, 8), at(3, 8), at(3, 7), at(3, 6), at(2, 6))
    assert at(2, 6) not in GEONOSIS.reachable(at(2, 8), 3)
    assert GEONOSIS.reachable(at(2, 8), 4)[at(2, 6)] == 4


def test_through_friends_but_not_onto_them():
    board = small_board(".....")
    ends = board.reachable((0, 0), 3, friends={(1, 0)})
    assert ends == {(0, 0): 0, (2, 0): 2, (3, 0): 3}


def test_never_through_an_enemy():
    board = small_board(".....")
    assert board.reachable((0, 0), 4, enemies={(2, 0)}) == {(0, 0): 0, (1, 0): 1}
    assert board.path((0, 0), (3, 0), None, (), {(2, 0)}) is None


def test_standing_still_is_always_allowed_even_if_the_mover_is_listed():
    board = small_board("...")
    assert board.reachable((1, 0), 0, friends={(1, 0)}) == {(1, 0): 0}
    assert board.path((1, 0), (1, 0), 0) == ((1, 0),)


def test_occupancy_can_be_given_as_masks():
    board = small_board(".....")
    assert board.reachable((0, 0), 3, board.mask({(1, 0)}), 0) == board.reachable(
        (0, 0), 3, {(1, 0)}, ()
    )


def test_moves_are_orthogonal_only():
    board = small_board("..", "..")
    assert board.reachable((0, 0), 1) == {(0, 0): 0, (1, 0): 1, (0, 1): 1}


def test_adjacency_orthogonal_and_with_diagonals():
    assert GEONOSIS.adjacent(at(3, 3), at(3, 4))
    assert not GEONOSIS.adjacent(at(3, 3), at(4, 4))
    assert GEONOSIS.adjacent(at(3, 3), at(4, 4), diagonal=True)
    assert not GEONOSIS.adjacent(at(3, 3), at(3, 3), diagonal=True)
    assert not GEONOSIS.adjacent(at(3, 3), at(3, 5), diagonal=True)
    assert sorted(GEONOSIS.neighbours((0, 0))) == [(0, 1), (1, 0)]
    assert len(GEONOSIS.neighbours((4, 3), diagonal=True)) == 8
    assert len(GEONOSIS.neighbours((9, 6), diagonal=True)) == 3


def test_distances():
    assert GEONOSIS.distance((0, 0), (3, 2)) == 5
    assert GEONOSIS.distance((0, 0), (3, 2), diagonal=True) == 3


@pytest.mark.parametrize("board", EPIC_BOARDS, ids=lambda b: b.id)
def test_every_start_square_can_move(board):
    for name, cell in board.named_squares.items():
        assert (
            len(board.reachable(cell, 2, enemies=set(board.named_squares.values()) - {cell})) > 1
        ), name


def test_empty_cells_are_enterable_and_unoccupied():
    board = small_board(".#~", "...")
    assert board.empty_cells() == ((0, 0), (0, 1), (1, 1), (2, 1))
    assert board.empty_cells({(1, 1)}) == ((0, 0), (0, 1), (2, 1))
    assert len(GEONOSIS.empty_cells(GEONOSIS.named_squares.values())) == 70 - 13 - 12
