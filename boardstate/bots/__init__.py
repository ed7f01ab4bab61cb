"""``boardstate.bots``: opponents worth playing, and hints.

A bot plays one seat from that seat's view alone: information-set Monte Carlo tree search
(``Search``, single observer, Cowling, Powley and Whitehouse 2012) on determinizations of the
view (``boardstate.rules.determinize``), on the engine's fast path (decide and evolve on
states, no log).  Levels (``LEVELS``): random, easy, normal, strong.  A game whose random
rollouts say little has a ``Policy`` of its own (move abstraction, rollout choices, an
evaluation where rollouts stop); the strong level plays the game's informed rollouts where it
has them (Jedi Duel).  See docs/bots.md.

    bot = Bot("normal", seed=7)
    game.play(seat, bot.choose(game, seat))
    for hint in bot.hints(game, seat):
        print(hint.command, hint.chance)
"""

from ._games import policy_for
from ._ismcts import Node, Search
from ._levels import LEVELS, Bot, Hint, Level, level_named
from ._policies import Policy
from ._sim import Sim, playout, rewards

__all__ = [
    "LEVELS",
    "Bot",
    "Hint",
    "Level",
    "Node",
    "Policy",
    "Search",
    "Sim",
    "level_named",
    "playout",
    "policy_for",
    "rewards",
]
