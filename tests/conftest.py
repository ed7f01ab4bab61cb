"""Shared fixtures: installed modules and the random-game driver the conformance suite uses."""
from __future__ import annotations

import random

import pytest

import boardstate as bs


def all_modules():
    return list(bs.installed_modules().values())


def player_names(n: int) -> list[str]:
    return ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal"][:n]


def random_game(module, seed: int, players: int | None = None, *, options=None,
                stop_after: int | None = None, check_each=None) -> bs.Game:
    """Play a game through the full engine (records, commitments) with random legal commands."""
    spec = module.spec
    n = players or spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    game = bs.Game.new(module, player_names(n), options or {}, seed=b"conformance-%d" % seed,
                       created="2026-01-01T00:00:00+00:00")
    pick = random.Random(seed)
    steps = 0
    while game.outcome() is None:
        seats = game.to_act()
        assert seats, "no one to act but the game is not over"
        seat = pick.choice(seats)
        commands = game.legal(seat)
        assert commands, f"{game.players[seat]} must act but has no legal command"
        if check_each is not None:
            check_each(game)
        game.play(seat, pick.choice(commands), entropy=pick.randbytes)
        steps += 1
        assert steps < 20000, "the game does not end"
        if stop_after is not None and steps >= stop_after:
            break
    return game


@pytest.fixture(scope="session")
def modules():
    return all_modules()
