#!/usr/bin/env python3
"""Random self-play on the fast path, every module, beside OpenSpiel's random agents in one run.

Ours: ``boardstate.random_playout`` (decide + evolve on states, no log).  Peers (if installed, see
bench/requirements-peers.txt): OpenSpiel's C++ Goofspiel (8 cards, 2 players) and its
Python-implemented Kuhn poker, both played by uniform random agents through the Python API.
Actions count one per player command; chance outcomes are counted apart.

Usage: python bench/bench_selfplay.py [--seconds 4]
"""
from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import boardstate

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers"))


def duel_of_the_forces(players: int, seconds: float) -> dict:
    module = boardstate.get_module("duel-of-the-forces")
    names = ["ann", "ben", "cat", "dan"][:players]
    games = actions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        actions += boardstate.random_playout(module, names, {}, seed=b"b%d" % games,
                                             bot_seed=games)[2]
        games += 1
    return {"name": f"boardstate Duel of the Forces, {players} players", "actions": actions,
            "seconds": elapsed, "actions_per_s": actions / elapsed, "games": games}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    s = args.seconds
    rows = [duel_of_the_forces(n, s) for n in (2, 3, 4)]
    try:
        import bench_jedi_duel

        for r in bench_jedi_duel.measure(3 * s):
            rows.append({"name": f"boardstate Jedi Duel, {r['players']} players",
                         "actions": r["actions"], "seconds": r["seconds"],
                         "actions_per_s": r["actions_per_s"], "games": r["games"]})
    except ImportError as exc:
        print(f"(Jedi Duel not measured: {exc})")
    peers = []
    try:
        import openspiel_random as osr

        peers = [osr.goofspiel_cpp_actions_per_s(s), osr.python_kuhn_actions_per_s(s)]
    except Exception as exc:  # the peer is optional: say why it is missing
        print(f"(OpenSpiel not measured: {exc})")
    print(f"Python {platform.python_version()}, {platform.machine()}, same run\n")
    print("| game | actions/s | games | actions incl. chance/s |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['actions_per_s']:,.0f} | {r['games']} | (no chance nodes) |")
    for p in peers:
        print(f"| OpenSpiel {p['name']} | {p['actions_per_s']:,.0f} | {p['games']} | "
              f"{p['actions_incl_chance_per_s']:,.0f} |")
    if peers:
        dotf2 = rows[0]["actions_per_s"]
        goof, kuhn = peers
        print(f"\nDuel of the Forces (2 players) / OpenSpiel C++ Goofspiel: "
              f"{dotf2 / goof['actions_per_s']:.2f}")
        print(f"Duel of the Forces (2 players) / OpenSpiel Python Kuhn poker: "
              f"{dotf2 / kuhn['actions_per_s']:.2f} (player actions), "
              f"{dotf2 / kuhn['actions_incl_chance_per_s']:.2f} (Kuhn counting chance deals)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
