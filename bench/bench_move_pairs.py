#!/usr/bin/env python3
"""CPU time of ``boardstate move FILE --as P COMMAND`` without ``-o`` (the move file named by
default, as most players run it), under two interpreters taking turns pair by pair.

An Epic Duels game half-way through (``bench_startup.game_in_progress``), a fresh copy before each
run, each interpreter with its own cache folder (filled by two untimed runs); prints each pair's
CPU ms (user + system of the process), the medians, and the after/before ratios.

Usage: python bench/bench_move_pairs.py --before PY --after PY [--pairs 21]
(``sh bench/startup_venvs.sh COMMIT NAME`` makes a commit's interpreters.)
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from bench_startup import ENV, cpu_of, game_in_progress


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--pairs", type=int, default=21)
    args = parser.parse_args()
    pythons = {"before": args.before, "after": args.after}
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        folder = tmp / "epic"
        folder.mkdir()
        player, command = game_in_progress("epic-duels", 0.5, folder)

        def run(which: str) -> float:
            shutil.copy(folder / "game.msgpack", folder / "copy.msgpack")
            for old in glob.glob(str(folder / "copy-*")):  # (the last run's move file)
                os.remove(old)
            argv = [pythons[which], "-m", "boardstate.cli", "move", "copy.msgpack"]
            env = ENV | {"BOARDSTATE_CACHE": str(tmp / f"cache-{which}")}
            return cpu_of(argv + ["--as", player, *command.split()], folder, env)

        for which in pythons:
            run(which), run(which)
        times: dict[str, list[float]] = {"before": [], "after": []}
        for i in range(args.pairs):
            for which in ("before", "after") if i % 2 == 0 else ("after", "before"):
                times[which].append(run(which))
            print(i, *(f"{w} {times[w][-1] * 1000:.1f}" for w in times), flush=True)
    ratios = [a / b for a, b in zip(times["after"], times["before"])]
    print("median CPU ms:", *(f"{w} {statistics.median(t) * 1000:.1f}" for w, t in times.items()))
    print(
        f"after/before: median {statistics.median(ratios):.3f}, {min(ratios):.3f}-{max(ratios):.3f}"
    )
    print("load average:", *(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
