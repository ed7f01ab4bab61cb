"""Golden playthroughs: the text of each fixed game equals its file, and each file verifies."""

from __future__ import annotations

import difflib

import pytest

import boardstate as bs
from golden_playthroughs import (
    build_playthrough,
    cases,
    commands_of,
    new_game,
    path_of,
    play,
    seed_of,
    verify_failure,
)

CASES = list(cases())
IDS = [f"{module.spec.id}-{n}p" for module, n in CASES]
REGENERATE = "run python tests/golden_playthroughs.py after a deliberate rules change"


def _golden(module, n) -> str:
    path = path_of(module, n)
    if not path.exists():
        pytest.fail(f"no golden playthrough {path.name}: {REGENERATE}")
    return path.read_text()


def _first_difference(expected: str, actual: str, context: int = 3, limit: int = 40) -> str:
    diff = list(
        difflib.unified_diff(
            expected.splitlines(), actual.splitlines(), "golden", "now", n=context, lineterm=""
        )
    )
    return "\n".join(diff[:limit]) + ("\n..." if len(diff) > limit else "")


@pytest.mark.parametrize(("module", "n"), CASES, ids=IDS)
def test_playthrough_matches_the_golden_file(module, n):
    expected, actual = _golden(module, n), build_playthrough(module, n)
    if actual != expected:
        pytest.fail(
            f"{path_of(module, n).name} differs ({REGENERATE}):\n"
            + _first_difference(expected, actual),
            pytrace=False,
        )


@pytest.mark.parametrize(("module", "n"), CASES, ids=IDS)
def test_golden_commands_replay_and_verify(module, n):
    """The file's commands, played again on a new game (with fresh salts for the sealed
    choices), make a log that verify accepts, and give the same text again."""
    golden = _golden(module, n)
    commands = commands_of(golden)
    assert commands, "the golden file lists no commands"
    game = new_game(module, n, seed_of(n))
    for step, (player, text) in enumerate(commands, 1):
        try:
            play(game, player, text)
        except bs.BoardstateError as exc:
            pytest.fail(
                f"step {step} ({player}: {text}) is refused now: {exc} ({REGENERATE})",
                pytrace=False,
            )
    assert verify_failure(game) is None
    assert build_playthrough(module, n, commands) == golden
