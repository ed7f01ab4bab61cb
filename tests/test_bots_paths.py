"""The bots see the same game through the engine as on the fast path: in Duel of the Forces,
game by game, the engine's table, a seat's view, its legal commands, a determinization and the
bots' choices equal the fast path's given the same commands, cards and seeds
(bench/bench_dotf_paths.py; docs/bots.md, "How well they play")."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))

from bench_dotf_paths import Diverged, same_game

from boardstate.modules.duel_of_the_forces import _decide


@pytest.mark.parametrize("g", [0, 1])  # normal first, then second
def test_a_game_is_the_same_through_the_engine_and_on_the_fast_path(g):
    drawn = _decide.draw
    score, compared = same_game(g, iterations=30)
    assert score in (0.0, 0.5, 1.0) and compared >= 20
    assert _decide.draw is drawn  # (the rules' own draw put back)


def test_a_difference_between_the_paths_is_caught():
    with pytest.raises(Diverged, match="chose"):
        same_game(0, iterations=30, seed_shift=1)
