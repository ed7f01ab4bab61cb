#!/usr/bin/env python3
"""CPU time of boardstate commands on games in progress, against a bare click command's --help.

Each command runs as its own process (``python -m boardstate.cli ...``, as the installed
``boardstate`` script does), ``--runs`` times, interleaved with the bare command; the median CPU
time of the process (user + system, as the kernel counts it for the child: the machine is shared,
so wall time says more about the others than about us) is reported, with its ratio to the bare
click command's ``--help``.  Every game gets a game in progress (random legal commands from a
fixed seed, stopped half-way through the game they make), and the commands ``show``, ``legal``, ``log``,
``verify``, ``inspect``, ``move`` and ``apply`` run on it; ``show --svg`` draws the board.
The user's cache folder is one of the run's own for each interpreter (``$BOARDSTATE_CACHE``):
an untimed first pass fills it, as any earlier command would (the parsed data files and boards,
``boardstate/_datacache.py``; attrs' compiled methods, ``boardstate/_attrscode.py``; a copy's
checked state, ``_checked``); the row ``epic legal, cold cache`` runs with an empty one each
time (the first command after an install or an upgrade).  Goal (issue 29): every command within 2x of
the bare click command.  With two interpreters or more, the last columns are the median, over the
runs, of each run's pair: a row's CPU under that interpreter over its CPU under the first (a change
smaller than the runs' spread shows there, not in the medians' difference).

Usage: python bench/bench_startup.py [--runs 9] [--share 0.5] [--python PATH ...]
(``bench/startup_venvs.sh COMMIT NAME`` makes a commit's interpreters: boardstate installed as
``pip install .`` installs it, and as an editable install maps it.)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import boardstate as bs

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""Bytecode is cached, as for any installed package (a process that compiles every source file
on each start measures the compiler, not the command)."""
BARE = "import click\n@click.command()\ndef main():\n    click.echo('hi')\nmain()\n"
GAMES = {"dotf": "duel-of-the-forces", "jedi": "jedi-duel", "epic": "epic-duels"}
PLAYERS = ("ann", "ben")


def random_game(module_name: str, limit: int) -> tuple[bs.Game, random.Random, int]:
    """A game of random legal commands from fixed seeds, stopped after ``limit`` commands or at
    its end; the chooser, to go on; how many commands it took."""
    module = bs.get_module(module_name)
    game = bs.Game.new(module, list(PLAYERS), {}, seed=b"startup", created="2026-01-01")
    pick = random.Random(29)
    plies = 0
    while plies < limit and game.to_act():
        seat = game.to_act()[0]
        game.play(seat, pick.choice(game.legal(seat)))
        plies += 1
    return game, pick, plies


def game_in_progress(module_name: str, share: float, folder: Path) -> tuple[str, str]:
    """``folder/game.msgpack`` at ``share`` of a whole random game, ``folder/to-ben.msgpack``
    with one more command by the seat to act, and that seat's name and its command (for
    ``move``)."""
    whole = random_game(module_name, 1 << 30)[2]
    game, pick, _ = random_game(module_name, int(whole * share))
    bs.save_game(game, folder / "game.msgpack")
    seat = game.to_act()[0]
    command = pick.choice(game.legal(seat))
    base = game.last_seq
    game.play(seat, command)
    bs.save_moves(game, base, folder / "to-ben.msgpack")
    return PLAYERS[seat], command


def cases(tmp: Path, share: float) -> dict[str, list[str]]:
    """Row name -> argv.  ``move`` and ``apply`` work on copies made afresh before each run."""
    cli = [sys.executable, "-m", "boardstate.cli"]
    rows = {"bare click --help": [sys.executable, "-c", BARE, "--help"]}
    for short, name in GAMES.items():
        folder = tmp / short
        folder.mkdir()
        player, command = game_in_progress(name, share, folder)
        game, copy = str(folder / "game.msgpack"), str(folder / "copy.msgpack")
        copy2 = str(folder / "copy2.msgpack")
        moves = str(folder / "to-ben.msgpack")
        rows |= {
            f"{short} show": cli + ["show", game],
            f"{short} legal": cli + ["legal", game, "--as", player],
            f"{short} log": cli + ["log", game],
            f"{short} verify": cli + ["verify", game],
            f"{short} inspect": cli + ["inspect", moves],
            f"{short} move": cli + ["move", copy, "--as", player, command, "-o", "-"],
            f"{short} apply": cli + ["apply", copy2, moves],
            f"{short} show --svg": cli + ["show", game, "--svg"],
        }
    rows[COLD] = rows["epic legal"]
    return rows


