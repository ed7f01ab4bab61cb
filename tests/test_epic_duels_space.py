"""Epic Duels' fast spatial paths against the board geometry they must equal."""

from __future__ import annotations

import random

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._space import (
    MovesOf,
    attackable,
    attacks_in_position,
    can_attack,
    cell,
    masks,
    occupied,
    path,
    path_bits,
    reachable,
    reachable_squares,
    reaches,
    walking_of,
)
from boardstate.modules.epic_duels.boards import BOARDS, SCENES


def positions(scene: str, count: int, characters: str = "han,jango"):
    """States from random games on ``scene``, the pieces put on random squares."""
    out = []
    for i in range(count):
        options = {"characters": characters, "board": scene}
        s = bs.random_playout(MODULE, ["ann", "ben"], options, seed=b"%d" % i, bot_seed=i)[0]
        rnd = random.Random(i)
        free = [sq for sq in range(70) if s.roster.board.walkable_mask >> sq & 1]
        squares = rnd.sample(free, len(s.square))
        out.append(s._replace(square=tuple(squares), damage=(0,) * len(s.square)))
    return out


@pytest.mark.parametrize("scene", SCENES)
def test_the_bit_parallel_moves_equal_the_boards_reachable(scene):
    for s in positions(scene, 6):
        for char in range(len(s.square)):
            for budget in (1, 2, 3, 4, 5, 8):
                assert reachable_squares(s, char, budget) == tuple(
                    sorted(reachable(s, char, budget))
                )


@pytest.mark.parametrize("scene", SCENES)
def test_the_friend_and_enemy_squares_are_the_rosters_friends(scene):
    """``masks`` (what a move passes through and what blocks it, read by both searches above)
    from the occupied squares, against ``Roster.friends`` asked of each character on the
    board, some taken off it."""
    for i, s in enumerate(positions(scene, 6)):
        gone = random.Random(i).sample(range(len(s.square)), i % 3)
        s = s._replace(square=tuple(-1 if c in gone else sq for c, sq in enumerate(s.square)))
        for char in range(len(s.square)):
            friends = enemies = 0
            for other, sq in enumerate(s.square):
                if other != char and sq != -1:
                    if s.roster.friends(char, other):
                        friends |= 1 << sq
                    else:
                        enemies |= 1 << sq
            assert masks(s, char) == (friends, enemies), (i, char, gone)


@pytest.mark.parametrize("scene", SCENES)
def test_one_square_reached_is_one_of_the_reachable_squares(scene):
    """``reaches`` (the referee's question of one move: the search stops at the goal) says
    what ``reachable_squares`` says, for every square of the board."""
    for s in positions(scene, 3):
        for char in range(len(s.square)):
            for budget in (1, 2, 3, 5):
                ends = reachable_squares(s, char, budget)
                for goal in range(len(s.roster.board.cells)):
                    assert reaches(s, char, goal, budget) == (goal in ends)


@pytest.mark.parametrize("scene", SCENES)
def test_the_bit_parallel_path_is_the_boards_path(scene):
    """``path_bits`` finds the very path ``Board.index_path`` finds (its first shortest one,
    not one of the same length): every start and goal of the board (blocked terrain, friends,
    enemies and the start's own square among them), budgets from none to more than the board
    needs, with friends and enemies drawn at random (seeded), as many as 11."""
    board = BOARDS[scene]
    walking = walking_of(board)
    size = len(board.cells)
    rnd = random.Random(scene)
    for _ in range(6):
        pieces = rnd.sample(range(size), rnd.randrange(12))
        cut = rnd.randrange(len(pieces) + 1)
        friends = sum(1 << sq for sq in pieces[:cut])
        enemies = sum(1 << sq for sq in pieces[cut:])
        for start in range(size):
            for goal in range(size):
                for budget in (0, 1, 3, 6, 40):
                    want = board.index_path(start, goal, budget, friends, enemies)
                    found = path_bits(walking, start, goal, budget, friends, enemies)
                    assert found == (want if want is None else tuple(want)), (start, goal, budget)


