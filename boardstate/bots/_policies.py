"""How a bot plays a game beyond its rules: which commands the search weighs (a move
abstraction), how a rollout chooses, and what a position is worth where a rollout stops.

``Policy`` is the default for any module: every legal command, uniform random rollouts to the
end.  A game whose random rollouts say little gets its own, keyed by the module's id
(``_games``; Epic Duels' in ``_epic``); a policy reads only the state it is handed, a seat's
determinization.
"""

from __future__ import annotations

import math


class Policy:
    """Uniform random play to the end; every legal command is a move of the search."""

    depth: int | None = None  # commands a rollout plays before ``evaluate`` (None: to the end)

    def candidates(self, state, seat: int, commands) -> list:
        """The commands the search weighs (every one unless the game abstracts its moves):
        a non-empty sub-list of ``commands``, the same for states equal in what it reads."""
        return list(commands)

    def pick(self, state, seat: int, commands, rng):
        """A rollout's choice among ``commands`` (and another seat's face-down choice)."""
        return commands[rng.randrange(len(commands))]

    def evaluate(self, state, seats: int) -> tuple[float, ...]:
        """Each seat's chance to win from ``state`` (summing to 1): by default, equal."""
        return (1.0 / seats,) * seats


def shares(strengths, sharpness: float) -> tuple[float, ...]:
    """Win chances from strengths: a softmax (two seats: a logistic of the difference)."""
    top = max(strengths)
    weights = [math.exp(sharpness * (x - top)) for x in strengths]
    total = sum(weights)
    return tuple(w / total for w in weights)
