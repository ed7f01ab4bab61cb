#!/usr/bin/env python3
"""Duel of the Forces: the same games through the full engine and on the bots' fast path, side
by side, to tell a difference in what each path hands the search from a difference of luck.

Game ``g`` is ``bench_bots.py``'s game ``g`` of normal against the random bot (its seed, its
seats, its bots' seeds), with normal held to a fixed number of iterations and no clock (the
clock makes a search depend on the machine).  Beside the engine's game runs a fast-path table
(``Sim``: decide and evolve on states, no log) given the same commands and the same cards: each
card the engine draws (a villain turned up, R2-D2's look, the final take) is recorded as it
draws it and handed to the fast path's decision in its place.  At every choice of either bot
the two are compared: the engine's table and the fast path's, the seat's view, its legal
commands (the engine's, in notation, against the rules' list), a determinization of each view
from the same generator, and the command each path's player chooses there with the same seed:
``Bot`` through the engine, the fast path bench's own players (``bench_dotf_fastpath``) on the
fast path's table.  The first difference stops the game and is said (``Diverged``).

Usage: python bench/bench_dotf_paths.py [--games 20] [--first 0] [--iterations 3000]
"""

from __future__ import annotations

import argparse
import random
import sys
from contextlib import contextmanager

from bench_bots import new_game, play_out, wilson  # (the bench folder: run as a script)
from bench_dotf_fastpath import RandomPlayer, SearchPlayer

import boardstate as bs
from boardstate.bots import Bot, Sim
from boardstate.modules.duel_of_the_forces import _decide  # (the cards drawn, replayed)
from boardstate.rules import determinize

GAME = "duel-of-the-forces"


class Diverged(AssertionError):
    """The engine and the fast path differ at one choice of one game."""


class Draws:
    """The engine's draws, recorded as it makes them and handed in order to the fast path's
    next decision (``mode``: "record", "replay", or None while a search plays its own)."""

    def __init__(self) -> None:
        self.mode: str | None = None
        self.made: list[tuple] = []

    def draw(self, real, table, count: int) -> tuple:
        if self.mode == "replay":
            cards = self.made.pop(0)
            if len(cards) != min(count, len(table.state.stock)) or not set(cards) <= set(
                table.state.stock
            ):
                raise Diverged(f"the engine drew {cards}, not {count} of the fast path's stock")
            return cards
        cards = real(table, count)
        if self.mode == "record":
            self.made.append(cards)
        return cards


@contextmanager
def recorded(draws: Draws):
    """``_decide.draw`` through ``draws`` for the time of the game (put back after)."""
    real = _decide.draw
    _decide.draw = lambda table, count: draws.draw(real, table, count)
    try:
        yield draws
    finally:
        _decide.draw = real


class Twin:
    """One seat's bot through the engine, its fast-path player beside it: ``choose`` checks
    that both see the same and choose the same, and returns the engine bot's command."""

    def __init__(self, bot: Bot, player, table: FastTable, seed_shift: int = 0) -> None:
        self.bot, self.player, self.table, self.shift = bot, player, table, seed_shift

    def choose(self, game, seat: int) -> str:
        table = self.table
        table.catch_up(game)
        draws, table.draws.mode = table.draws.mode, None  # (a search's draws are its own)
        try:
            text = self.bot.choose(game, seat)
            if game.reveal_due():
                return text
            fast = table.state
            mine = table.compare(game, seat)
            if mine:  # (a forced command: no player asked, on either path)
                seed = self.bot._seed(game.seq) + self.shift
                chosen = self.player.choose(table.sim, fast, seat, random.Random(seed), seed)
                if game.rules.notation(fast, seat, chosen) != text:
                    raise Diverged(
                        f"record {game.seq}: the engine's bot chose {text!r}, the fast path's "
                        f"{game.rules.notation(fast, seat, chosen)!r}"
                    )
                table.decisions += 1
            table.pending[seat] = game.rules.parse(fast, seat, text)
            return text
        finally:
            table.draws.mode = draws


class FastTable:
    """The fast path's table of one game, kept level with the engine's."""

    def __init__(self, module, game, draws: Draws) -> None:
        self.module, self.draws = module, draws
        self.sim = Sim(module, b"paths")
        self.state, self.seen = game.state, game.state
        self.pending: dict = {}
        self.decisions = 0

    def catch_up(self, game) -> None:
        """The engine has folded a decision since the last look: the fast path makes it too,
        with the commands given and the cards the engine drew, and must reach its table."""
        if game.state is self.seen:
            return
        moves = tuple((s, self.pending[s]) for s in self.sim.to_act(self.state))
        self.draws.mode = "replay"
        self.state = self.sim.step(self.state, moves)
        self.draws.mode = "record"
        if self.draws.made or self.state != game.state:
            raise Diverged(f"record {game.seq}: the tables differ after the same commands")
        self.pending, self.seen = {}, game.state

    def compare(self, game, seat: int) -> bool:
        """The seat's view, legal commands and determinization, the same on both paths;
        whether it has a choice."""
        rules, sim, fast = game.rules, self.sim, self.state
        view = game.decider.view(game.state, seat)
        if view != sim.view(fast, seat) or seat not in sim.to_act(fast):
            raise Diverged(f"record {game.seq}: {game.players[seat]}'s view differs")
        commands = sim.legal(fast, seat)
        if game.legal(seat) != [rules.notation(view, seat, c) for c in commands]:
            raise Diverged(f"record {game.seq}: {game.players[seat]}'s legal commands differ")
        for k in range(2):
            a = determinize(self.module, view, seat, random.Random(k))
            b = determinize(self.module, sim.view(fast, seat), seat, random.Random(k))
            if a.state != b.state or a.face_down != b.face_down:
                raise Diverged(f"record {game.seq}: a determinization differs")
        return len(commands) > 1


def same_game(g: int, iterations: int, seed_shift: int = 0) -> tuple[float, int]:
    """Game ``g`` on both paths (``seed_shift``: the fast path's searches seeded otherwise, to
    see a difference caught): (normal's score, the choices compared).  ``Diverged`` if the
    paths differ."""
    module = bs.get_module(GAME)
    me = g % 2
    game = new_game(module, g)
    with recorded(Draws()) as draws:
        table = FastTable(module, game, draws)
        normal = Bot("normal", g, iterations=iterations, seconds=None)
        twins = {
            me: Twin(normal, SearchPlayer(module, iterations), table, seed_shift),
            1 - me: Twin(Bot("random", g + 1000), RandomPlayer(), table),
        }
        draws.mode = "record"
        play_out(game, [twins[0], twins[1]], {})
        table.catch_up(game)
    outcome = game.outcome()
    if module.rules.outcome(table.state) != outcome:
        raise Diverged("the outcomes differ")
    return (1 / len(outcome.winners) if me in outcome.winners else 0.0), table.decisions


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--iterations", type=int, default=3000)
    args = parser.parse_args(argv)
    score, decisions = 0.0, 0
    for g in range(args.first, args.first + args.games):
        try:
            s, d = same_game(g, args.iterations)
        except Diverged as why:
            print(f"game {g}: the paths differ: {why}", file=sys.stderr)
            return 1
        score, decisions = score + s, decisions + d
        print(f"  game {g}: {s:g} on both paths ({d} choices compared)", file=sys.stderr)
    low, high = wilson(score, args.games)
    print(
        f"normal ({args.iterations} iterations) vs random, games {args.first}-"
        f"{args.first + args.games - 1}: {score:g}/{args.games} = {score / args.games:.1%} "
        f"[95% CI {low:.1%}-{high:.1%}] on both paths; {decisions} choices compared, all equal"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
