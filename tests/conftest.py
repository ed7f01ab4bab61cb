"""Shared fixtures: the installed modules; the random-game driver ships with the package."""

from __future__ import annotations

import pytest

import boardstate as bs
from boardstate.testing import player_names, random_game  # noqa: F401  (used by test modules)


def all_modules():
    return list(bs.installed_modules().values())


@pytest.fixture(scope="session")
def modules():
    return all_modules()


def replayed(sample: bs.Game, upto: int | None = None) -> bs.Game:
    """A new game with ``sample``'s header (module, revision, seed), given the sample's commands
    again (up to record ``upto``): each sealed or face-down choice with its own salt, each open
    move as written.  The reveals follow by themselves, as they did when the sample was
    played."""
    from boardstate.testing import Kind

    game = bs.Game(sample.module, sample.header)
    events, state = game.decider.start(game.state, game.rng(0))
    game.append(game.make(Kind.SETUP, -1, "", None, events), state)
    for rec in sample.records[1:upto]:
        if rec.kind == Kind.COMMIT:
            salt = rec.sealed.salt
            game.play(rec.actor, rec.sealed.value, entropy=lambda n, salt=salt: salt)
        elif rec.kind == Kind.MOVE:
            game.play(rec.actor, rec.command)
    return game
