"""Golden move-count tables and the fast single-move check."""
from __future__ import annotations

import json

import pytest

import boardstate as bs

from conftest import all_modules, random_game
from golden_tables import GOLDEN, build

MODULES = all_modules()


@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
def test_move_counts_match_the_golden_table(module):
    path = GOLDEN / f"{module.spec.id}.json"
    assert path.exists(), f"no golden table for {module.spec.id}: run python tests/golden_tables.py"
    expected = json.loads(path.read_text())
    assert build(module) == expected


@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
def test_is_legal_agrees_with_legal(module):
    pool: set[str] = set()
    checked = 0

    def check(game):
        nonlocal checked
        for seat in range(len(game.players)):
            listed = set(game.legal(seat))
            pool.update(listed)
            for text in listed | set(sorted(pool)[:20]):
                assert game.is_legal(seat, text) == (text in listed), text
                checked += 1

    random_game(module, 5, check_each=check)
    assert checked > 50
