"""Star Wars Epic Duels: random rollouts wander the board for hundreds of commands, so the
bot's policy knows the game a little.

- Moves (a die of 3-5 squares gives a character dozens of equivalent end squares): the search
  weighs, per character, at most two squares from which it can attack (adjacent, or a clear
  straight line for a ranged character), the square nearest an enemy main character and the
  square farthest from every enemy (``moves``).
- Rollouts attack when in line, lay the strongest attack card, defend with the strongest
  defence card, draw on a short hand, and stop after ``depth`` commands.
- Where they stop, a position is worth the wound points left on each side (main characters
  first: losing one loses the game) and a little for the cards in hand.

It reads the table through the state's fields and its board's geometry (``roster``,
``square``, ``damage``, ``hands``): nothing a seat's view does not hold.
"""

from __future__ import annotations

from functools import lru_cache

from ._policies import Policy, shares

NOWHERE = -1


class EpicPolicy(Policy):
    depth = 40

    def __init__(self) -> None:
        self._moves: dict = {}

    # ------------------------------------------------------------------ the search's moves
    def candidates(self, state, seat: int, commands) -> list:
        commands = list(commands)
        if not commands or commands[0][0] != "move":
            return commands
        others = [c for c in commands if c[0] != "move"]
        return self.moves(state, seat, commands) + others

    def moves(self, state, seat: int, commands) -> list:
        """The move commands worth weighing (cached by the position: they read no card)."""
        key = (state.square, state.die, state.moved, seat, state.phase, state.stack[:1])
        found = self._moves.get(key)
        if found is None:
            if len(self._moves) > 4096:
                self._moves.clear()
            found = self._moves[key] = _chosen_moves(state, [c for c in commands if c[0] == "move"])
        return list(found)

    # ------------------------------------------------------------------ rollouts
    def pick(self, state, seat: int, commands, rng):
        first = commands[0][0]
        if first == "lay":
            return _best(commands, lambda c: _value(state, c[1], "attack"), rng)
        if first in ("defend", "undefended"):
            return _best(
                commands, lambda c: _value(state, c[1], "defense") if len(c) > 1 else 0, rng
            )
        if first == "move":
            moves = self.moves(state, seat, commands)
            others = [c for c in commands if c[0] != "move"]
            if any(c[0] == "done" for c in others):  # the die's move, or straight to actions
                attacks = [c for c in others if c[0] == "attack"]
                if attacks and rng.random() < 0.8:
                    return _attack(state, attacks, rng)
                if rng.random() > 0.85:
                    return _action(state, seat, others, rng)
            return moves[rng.randrange(len(moves))]
        if first in ("done", "draw", "heal", "attack", "play", "end", "release"):
            return _action(state, seat, commands, rng)
        return commands[rng.randrange(len(commands))]

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        rs = state.roster
        strength = []
        for seat in range(seats):
            mains = minors = 0.0
            for c in rs.chars_of(seat):
                left = max(0, rs.dies_at[c] - state.damage[c]) / rs.dies_at[c]
                if rs.chars[c].main:
                    mains += left
                else:
                    minors += left / 2
            hand = min(len(state.hands[seat]), 6) / 6 if state.hands else 0.0
            strength.append(mains / max(1, len(rs.mains_of(seat))) + 0.25 * minors + 0.1 * hand)
        return shares(strength, 5.0)


def _value(state, card: int, which: str) -> int:
    value = getattr(state.roster.cards[card], which)
    return value.base or 0 if value is not None else 0


def _best(commands, score, rng):
    top = max(score(c) for c in commands)
    best = [c for c in commands if score(c) == top]
    return best[rng.randrange(len(best))]


def _attack(state, attacks, rng):
    """The enemy nearest its end (a main character counts double)."""
    rs = state.roster

    def hurt(c):
        d = c[2]
        return state.damage[d] / rs.dies_at[d] + (1.0 if rs.chars[d].main else 0.0)

    return _best(attacks, hurt, rng)


def _action(state, seat: int, commands, rng):
    attacks = [c for c in commands if c[0] == "attack"]
    if attacks and rng.random() < 0.85:
        return _attack(state, attacks, rng)
    draws = [c for c in commands if c[0] == "draw"]
    if draws and len(state.hands[seat]) < 4 and rng.random() < 0.8:
        return draws[rng.randrange(len(draws))]
    plays = [c for c in commands if c[0] in ("play", "heal")]
    if plays and rng.random() < 0.6:
        return plays[rng.randrange(len(plays))]
    rest = [c for c in commands if c[0] != "end"] or commands
    return rest[rng.randrange(len(rest))]


def _chosen_moves(state, moves) -> tuple:
    """Per moving character: two attack positions (a ranged one's away from enemies, a melee
    one's next to an enemy main first), the square nearest an enemy main, the farthest from
    every enemy."""
    rs = state.roster
    board = rs.board
    cells = board.cells
    apart = _distances(board.width, len(cells))
    by_char: dict = {}
    for m in moves:
        by_char.setdefault(m[1], []).append(m[2])
    out = []
    for char, squares in by_char.items():
        enemies = [state.square[e] for e in rs.enemies(char) if state.square[e] != NOWHERE]
        if not enemies:
            out.extend(("move", char, sq) for sq in squares[:1])
            continue
        mains = [state.square[e] for e in rs.enemies(char) if rs.chars[e].main]
        mains = [sq for sq in mains if sq != NOWHERE] or enemies
        occupied = 0
        for i, sq in enumerate(state.square):
            if sq != NOWHERE and i != char:
                occupied |= 1 << sq
        ranged = rs.chars[char].ranged
        spots, near, far = [], None, None
        for sq in squares:
            row = apart[sq]
            nearest = min([row[e] for e in enemies])
            to_main = min([row[e] for e in mains])
            if near is None or to_main < near[0]:
                near = (to_main, sq)
            if far is None or nearest > far[0]:
                far = (nearest, sq)
            on_main = -1
            for e in enemies:
                if row[e] == 1 or (
                    ranged
                    and board.straight_line_of_sight(cells[sq], cells[e], occupied & ~(1 << e))
                ):
                    on_main = max(on_main, e in mains)
            if on_main >= 0:
                spots.append(((-on_main, -nearest if ranged else nearest), sq))
        spots.sort()
        chosen = [sq for _, sq in spots[:2]]
        for extra in (near, far):
            if extra is not None and extra[1] not in chosen:
                chosen.append(extra[1])
        out.extend(("move", char, sq) for sq in chosen)
    return tuple(out)


@lru_cache(maxsize=16)
def _distances(width: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Per pair of squares: the king's-move distance (a move of one, diagonals included)."""
    return tuple(
        tuple(max(abs(a % width - b % width), abs(a // width - b // width)) for b in range(count))
        for a in range(count)
    )
