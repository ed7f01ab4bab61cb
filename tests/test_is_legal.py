"""A module's fast ``is_legal`` is ``command in legal(state, seat)``, differentially.

The referee checks one command a record with ``is_legal`` where a module has one (Epic Duels,
Jedi Duel, Duel of the Forces), instead of making the whole list; a fast path may skip work but
never restate a rule.  Here the two answers are held equal over every position of random games
of each such module (player counts and variants varied), for every listed command and for a
sample of the commands seen anywhere, commands written with equal values of other types
(``1.0`` for ``1``), and commands of the wrong shape.
"""

from __future__ import annotations

import random

import pytest

from boardstate.testing import random_game
from conftest import all_modules

GAMES = {
    "epic-duels": [
        (0, 2, None),
        (1, 2, {"board": "kamino"}),
        (2, 3, {"variant": "free-for-all"}),
        (3, 4, {"variant": "team"}),
        (4, 2, {"variant": "master"}),
        (5, 6, {"variant": "team"}),
        (6, 5, {"board": "throne-room"}),  # (every board, and every count of players)
        (7, 2, {"board": "carbon-chamber"}),
    ],
    "jedi-duel": [(seed, 2 + seed % 5, None) for seed in range(8)],
    "duel-of-the-forces": [(seed, None, None) for seed in range(8)],
}
SAMPLE = 40  # other commands tried at each position, besides the listed ones
ODD = [(), ("end", 1), ("done", 0), ("move",), ("attack", "1", 2), "end", ["end"], None, ("x",)]


def _others(command) -> list:
    """``command`` written with values equal to it but of other types."""
    if type(command) is not tuple:
        return []
    out = []
    for i, value in enumerate(command):
        if type(value) is int:
            out.append(command[:i] + (float(value),) + command[i + 1 :])
            out.append(command[:i] + (str(value),) + command[i + 1 :])
    out.append(command + (0,))
    return out


@pytest.mark.parametrize(
    "module",
    [m for m in all_modules() if getattr(m.rules, "is_legal", None) is not None],
    ids=lambda m: m.spec.id,
)
def test_is_legal_is_membership_in_legal(module):
    games = GAMES.get(module.spec.id)
    assert games, f"{module.spec.id} has an is_legal: give it games here"
    rules = module.rules
    pool: dict[str, object] = {repr(c): c for c in ODD}
    counts = {"listed": 0, "refused": 0, "accepted": 0}

    def check(game):
        if game.reveal_due():
            return
        state = game.state
        pick = random.Random(counts["listed"])
        for seat in game.to_act():
            listed = list(rules.legal(state, seat))
            for command in listed:
                pool.setdefault(repr(command), command)
                assert rules.is_legal(state, seat, command), command
                counts["listed"] += 1
            for command in pick.sample(listed, min(3, len(listed))):
                for other in _others(command):
                    pool.setdefault(repr(other), other)
            for key in pick.sample(sorted(pool), min(SAMPLE, len(pool))):
                other = pool[key]
                expected = other in listed
                assert rules.is_legal(state, seat, other) == expected, (other, listed)
                counts["accepted" if expected else "refused"] += 1

    for seed, players, options in games:
        random_game(module, seed, players, options=options, check_each=check)
    assert counts["listed"] > 1000 and counts["refused"] > 1000 and counts["accepted"] > 100
