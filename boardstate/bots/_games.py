"""The games the bots know a little: each game's policy, keyed by its module's id, and the
informed policies the strong level plays where a game has one."""

from __future__ import annotations

from ._epic import EpicPolicy
from ._jedi import InformedJedi, JediPolicy
from ._policies import Policy, shares


class DuelPolicy(Policy):
    """Duel of the Forces: random rollouts to the end; a position is worth the points
    captured."""

    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        deck = state.cards.deck
        points = [sum(deck[i].points for i in captured) for captured in state.captured]
        return shares(points, 0.15)


POLICIES = {"epic-duels": EpicPolicy, "jedi-duel": JediPolicy, "duel-of-the-forces": DuelPolicy}
INFORMED = {"jedi-duel": InformedJedi}


def policy_for(module, informed: bool = False) -> Policy:
    """A new policy for ``module``'s game (the default for a game without one); ``informed``:
    the game's informed rollouts, where it has them."""
    made = INFORMED.get(module.spec.id) if informed else None
    return (made or POLICIES.get(module.spec.id, Policy))()
