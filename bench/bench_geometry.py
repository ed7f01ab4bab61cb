"""Line-of-sight throughput on the four Epic Duels boards, four ways, with the same exact answers.

    python bench/bench_geometry.py [--queries N] [--seed S]

1. table, public API: ``board.line_of_sight(a, b, occupied_mask)`` (cells in, one table lookup);
2. table, int level: ``not between[i][j] & blocked`` (what a tight rules loop can inline);
3. cell walk: a pure-Python supercover walk with the same corner semantics, no table;
4. direct shapely: a segment per query against an STRtree of cell squares (slow; fewer queries).

Every method must return the same answer on every query, or the run fails. Each
position has 6 pieces on random floor squares; pairs are random floor squares.
Also timed: building each board's line table with shapely. Results go into
docs/performance-geometry.md.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable

import shapely

from boardstate.geometry._exact import DirectSight
from boardstate.geometry._lines import build_line_table
from boardstate.geometry._walk import walk_line_of_sight
from boardstate.modules.epic_duels.boards import BOARDS

PIECES_PER_POSITION = 6
REPEATS = 5


def best_seconds(run: Callable[[], object], repeats: int = REPEATS) -> float:
    """The fastest of several runs: the least disturbed by the rest of the machine."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def make_queries(board, count: int, rng: random.Random) -> list[tuple]:
    """(a, b, occupied cells, occupied mask) tuples; the shooter and target are among the pieces."""
    floor = [cell for cell in board.cells if board.enterable(cell)]
    queries = []
    for _ in range(count):
        pieces = rng.sample(floor, PIECES_PER_POSITION)
        a, b = pieces[0], pieces[1]
        queries.append((a, b, frozenset(pieces), board.mask(pieces)))
    return queries


def bench_board(board, count: int, direct_count: int, rng: random.Random) -> dict[str, float]:
    precompute = best_seconds(lambda: build_line_table(board.grid))
    queries = make_queries(board, count, rng)
    between = board.line_table.between
    walls = board.sight_blocking_mask
    width = board.width
    index = {cell: i for i, cell in enumerate(board.cells)}
    int_queries = [(index[a], index[b], walls | mask) for a, b, _, mask in queries]
    walk_queries = [(a, b, walls | mask) for a, b, _, mask in queries]
    direct = DirectSight(board.grid, [c for c in board.cells if board.terrain_at(c).blocks_sight])
    sight = board.line_of_sight

    def public() -> list[bool]:
        return [sight(a, b, mask) for a, b, _, mask in queries]

    def int_level() -> list[bool]:
        return [not between[i][j] & blocked for i, j, blocked in int_queries]

    def walk() -> list[bool]:
        return [walk_line_of_sight(width, a, b, blocked) for a, b, blocked in walk_queries]

    def shapely_direct() -> list[bool]:
        return [direct.line_of_sight(a, b, cells) for a, b, cells, _ in queries[:direct_count]]

    answers = public()
    if int_level() != answers or walk() != answers or shapely_direct() != answers[:direct_count]:
        sys.exit(f"{board.id}: the methods disagree; the benchmark is void")
    return {
        "precompute_ms": precompute * 1e3,
        "table_public": count / best_seconds(public),
        "table_int": count / best_seconds(int_level),
        "walk": count / best_seconds(walk),
        "direct": direct_count / best_seconds(shapely_direct, repeats=2),
        "visible": sum(answers) / count,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200_000, help="queries per board and method")
    parser.add_argument(
        "--direct-queries", type=int, default=5_000, help="queries per board for direct shapely"
    )
    parser.add_argument("--seed", type=int, default=2002)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"Python {platform.python_version()} on {platform.machine()} {platform.system()}, shapely {shapely.__version__}"
    )
    print(
        f"{args.queries} queries per board ({args.direct_queries} for direct shapely), "
        f"{PIECES_PER_POSITION} pieces per position, best of {REPEATS}\n"
    )
    header = (
        "| board | precompute (ms) | table, public API (q/s) | table, int level (q/s) "
        "| cell walk (q/s) | direct shapely (q/s) | public / walk | clear lines |"
    )
    print(header)
    print("|" + "---|" * header.count(" | ") + "---|")
    for board_id, board in BOARDS.items():
        r = bench_board(board, args.queries, args.direct_queries, rng)
        print(
            f"| {board_id} | {r['precompute_ms']:.1f} | {r['table_public']:,.0f} | {r['table_int']:,.0f} "
            f"| {r['walk']:,.0f} | {r['direct']:,.0f} | {r['table_public'] / r['walk']:.1f}x | {r['visible']:.0%} |"
        )
    print(
        f"\nreproduce: python bench/bench_geometry.py --queries {args.queries} "
        f"--direct-queries {args.direct_queries} --seed {args.seed}"
    )


if __name__ == "__main__":
    main()
