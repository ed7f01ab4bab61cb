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
    # (the judge's section is run by its own test: the judge deals who acts first)
    section = text.split("## Play by email in five minutes", 1)[1].split(
        "### A judge for a club", 1
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
    """The hosted mode's section, as written (file names with a '*' as a shell expands them);
    the judge mails only the player it deals to act first: the README says "say ann", so when
    it is ben, ann and ben swap in the commands after 'judge list'.  Then one move through the
    judge."""
    import glob
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
        expanded = []
        for arg in args:  # (as a shell expands a pattern that names one file)
            found = glob.glob(arg, root_dir=tmp_path) if "*" in arg else [arg]
            assert len(found) == 1, (arg, found)
            expanded += found
        proc = subprocess.run(
            [sys.executable, "-m", "boardstate.cli", *expanded],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=env,
        )
        assert proc.returncode == 0, (args, proc.stderr)
        return proc.stdout

    swap = {"ann": "ben", "ben": "ann"}
    first = None
    for args in commands:
        if first == "ben":
            args = [re.sub(r"\b(ann|ben)\b", lambda m: swap[m[1]], a) for a in args]
        out = run(args)
        if args[:2] == ["judge", "list"]:
            (first,) = re.findall(r"in play: to act: (\w+)", out)
    assert first in swap and "your hand:" in out
    assert [line for line in out.splitlines() if line.startswith("To act:")] == [f"To act: {first}"]
    other = swap[first]
    assert not list((tmp_path / "from-judge" / f"{other}@club.example").glob("0002-*"))
    legal = run(["legal", f"{first}.msgpack", "--as", first]).split("\n")[0]
    inbox = f"to-judge/{first}@club.example--move.msgpack"
    run(["move", f"{first}.msgpack", "--as", first, *legal.split(), "-o", inbox])
    judge = ["--store", "club.sqlite", "--key", "judge"]
    moves = "*/*-jedi-duel-*-[0-9][0-9][0-9][0-9]-[0-9][0-9][0-9][0-9].msgpack"
    before = set((tmp_path / "from-judge").glob(moves))
    assert "1 accepted" in run(
        ["judge", "run", *judge, "--inbox", "dir:to-judge", "--outbox", "dir:from-judge", "--once"]
    )
    # (whoever is to act next is mailed: the same player, or the other one)
    answer = sorted(set((tmp_path / "from-judge").glob(moves)) - before)
    assert len(answer) == 1, answer
    who = answer[0].parent.name.split("@")[0]
    out = run(["apply", f"{who}.msgpack", str(answer[0])])
    assert "record 3" in out
    assert "in play: to act: " in run(["judge", "list", "--store", "club.sqlite"])
