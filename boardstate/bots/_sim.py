"""The fast path for bots: one module's rules on states (decide and evolve, no log, no files),
and playouts from any state, a determinized one included."""

from __future__ import annotations

from .._decider import Decider
from .._module import HIDDEN, Choice
from .._rng import FastRng
from .._simulate import Unrecorded


class Sim:
    """One module's rules as the search asks them, with the fast path's randomness (seeded:
    the same seed plays the same)."""

    __slots__ = ("module", "rules", "legal", "to_act", "outcome", "choice", "view", "_table")

    def __init__(self, module, seed: bytes = b"") -> None:
        decider = Decider(module)
        rules = module.rules
        self.module = module
        self.rules = rules
        self.legal = rules.legal
        self.to_act = rules.to_act
        self.outcome = rules.outcome
        self.choice = getattr(rules, "choice", None) or decider.choice
        self.view = rules.view
        self._table = Unrecorded(None, rules.evolve, FastRng(seed, b"bot"))

    def step(self, state, moves):
        """The state after ``moves`` (``((seat, command), ...)``, each legal; a face-down
        choice as ``HIDDEN``)."""
        table = self._table
        table.state = state
        self.rules.decide(table, moves)
        return table.state


def laid(sim: Sim, state, seat: int, face_down: dict, pick, rng):
    """The command ``seat`` turns over: the one it laid face down, or (another seat's, where
    the determinization guessed none) one of the commands it could give now."""
    command = face_down.pop(seat, None)
    return command if command is not None else pick(state, seat, sim.legal(state, seat), rng)


def rewards(outcome, seats: int) -> tuple[float, ...]:
    """Each seat's share of the result: 1 for a sole winner, 1/k for one of k tied winners."""
    share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
    return tuple(share if s in outcome.winners else 0.0 for s in range(seats))


def playout(sim: Sim, state, face_down: dict, pick, rng, limit: int | None = None):
    """Play from ``state`` with ``pick(state, seat, commands, rng)`` choosing, for at most
    ``limit`` commands (None: to the end): ``(state, outcome or None)``.  ``face_down`` (seat
    -> command laid face down) is updated as the play goes."""
    legal, to_act, outcome, choice, step = sim.legal, sim.to_act, sim.outcome, sim.choice, sim.step
    for _ in range(limit if limit is not None else 1_000_000):
        result = outcome(state)
        if result is not None:
            return state, result
        how = choice(state)
        seats = to_act(state)
        if how == Choice.TURN_OVER:
            seat = seats[0]
            moves = ((seat, laid(sim, state, seat, face_down, pick, rng)),)
        elif how == Choice.FACE_DOWN:
            seat = seats[0]
            face_down[seat] = pick(state, seat, legal(state, seat), rng)
            moves = ((seat, HIDDEN),)
        else:
            moves = tuple([(seat, pick(state, seat, legal(state, seat), rng)) for seat in seats])
        state = step(state, moves)
    return state, outcome(state)
