"""Files the project wrote before the engine redesign (issue 25) still verify, with the same
verdicts: a peer game of Duel of the Forces for three, played to the end by commit b9b87e8 (each
player's own copy, with its private secret), and its end-of-game audit.  The open samples of
earlier versions are kept beside it (tests/fixtures/*-revision-*) and verified by the revision
tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "fixtures" / "peer-before-redesign"
COPIES = sorted(HERE.glob("copy*.msgpack"))
VERDICT = (
    "ok: 183 records re-derived and verified. Game over (only carol has cards left and takes "
    "none). Scores: alice 45, bob 40, carol 6. Winner: alice"
)
SIGNED = (
    "every record after the setup is signed by its player: alice (key b86c:50d7:1f87:f469), "
    "bob (key fa9b:3665:a07f:b53b), carol (key 527c:01d5:046d:f9b4)"
)


def boardstate(*args) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", *map(str, args)], capture_output=True, text=True
    )
    return done.returncode, (done.stdout + done.stderr).strip().splitlines()


@pytest.mark.parametrize("copy", COPIES, ids=[p.name for p in COPIES])
def test_each_players_copy_verifies_as_before(copy):
    rc, lines = boardstate("verify", copy)
    assert rc == 0 and lines[-2:] == [VERDICT, SIGNED], lines


def test_the_end_of_game_audit_passes_as_before():
    first, *others = COPIES
    args = [a for other in others for a in ("--with", other)]
    rc, lines = boardstate("verify", first, *args)
    assert rc == 0, lines
    assert lines[-1] == "audit ok: 183 records re-derived with every copy given, 0 checked in part"
