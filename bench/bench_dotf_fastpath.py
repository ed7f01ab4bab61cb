#!/usr/bin/env python3
"""Duel of the Forces on the bots' fast path (decide/evolve on states, no log): bot variants
and an oracle against the uniform random bot, two seats, seats alternating, a tie counting half,
with 95% Wilson intervals.  Cheap enough for a few hundred games a variant.

Players:
  random          a legal command at random
  search:N        the bots' search from its seat's view (IS-MCTS, the game's policy), N iterations
  search:N:C      the same with the exploration constant C (the bots': 0.7)
  plain:N         the same with uniform random rollouts (the easy level's search)
  rule:N          the search whose rollouts bid by the one-ply rule three times in four (the
                  force nearest 0.8 times the villain's points, the lowest card on a Darth
                  Vader), at random the rest
  cutoff:N        the search whose rollouts stop after 8 commands, where a position is worth
                  each seat's score so far and 2 + 0.4 x force for each card in its hand
  oracle:N        the search on the true table of rules revision 2, whose stock lies shuffled face
                  down: it sees the order the villains will turn up in (no honest bot can), and
                  it models its opponent as what it is, a uniform random bidder (every opponent
                  bid in the search drawn at random, the tree branching on it)
  seer:N          the oracle's sight of the stock only (its opponent searched as the bots do)
  modeller:N      the oracle's model of the opponent only (the stock unseen, revision 3)

The oracle shows what more knowledge buys the same search (the villains to come, the opponent's
way of bidding): a bot that sees only its own view has neither.  It is a search, not exact play,
so its share is what the oracle reaches at that budget, not the most it could.

Usage: python bench/bench_dotf_fastpath.py --player search:300 [--player oracle:2000 ...]
       [--games 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from bench_bots import wilson  # (the bench folder: run as a script)

import boardstate as bs
from boardstate._decider import Decider  # (the bench starts tables at a chosen revision)
from boardstate._rng import FastRng
from boardstate.bots import Policy, Search, Sim, policy_for
from boardstate.bots._policies import shares
from boardstate.modules.duel_of_the_forces._scoring import score
from boardstate.modules.duel_of_the_forces._state import vader_up

GAME = "duel-of-the-forces"
SHUFFLED_STOCK = 2  # the last rules revision whose stock lies shuffled face down at creation


class RandomPlayer:
    def choose(self, sim, state, seat, rng, seed=None):
        commands = sim.legal(state, seat)
        return commands[rng.randrange(len(commands))]


class SearchPlayer:
    """The bots' search, handed its seat's view (as ``Bot`` does)."""

    def __init__(self, module, iterations: int, policy=None, exploration: float = 0.7) -> None:
        self.module, self.iterations = module, iterations
        self.made, self.exploration = policy, exploration

    def policy(self, rng):
        return self.made or policy_for(self.module)

    def choose(self, sim, state, seat, rng, seed=None):
        """``seat``'s command; ``seed`` seeds the search (None: drawn from ``rng``)."""
        commands = sim.legal(state, seat)
        if len(commands) == 1:
            return commands[0]
        policy = self.policy(rng)
        seed = rng.getrandbits(62) if seed is None else seed
        search = Search(self.module, policy, 2, seed=seed, exploration=self.exploration)
        search.run(self.look(sim, state, seat), seat, iterations=self.iterations)
        return search.best(seat)

    def look(self, sim, state, seat):
        return sim.view(state, seat)


class RuleRollouts(Policy):
    """Rollouts that bid by the one-ply rule ``share`` of the time (uniform the rest)."""

    share = 0.75

    def pick(self, state, seat, commands, rng):
        if len(commands) > 1 and commands[0][0] == "play" and rng.random() < self.share:
            return one_ply_rule(state, commands)
        return commands[rng.randrange(len(commands))]


def one_ply_rule(state, commands):
    """The force nearest 0.8 times the villain's points (never R2-D2); the lowest on Vader."""
    if state.villain is None:
        return commands[0]
    if vader_up(state):
        return min(commands, key=lambda c: c[1])
    target = 0.8 * state.cards.deck[state.villain].points
    return min(commands, key=lambda c: (abs(c[1] - target) if c[1] else 99, c[1]))


class CutOff(Policy):
    """Rollouts stopped after ``depth`` commands; a position is worth each seat's score so far
    and 2 + 0.4 x force for each card in hand (R2-D2: 2)."""

    depth = 8

    def evaluate(self, state, seats):
        worth = [
            score(state.captured[s], state.cards.deck, state.edition)
            + sum(2 + 0.4 * c for c in state.hands[s])
            for s in range(seats)
        ]
        return shares(worth, 0.15)


