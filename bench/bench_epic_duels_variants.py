#!/usr/bin/env python3
"""Epic Duels random self-play for 2 to 6 players, beside the two-player duel: plies/s.

Whole games with uniformly random legal commands on the fast path (``boardstate.random_playout``),
no log and no hashing.  A ply is one command.  The variants take turns in rounds (the median
round is reported), cycling over the four battle scenes; the main characters are drawn at random
by each game's seed.

Usage: python bench/bench_epic_duels_variants.py [--seconds 12]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import boardstate
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels.boards import SCENES

CASES = (
    ("duel", 2),
    ("free-for-all", 4),
    ("team", 4),
    ("master", 4),
    ("free-for-all", 6),
    ("team", 6),
    ("master", 2),
)
ROUNDS = 6


def _slice(variant: str, players: int, budget: float, first: int) -> tuple[int, int, float]:
    names = [f"p{i}" for i in range(players)]
    games = plies = 0
    started = time.perf_counter()
    while time.perf_counter() - started < budget or games == 0:
        n = first + games
        options = {"variant": variant, "board": SCENES[n % len(SCENES)]}
        if variant == "duel":
            options["characters"] = ("luke,vader", "obi-wan,dooku", "han,boba", "yoda,maul")[n % 4]
        plies += boardstate.random_playout(
            MODULE, names, options, seed=b"bench-%d" % n, bot_seed=n
        )[2]
        games += 1
    return games, plies, time.perf_counter() - started


def measure(seconds: float) -> list[dict]:
    for scene in SCENES:  # build each scene's line-of-sight table outside the timing
        boardstate.random_playout(MODULE, ["a", "b"], {"board": scene}, seed=b"warm")
    budget = seconds / ROUNDS
    rows = {case: {"rates": [], "games": 0, "plies": 0} for case in CASES}
    for r in range(ROUNDS):
        order = CASES if r % 2 == 0 else tuple(reversed(CASES))
        for case in order:
            games, plies, spent = _slice(*case, budget, 1000 * r)
            row = rows[case]
            row["rates"].append(plies / spent)
            row["games"] += games
            row["plies"] += plies
    return [
        {
            "variant": v,
            "players": n,
            "plies_per_s": statistics.median(row["rates"]),
            "games": row["games"],
            "plies_per_game": row["plies"] / row["games"],
        }
        for (v, n), row in rows.items()
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=12.0, help="seconds per variant")
    args = parser.parse_args()
    print(f"python bench/bench_epic_duels_variants.py --seconds {args.seconds:g}")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.platform()}"
    )
    rows = measure(args.seconds)
    duel = rows[0]["plies_per_s"]
    print(
        f"{'variant':<14}{'players':>8}{'plies/s':>10}{'vs duel':>9}{'games':>7}{'plies/game':>12}"
    )
    for row in rows:
        print(
            f"{row['variant']:<14}{row['players']:>8}{row['plies_per_s']:>10,.0f}"
            f"{row['plies_per_s'] / duel:>9.2f}{row['games']:>7}{row['plies_per_game']:>12.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
