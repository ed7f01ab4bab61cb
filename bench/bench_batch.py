#!/usr/bin/env python3
"""Archives and self-play at scale (issue 30): files verified per second in one process, with
``--jobs 2`` and on a Ray started on this machine; games self-played per second; and from
those, the wall time of a million games of each game on 16 cores and on a 100-CPU Ray cluster.

The corpus is made by the self-play it measures (``boardstate.batch.play_games``, seed
"bench"), in a temporary folder.  One process and the pool take turns (``--rounds``), so that
a slow spell of a shared machine falls on both alike; the load average is printed before and
after.  Besides the wall time, each run counts CPU time: the workers' (each file timed where it
is verified) and the driver's (the process that hands out the files and takes the verdicts) —
on a busy machine the wall time says how much of the machine the run got, the CPU time what the
work costs, and the projections are made from the CPU time.

Usage: python bench/bench_batch.py [--games 100] [--rounds 8] [--ray-files 1000] [--json]
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

from boardstate.batch import Checked, Manifest, Plan, Processes, Serial, game_paths, play_games
from boardstate.batch._checked import _sent, check_item

GAMES = ("duel-of-the-forces", "jedi-duel", "epic-duels")
PLAYERS = ("ann", "ben")


def timed_check(item):
    """A worker's task, with the CPU time it took (pickled by value for Ray: this is
    ``__main__``)."""
    start = time.process_time()
    checked = check_item(item)
    return checked, time.process_time() - start


def run(files, runner) -> dict:
    """Verify ``files`` on ``runner``: wall time, the driver's CPU, the workers' CPU."""
    items = map(_sent, files) if runner.remote else files
    manifest = Manifest()  # (written as the command line writes it: a line a file, flushed)
    wall, cpu = time.perf_counter(), time.process_time()
    got = []
    for checked, seconds in runner.map(timed_check, items, chunk=runner.chunk_size(len(files))):
        manifest.add(checked)
        got.append((checked, seconds))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    manifest.finish(Checked)
    assert len(got) == len(files) and all(c.ok for c, _ in got), "a file did not verify"
    workers = sum(t for _, t in got)
    return {
        "wall_s": wall,
        "driver_cpu_s": cpu - (workers if not runner.remote and runner.workers == 1 else 0),
        "worker_cpu_s": workers,
    }


def make_corpus(folder: Path, games: int) -> dict:
    """``games`` self-played games of each game (2 players), and what playing them cost."""
    played = {}
    for module in GAMES:
        plan = Plan(module, PLAYERS, seed="bench", games=games)
        wall, cpu = time.perf_counter(), time.process_time()
        sizes = []
        for line, data in play_games(plan, Serial()):
            (folder / line.path).write_bytes(data)
            sizes.append(len(data))
        played[module] = {
            "games": games,
            "wall_s_per_game": (time.perf_counter() - wall) / games,
            "cpu_s_per_game": (time.process_time() - cpu) / games,
            "mean_bytes": statistics.fmean(sizes),
        }
    return played


def per_game(files) -> dict:
    """One process, warm (a first file of each game loads it): CPU seconds per file."""
    out = {}
    for module in GAMES:
        mine = [f for f in files if Path(f).name.startswith(module)]
        run(mine[:1], Serial())
        r = run(mine, Serial())
        out[module] = r["worker_cpu_s"] / len(mine)
    return out


def scaling(files, rounds: int) -> dict:
    """One process and a pool of two, taking turns (the pool's start included)."""
    one, two = [], []
    for _ in range(rounds):
        one.append(run(files, Serial()))
        start = time.perf_counter()
        with Processes(2) as pool:
            r = run(files, pool)
        r["wall_s"] = time.perf_counter() - start
        two.append(r)
    n = len(files)
    walls_one = [r["wall_s"] for r in one]
    walls_two = [r["wall_s"] for r in two]
    return {
        "files": n,
        "one_wall_s": walls_one,
        "two_wall_s": walls_two,
        "files_per_s_one": n / min(walls_one),
        "files_per_s_two": n / min(walls_two),
        "speedup_best": min(walls_one) / min(walls_two),
        "speedup_median": statistics.median(walls_one) / statistics.median(walls_two),
        # (each round's pair, one process then two, back to back: a slow spell spans both)
        "speedup_pairs": sorted(a / b for a, b in zip(walls_one, walls_two)),
        "cpu_per_file_one": statistics.median(r["worker_cpu_s"] for r in one) / n,
        "cpu_per_file_pool_workers": statistics.median(r["worker_cpu_s"] for r in two) / n,
        "cpu_per_file_pool_driver": statistics.median(r["driver_cpu_s"] for r in two) / n,
    }


def driver_cost(files) -> float:
    """The pool's driver: CPU seconds a file, over many small files (chunks as a long run's)."""
    with Processes(2) as pool:
        r = run(files, pool)
    return r["driver_cpu_s"] / len(files)


def ray_runs(files) -> dict:
    try:
        import ray
    except ImportError:
        return {"skipped": "Ray is not installed (pip install 'boardstate[ray]')"}
    from boardstate.batch import RayRunner

    one = run(files, Serial())
    start = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    runner = RayRunner("local")
    started = time.perf_counter() - start
    first = run(files, runner)  # (workers start and load the modules)
    warm = run(files, runner)
    serial = sorted(check_item(f).line() for f in files)
    same = serial == sorted(
        c.line() for c, _ in runner.map(timed_check, map(_sent, files), chunk=64)
    )
    ray.shutdown()
    n = len(files)
    return {
        "files": n,
        "start_s": started,
        "first_wall_s": first["wall_s"],
        "warm_wall_s": warm["wall_s"],
        "serial_wall_s": one["wall_s"],
        "cpu_per_file_one": one["worker_cpu_s"] / n,
        "cpu_per_file_workers": warm["worker_cpu_s"] / n,
        "cpu_per_file_driver": warm["driver_cpu_s"] / n,
        "same_manifest": same,
    }


def hours(files: int, per_file: float, cores: int, driver: float, fixed: float = 0.0) -> float:
    """Hours for ``files`` at ``per_file`` CPU-seconds each on ``cores`` CPUs, or at the
    driver's pace (``driver`` CPU-seconds a file) if that is the slower."""
    return (fixed + files * max(per_file / cores, driver)) / 3600


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games of each game in the corpus")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--ray-files", type=int, default=1000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()
    folder = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        played = make_corpus(folder, args.games)
        files = game_paths([folder])
        verify_cpu = per_game(files)
        scale = scaling(files, args.rounds)
        small = [f for f in files if Path(f).name.startswith("duel")]
        ray_files = (small * (args.ray_files // len(small) + 1))[: args.ray_files]
        scale["cpu_per_file_pool_driver"] = driver_cost(ray_files)
        on_ray = ray_runs(ray_files)
    finally:
        shutil.rmtree(folder)
    load_after = os.getloadavg()
    # What the pool and Ray add to a file's CPU (workers), and what the driver spends a file
    pool_extra = scale["cpu_per_file_pool_workers"] / scale["cpu_per_file_one"]
    pool_driver = scale["cpu_per_file_pool_driver"]
    ray_extra = on_ray.get("cpu_per_file_workers", 0) / on_ray.get("cpu_per_file_one", 1) or 1
    ray_driver = on_ray.get("cpu_per_file_driver", 0)
    ray_start = on_ray.get("start_s", 0)
    million = {}
    for module in GAMES:
        v, p = verify_cpu[module], played[module]["cpu_s_per_game"]
        million[module] = {
            "verify_cpu_s_per_file": v,
            "play_cpu_s_per_game": p,
            "verify_h_16": hours(10**6, v * pool_extra, 16, pool_driver),
            "play_h_16": hours(10**6, p * pool_extra, 16, pool_driver),
            "verify_h_ray_100": hours(10**6, v * ray_extra, 100, ray_driver, ray_start),
            "play_h_ray_100": hours(10**6, p * ray_extra, 100, ray_driver, ray_start),
        }
    report = {
        "machine": f"Python {platform.python_version()} {platform.machine()}, {os.cpu_count()} CPUs",
        "load_before": load_before,
        "load_after": load_after,
        "corpus": played,
        "verify_cpu_s_per_file": verify_cpu,
        "scaling": scale,
        "ray": on_ray,
        "pool_cpu_factor": pool_extra,
        "ray_cpu_factor": ray_extra,
        "million": million,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    s = scale
    print(f"{report['machine']}; load average before {load_before}, after {load_after}")
    print(
        f"verify {s['files']} files: 1 process {s['files_per_s_one']:.1f} files/s, --jobs 2 "
        f"{s['files_per_s_two']:.1f} files/s: {s['speedup_best']:.2f}x (medians "
        f"{s['speedup_median']:.2f}x; round by round "
        f"{', '.join(f'{x:.2f}' for x in s['speedup_pairs'])}); CPU a file {s['cpu_per_file_one'] * 1000:.2f} ms alone, "
        f"{s['cpu_per_file_pool_workers'] * 1000:.2f} ms in the pool's workers + "
        f"{pool_driver * 1000:.2f} ms in its driver"
    )
    if "skipped" in on_ray:
        print(f"Ray: {on_ray['skipped']}")
    else:
        r = on_ray
        print(
            f"Ray (local, 2 CPUs), {r['files']} files: start {r['start_s']:.1f} s, first run "
            f"{r['first_wall_s']:.1f} s, warm {r['warm_wall_s']:.1f} s, one process "
            f"{r['serial_wall_s']:.1f} s; CPU a file {r['cpu_per_file_workers'] * 1000:.2f} ms "
            f"in the workers, {ray_driver * 1000:.2f} ms in the driver; same manifest: "
            f"{r['same_manifest']}"
        )
    for module, m in million.items():
        print(
            f"{module}: verify {m['verify_cpu_s_per_file'] * 1000:.1f} ms/file, play "
            f"{m['play_cpu_s_per_game'] * 1000:.1f} ms/game; a million: verify "
            f"{m['verify_h_16']:.2f} h on 16 cores, {m['verify_h_ray_100']:.2f} h on Ray x100; "
            f"play {m['play_h_16']:.2f} h / {m['play_h_ray_100']:.2f} h"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
