#!/usr/bin/env python3
"""Epic Duels against python-chess in one run: random self-play plies/s and mid-game legal lists.

Ours: ``boardstate.random_playout`` over Star Wars Epic Duels, cycling through all 36 light-dark
pairings on the 4 battle scenes.  A ply is one command (the action count ``random_playout``
returns: a placement, a move, ``done``, an action, a card laid face down, its turning over, a
defence, an answer to a card...).  The peer: python-chess (``chess==1.11.2``, GPL-3.0-or-later;
only ever run here, from the bench venv; see bench/requirements-peers.txt) playing uniformly
random legal moves from the start position until ``board.is_game_over(claim_draw=False)``; a ply
is one push.

Every time is CPU time of this process (``time.process_time``): the machine is shared, and
the wall clock counts the other users' work as ours.

1. Self-play: the two take turns in ``--rounds`` rounds of ``--seconds / --rounds`` of CPU each
   (the one that goes first alternates), and the table gives the median round; the ratio is also
   taken round by round (two rates measured back to back), which a busy machine disturbs less.
   One game per scene and a chess game are played first, untimed (a scene's line-of-sight table
   is built on its first use in a process).
2. Legal lists at mid-game positions: ``--positions`` Epic Duels states, each from its own random
   game, at a random ply between 30% and 70% of that game among the states where the seat to act
   moves or takes actions (phase MOVE or ACT), and as many chess boards from random games stopped
   at a random ply from 20 to 60.  Timed: ``list(rules.legal(state, seat))`` against
   ``list(board.legal_moves)``, and each list written out (``rules.notation`` for every command;
   ``board.san`` and ``Move.uci`` for every move) with the list already made.  Each position is
   timed ``--repeats`` times and counts with its mean; positions of the two games alternate; the
   garbage collector is paused while they are timed (as ``timeit`` does).

Usage: python bench/bench_epic_duels.py [--seconds 5] [--positions 300] [--rounds 10] [--repeats 20]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import boardstate
from boardstate.modules.epic_duels import MODULE

LIGHT = ("yoda", "obi-wan", "mace", "luke", "anakin", "han")
DARK = ("vader", "maul", "boba", "jango", "emperor", "dooku")
SCENES = ("geonosis", "kamino", "throne-room", "carbon-chamber")
PAIRINGS = tuple((light, dark) for dark in DARK for light in LIGHT)  # 36
PLAYERS = ("ann", "ben")
MOVE, ACT, LAY, TURN = 1, 2, 3, 5  # Epic Duels phases (modules/epic_duels/_state.py)

try:  # the peer is optional: without it, Epic Duels is measured alone
    import chess
except ImportError:  # pragma: no cover - depends on the environment
    chess = None


def options_of(game: int) -> dict:
    """Game ``game``'s pairing and scene: 36 games go through the pairings, and each pairing
    meets every scene once in 144 games (consecutive games never share a scene)."""
    light, dark = PAIRINGS[game % len(PAIRINGS)]
    scene = SCENES[(game + game // len(PAIRINGS)) % len(SCENES)]
    return {"characters": f"{light},{dark}", "board": scene}


def epic_game(game: int, module=MODULE) -> int:
    return boardstate.random_playout(
        module, PLAYERS, options_of(game), seed=b"epic-bench-%d" % game, bot_seed=game
    )[2]


def chess_game(pick) -> int:
    board = chess.Board()
    plies = 0
    while not board.is_game_over(claim_draw=False):
        board.push(pick(list(board.legal_moves)))
        plies += 1
    return plies


# ---------------------------------------------------------------------------------- self-play
_cpu = time.process_time  # (CPU time: see the docstring)
SELFPLAY_GOAL = 1.5  # Epic Duels plies/s at least 1.5x python-chess's (issue 29; 1x before)


class _EpicPlayer:
    name = "boardstate Epic Duels (36 pairings x 4 scenes)"

    def __init__(self) -> None:
        self.game = 0

    def __call__(self, budget: float) -> tuple[int, int, float]:
        games = plies = 0
        start = _cpu()
        while (elapsed := _cpu() - start) < budget or games == 0:
            plies += epic_game(self.game)
            self.game += 1
            games += 1
        return games, plies, elapsed


class _ChessPlayer:
    name = f"python-chess {getattr(chess, '__version__', '?')} from the start position"

    def __init__(self, seed: int = 20240601) -> None:
        self.pick = random.Random(seed).choice

    def __call__(self, budget: float) -> tuple[int, int, float]:
        games = plies = 0
        start = _cpu()
        while (elapsed := _cpu() - start) < budget or games == 0:
            plies += chess_game(self.pick)
            games += 1
        return games, plies, elapsed


def selfplay(contestants, seconds: float, rounds: int) -> list[dict]:
    """Each contestant plays ``seconds / rounds`` at a time, taking turns for ``rounds`` rounds
    (who goes first alternates); per contestant: the median round, the spread, the totals."""
    per_round: list[list[float]] = [[] for _ in contestants]
    totals = [[0, 0, 0.0] for _ in contestants]
    for r in range(rounds):
        order = range(len(contestants)) if r % 2 == 0 else reversed(range(len(contestants)))
        for i in order:
            games, plies, elapsed = contestants[i](seconds / rounds)
            per_round[i].append(plies / elapsed)
            t = totals[i]
            t[0] += games
            t[1] += plies
            t[2] += elapsed
    return [
        {
            "name": c.name,
            "plies_per_s": statistics.median(rates),
            "low": min(rates),
            "high": max(rates),
            "games": t[0],
            "plies": t[1],
            "plies_per_game": t[1] / t[0],
            "rounds": rates,
        }
        for c, rates, t in zip(contestants, per_round, totals)
    ]


# ---------------------------------------------------------------------------------- positions
class _Watch:
    """The module's rules, keeping the state before every ``decide`` of a ``random_playout``:
    the same game as the fast path plays, seen ply by ply (states are immutable values)."""

    def __init__(self, rules) -> None:
        self._rules = rules
        self.states: list = []

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def decide(self, table, moves) -> None:
        self.states.append(table.state)  # the state after len(self.states) plies
        self._rules.decide(table, moves)


def epic_positions(n: int, seed: int = 7) -> list[tuple]:
    """``n`` mid-game ``(state, seat)``, one per random game: a random ply in 30%-70% of the
    game, among the states in MOVE or ACT (else any state in that stretch with an open choice)."""
    rng = random.Random(seed)
    to_act = MODULE.rules.to_act
    out = []
    game = 0
    while len(out) < n:
        watch = _Watch(MODULE.rules)
        plies = epic_game(10_000 + game, SimpleNamespace(spec=MODULE.spec, rules=watch))
        game += 1
        stretch = watch.states[int(0.3 * plies) : int(0.7 * plies) + 1]
        best = [s for s in stretch if s.phase in (MOVE, ACT)] or [
            s for s in stretch if s.phase not in (LAY, TURN)
        ]
        if best:
            state = rng.choice(best)
            out.append((state, to_act(state)[0]))
    return out


def chess_positions(n: int, seed: int = 11) -> list:
    """``n`` boards from random games, each stopped at a random ply from 20 to 60 (a game over
    by then is dropped)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = chess.Board()
        stop = rng.randint(20, 60)
        while board.ply() < stop and not board.is_game_over(claim_draw=False):
            board.push(rng.choice(list(board.legal_moves)))
        if board.ply() == stop and not board.is_game_over(claim_draw=False):
            out.append(board)
    return out


