#!/usr/bin/env python3
"""Search designs against each other at fixed iteration budgets (no clock), to screen what
may make the strong level stronger than normal by design and not by budget alone.

Two players, seats alternating (the first player first in even games), every game through
the engine (``boardstate.Game``, no file written; its cost is small beside the searches),
each search on the bots' fast path from its seat's view, as ``Bot`` runs it.  A tie counts
half; the first player's score with a 95% Wilson interval, and each player's CPU a move.
Each game's result goes to standard error as it ends, so a long screen shows how it goes.

Players:
  normal:N        the normal level's search (the game's policy), N iterations
  strong:N        the strong level's search (the game's informed rollouts where it has them)
  deep:N          the normal level's search with rollouts of 30 commands before the
                  evaluation (Jedi Duel's policy plays 15)
  ensemble:N:K    K searches of N/K iterations each (other seeds), their root visits summed

Usage: python bench/bench_strong.py GAME FIRST SECOND [--games 100] [--first 0]
  e.g. nice -n 10 python bench/bench_strong.py jedi-duel strong:1200 normal:300 --games 100
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bench_bots import wilson  # (the bench folder: run as a script)

import boardstate as bs
from boardstate.bots import Search, policy_for


def searcher(iterations: int, informed: bool = False, depth: int | None = None, trees: int = 1):
    """A player: ``choose(module, view, seat, seed)``, the command its search likes best."""

    def choose(module, view, seat, seed):
        visits: dict = {}
        for k in range(trees):
            policy = policy_for(module, informed)
            if depth is not None:
                policy.depth = depth
            search = Search(module, policy, 2, seed=(seed + 7919 * k) % (1 << 62))
            search.run(view, seat, iterations=max(1, iterations // trees))
            for command, n, w in search.stats(seat):
                total = visits.setdefault(command, [0, 0.0])
                total[0] += n
                total[1] += n * w
        return max(visits, key=lambda c: tuple(visits[c]))

    return choose


def make_player(text: str):
    """The player ``text`` names (see the usage); a one-line error for anything else."""
    kind, _, rest = text.partition(":")
    numbers = rest.split(":")
    if not all(n.isdigit() and int(n) > 0 for n in numbers) or len(numbers) > 2:
        raise SystemExit(f"no player {text!r} (normal:N, strong:N, deep:N, ensemble:N:K)")
    n = int(numbers[0])
    if kind == "ensemble" and len(numbers) == 2:
        return searcher(n, trees=int(numbers[1]))
    if len(numbers) == 1 and kind in ("normal", "strong", "deep"):
        return searcher(n, informed=kind == "strong", depth=30 if kind == "deep" else None)
    raise SystemExit(f"no player {text!r} (normal:N, strong:N, deep:N, ensemble:N:K)")


def play(module, players, g: int) -> tuple[float, list, list]:
    """Game ``g``: (the first player's score, CPU seconds per player, moves per player)."""
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"strong-%d" % g)
    rng = random.Random(g)
    order = (0, 1) if g % 2 == 0 else (1, 0)  # order[seat]: the player at that seat
    cpu, moves = [0.0, 0.0], [0, 0]
    while game.outcome() is None:
        seat = game.to_act()[0]  # (a sealed round: one seat after the other, each blind)
        legal = game.legal(seat)
        if len(legal) == 1:
            game.play(seat, legal[0])
            continue
        who = order[seat]
        start = time.process_time()
        view = game.decider.view(game.state, seat)
        command = players[who](module, view, seat, rng.getrandbits(62))
        text = game.rules.notation(view, seat, command)
        cpu[who] += time.process_time() - start
        moves[who] += 1
        game.play(seat, text)
    winners = game.outcome().winners
    return (1 / len(winners) if order.index(0) in winners else 0.0), cpu, moves


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("game", choices=("duel-of-the-forces", "jedi-duel", "epic-duels"))
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", dest="start", type=int, default=0, help="first game's number")
    args = parser.parse_args(argv)
    module = bs.get_module(args.game)
    players = (make_player(args.first), make_player(args.second))
    score, cpu, moves = 0.0, [0.0, 0.0], [0, 0]
    for i, g in enumerate(range(args.start, args.start + args.games), 1):
        s, c, m = play(module, players, g)
        score += s
        cpu = [a + b for a, b in zip(cpu, c)]
        moves = [a + b for a, b in zip(moves, m)]
        low, high = wilson(score, i)
        per_move = [f"{1000 * c / max(m, 1):.0f} ms/move" for c, m in zip(cpu, moves)]
        print(
            f"  game {g}: {s:g}  ({score:g} of {i}, {low:.0%}-{high:.0%}; {', '.join(per_move)})",
            file=sys.stderr,
            flush=True,
        )
    low, high = wilson(score, args.games)
    print(
        f"{args.game} {args.first} vs {args.second}: {score:g}/{args.games} "
        f"= {score / args.games:.1%} [95% CI {low:.1%}-{high:.1%}]  "
        f"{args.first} {per_move[0]}, {args.second} {per_move[1]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
