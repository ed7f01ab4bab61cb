"""Where characters stand and what they reach: moves, attack position, line of sight, squares.

Squares are cell indexes of the board (``row * width + col``); the board answers the geometry
(``boardstate.geometry``), this file asks it the game's questions.
"""

from __future__ import annotations

from functools import lru_cache

from ._state import NOWHERE, EpicState


def tables(s: EpicState) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    return _tables(s.roster.scene)


@lru_cache(maxsize=8)
def _tables(scene: str) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """``board_tables(scene)``, kept between commands as the board's file is (a pure function of
    the board and the code; 1 ms to make: every ``verify``'s first attack, issue 29)."""
    from boardstate.rules import kept

    return kept(board_tables, __package__, scene)


def board_tables(scene: str) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per square: the squares touching it (a bitmask, diagonals included); per pair: the
    squares a queen-line shot crosses (the board's line table), or -1 off a straight line.
    Made from the geometry, so the hot loop does bit tests only."""
    from .boards import BOARDS

    board = BOARDS[scene]
    cells = board.cells
    near = tuple(board.mask(board.neighbours(c, diagonal=True)) for c in cells)
    straight = board.grid.is_straight_line  # (the board's own answer: it asks its grid)
    shots = []
    for i, (a, crossed) in enumerate(zip(cells, board.line_table.between)):
        row = [-1] * len(cells)
        for j, b in enumerate(cells):
            if j != i and straight(a, b, diagonal=True):
                row[j] = crossed[j]
        shots.append(tuple(row))
    shots = tuple(shots)
    return near, shots


def cell(s: EpicState, square: int):
    return s.roster.board.cells[square]


def index(s: EpicState, c) -> int:
    b = s.roster.board
    return c[1] * b.width + c[0]


def square_name(board, square: int) -> str:
    """Chess-like: columns a-j from the left, rows 1-7 from the bottom (``a1`` bottom left)."""
    col, row = board.cells[square]
    return f"{chr(ord('a') + col)}{board.height - row}"


def masks(s: EpicState, char: int) -> tuple[int, int]:
    """(friends, enemies) of ``char`` as square bitmasks (``Roster.friends``): its enemies'
    squares, and every other character's (one character a square)."""
    square = s.square
    enemies = 0
    for i in s.roster.enemies(char):
        sq = square[i]
        if sq != NOWHERE:
            enemies |= 1 << sq
    own = square[char]
    others = _occupied(square) & ~(1 << own) if own != NOWHERE else _occupied(square)
    return others & ~enemies, enemies


def occupied(s: EpicState, *but: int) -> int:
    if not but:
        return _occupied(s.square)
    bits = 0
    for i, sq in enumerate(s.square):
        if sq != NOWHERE and i not in but:
            bits |= 1 << sq
    return bits


def _occupied(square: tuple[int, ...]) -> int:
    """Every character's square as a bitmask.  (Not cached by the position: a playout's
    positions rarely come again, and a cache that misses costs more than the loop.)"""
    bits = 0
    for sq in square:
        if sq != NOWHERE:
            bits |= 1 << sq
    return bits


def reachable(s: EpicState, char: int, budget: int) -> dict[int, int]:
    """End squares of a move of up to ``budget`` squares (the start excluded) -> steps."""
    board = s.roster.board
    friends, enemies = masks(s, char)
    start = cell(s, s.square[char])
    ends = board.reachable(start, budget, friends, enemies)
    width = board.width
    return {c[1] * width + c[0]: n for c, n in ends.items() if c != start}


def reachable_squares(s: EpicState, char: int, budget: int) -> tuple[int, ...]:
    """The end squares of ``reachable`` (ascending), by a bit-parallel breadth-first search: the
    same rule as the board's (orthogonal steps, through friends, not enemies or blocked terrain,
    never ending on a character); ``tests/test_epic_duels_space.py`` holds the two equal."""
    return squares_of(reachable_bits(s, char, budget))


def reachable_bits(s: EpicState, char: int, budget: int) -> int:
    """The squares of ``reachable_squares`` as a bitmask."""
    return reachable_bits_of(s, (char,), budget)[0]


def reachable_bits_of(s: EpicState, chars, budget: int) -> list[int]:
    """``reachable_bits`` of each of ``chars``: the board's masks and the occupied squares read
    once, and the enemies' squares once for characters whose enemies are the same (one
    player's movers: equal tuples, not one tuple, on the roster)."""
    square = s.square
    occupied = _occupied(square)
    walking = _walking(s.roster.scene)
    enemies_of = s.roster.enemies
    out = []
    foes = passable = None
    for char in chars:
        if enemies_of(char) != foes:
            foes = enemies_of(char)
            passable = walking[1] & ~_squares(square, foes)
        out.append(_spread(walking, square[char], budget, passable) & ~occupied)
    return out


def nth_square(bits: int, i: int) -> int:
    """``squares_of(bits)[i]``, the tuple not made: the ``i``-th lowest set bit."""
    for _ in range(i):
        bits &= bits - 1
    return (bits & -bits).bit_length() - 1


def squares_of(bits: int) -> tuple[int, ...]:
    """The squares of a bitmask, ascending: eight at a time, from a table of each byte's."""
    out = ()
    for chunk in _byte_squares():
        if not bits:
            return out
        out += chunk[bits & 255]
        bits >>= 8
    base = len(_byte_squares()) * 8  # (a board larger than the table: the rest one by one)
    return out + tuple(base + i for i in range(bits.bit_length()) if bits >> i & 1)


class MovesOf:
    """One mover's moves as a sequence: ``("move", char, square)`` for the squares of ``ends``
    (its reachable squares' bitmask) in ascending order; its length is the bitmask's count, only
    an item asked for is made, and ``in`` reads a square's bit (the referee asks of one move)."""

    __slots__ = ("char", "ends")

    def __init__(self, char: int, ends: int) -> None:
        self.char, self.ends = char, ends

    def __len__(self) -> int:
        return self.ends.bit_count()

    def __getitem__(self, i: int) -> tuple:
        if not 0 <= i < self.ends.bit_count():
            raise IndexError(i)
        return ("move", self.char, nth_square(self.ends, i))

    def __iter__(self):
        char = self.char
        return iter([("move", char, sq) for sq in squares_of(self.ends)])

    def __contains__(self, command) -> bool:
        """``command in list(self)``: a tuple's int square by its bit; anything else by the list,
        as ``in`` compares (``5.0`` equals ``5``)."""
        if type(command) is not tuple or len(command) != 3 or type(command[2]) is not int:
            return command in list(self)
        square = command[2]
        return command[:2] == ("move", self.char) and square >= 0 and bool(self.ends >> square & 1)


@lru_cache(maxsize=1)
def _byte_squares() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per byte of a square bitmask (the first eight squares, the next eight... up to 72: the
    boards have 70), per value of that byte: its squares.  Built on first use, each byte's from
    those of the byte less its lowest bit (a quarter of the CPU of testing each bit: 0.5 ms of
    a ``verify``, issue 29)."""
    tables = []
    for base in range(0, 72, 8):
        table = [()] * 256
        for byte in range(1, 256):
            low = byte & -byte
            table[byte] = (base + low.bit_length() - 1, *table[byte ^ low])
        tables.append(tuple(table))
    return tuple(tables)


def reaches(s: EpicState, char: int, goal: int, budget: int) -> bool:
    """``goal in reachable_squares(s, char, budget)``: the same search, stopped once it has
    seen ``goal`` (the referee asks of one move)."""
    square = s.square
    walking = _walking(s.roster.scene)
    passable = walking[1] & ~_squares(square, s.roster.enemies(char))
    ends = _spread(walking, square[char], budget, passable, 1 << goal) & ~_occupied(square)
    return bool(ends >> goal & 1)


def _spread(walking: tuple, start: int, budget: int, passable: int, wanted: int = 0) -> int:
    """The squares ``budget`` orthogonal steps or fewer from ``start`` through ``passable``
    ones (the start with them): a move's end squares once the occupied ones are taken out
    (steps go through friends, not enemies or blocked terrain, and end on no character; the
    mover's own square is occupied).  With ``wanted`` (a square's bit), possibly only those
    found by the time it was seen (every square the full search finds that it has seen)."""
    w, _, not_first, not_last = walking
    seen = frontier = 1 << start
    for _ in range(budget):
        f = frontier
        step = ((f << 1) & not_first) | ((f >> 1) & not_last) | (f << w) | (f >> w)
        frontier = step & passable & ~seen
        if not frontier:
            break
        seen |= frontier
        if seen & wanted:
            break
    return seen


def _squares(square: tuple[int, ...], chars) -> int:
    """The squares of ``chars`` on the board as a bitmask."""
    bits = 0
    for c in chars:
        sq = square[c]
        if sq != NOWHERE:
            bits |= 1 << sq
    return bits


@lru_cache(maxsize=8)
def _walking(scene: str) -> tuple[int, int, int, int]:
    """``walking_of`` the scene's board, made once."""
    from .boards import BOARDS

    return walking_of(BOARDS[scene])


def walking_of(board) -> tuple[int, int, int, int]:
    """(the board's width, the squares a piece may enter, squares not in the first column,
    squares not in the last), the last three as bitmasks: what the bit-parallel searches shift
    and mask (a test builds it for boards other than the game's)."""
    w, h = board.width, board.height
    full = (1 << (w * h)) - 1
    first = sum(1 << (r * w) for r in range(h))
    last = sum(1 << (r * w + w - 1) for r in range(h))
    return w, board.walkable_mask & full, full & ~first, full & ~last


def path(s: EpicState, char: int, goal: int, budget: int) -> tuple[int, ...] | None:
    """The path of ``char``'s move to ``goal``: the board's ``index_path`` (its first shortest
    path), found on bitmasks (``path_bits``)."""
    square = s.square
    walking = _walking(s.roster.scene)
    enemies = _squares(square, s.roster.enemies(char))
    return path_bits(walking, square[char], goal, budget, _occupied(square) & ~enemies, enemies)


def path_bits(
    walking: tuple, start: int, goal: int, budget: int, friends: int, enemies: int
) -> tuple[int, ...] | None:
    """``Board.index_path(start, goal, budget, friends, enemies)`` as a tuple, by a bit-parallel
    search (``walking``: ``walking_of`` the board): the same path, not a path of the same length.

    The geometry searches breadth first from the start, each square's neighbours up, left,
    right, down, and keeps each square's first parent; so its path is, of all the shortest
    ones, the one whose steps come first in that order, step by step.  Here: the squares 1, 2...
    steps from the goal (through the same squares: steps go both ways), until the start is one
    of them; then from the start, each time, the first step in that order that comes one step
    nearer.  ``tests/test_epic_duels_space.py`` holds the two equal on every board."""
    if goal == start:
        return (start,)
    own = 1 << start
    aim = 1 << goal
    w, walkable, not_first, not_last = walking
    passable = walkable & ~enemies | own  # (the start, whatever the masks say of it)
    if (friends | enemies) & aim or not passable & aim:
        return None  # (a move ends on no character, and never on blocked terrain)
    seen = frontier = aim
    rings = []
    for _ in range(budget):
        f = frontier
        frontier = ((f << 1) & not_first | (f >> 1) & not_last | f << w | f >> w) & passable & ~seen
        if frontier & own:
            break
        if not frontier:
            return None
        seen |= frontier
        rings.append(frontier)
    else:
        return None
    here = start
    out = [start]
    rings.reverse()
    rings.append(aim)
    for on in rings:
        if here >= w and on >> (here - w) & 1:
            here -= w
        elif here % w and on >> (here - 1) & 1:
            here -= 1
        elif (here + 1) % w and on >> (here + 1) & 1:
            here += 1
        else:
            here += w
        out.append(here)
    return tuple(out)


def adjacent(s: EpicState, a: int, b: int) -> bool:
    """Characters ``a`` and ``b`` stand on touching squares (diagonals included)."""
    sa, sb = s.square[a], s.square[b]
    if sa == NOWHERE or sb == NOWHERE:
        return False
    return bool(tables(s)[0][sa] >> sb & 1)


def around(s: EpicState, char: int) -> tuple[int, ...]:
    """Characters on the squares touching ``char``'s."""
    return tuple(i for i in range(len(s.square)) if i != char and adjacent(s, char, i))


def line_blocker(s: EpicState, a: int, b: int) -> str | None:
    """Why ``a`` cannot shoot ``b`` along a straight line: None if it can."""
    board = s.roster.board
    ca, cb = cell(s, s.square[a]), cell(s, s.square[b])
    if not board.is_straight_line(ca, cb, diagonal=True):
        return "not on a straight row, column or diagonal"
    for c in board.cells_between(ca, cb):
        sq = index(s, c)
        if board.sight_blocking_mask >> sq & 1:
            return (
                f"line of sight blocked by {board.terrain_at(c).name} at {square_name(board, sq)}"
            )
        for i, other in enumerate(s.square):
            if other == sq:
                who = s.roster.chars[i].name
                return f"line of sight blocked by {who} at {square_name(board, sq)}"
    return None


def can_attack(s: EpicState, a: int, b: int) -> bool:
    """Attack position: adjacent, or (a ranged character) a clear straight line: the board's
    ``straight_line_of_sight`` read from ``tables`` (a test holds the two equal)."""
    return bool(_in_position(s, (a,), lambda _: (b,)))


def _in_position(s: EpicState, attackers, others_of) -> list:
    """``(a, b)`` for each of ``attackers`` in turn and each of its ``others_of(a)`` it is in
    attack position against (``can_attack``), the board's ``tables`` and what blocks a shot
    (``shot_blocking``) read once for all of them.  (A shot's crossed squares are those
    strictly between: the shooter and its target never block it.)"""
    square = s.square
    near, shots = tables(s)
    chars = s.roster.chars
    blocking = shot_blocking(s)
    out = []
    for a in attackers:
        sa = square[a]
        if sa == NOWHERE:
            continue
        near_a, shots_a, ranged = near[sa], shots[sa], chars[a].ranged
        for b in others_of(a):
            sb = square[b]
            if sb == NOWHERE:
                continue
            if near_a >> sb & 1:
                out.append((a, b))
            elif ranged:
                crossed = shots_a[sb]
                if crossed >= 0 and not crossed & blocking:
                    out.append((a, b))
    return out


def shot_blocking(s: EpicState) -> int:
    """The squares that block a shot: blocking terrain and every character (the shooter and
    its target are not crossed, ``_in_position``)."""
    return s.roster.board.sight_blocking_mask | _occupied(s.square)


def attackable(s: EpicState, a: int) -> tuple[int, ...]:
    """Enemy characters ``a`` could attack now."""
    return tuple([b for _, b in _in_position(s, (a,), s.roster.enemies)])


def attacks_in_position(s: EpicState, attackers) -> list:
    """``(a, b)``: each of ``attackers`` in turn and each enemy it could attack now
    (``attackable`` of them all, the tables and what blocks a shot read once)."""
    return _in_position(s, attackers, s.roster.enemies)


def empty_squares(s: EpicState) -> tuple[int, ...]:
    board = s.roster.board
    free = board.walkable_mask & ~occupied(s)
    return tuple(i for i in range(len(board.cells)) if free >> i & 1)


def empty_around(s: EpicState, square: int) -> tuple[int, ...]:
    """Empty enterable squares touching ``square`` (diagonals included)."""
    board = s.roster.board
    w, h = board.width, board.height
    free = board.walkable_mask & ~occupied(s)
    col, row = square % w, square // w
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            c, r = col + dc, row + dr
            if (dr or dc) and 0 <= c < w and 0 <= r < h and free >> (r * w + c) & 1:
                out.append(r * w + c)
    return tuple(sorted(out))
