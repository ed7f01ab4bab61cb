#!/usr/bin/env python3
"""What the cache's checks cost each command: ``kept``'s question whether its key can name the
function (``_datacache._unkeyable``, per kept value; ``_keys_code``, once per package), and a
file of the cache read (``_cache.read_own``) as this tree reads it against as ``--before``'s
``_cache.py`` read it (the folder looked up by name, before 6c309fa), taking turns round by
round.  Process time (the machine is shared), microseconds per call, the median of the rounds.

Usage: python bench/bench_cache_reads.py [--rounds 5] [--calls 20000] [--before 6c309fa~1]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import tempfile
import time

from boardstate import _cache, _datacache
from boardstate.modules.epic_duels._space import board_tables

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "boardstate.modules.epic_duels"


def per_call(function, calls: int) -> float:
    """Microseconds of process time per ``function()``."""
    start = time.process_time()
    for _ in range(calls):
        function()
    return (time.process_time() - start) / calls * 1e6


def cache_module_of(rev: str, folder: str):
    """``boardstate/_cache.py`` as ``rev`` wrote it, imported beside this tree's."""
    source = subprocess.run(
        ["git", "-C", ROOT, "show", f"{rev}:boardstate/_cache.py"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    path = os.path.join(folder, "before_cache.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location("boardstate._before_cache", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--before", default="6c309fa~1")
    args = parser.parse_args()
    print(f"python bench/bench_cache_reads.py --rounds {args.rounds} --calls {args.calls}")
    print(f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        before = cache_module_of(args.before, folder)
        kept = os.path.join(folder, "data", "kept")
        os.makedirs(os.path.dirname(kept), mode=0o700)
        with open(kept, "wb") as f:
            f.write(b"x" * 2000)  # (about a kept deck's size)
        os.chmod(kept, 0o600)

        def uncached():
            _datacache._keys_code.cache_clear()
            _datacache._keys_code(PACKAGE)

        rows = {
            "_unkeyable, a kept value": lambda: _datacache._unkeyable(
                board_tables, PACKAGE, ("kamino",)
            ),
            "_keys_code, a package": uncached,
            f"read_own, {args.before}": lambda: before.read_own(kept),
            "read_own, this tree": lambda: _cache.read_own(kept),
        }
        times: dict[str, list[float]] = {name: [] for name in rows}
        for _ in range(args.rounds):
            for name, function in rows.items():
                calls = args.calls if name != "_keys_code, a package" else args.calls // 100
                times[name].append(per_call(function, calls))
    for name, row in times.items():
        print(f"{name:<28}{statistics.median(row):>8.2f} us  ({min(row):.2f}-{max(row):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