class RandomOpponent(Policy):
    """The oracle's model of its opponent: each opponent bid in the tree is one command drawn
    at random (so the tree branches on the opponent's draw, as on a chance node)."""

    def __init__(self, base: Policy, me: int, rng) -> None:
        self.base, self.me, self.rng = base, me, rng
        self.depth = base.depth

    def candidates(self, state, seat, commands):
        if seat == self.me:
            return self.base.candidates(state, seat, commands)
        return [commands[self.rng.randrange(len(commands))]]

    def pick(self, state, seat, commands, rng):
        return self.base.pick(state, seat, commands, rng)

    def evaluate(self, state, seats):
        return self.base.evaluate(state, seats)


class OraclePlayer(SearchPlayer):
    """The search, told what no honest bot knows: the stock's order (``sees``: it searches the
    whole table of revision 2) and its opponent's way of bidding (``knows``: at random)."""

    def __init__(self, module, iterations: int, sees: bool, knows: bool) -> None:
        super().__init__(module, iterations)
        self.sees, self.knows = sees, knows

    def choose(self, sim, state, seat, rng, seed=None):
        self.seat = seat
        return super().choose(sim, state, seat, rng, seed)

    def policy(self, rng):
        base = policy_for(self.module)
        return RandomOpponent(base, self.seat, rng) if self.knows else base

    def look(self, sim, state, seat):
        return state if self.sees else sim.view(state, seat)


VARIANTS = {"plain": Policy, "rule": RuleRollouts, "cutoff": CutOff}
ORACLES = {"oracle": (True, True), "seer": (True, False), "modeller": (False, True)}


def make_player(module, text: str):
    """The player ``text`` names (see the usage); a one-line error for anything else."""
    kind, _, budget = text.partition(":")
    if kind == "random":
        return RandomPlayer()
    n, _, c = budget.partition(":")
    known = kind == "search" or kind in VARIANTS or kind in ORACLES
    if not known or not n.isdigit() or int(n) < 1 or (c and kind != "search"):
        names = ":N, ".join(["search:N:C, search", *VARIANTS, *ORACLES])
        raise SystemExit(f"no player {text!r} (random, {names}:N; N iterations, at least 1)")
    if kind in ORACLES:
        return OraclePlayer(module, int(n), *ORACLES[kind])
    if kind in VARIANTS:
        return SearchPlayer(module, int(n), VARIANTS[kind]())
    try:
        return SearchPlayer(module, int(n), exploration=float(c or 0.7))
    except ValueError:
        raise SystemExit(f"{text!r}: the exploration constant C is a number") from None


def first_state(module, g: int, revision: int):
    """A started table of game ``g`` under ``revision``, on the fast path."""
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"dotf-fast-%d" % g)
    decider = Decider(module)
    state = decider.initial(game.header.options, game.header.players, revision)
    _, state = decider.start(state, FastRng(b"dotf-fast-%d" % g, b"start"))
    return Sim(module, b"play-%d" % g), state


def play(module, player, g: int, revision: int) -> tuple[float, float, int]:
    """One game of ``player`` against the random bot: (its score, CPU seconds, its moves)."""
    sim, state = first_state(module, g, revision)
    me = g % 2
    rng = random.Random(g)
    other = RandomPlayer()
    cpu, moves = 0.0, 0
    while (result := sim.outcome(state)) is None:
        chosen = []
        for seat in sim.to_act(state):
            if seat == me:
                start = time.process_time()
                chosen.append((seat, player.choose(sim, state, seat, rng)))
                cpu += time.process_time() - start
                moves += 1
            else:
                chosen.append((seat, other.choose(sim, state, seat, rng)))
        state = sim.step(state, tuple(chosen))
    score = 1 / len(result.winners) if me in result.winners else 0.0
    return score, cpu, moves


def positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--player", action="append", required=True)
    parser.add_argument("--games", type=positive, default=200)
    parser.add_argument("--seed", type=int, default=0, help="the first game's number")
    args = parser.parse_args(argv)
    module = bs.get_module(GAME)
    for text in args.player:
        player = make_player(module, text)
        sees = isinstance(player, OraclePlayer) and player.sees
        revision = SHUFFLED_STOCK if sees else module.spec.revision
        score, cpu, moves = 0.0, 0.0, 0
        for g in range(args.seed, args.seed + args.games):
            s, c, m = play(module, player, g, revision)
            score, cpu, moves = score + s, cpu + c, moves + m
            print(f"  {text} game {g}: {s:g}", file=sys.stderr, flush=True)
        low, high = wilson(score, args.games)
        print(
            f"{text:<14} {score:>6.1f}/{args.games} = {score / args.games:.1%} "
            f"[95% CI {low:.1%}-{high:.1%}]  {cpu / max(moves, 1) * 1000:.0f} ms/move",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
