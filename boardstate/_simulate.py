"""The fast path: decide + evolve on states, no log, no hashing — for bots and simulations."""

from __future__ import annotations

import random

from ._decider import Decider
from ._module import HIDDEN, Choice
from ._rng import FastRng
from ._table import Table


def random_playout(
    module,
    players,
    raw_options=None,
    seed: bytes = b"",
    bot_seed: int = 0,
    *,
    max_actions: int = 1_000_000,
):
    """Play one game to the end with uniformly random legal commands.

    Returns ``(final_state, outcome, actions)``; ``actions`` counts one per seat per command.
    A face-down choice is decided on ``HIDDEN`` and turned over when the rules ask, as in play.
    """
    decider = Decider(module)
    players = tuple(players)
    options = decider.options(dict(raw_options or {}), players)
    rng = FastRng(seed, b"fast")
    state = decider.start(decider.initial(options, players, module.spec.revision), rng)[1]
    pick = random.Random(bot_seed).choice
    legal, to_act, outcome = decider.legal, decider.to_act, decider.outcome
    choice = getattr(module.rules, "choice", None) or decider.choice
    decide_into = module.rules.decide
    table = _Unrecorded(state, decider.evolve, rng)  # one table for the game: no log is kept
    face_down: dict = {}
    actions = 0
    while (result := outcome(state)) is None:
        how = choice(state)
        if how < Choice.FACE_DOWN:  # in the open, or sealed (the fast path sees all at once)
            moves = tuple([(seat, pick(legal(state, seat))) for seat in to_act(state)])
        elif how == Choice.FACE_DOWN:
            (seat,) = to_act(state)
            face_down[seat] = pick(legal(state, seat))
            moves = ((seat, HIDDEN),)
        elif how == Choice.TURN_OVER:
            (seat,) = to_act(state)
            moves = ((seat, face_down.pop(seat)),)
        actions += len(moves)
        table.state = state
        decide_into(table, moves)
        state = table.state
        if actions > max_actions:
            raise RuntimeError("the game did not end")
    return state, result, actions


class _Unrecorded(Table):
    """A table that folds events without keeping them (the fast path keeps no log)."""

    __slots__ = ()

    def emit(self, event) -> None:
        self.state = self._evolve(self.state, event)
