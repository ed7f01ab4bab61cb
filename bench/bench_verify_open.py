#!/usr/bin/env python3
"""verify of whole open games beside eventsourcing (issue 29), for every game.

The corpus is self-played (``boardstate.batch.play_games``, seed "bench", 2 players, the open
mode, as ``bench_batch.py`` makes it): ``GAMES`` files of Duel of the Forces, Jedi Duel and Epic
Duels, held in memory.  A row: ``verify`` (the referee: every record re-derived under the
rules) of all of one game's files, records/s of CPU, beside eventsourcing 9.5.6 replaying one
aggregate of as many events (``bench_copies.eventsourcing_cpu``, the peer of bench_engine.py), each
best of ``--rounds``, one after the other.  Run it under two checkouts in one sitting (before and
after a change: ``PYTHONPATH=/other/checkout``) to compare them on a shared machine.

Usage: python bench/bench_verify_open.py [--games 20] [--rounds 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_copies import cpu_best, eventsourcing_cpu  # noqa: E402

from boardstate._fileformat import parse_raw  # noqa: E402
from boardstate._referee import verify  # noqa: E402
from boardstate.batch import Plan, Serial, play_games  # noqa: E402

GAMES = ("duel-of-the-forces", "jedi-duel", "epic-duels")


def corpus(module: str, games: int) -> list[bytes]:
    plan = Plan(module, ("ann", "ben"), seed="bench", games=games)
    return [data for _line, data in play_games(plan, Serial())]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(
        f"verify of whole open games ({args.games} a game; records/s of CPU, best of "
        f"{args.rounds}):\n"
    )
    print("| game | records/game | verify records/s | eventsourcing events/s | ratio |")
    print("|---|---:|---:|---:|---:|")
    for module in GAMES:
        datas = corpus(module, args.games)
        records = sum(len(parse_raw(d).records) for d in datas)

        def run(datas=datas):
            for data in datas:
                assert verify(parse_raw(data)).ok

        run()  # (the module's first load is not the verify's)
        ours = records / cpu_best(run, args.rounds)
        peer = records / eventsourcing_cpu(records, args.rounds)
        print(
            f"| {module} | {records / len(datas):.0f} | {ours:,.0f} | {peer:,.0f} | "
            f"{ours / peer:.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