def _per_call(fn, repeats: int) -> float:
    """Seconds per call of ``fn()``: the mean of ``repeats`` calls."""
    clock = _cpu
    start = clock()
    for _ in range(repeats):
        fn()
    return (clock() - start) / repeats


def latency(n: int, repeats: int) -> tuple[list[dict], dict]:
    legal, notation = MODULE.rules.legal, MODULE.rules.notation
    ours = epic_positions(n)
    theirs = chess_positions(n) if chess is not None else []
    timings: dict[str, list[float]] = {}
    sizes: dict[str, list[int]] = {}

    def add(key, seconds, size):
        timings.setdefault(key, []).append(seconds * 1e6)
        sizes.setdefault(key, []).append(size)

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for i, (state, seat) in enumerate(ours):
            commands = list(legal(state, seat))
            add(
                "ed-legal",
                _per_call(lambda s=state, p=seat: list(legal(s, p)), repeats),
                len(commands),
            )
            add(
                "ed-notation",
                _per_call(
                    lambda s=state, p=seat, cs=commands: [notation(s, p, c) for c in cs], repeats
                ),
                len(commands),
            )
            if i < len(theirs):
                board = theirs[i]
                moves = list(board.legal_moves)
                add(
                    "chess-legal",
                    _per_call(lambda b=board: list(b.legal_moves), repeats),
                    len(moves),
                )
                add(
                    "chess-san",
                    _per_call(lambda b=board, ms=moves: [b.san(m) for m in ms], repeats),
                    len(moves),
                )
                add(
                    "chess-uci",
                    _per_call(lambda ms=moves: [m.uci() for m in ms], repeats),
                    len(moves),
                )
    finally:
        if was_enabled:
            gc.enable()
    labels = {
        "ed-legal": "Epic Duels `list(rules.legal(state, seat))`",
        "chess-legal": "python-chess `list(board.legal_moves)`",
        "ed-notation": "Epic Duels `[rules.notation(state, seat, c) for c in legal]`",
        "chess-san": "python-chess `[board.san(m) for m in legal]`",
        "chess-uci": "python-chess `[m.uci() for m in legal]`",
    }
    rows = [
        {
            "key": key,
            "name": labels[key],
            "positions": len(timings[key]),
            "mean_len": statistics.fmean(sizes[key]),
            "mean_us": statistics.fmean(timings[key]),
            "median_us": statistics.median(timings[key]),
            "p90_us": (
                statistics.quantiles(timings[key], n=10)[-1]
                if len(timings[key]) > 1
                else timings[key][0]
            ),
            "us_per_item": sum(timings[key]) / max(1, sum(sizes[key])),
        }
        for key in labels
        if key in timings
    ]
    phases = {}
    for name, phase in (("MOVE", MOVE), ("ACT", ACT)):
        us = [t for t, (st, _) in zip(timings["ed-legal"], ours) if st.phase == phase]
        phases[name] = (len(us), statistics.fmean(us) if us else 0.0)
    phases["other"] = (len(ours) - phases["MOVE"][0] - phases["ACT"][0], 0.0)
    return rows, phases