COLD = "epic legal, cold cache"
"""The row run with an empty cache folder each time."""


def env_for(name: str, tmp: Path, python: int) -> dict[str, str]:
    """The environment of row ``name`` under the ``python``-th interpreter: its own cache folder
    (as a user's one installation: what one kept is never the other's to overwrite, such as a
    copy's checked state), or for ``COLD`` an empty one."""
    if name != COLD:
        return ENV | {"BOARDSTATE_CACHE": str(tmp / f"cache-{python}")}
    shutil.rmtree(tmp / "cold", ignore_errors=True)
    return ENV | {"BOARDSTATE_CACHE": str(tmp / "cold")}


def cpu_of(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    """User + system CPU seconds of one run of ``argv`` (and anything it starts)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, capture_output=True, env=env, cwd=cwd)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv[2:])}: {done.stderr.decode().strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fresh_copies(tmp: Path) -> None:
    for short in GAMES:
        for copy in ("copy.msgpack", "copy2.msgpack"):
            shutil.copy(tmp / short / "game.msgpack", tmp / short / copy)


def measure(runs: int, share: float, pythons: list[str]) -> dict[str, list[list[float]]]:
    """Row -> the CPU seconds of each run under each interpreter of ``pythons`` (each with its
    own boardstate installed), taking turns command by command."""
    times: dict[tuple[str, int], list[float]] = {}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        rows = cases(tmp, share)
        fresh_copies(tmp)
        for k, python in enumerate(pythons):  # once untimed: the bytecode caches are written
            fresh_copies(tmp)
            for name, argv in rows.items():
                env = env_for(name, tmp, k)
                subprocess.run(
                    [python, *argv[1:]], check=True, capture_output=True, env=env, cwd=tmp
                )
        for _ in range(runs):
            for k, python in enumerate(pythons):
                fresh_copies(tmp)
                for name, argv in rows.items():
                    cpu = cpu_of([python, *argv[1:]], tmp, env_for(name, tmp, k))
                    times.setdefault((name, k), []).append(cpu)
    return {name: [times[name, k] for k in range(len(pythons))] for name in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--share", type=float, default=0.5, help="how far into a game the file is")
    parser.add_argument(
        "--python",
        action="append",
        help="an interpreter whose boardstate to measure (repeat: side by side, taking turns; "
        "default: this one)",
    )
    args = parser.parse_args()
    pythons = args.python or [sys.executable]
    shown = "".join(f" --python {p}" for p in args.python or ())
    print(f"python bench/bench_startup.py --runs {args.runs} --share {args.share}{shown}")
    print(f"Python {platform.python_version()}, {platform.platform()}")
    times = measure(args.runs, args.share, pythons)
    medians = {name: [statistics.median(t) for t in row] for name, row in times.items()}
    bare = medians["bare click --help"]
    paired = len(pythons) > 1
    print(
        f"{'command':<22}"
        + "".join(f"{'CPU ms':>9}{'x bare':>8}" for _ in pythons)
        + "".join(f"{'/ first':>9}" for _ in pythons[1:])
    )
    for name, row in medians.items():
        cells = "".join(f"{t * 1000:>9.1f}{t / b:>8.2f}" for t, b in zip(row, bare))
        if paired:  # (each run's pair: this interpreter's CPU over the first's, the median)
            first = times[name][0]
            cells += "".join(
                f"{statistics.median(a / b for a, b in zip(later, first)):>9.3f}"
                for later in times[name][1:]
            )
        print(f"{name:<22}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
