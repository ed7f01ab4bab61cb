#!/usr/bin/env python3
"""Random self-play on the fast path, every module, beside OpenSpiel's random agents in one run.

Ours: ``boardstate.random_playout`` (decide + evolve on states, no log).  Peers (if installed, see
bench/requirements-peers.txt): OpenSpiel's C++ Goofspiel (8 cards, 2 players) and its
Python-implemented Kuhn poker, both played by uniform random agents through the Python API.
Actions count one per player command; chance outcomes are counted apart.  Rates are per second
of this process's CPU time (the machine is shared: wall time says how much of it we got), each
contestant's CPU measured around its own slice.

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
        actions += boardstate.random_playout(
            module, names, {}, seed=b"b%d" % games, bot_seed=games
        )[2]
        games += 1
    return {
        "name": f"boardstate Duel of the Forces, {players} players",
        "actions": actions,
        "seconds": elapsed,
        "actions_per_s": actions / elapsed,
        "games": games,
    }


def interleaved(contestants, seconds: float, rounds: int = 6) -> list[dict]:
    """Run every contestant for ``seconds / rounds`` at a time, taking turns, and add up their
    actions and CPU seconds: a slow spell of a shared machine then falls on all of them alike."""
    totals: dict[str, dict] = {}
    for _ in range(rounds):
        for measure in contestants:
            started = time.process_time()
            (r,) = measure(seconds / rounds)
            cpu = time.process_time() - started
            t = totals.setdefault(
                r["name"], dict(r, actions=0, seconds=0.0, games=0, chance_actions=0)
            )
            t["actions"] += r["actions"]
            t["seconds"] += cpu
            t["games"] += r["games"]
            t["chance_actions"] += r.get("chance_actions", 0)
    for t in totals.values():
        t["actions_per_s"] = t["actions"] / t["seconds"]
        t["actions_incl_chance_per_s"] = (t["actions"] + t["chance_actions"]) / t["seconds"]
    return list(totals.values())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=4.0,
        help="seconds per contestant, in slices that take turns",
    )
    args = parser.parse_args()
    s = args.seconds
    contestants = [lambda t, n=n: [duel_of_the_forces(n, t)] for n in (2, 3, 4)]
    try:
        import bench_jedi_duel

        def jedi(t, players):
            r = bench_jedi_duel._run(players, t)
            name = f"boardstate Jedi Duel, {players} players"
            return [{"name": name, "actions": r["actions"], "games": r["games"]}]

        contestants += [lambda t, n=n: jedi(t, n) for n in bench_jedi_duel.PLAYER_COUNTS]
    except ImportError as exc:
        print(f"(Jedi Duel not measured: {exc})")
    peers = 0
    try:
        import openspiel_random as osr

        osr._require()
        contestants += [
            lambda t: [osr.goofspiel_cpp_actions_per_s(t)],
            lambda t: [osr.python_kuhn_actions_per_s(t)],
        ]
        peers = 2
    except Exception as exc:  # the peer is optional: say why it is missing
        print(f"(OpenSpiel not measured: {exc})")
    results = interleaved(contestants, s)
    rows, peer_rows = results[: len(results) - peers], results[len(results) - peers :]
    print(f"Python {platform.python_version()}, {platform.machine()}, same run, CPU time\n")
    print("| game | actions/s | games | actions incl. chance/s |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['name']} | {r['actions_per_s']:,.0f} | {r['games']} | (no chance nodes) |")
    for p in peer_rows:
        print(
            f"| {p['name']} | {p['actions_per_s']:,.0f} | {p['games']} | "
            f"{p['actions_incl_chance_per_s']:,.0f} |"
        )
    if peer_rows:
        dotf2 = rows[0]["actions_per_s"]
        jedi2 = next((r for r in rows if r["name"].startswith("boardstate Jedi Duel, 2")), None)
        goof, kuhn = peer_rows
        print(
            f"\nDuel of the Forces (2 players) / OpenSpiel C++ Goofspiel: "
            f"{dotf2 / goof['actions_per_s']:.2f}"
        )
        print(
            f"Duel of the Forces (2 players) / OpenSpiel Python Kuhn poker: "
            f"{dotf2 / kuhn['actions_per_s']:.2f} (player actions), "
            f"{dotf2 / kuhn['actions_incl_chance_per_s']:.2f} (Kuhn counting chance deals)"
        )
        if jedi2:
            ratio = jedi2["actions_per_s"] / kuhn["actions_per_s"]
            print(f"Jedi Duel (2 players) / OpenSpiel Python Kuhn poker: {ratio:.2f} (goal: 1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
