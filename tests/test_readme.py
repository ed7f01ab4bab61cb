"""The README's play-by-email walkthrough, run command by command as written."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def walkthrough_commands() -> list[list[str]]:
    text = README.read_text()
    section = text.split("## Play by email in five minutes", 1)[1].split(
        "To play at one terminal", 1
    )[0]
    commands = []
    for line in section.splitlines():
        line = line.strip()
        if line.startswith("boardstate "):
            commands.append(shlex.split(re.sub(r"\s+#.*$", "", line))[1:])
    return commands


def test_walkthrough_runs_as_written(tmp_path):
    import os

    env = dict(os.environ, BOARDSTATE_KEYS=str(tmp_path / "keys"))  # (the peer mode's keys)
    commands = walkthrough_commands()
    assert len(commands) >= 9
    for args in commands:
        proc = subprocess.run(
            [sys.executable, "-m", "boardstate.cli", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            input="",
            env=env,
        )
        assert proc.returncode == 0, (args, proc.stderr)
        if args[:2] == ["new", "duel-of-the-forces"]:
            (tmp_path / "bob.msgpack").write_bytes((tmp_path / "game.msgpack").read_bytes())
        if args[0] == "legal":
            assert "play luke 5" in proc.stdout.split("\n")
    alice = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", "show", "game.msgpack", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    bob = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", "show", "bob.msgpack", "--json"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    ).stdout
    # Both copies hold the whole first round: the bids, their reveals and the duel.  (What comes
    # next depends on the random seed: round 2, or, when the first villain is Darth Vader, the
    # winner's keep-or-discard choice; a test that asked for round 2 failed 1 game in 6.)
    assert alice == bob and '"records": 5' in alice
    assert '"round": 2' in alice or "keep" in alice


def test_judge_walkthrough_runs_as_written(tmp_path):
    """The hosted mode's section, as written; then one move through the judge."""
    import os

    text = README.read_text()
    section = text.split("### A judge for a club: the hosted mode", 1)[1].split("From then on", 1)[
        0
    ]
    commands = [
        shlex.split(re.sub(r"\s+#.*$", "", line.strip()))[1:]
        for line in section.splitlines()
        if line.strip().startswith("boardstate ")
    ]
    assert len(commands) >= 11
    env = dict(os.environ, BOARDSTATE_KEYS=str(tmp_path / "keys"))

    def run(args):
        proc = subprocess.run(
            [sys.executable, "-m", "boardstate.cli", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
        )
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    for args in commands:
        out = run(args)
    assert "your hand:" in out
    first = [line for line in out.splitlines() if line.startswith("To act:")][0].split()[-1]
    legal = run(["legal", f"{first}.msgpack", "--as", first]).split("\n")[0]
    inbox = f"to-judge/{first}@club.example--move.msgpack"
    run(["move", f"{first}.msgpack", "--as", first, *legal.split(), "-o", inbox])
    judge = ["--store", "club.sqlite", "--key", "judge"]
    assert "1 accepted" in run(
        ["judge", "run", *judge, "--inbox", "dir:to-judge", "--outbox", "dir:from-judge", "--once"]
    )
    answer = sorted((tmp_path / "from-judge" / f"{first}@club.example").glob("0004-moves-*"))
    assert "record 3" in run(["apply", f"{first}.msgpack", str(answer[0])])
