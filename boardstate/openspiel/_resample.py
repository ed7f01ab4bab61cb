"""Resampling from an information state: a world a seat cannot tell from the true one.

What the seat cannot see of the module's state is filled in by the kit's determinizer
(``boardstate.rules.determinize``, from the seat's view alone: never the true state), which
also guesses the other seats' commands lying face down.  What the engine holds beside the state
is guessed here: another seat's choice in the sealed round under way is one of its legal
commands, at random; a choice lying face down that the module's determinizer does not guess is
one its seat could have laid where it laid it (that table determinized from the seat's view of
it), at random.  The resampled world draws its future randomness from a fresh seed.  The
seat's information state is the same in both worlds, which OpenSpiel's IS-MCTS checks.
"""

from __future__ import annotations

import random

from .._module import Choice
from ..rules import determinize
from ._world import TERMINAL, Bridge, Seen, World


def resample(bridge: Bridge, world: World, seat: int, rng: random.Random) -> World:
    """A world consistent with what ``seat`` knows of ``world``, drawn with ``rng``."""
    if world.seat == TERMINAL:
        raise ValueError("a game that is over has nothing to resample")
    made = determinize(bridge.module, bridge.view(world.state, seat), seat, rng)
    state, guessed = made.state, made.face_down
    changed: dict[tuple, object] = {}  # (seat, how) -> the command guessed for its choice
    sealed = []
    for s, command in world.sealed:
        if s != seat:
            command = rng.choice(tuple(bridge.legal(state, s)))
            changed[s, Choice.SEALED] = command
        sealed.append((s, command))
    face_down = []
    for s, command, where in world.face_down:
        if s != seat:
            command = guessed.get(s)
            if command is None:  # (the module guesses none: one it could have laid there)
                laid = determinize(bridge.module, bridge.view(where, seat), seat, rng).state
                command = rng.choice(tuple(bridge.legal(laid, s)))
            changed[s, Choice.FACE_DOWN] = command
        face_down.append((s, command, where))
    seen = _rewritten(world.seen, changed) if changed else world.seen
    return world._replace(
        state=state,
        seed=rng.randbytes(16),
        commands=bridge.commands(state, world.seat),
        sealed=tuple(sealed),
        face_down=tuple(face_down),
        seen=seen,
        said={},
    )


def _rewritten(seen: Seen | None, changed: dict) -> Seen | None:
    """``seen`` with the hidden choices guessed anew: each seat's last sealed and last
    face-down choice (the round under way's, and the one lying face down).  The actions
    before the earliest of them are shared."""
    left = dict(changed)
    later = []  # the actions from the last back to the earliest changed one, last first
    while left and seen is not None:
        key = (seen.actor, seen.how)
        command = left.pop(key) if key in left else seen.command
        later.append((seen.actor, command, seen.how))
        seen = seen.earlier
    for actor, command, how in reversed(later):
        seen = Seen(seen, actor, command, how)
    return seen
