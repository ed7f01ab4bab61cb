#!/usr/bin/env python3
"""Archives and self-play at scale (issue 30): files verified per second in one process, with
``--jobs 2`` and on a Ray started on this machine; games self-played per second; and from
those, the wall time of a million games of each game on 16 cores and on a 100-CPU Ray cluster.

The corpus is made by the self-play it measures (``boardstate.batch.play_games``, seed
"bench"), in a temporary folder.  One process and the pool take turns (``--rounds``), so that
a slow spell of a shared machine falls on both alike; the load average is printed before and
after.  Ray is measured once (its start included and apart).

Usage: python bench/bench_batch.py [--games 120] [--rounds 3] [--ray-files 1000] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from boardstate.batch import Plan, Processes, Serial, check_files, game_paths, play_games

GAMES = ("duel-of-the-forces", "jedi-duel", "epic-duels")
PLAYERS = ("ann", "ben")


def make_corpus(folder: Path, games: int) -> dict:
    """``games`` self-played games of each game (2 players), and what playing them cost."""
    played = {}
    for module in GAMES:
        plan = Plan(module, PLAYERS, seed="bench", games=games)
        start = time.perf_counter()
        sizes = []
        for line, data in play_games(plan, Serial()):
            (folder / line.path).write_bytes(data)
            sizes.append(len(data))
        seconds = time.perf_counter() - start
        played[module] = {
            "games": games,
            "seconds": seconds,
            "play_s_per_game": seconds / games,
            "mean_bytes": statistics.fmean(sizes),
        }
    return played


def timed(files, runner) -> float:
    start = time.perf_counter()
    entries = list(check_files(files, runner))
    seconds = time.perf_counter() - start
    assert len(entries) == len(files) and all(e.ok for e in entries), "a file did not verify"
    return seconds


def per_game_verify(files) -> dict:
    """One process: seconds per file, by game (after a first file of each, to load it)."""
    out = {}
    for module in GAMES:
        mine = [f for f in files if Path(f).name.startswith(module)]
        timed(mine[:1], Serial())
        out[module] = timed(mine, Serial()) / len(mine)
    return out


def scaling(files, rounds: int) -> dict:
    """One process and two, taking turns; the pool started apart (and included)."""
    one, two = [], []
    for _ in range(rounds):
        one.append(timed(files, Serial()))
        start = time.perf_counter()
        with Processes(2) as pool:
            timed(files, pool)
        two.append(time.perf_counter() - start)
    best_one, best_two = min(one), min(two)
    return {
        "files": len(files),
        "one_s": one,
        "two_s": two,
        "files_per_s_one": len(files) / best_one,
        "files_per_s_two": len(files) / best_two,
        "speedup": best_one / best_two,
        "speedup_median": statistics.median(one) / statistics.median(two),
    }


def ray_run(files, serial_s: float) -> dict:
    try:
        import ray
    except ImportError:
        return {"skipped": "Ray is not installed (pip install 'boardstate[ray]')"}
    from boardstate.batch import RayRunner

    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    runner = RayRunner("local")
    started = time.perf_counter() - start
    first = timed(files, runner)  # (workers start and load the modules)
    again = timed(files, runner)
    one = sorted(e.line() for e in check_files(files, Serial()))
    same = one == sorted(e.line() for e in check_files(files, runner))
    ray.shutdown()
    return {
        "files": len(files),
        "start_s": started,
        "first_run_s": first,
        "warm_run_s": again,
        "serial_s": serial_s,
        "same_manifest": same,
        "files_per_s_warm": len(files) / again,
    }


def million(per_file: float, cores: int, efficiency: float, fixed: float = 0.0) -> float:
    """Hours for 1,000,000 files at ``per_file`` CPU-seconds each on ``cores`` CPUs that keep
    ``efficiency`` of a perfect share each."""
    return (fixed + per_file * 1_000_000 / (cores * efficiency)) / 3600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games of each game in the corpus")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ray-files", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        played = make_corpus(folder, args.games)
        files = game_paths([folder])
        verify_cost = per_game_verify(files)
        scale = scaling(files, args.rounds)
        small = [f for f in files if Path(f).name.startswith("duel")]
        ray_files = (small * (args.ray_files // len(small) + 1))[: args.ray_files]
        serial_s = timed(ray_files, Serial())
        ray_result = ray_run(ray_files, serial_s)
    finally:
        shutil.rmtree(folder)
    load_after = os.getloadavg()
    efficiency = scale["speedup"] / 2
    ray_efficiency = efficiency
    if "warm_run_s" in ray_result:
        ray_efficiency = serial_s / ray_result["warm_run_s"] / 2
    projections = {
        module: {
            "verify_s_per_file": verify_cost[module],
            "play_s_per_game": played[module]["play_s_per_game"],
            "verify_h_16_cores": million(verify_cost[module], 16, efficiency),
            "play_h_16_cores": million(played[module]["play_s_per_game"], 16, efficiency),
            "verify_h_100_ray": million(verify_cost[module], 100, ray_efficiency),
            "play_h_100_ray": million(played[module]["play_s_per_game"], 100, ray_efficiency),
        }
        for module in GAMES
    }
    report = {
        "machine": f"{platform.python_version()} {platform.machine()}, {os.cpu_count()} CPUs",
        "load_before": load_before,
        "load_after": load_after,
        "corpus": played,
        "scaling": scale,
        "ray": ray_result,
        "efficiency_pool": efficiency,
        "efficiency_ray": ray_efficiency,
        "million": projections,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"{report['machine']}; load average before {load_before}, after {load_after}")
    print(
        f"verify {scale['files']} files: 1 process {scale['files_per_s_one']:.1f} files/s, "
        f"--jobs 2 {scale['files_per_s_two']:.1f} files/s: {scale['speedup']:.2f}x "
        f"(median of rounds {scale['speedup_median']:.2f}x)"
    )
    if "skipped" in ray_result:
        print(f"Ray: {ray_result['skipped']}")
    else:
        r = ray_result
        print(
            f"Ray (local, 2 CPUs), {r['files']} files: start {r['start_s']:.1f} s, first run "
            f"{r['first_run_s']:.1f} s, warm {r['warm_run_s']:.1f} s; one process "
            f"{r['serial_s']:.1f} s; same manifest: {r['same_manifest']}"
        )
    for module, p in projections.items():
        print(
            f"{module}: verify {p['verify_s_per_file'] * 1000:.1f} ms/file, play "
            f"{p['play_s_per_game'] * 1000:.1f} ms/game; a million: verify "
            f"{p['verify_h_16_cores']:.2f} h on 16 cores, {p['verify_h_100_ray']:.2f} h on Ray x100; "
            f"play {p['play_h_16_cores']:.2f} h / {p['play_h_100_ray']:.2f} h"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
