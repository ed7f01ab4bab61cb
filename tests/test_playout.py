"""The engine's random playout (boardstate/_simulate.py): seeded, and its shortcuts the same
values as what they skip (shared secrets, kept reveals)."""

from __future__ import annotations

import functools

import pytest

import boardstate as bs
from boardstate._rng import FastRng
from boardstate._secrets import Secret, reveal
from boardstate._simulate import PlayoutRng, PlayoutTable, Unrecorded
from boardstate.rules import SecretUnavailable
from boardstate.rules._fold import handlers_of


@pytest.mark.parametrize("module_id", ["jedi-duel", "epic-duels", "duel-of-the-forces"])
def test_the_same_seeds_play_the_same_game_and_others_another(module_id):
    module = bs.get_module(module_id)
    played = [
        bs.random_playout(module, ["ann", "ben"], {}, seed=seed, bot_seed=bot)
        for seed, bot in ((b"a", 1), (b"a", 1), (b"b", 1), (b"a", 2))
    ]
    assert played[0] == played[1]
    assert played[0] != played[2] and played[0] != played[3]


def test_a_shared_secret_is_the_secret_fast_randomness_makes():
    rng, fast = PlayoutRng(b"s", b"fast"), FastRng(b"s", b"fast")
    for value, owners in ((7, 0), (7, 2), (0, 1)):
        shared = rng.secret(value, owners)
        assert shared == fast.secret(value, owners)
        assert PlayoutRng(b"other", b"x").secret(value, owners) is shared
    assert rng.secret(True, 0).value is True and rng.secret(1, 0).value == 1
    assert rng.secret(True, 0) is not rng.secret(1, 0)
    assert rng.secret("a card", 1) == fast.secret("a card", 1)


def test_a_kept_reveal_is_the_reveal_and_a_sealed_secret_still_cannot_be_turned_over():
    table = PlayoutTable(None, None, PlayoutRng(b"s", b"fast"))
    held = table.rng.secret(12, 1)
    assert table.reveal(held) == reveal(held)
    assert table.reveal(held) is table.reveal(held)
    sealed = Secret(b"c" * 32, 1)
    for _ in range(2):
        with pytest.raises(SecretUnavailable):
            table.reveal(sealed)


def test_the_numbers_are_uniform_enough_and_below_n():
    rng = PlayoutRng(b"s", b"fast")
    draws = [rng.randbelow(6) for _ in range(6000)]
    assert set(draws) == set(range(6))
    assert all(800 < draws.count(face) < 1200 for face in range(6))
    assert sorted(rng.shuffled(range(20))) == list(range(20))
    with pytest.raises(ValueError):
        rng.randbelow(0)


@pytest.mark.parametrize("module_id", ["jedi-duel", "epic-duels", "duel-of-the-forces"])
def test_the_fast_table_folds_as_the_modules_evolve_made_by_a_fold_or_not(module_id):
    """``Unrecorded`` (the bots' table; the playouts' ``PlayoutTable`` is one) calls a
    ``Fold``'s handlers itself (``by_event_type``) and any other
    ``evolve`` as it is: the same games either way."""
    module = bs.get_module(module_id)
    rules = module.rules
    assert Unrecorded(None, rules.evolve, None)._handler_of is handlers_of(rules.evolve)
    folded = []

    def plain(state, event):  # (no ``by_event_type``: the table must call it)
        folded.append(event)
        return rules.evolve(state, event)

    own = bs.Module(module.spec, type("Plain", (type(rules),), {"evolve": staticmethod(plain)})())
    for game in range(3):
        seed = b"fold-%d" % game
        assert bs.random_playout(own, ["ann", "ben"], seed=seed, bot_seed=game) == (
            bs.random_playout(module, ["ann", "ben"], seed=seed, bot_seed=game)
        )
    assert folded


def test_the_fast_table_calls_a_function_that_wraps_a_folds_evolve():
    """A module's ``evolve`` that wraps its ``Fold``'s (``functools.wraps`` copies the
    attributes, the handlers' table among them) is called for every event, as a function
    that does not copy them is: not skipped."""
    module = bs.get_module("jedi-duel")
    rules = module.rules
    assert handlers_of(rules.evolve) is not None
    seen = {}
    for how in ("plain", "wrapping"):
        folded = seen[how] = []

        def evolve(state, event, folded=folded):
            folded.append(event)
            return rules.evolve(state, event)

        if how == "wrapping":
            evolve = functools.wraps(rules.evolve)(evolve)
            assert handlers_of(evolve) is None
        own = bs.Module(
            module.spec, type("Own", (type(rules),), {"evolve": staticmethod(evolve)})()
        )
        played = bs.random_playout(own, ["ann", "ben"], seed=b"wrapped", bot_seed=1)
        assert played == bs.random_playout(module, ["ann", "ben"], seed=b"wrapped", bot_seed=1)
    assert len(seen["wrapping"]) == len(seen["plain"]) > 50
    every = Unrecorded(None, evolve, None)._handler_of
    assert every[int] is evolve and dict(every) == {int: evolve}  # (kept: one call a type)
