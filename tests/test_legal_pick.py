"""A module's ``legal_pick`` is the list's pick, differentially.

``random_playout`` asks ``legal_pick(state, seat, below)`` where a module has one (Epic Duels:
the move and action phases' list counted in its parts, the moves from their bitmasks and
``draw 2``'s discards from the hand's counts, only the one picked made) instead of choosing
from the whole ``legal`` list.  It must ask ``below`` for the list's length and give the
command at that position, so the uniform choice and every seeded playout stay the same.  Here
that is held at every position of random games (variants, boards and 2 to 6 players), for
every position of the list, and on whole playouts against the same module choosing from it.
"""

from __future__ import annotations

import pytest
from test_is_legal import GAMES  # (the same games: players and variants varied)

import boardstate
from boardstate import Module
from boardstate.testing import random_game
from conftest import all_modules

PICKING = [m for m in all_modules() if getattr(m.rules, "legal_pick", None) is not None]


@pytest.mark.parametrize("module", PICKING, ids=lambda m: m.spec.id)
def test_legal_pick_is_the_command_at_the_picked_position(module):
    games = GAMES.get(module.spec.id)
    assert games, f"{module.spec.id} has a legal_pick: give it games here"
    rules = module.rules
    checked = {"positions": 0, "commands": 0}

    def check(game):
        if game.reveal_due():
            return
        state = game.state
        for seat in game.to_act():
            listed = list(rules.legal(state, seat))
            for i, expected in enumerate(listed):
                asked = []

                def below(n, i=i, asked=asked):
                    asked.append(n)
                    return i

                assert rules.legal_pick(state, seat, below) == expected, (i, listed)
                assert asked == [len(listed)]
                checked["commands"] += 1
            checked["positions"] += 1

    for seed, players, options in games:
        random_game(module, seed, players, options=options, check_each=check)
    assert checked["positions"] > 500 and checked["commands"] > 5000


@pytest.mark.parametrize("module", PICKING, ids=lambda m: m.spec.id)
def test_a_playout_plays_the_game_it_plays_choosing_from_the_list(module):
    listing = type(module.rules)
    without = Module(module.spec, type("Listing", (listing,), {"legal_pick": None})())
    players = ["ann", "ben"]
    for game in range(6):
        seed = b"pick-%d" % game
        picked = boardstate.random_playout(module, players, seed=seed, bot_seed=game)
        chosen = boardstate.random_playout(without, players, seed=seed, bot_seed=game)
        assert picked[1:] == chosen[1:]
        assert picked[0] == chosen[0]


@pytest.mark.parametrize("module", PICKING, ids=lambda m: m.spec.id)
def test_the_conformance_suite_refuses_a_pick_off_the_list(module):
    """A plugin's ``legal_pick`` is held to its list by the suite every module passes
    (``check_fast_pick_equals_legal``), not only by this file: one that gives the next
    command, or asks ``below`` of another length, is refused."""
    from boardstate.testing._conformance import check_fast_pick_equals_legal

    listing = type(module.rules)

    def next_one(self, state, seat, below):
        options = self.legal(state, seat)
        return options[(below(len(options)) + 1) % len(options)]

    def longer(self, state, seat, below):
        options = self.legal(state, seat)
        return options[below(len(options) + 1) % len(options)]

    assert check_fast_pick_equals_legal(module, range(1)) > 100
    for wrong in (next_one, longer):
        broken = Module(module.spec, type("Broken", (listing,), {"legal_pick": wrong})())
        with pytest.raises(AssertionError, match="legal_pick"):
            check_fast_pick_equals_legal(broken, range(1))
