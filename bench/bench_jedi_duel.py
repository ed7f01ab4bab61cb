#!/usr/bin/env python3
"""Jedi Duel random self-play on the fast path (``boardstate.random_playout``): actions/s.

Whole games with uniformly random legal commands, no log and no hashing: the cost of the module's
``legal``, ``decide`` and ``evolve`` plus the engine's fast loop.  ``measure(seconds)`` is what the
main bench script imports; run this file for a table.

Usage: python bench/bench_jedi_duel.py [--seconds 6]
"""

from __future__ import annotations

import argparse
import platform
import time

import boardstate
from boardstate.modules.jedi_duel import MODULE

PLAYER_COUNTS = (2, 4, 6)


def _run(players: int, budget: float) -> dict:
    names = [f"p{i}" for i in range(players)]
    games = actions = 0
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < budget or games == 0:
        _state, _outcome, n = boardstate.random_playout(
            MODULE, names, seed=b"bench-%d" % games, bot_seed=games
        )
        games += 1
        actions += n
        elapsed = time.perf_counter() - started
    return {
        "bench": "jedi-duel random self-play",
        "players": players,
        "games": games,
        "actions": actions,
        "seconds": round(elapsed, 3),
        "actions_per_s": round(actions / elapsed, 1),
        "games_per_s": round(games / elapsed, 2),
        "actions_per_game": round(actions / games, 1),
    }


def measure(seconds: float) -> list[dict]:
    """Split ``seconds`` evenly over 2, 4 and 6 players; one result dict per player count."""
    return [_run(n, seconds / len(PLAYER_COUNTS)) for n in PLAYER_COUNTS]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="total time budget")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()} {platform.system()}")
    print("| players | games | actions/game | actions/s | games/s |")
    print("|---|---|---|---|---|")
    for r in measure(args.seconds):
        print(
            f"| {r['players']} | {r['games']} | {r['actions_per_game']} | "
            f"{r['actions_per_s']:,.0f} | {r['games_per_s']:.1f} |"
        )


if __name__ == "__main__":
    main()
