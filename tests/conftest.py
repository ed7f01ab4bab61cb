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
