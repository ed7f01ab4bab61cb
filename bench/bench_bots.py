#!/usr/bin/env python3
"""The bots against each other, every game through the full engine (records, commitments),
every game saved and verified.

Matches: normal against the random bot, strong against normal, normal against easy, normal
against a greedy one-ply bot written here (it takes the command whose immediate outcome, a few
commands played on by the game's rollout policy, the game's evaluation likes best), in every
game, two players, seats alternating.  A tie counts half.  The win rate is given with a 95%
Wilson interval; CPU per move of each bot is measured as it plays.

Usage: python bench/bench_bots.py [--games 20] [--match normal-random ...] [--game jedi-duel]
       [--first 0] [--jobs 2] [--keep DIR]   (--first: the first game's number, for new games;
       --keep: keep the saved games, by default in a temporary folder)
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
import time
from pathlib import Path

import boardstate as bs
from boardstate.bots import Bot, Sim, playout, policy_for, rewards
from boardstate.rules import Choice, determinize

GAMES = ("duel-of-the-forces", "jedi-duel", "epic-duels")
MATCHES = {
    "normal-random": ("normal", "random"),
    "strong-normal": ("strong", "normal"),
    "normal-easy": ("normal", "easy"),
    "normal-greedy": ("normal", "greedy"),
}


class Greedy:
    """One ply: each legal command, tried on ``samples`` determinizations of the seat's view,
    played on by the game's rollout policy for ``reach`` commands (the immediate outcome: the
    defence answered, the bids turned over), scored by the game's evaluation."""

    def __init__(self, seed: int = 0, samples: int = 6, reach: int = 8) -> None:
        self.seed, self.samples, self.reach = seed, samples, reach

    def choose(self, game, seat: int) -> str:
        legal = game.legal(seat)
        if len(legal) == 1:
            return legal[0]
        module, rules = game.module, game.rules
        policy = policy_for(module)
        sim = Sim(module, b"greedy")
        rng = random.Random(self.seed * 100_003 + game.seq)
        view = game.decider.view(game.state, seat)
        seats = len(game.players)
        commands = list(rules.legal(view, seat))
        best, best_value = commands[0], -1.0
        for command in commands:
            total = 0.0
            for _ in range(self.samples):
                made = determinize(module, view, seat, rng)
                state, face_down = made.state, dict(made.face_down)
                acting = sim.to_act(state)
                if sim.choice(state) == Choice.FACE_DOWN:
                    face_down[seat] = command
                    moves = ((seat, bs.rules.HIDDEN),)
                else:
                    moves = tuple(
                        (
                            s,
                            command
                            if s == seat
                            else policy.pick(state, s, sim.legal(state, s), rng),
                        )
                        for s in acting
                    )
                state = sim.step(state, moves)
                state, result = playout(sim, state, face_down, policy.pick, rng, self.reach)
                value = rewards(result, seats) if result else policy.evaluate(state, seats)
                total += value[seat]
            if total > best_value:
                best, best_value = command, total
        return rules.notation(view, seat, best)


def make_bot(name: str, seed: int):
    return Greedy(seed) if name == "greedy" else Bot(name, seed)


def new_game(module, seed: int):
    """Game ``seed`` of every match: two players, ann and ben, the module's default options."""
    return bs.Game.new(module, ["ann", "ben"], {}, seed=b"bench-bots-%d" % seed)


def play_out(game, bots, clock: dict) -> None:
    """Play ``game`` to its end, ``bots`` per seat, each one's CPU a move added to ``clock``."""
    while game.outcome() is None:
        seat = game.to_act()[0]
        start = time.process_time()
        text = bots[seat].choose(game, seat)
        clock.setdefault(seat, []).append(time.process_time() - start)
        game.play(seat, text)


def play_game(module, bots, seed: int, folder: Path, clock: dict) -> tuple:
    """One game; ``bots`` per seat.  Returns (outcome, path of the saved game)."""
    game = new_game(module, seed)
    play_out(game, bots, clock)
    path = folder / f"{module.spec.id}-{seed}.msgpack"
    bs.save_game(game, path)
    return game.outcome(), path


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def one_game(game_id: str, first: str, second: str, g: int, folder: Path) -> tuple:
    """Game ``g`` of a match: ``first`` sits first in even games.  Returns (the score of
    ``first``, {bot name: CPU seconds per move}, whether the saved game verifies)."""
    module = bs.get_module(game_id)
    bots = [make_bot(first, g), make_bot(second, g + 1000)]
    names = [first, second]
    if g % 2:
        bots.reverse()
        names.reverse()
    clock: dict = {}
    outcome, path = play_game(module, bots, g, folder, clock)
    mine = names.index(first)
    score = 1 / len(outcome.winners) if mine in outcome.winners else 0.0
    cpu = {names[seat]: times for seat, times in clock.items()}
    return score, cpu, bs.verify(path).ok


def progress(game_id: str, g: int, result: tuple) -> tuple:
    """Say one game's result on standard error as it ends (a long match shows how it goes)."""
    score, cpu, verified = result
    means = ", ".join(
        f"{k} {sum(v) / len(v) * 1000:.0f} ms/move (max {max(v) * 1000:.0f})"
        for k, v in cpu.items()
        if v
    )
    print(
        f"  {game_id} game {g}: {score:g}  {means}  {'verified' if verified else 'NOT VERIFIED'}",
        file=sys.stderr,
        flush=True,
    )
    return result


def match(
    game_id: str, first: str, second: str, games: int, folder: Path, jobs: int, start: int = 0
) -> dict:
    """``games`` games of ``first`` against ``second`` (games ``start`` on), seats
    alternating; every game saved and verified (``jobs`` games at once)."""
    args = [(game_id, first, second, g, folder) for g in range(start, start + games)]
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            results = [
                progress(game_id, a[3], r) for a, r in zip(args, pool.map(one_game, *zip(*args)))
            ]
    else:
        results = [progress(game_id, a[3], one_game(*a)) for a in args]
    score = sum(r[0] for r in results)
    cpu: dict = {first: [], second: []}
    for r in results:
        for name, times in r[1].items():
            cpu[name].extend(times)
    low, high = wilson(score, games)
    return {
        "game": game_id,
        "match": f"{first} vs {second}",
        "games": games,
        "score": score,
        "rate": score / games if games else 0.0,
        "ci": (low, high),
        "cpu": {k: (sum(v) / len(v) if v else 0.0, max(v, default=0.0)) for k, v in cpu.items()},
        "unverified": sum(not r[2] for r in results),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--match", action="append", choices=sorted(MATCHES))
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--keep", type=Path)
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for name in args.match or list(MATCHES):
            first, second = MATCHES[name]
            for game_id in args.game or GAMES:
                r = match(game_id, first, second, args.games, folder, args.jobs, args.first)
                cpu = ", ".join(
                    f"{k} {mean * 1000:.0f} ms/move (max {top * 1000:.0f})"
                    for k, (mean, top) in r["cpu"].items()
                )
                print(
                    f"{r['game']:<20} {r['match']:<18} {r['score']:>5.1f}/{r['games']} "
                    f"= {r['rate']:.0%} [95% CI {r['ci'][0]:.0%}-{r['ci'][1]:.0%}]  {cpu}  "
                    f"unverified: {r['unverified']}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
