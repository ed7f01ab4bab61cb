"""The fast path: decide + evolve on states, no log, no hashing — for bots and simulations."""
from __future__ import annotations

import random

from ._rng import FastRng


def random_playout(module, players, raw_options=None, seed: bytes = b"", bot_seed: int = 0,
                   *, max_actions: int = 1_000_000):
    """Play one game to the end with uniformly random legal commands.

    Returns ``(final_state, outcome, actions)``; ``actions`` counts one per seat per command.
    """
    rules = module.rules
    options = rules.resolve_options(dict(raw_options or {}), players)
    state = rules.initial(options, players)
    rng = FastRng(seed, b"fast")
    evolve = rules.evolve
    for ev in rules.start(state, rng):
        state = evolve(state, ev)
    pick = random.Random(bot_seed).choice
    legal, to_act, decide, outcome = rules.legal, rules.to_act, rules.decide, rules.outcome
    # A module may offer decide_evolve: the events and the state after them, folded once.
    decide_evolve = getattr(rules, "decide_evolve", None)
    actions = 0
    while (result := outcome(state)) is None:
        moves = tuple((seat, pick(legal(state, seat))) for seat in to_act(state))
        actions += len(moves)
        if decide_evolve is not None:
            state = decide_evolve(state, moves, rng)[1]
        else:
            for ev in decide(state, moves, rng):
                state = evolve(state, ev)
        if actions > max_actions:
            raise RuntimeError("the game did not end")
    return state, result, actions
