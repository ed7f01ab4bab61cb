#!/usr/bin/env python3
"""Whole-process time of boardstate commands on sample games, against a bare click command.

Each command runs as its own process (``python -m boardstate.cli ...``, as the installed
``boardstate`` script does), ``--runs`` times, interleaved with the bare command; the median
wall time is reported, and its ratio to the bare click command's median.  Goal (issue "Play by
email that people can live with", item 8): within 2x of the bare click command.

Usage: python bench/bench_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "replays" / "duel-of-the-forces-ravensburger-2015-2p.msgpack"
EPIC = ROOT / "replays" / "epic-duels-geonosis.msgpack"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode is cached, as for any installed package (a process that compiles every source file
on each start measures the compiler, not the command)."""
BARE = "import click\n@click.command()\ndef main():\n    click.echo('hi')\nmain()\n"


def _cases(tmp: Path) -> dict[str, list[str]]:
    """Command name -> argv.  ``move`` and ``apply`` work on copies made once per run."""
    cli = [sys.executable, "-m", "boardstate.cli"]
    return {
        "bare click": [sys.executable, "-c", BARE],
        "show": cli + ["show", str(SAMPLE)],
        "legal": cli + ["legal", str(SAMPLE), "--as", "ann"],
        "verify": cli + ["verify", str(SAMPLE)],
        "show (Epic Duels)": cli + ["show", str(EPIC)],
        "move": cli + ["move", str(tmp / "game.msgpack"), "--as", "ann", "play luke 5"],
        "apply": cli + ["apply", str(tmp / "bob.msgpack"), str(tmp / "to-bob.msgpack")],
    }


def _fresh_game(tmp: Path) -> None:
    """A new game for ``move``, and a copy with a move file for ``apply``."""
    cli = [sys.executable, "-m", "boardstate.cli"]
    for old in tmp.glob("*.msgpack"):  # (move files written by 'move' and 'apply' too)
        old.unlink()
    subprocess.run(
        cli
        + [
            "new",
            "duel-of-the-forces",
            "--player",
            "ann",
            "--player",
            "bob",
            "--seed",
            "x",
            "-o",
            str(tmp / "setup.msgpack"),
        ],
        check=True,
        capture_output=True,
        env=ENV,
        cwd=tmp,
    )
    shutil.copy(tmp / "setup.msgpack", tmp / "bob.msgpack")
    shutil.copy(tmp / "setup.msgpack", tmp / "game.msgpack")
    subprocess.run(
        cli
        + [
            "move",
            str(tmp / "setup.msgpack"),
            "--as",
            "ann",
            "play luke 5",
            "--out",
            str(tmp / "to-bob.msgpack"),
        ],
        check=True,
        capture_output=True,
        env=ENV,
        cwd=tmp,
    )


def measure(runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        cases = _cases(tmp)
        _fresh_game(tmp)
        for argv in cases.values():  # once untimed: the bytecode caches are written
            subprocess.run(argv, check=True, capture_output=True, env=ENV, cwd=tmp)
        for _ in range(runs):
            _fresh_game(tmp)
            for name, argv in cases.items():
                started = time.perf_counter()
                subprocess.run(argv, check=True, capture_output=True, env=ENV, cwd=tmp)
                times.setdefault(name, []).append(time.perf_counter() - started)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    print(f"python bench/bench_startup.py --runs {args.runs}")
    print(f"Python {platform.python_version()}, {platform.platform()}")
    medians = measure(args.runs)
    bare = medians["bare click"]
    print(f"{'command':<20}{'median s':>10}{'x bare':>8}")
    for name, t in medians.items():
        print(f"{name:<20}{t:>10.3f}{t / bare:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