def test_the_bit_parallel_path_is_the_boards_path_on_odd_widths():
    """The same on boards of other shapes, odd widths among them, random walls and pieces: a
    step that wraps from one row's end to the next row's start (or back) could then look one
    nearer to a search that forgot its column checks.  (On the game's boards, 10 wide, such a
    square has the start's own colour, never one step nearer: only this test holds them.)"""
    from boardstate.geometry import Board, SquareGrid, Terrain

    floor, wall = Terrain("floor", "."), Terrain("wall", "#", blocks_movement=True)
    rnd = random.Random(29)
    for width, height in ((9, 5), (7, 7), (5, 3), (1, 6), (6, 1), (8, 4)):
        size = width * height
        for _ in range(10):
            terrain = tuple(wall if rnd.random() < 0.2 else floor for _ in range(size))
            board = Board(id="odd", title="Odd", grid=SquareGrid(width, height), terrain=terrain)
            walking = walking_of(board)
            pieces = rnd.sample(range(size), rnd.randrange(size // 4 + 1))
            cut = rnd.randrange(len(pieces) + 1)
            friends = sum(1 << sq for sq in pieces[:cut])
            enemies = sum(1 << sq for sq in pieces[cut:])
            for start in range(size):
                for goal in range(size):
                    for budget in (0, 2, 5, size):
                        want = board.index_path(start, goal, budget, friends, enemies)
                        found = path_bits(walking, start, goal, budget, friends, enemies)
                        assert found == (want if want is None else tuple(want)), (
                            width,
                            start,
                            goal,
                        )


@pytest.mark.parametrize("scene", SCENES)
def test_a_moves_path_is_the_boards_path(scene):
    """``path`` (a character's move) asks ``path_bits`` with the game's friends and enemies:
    the board's path for every character, budget and square of played positions."""
    for s in positions(scene, 3):
        board = s.roster.board
        for char in range(len(s.square)):
            friends, enemies = masks(s, char)
            for budget in (1, 2, 3, 5):
                for goal in range(len(board.cells)):
                    want = board.index_path(s.square[char], goal, budget, friends, enemies)
                    assert path(s, char, goal, budget) == (want if want is None else tuple(want))


ATTACK_CASES = {
    "adjacent": True,
    "a clear shot": True,
    "a shot a character blocks": False,
    "a shot terrain blocks": False,
    "off a straight line": False,
    "a melee character out of reach": False,
    "a character off the board": False,
}


def placed(scene: str, count: int):
    """Luke's and Vader's teams (melee and ranged characters) in ``count`` placements on
    ``scene``: half on random squares, half on free squares of one row, column or diagonal
    (through a square that blocks sight, every other time), so that characters and terrain
    stand in shots; none, one or two of them off the board."""
    s = positions(scene, 1, "luke,vader")[0]
    board, n = s.roster.board, len(s.square)
    w, h = board.width, board.height
    free = [q for q in range(w * h) if board.walkable_mask >> q & 1]
    walls = [q for q in range(w * h) if board.sight_blocking_mask >> q & 1]
    rnd = random.Random(scene)
    for i in range(count):
        squares = rnd.sample(free, n)
        if i % 2:
            q = rnd.choice(free if i % 4 == 1 else walls)
            dc, dr = rnd.choice(((1, 0), (0, 1), (1, 1), (1, -1)))
            col, row = q % w - dc * w, q // w - dr * w
            line = [(col + k * dc, row + k * dr) for k in range(3 * w)]
            line = [c + r * w for c, r in line if 0 <= c < w and 0 <= r < h]
            line = [sq for sq in line if sq in free]
            on = rnd.sample(line, min(n, len(line)))
            squares = on + [sq for sq in squares if sq not in on][: n - len(on)]
        gone = rnd.sample(range(n), i % 3)
        yield s._replace(square=tuple(-1 if c in gone else q for c, q in enumerate(squares)))


def attack_case(s, a: int, b: int) -> str:
    """Which of ``ATTACK_CASES`` ``a`` against ``b`` is, from the board's own answers (the
    shooter's and target's squares left out of what blocks the shot here only)."""
    if s.square[a] == -1 or s.square[b] == -1:
        return "a character off the board"
    board = s.roster.board
    ca, cb = cell(s, s.square[a]), cell(s, s.square[b])
    if board.adjacent(ca, cb, diagonal=True):
        return "adjacent"
    if not board.is_straight_line(ca, cb, diagonal=True):
        return "off a straight line"
    if not s.roster.chars[a].ranged:
        return "a melee character out of reach"
    if board.straight_line_of_sight(ca, cb, occupied(s, a, b)):
        return "a clear shot"
    return "a shot a character blocks" if board.line_of_sight(ca, cb) else "a shot terrain blocks"


@pytest.mark.parametrize("scene", SCENES)
def test_the_attack_table_equals_the_boards_straight_line_of_sight(scene):
    """``can_attack`` (the tables, what blocks a shot taken as every character's square)
    against the board's geometry, melee and ranged characters, some off the board, every case
    met: so it fails if the line table held a shot's end squares (every shot blocked), if a
    character did not block, if a melee character shot, if one off the board attacked."""
    seen = dict.fromkeys(ATTACK_CASES, 0)
    for s in placed(scene, 40):
        for a in range(len(s.square)):
            for b in range(len(s.square)):
                if a != b:
                    case = attack_case(s, a, b)
                    seen[case] += 1
                    assert can_attack(s, a, b) == ATTACK_CASES[case], (case, a, b)
    board = BOARDS[scene]
    free = board.cells_of(board.walkable_mask)
    if not any(
        board.straight_line_of_sight(a, b) < board.is_straight_line(a, b)
        for a in free
        for b in free
    ):
        del seen["a shot terrain blocks"]  # (throne room, carbon chamber: walls at the edges)
    assert all(seen.values()), seen


@pytest.mark.parametrize("scene", SCENES)
def test_the_attacks_of_several_attackers_are_each_ones_own(scene):
    """``attacks_in_position`` (the tables read once for all the attackers) is, attacker by
    attacker in the order given, each one's ``attackable``: its enemies it ``can_attack``;
    characters of both sides (each with its own enemies), some off the board."""
    for i, s in enumerate(placed(scene, 20)):
        chars = list(range(len(s.square)))
        random.Random(i).shuffle(chars)
        each = [(a, b) for a in chars for b in s.roster.enemies(a) if can_attack(s, a, b)]
        assert attacks_in_position(s, chars) == each
        assert [(a, b) for a in chars for b in attackable(s, a)] == each


def test_the_squares_of_a_bitmask_are_its_set_bits_ascending():
    """``squares_of`` reads a bitmask eight squares at a time from a table built for 72: every
    bit, on every board size, beyond the table too."""
    from boardstate.modules.epic_duels._space import squares_of

    rnd = random.Random(29)
    for size in (1, 8, 9, 70, 72, 73, 150):
        for _ in range(40):
            bits = sum(1 << sq for sq in rnd.sample(range(size), rnd.randrange(size + 1)))
            assert squares_of(bits) == tuple(sq for sq in range(size) if bits >> sq & 1)


def test_a_move_is_in_a_movers_moves_as_in_their_list():
    """``MovesOf``'s ``in`` reads a square's bit: the same answers as the list it stands for,
    for squares in and out of it and of the board, values of other types and other shapes."""
    pick = random.Random(7)
    for _ in range(200):
        moves = MovesOf(pick.randrange(4), pick.getrandbits(70))
        listed = list(moves)
        asked = [("move", moves.char, sq) for sq in range(-2, 75)]
        asked += [("move", moves.char + 1, 3), ("place", moves.char, 3), ("move", moves.char)]
        asked += [(c[0], float(c[1]), c[2]) for c in listed[:3]] + [["move", moves.char, 3]]
        asked += [c[:2] + (float(c[2]),) for c in listed[:3]] + [("move", True, 1), None]
        for command in asked:
            assert (command in moves) == (command in listed), command