# ---------------------------------------------------------------------------------- the table
def _git(*args: str) -> str:
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
    )
    return run.stdout.strip()


def _commit() -> str:
    try:
        head = _git("rev-parse", "--short", "HEAD")
        dirty = _git("status", "--porcelain", "--untracked-files=no")
        return head + (" (with uncommitted changes)" if dirty else "")
    except Exception:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=5.0,
        help="self-play seconds per contestant, split over the rounds",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=300,
        help="mid-game positions of each game (Epic Duels, chess) for the legal-list latency",
    )
    parser.add_argument("--rounds", type=int, default=10, help="self-play rounds (median taken)")
    parser.add_argument("--repeats", type=int, default=20, help="timed calls per position")
    args = parser.parse_args()

    print(f"Command: {shlex.join(getattr(sys, 'orig_argv', [sys.executable, *sys.argv]))}")
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.platform()}, {platform.machine()}, {os.cpu_count()} CPUs"
    )
    peer = f"python-chess {chess.__version__}" if chess is not None else "python-chess missing"
    print(f"boardstate {boardstate.__version__} at {_commit()}; {peer}")
    if chess is None:
        print("(python-chess not measured: pip install -r bench/requirements-peers.txt)")

    for game in range(len(SCENES)):  # untimed: each scene's tables are built on first use
        epic_game(game + 1_000_000)
    contestants = [_EpicPlayer()]
    if chess is not None:
        chess_game(random.Random(0).choice)
        contestants.append(_ChessPlayer())
    results = selfplay(contestants, args.seconds, args.rounds)

    print(
        f"\nRandom self-play, {args.rounds} rounds of {args.seconds / args.rounds:g} s of CPU each, "
        "taking turns; median round\n"
    )
    print("| game | plies/s (median) | rounds' range | games | plies/game |")
    print("|---|---:|---:|---:|---:|")
    for r in results:
        print(
            f"| {r['name']} | {r['plies_per_s']:,.0f} | {r['low']:,.0f} – {r['high']:,.0f} | "
            f"{r['games']:,} | {r['plies_per_game']:.1f} |"
        )
    if len(results) == 2:
        ratio = results[0]["plies_per_s"] / results[1]["plies_per_s"]
        paired = sorted(a / b for a, b in zip(results[0]["rounds"], results[1]["rounds"]))
        print(
            f"\nEpic Duels / python-chess plies/s: {ratio:.2f} (medians); round by round "
            f"{statistics.median(paired):.2f} (median), {paired[0]:.2f} – {paired[-1]:.2f} "
            f"(goal, issue 29: at least {SELFPLAY_GOAL:.2f}: "
            f"{'met' if ratio >= SELFPLAY_GOAL else 'not met'})"
        )

    rows, phases = latency(args.positions, args.repeats)
    print(
        f"\nLegal lists at mid-game positions, mean of {args.repeats} calls per position, CPU "
        f"(Epic Duels positions: {phases['MOVE'][0]} MOVE, {phases['ACT'][0]} ACT, "
        f"{phases['other'][0]} other)\n"
    )
    print("| what | positions | items per list | mean µs | median µs | p90 µs | µs per item |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['name']} | {r['positions']} | {r['mean_len']:.1f} | {r['mean_us']:.1f} | "
            f"{r['median_us']:.1f} | {r['p90_us']:.1f} | {r['us_per_item']:.2f} |"
        )
    print(
        f"\nEpic Duels legal list by phase, mean µs: MOVE {phases['MOVE'][1]:.1f}, "
        f"ACT {phases['ACT'][1]:.1f}"
    )
    by = {r["key"]: r for r in rows}
    if "chess-legal" in by:
        ed, ch = by["ed-legal"], by["chess-legal"]
        mean, median = ed["mean_us"] / ch["mean_us"], ed["median_us"] / ch["median_us"]
        met = "met" if mean <= 1 and median <= 1 else "not met"
        print(
            f"Epic Duels / python-chess legal list: {mean:.2f} (mean), {median:.2f} (median) "
            f"(goal: at most 1.00: {met})"
        )
        san = by["chess-san"]
        print(
            f"Epic Duels notation / python-chess SAN list: "
            f"{by['ed-notation']['mean_us'] / san['mean_us']:.2f} (mean), "
            f"{by['ed-notation']['median_us'] / san['median_us']:.2f} (median)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
