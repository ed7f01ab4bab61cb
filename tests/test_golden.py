"""Golden move-count tables (the fast single-move check is in the shipped conformance suite)."""

from __future__ import annotations

import json

import pytest

from conftest import all_modules
from golden_tables import GOLDEN, build

MODULES = all_modules()


@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
def test_move_counts_match_the_golden_table(module):
    path = GOLDEN / f"{module.spec.id}.json"
    assert path.exists(), f"no golden table for {module.spec.id}: run python tests/golden_tables.py"
    expected = json.loads(path.read_text())
    assert build(module) == expected
