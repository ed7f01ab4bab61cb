#!/usr/bin/env python3
"""What checking a header's stored data costs a command (91e45e8, e82b505): ``legal`` on a Duel
of the Forces and on a Jedi Duel game of the built-in data, in a new process each, with the
stored cards or Playaid checked as now (the built-in file kept parsed is read to tell such a
game from one to check) and as before (made from the header unchecked, the module's function
replaced in that process).  The two take turns, pair by pair, so that a slow spell of a shared
machine falls on both; each process reports its own CPU time (process time, its start
included); the load average is printed before and after.

Usage: python bench/bench_header_data_check.py [--pairs 15]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import boardstate as bs
from boardstate.testing import random_game

CHILD = r"""
import sys, time
game, player, before, module_id = sys.argv[1], sys.argv[2], sys.argv[3] == "before", sys.argv[4]
from boardstate.rules import cached_by_value  # (both ways import what the replacement needs)
if module_id == "duel-of-the-forces":  # (not "duel" in the path: jedi-duel.msgpack has it too)
    from boardstate.modules.duel_of_the_forces import _cards, _rules
    unchecked = lambda o: _cards.Cards(
        tuple(_cards.Card(n, p, q or None) for n, p, q in o[0]),
        tuple((str(a), str(b)) for a, b in o[1]),
        tuple((str(h), tuple(i)) for h, i in o[2]))
    if before:
        _rules.cards_of = cached_by_value(unchecked)
else:
    from boardstate.modules.jedi_duel import _playaid, _rules
    unchecked = lambda o: _playaid.Playaid(
        str(o[0]), tuple(tuple(int(x) for x in r) for r in o[1]), tuple(int(x) for x in o[2]))
    if before:
        _rules.playaid_of = cached_by_value(unchecked)
from boardstate.cli import cli
try:
    cli(["legal", game, "--as", player], standalone_mode=False)
except SystemExit:
    pass
sys.stderr.write(f"{time.process_time() * 1e3:.3f}\n")
"""


def _game(folder: Path, module_id: str) -> tuple[str, str]:
    """A game half-way through (30 random commands), and the name of a seat to act."""
    game = random_game(bs.get_module(module_id), 29, 2, stop_after=30)
    path = folder / f"{module_id}.msgpack"
    bs.save_game(game, path)
    return str(path), game.players[game.to_act()[0]]


def _cpu_ms(path: str, player: str, how: str, module_id: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, path, player, how, module_id], capture_output=True, text=True
    )
    return float(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=15)
    pairs = parser.parse_args().pairs
    print(f"load average before: {os.getloadavg()}")
    with tempfile.TemporaryDirectory() as folder:
        for module_id in ("duel-of-the-forces", "jedi-duel"):
            path, player = _game(Path(folder), module_id)
            _cpu_ms(path, player, "now", module_id)  # (the built-in file parsed and kept)
            before, now = [], []
            for _ in range(pairs):
                before.append(_cpu_ms(path, player, "before", module_id))
                now.append(_cpu_ms(path, player, "now", module_id))
            ratios = sorted(n / b for b, n in zip(before, now))
            print(
                f"{module_id} legal: unchecked {statistics.median(before):.1f} ms, checked "
                f"{statistics.median(now):.1f} ms (CPU, median of {pairs}); pair ratio median "
                f"{statistics.median(ratios):.3f}"
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
