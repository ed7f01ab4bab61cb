"""The games the bots know a little: each game's policy, keyed by its module's id."""

from __future__ import annotations

from ._epic import EpicPolicy
from ._policies import Policy, shares


class JediPolicy(Policy):
    """Jedi Duel: random rollouts say little (most commands are discards), so they stop after
    ``depth`` commands (a turn or two), where a position is worth the fatigue left."""

    depth = 15

    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        return shares([f / 21 for f in state.fatigue], 6.0)


class DuelPolicy(Policy):
    """Duel of the Forces: random rollouts to the end; a position is worth the points
    captured."""

    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        deck = state.cards.deck
        points = [sum(deck[i].points for i in captured) for captured in state.captured]
        return shares(points, 0.15)


POLICIES = {"epic-duels": EpicPolicy, "jedi-duel": JediPolicy, "duel-of-the-forces": DuelPolicy}


def policy_for(module) -> Policy:
    """A new policy for ``module``'s game (the default for a game without one)."""
    return POLICIES.get(module.spec.id, Policy)()
