#!/usr/bin/env python3
"""The OpenSpiel bridge beside OpenSpiel's own Kuhn poker and Goofspiel, same run.

Random play: uniform random agents through pyspiel's Python API, the same loop for every game
(``bench/peers/openspiel_random.py``), player actions/s: the bridge's Duel of the Forces (2 and
4 players), Jedi Duel and Epic Duels (2 players); OpenSpiel's Python and C++ Kuhn poker and its
C++ Goofspiel (8 cards).  Beside them the engine's own fast path (``random_playout``, no
OpenSpiel) on Duel of the Forces for 2: what going through OpenSpiel costs.  The contestants
take turns in slices (``bench_selfplay.interleaved``), so a busy spell falls on all alike, and
the rates are per second of CPU.

IS-MCTS: OpenSpiel's Python ``ISMCTSBot`` (UCT c = 2, one random rollout a leaf, N simulations
a decision) against a uniform random player, whole games, the bot's seat alternating: the CPU
time of a decision that has a choice, simulations/s, and the bot's wins and mean return.  Each game
resamples its own way: the bridge through ``resample_from_infostate`` (the kit's
determinizer), C++ Kuhn poker through its own, and Goofspiel (turn-based, ``imp_info=False``:
only the bid of the round under way is hidden) through a resampler written here that draws the
hidden bid at random.

Usage: python bench/bench_openspiel.py [--seconds 3] [--simulations 100] [--ismcts-seconds 30]
(needs the extra: pip install "boardstate[openspiel]")
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "peers"))

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import boardstate.openspiel as bos
except ImportError as exc:
    sys.exit(
        f'bench_openspiel: needs the openspiel extra (pip install "boardstate[openspiel]"): {exc}'
    )

import bench_selfplay  # noqa: E402  (found through sys.path, above)
import openspiel_random as osr  # noqa: E402

GOOFSPIEL = "turn_based_simultaneous_game(game=goofspiel(imp_info=False,num_cards=6,players=2))"


def random_play(seconds: float) -> list[dict]:
    def bridge(module_id: str, players: int, label: str):
        name = bos.game_name(module_id)
        params = {"players": players, "seed": 1}
        return lambda t: [osr.random_playout_actions_per_s(name, params, t, label=label)]

    def cpu(measure):  # (CPU seconds, not wall: a machine shared with other work slows both)
        def timed(t: float) -> list[dict]:
            began = time.process_time()
            rows = measure(t)
            for r in rows:
                r["seconds"] = (time.process_time() - began) / len(rows)
            return rows

        return timed

    contestants = [
        bridge("duel-of-the-forces", 2, "bridge: Duel of the Forces, 2 players"),
        bridge("duel-of-the-forces", 4, "bridge: Duel of the Forces, 4 players"),
        bridge("jedi-duel", 2, "bridge: Jedi Duel, 2 players"),
        bridge("epic-duels", 2, "bridge: Epic Duels, 2 players"),
        lambda t: [osr.python_kuhn_actions_per_s(t)],
        lambda t: [osr.kuhn_cpp_actions_per_s(t)],
        lambda t: [osr.goofspiel_cpp_actions_per_s(t)],
        lambda t: [bench_selfplay.duel_of_the_forces(2, t)],
    ]
    return bench_selfplay.interleaved([cpu(m) for m in contestants], seconds)


def goofspiel_resampler(game, seed: int):
    """Turn-based Goofspiel with public bids: when player 1 bids, player 0's bid of the round
    (the last action) is hidden from it; draw it anew among player 0's bids."""
    rng = np.random.RandomState(seed)

    def resample(state, player: int):
        if state.current_player() != 1:
            return state.clone()
        history = state.history()
        other = game.new_initial_state()
        for action in history[:-1]:
            other.apply_action(action)
        other.apply_action(rng.choice(other.legal_actions()))
        return other

    return resample


def ismcts_play(label, game, seconds: float, simulations: int, resampler=None) -> dict:
    rs = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs
    )
    if resampler is not None:
        bot.set_resampler(resampler)
    games = decisions = wins = 0
    returns = searching = 0.0
    perf, cpu = time.perf_counter, time.process_time  # (a decision's time: CPU, not wall)
    start = perf()
    while perf() - start < seconds or games == 0:
        seat, state = games % 2, game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rs.choice(outcomes, p=probs))
            elif state.current_player() == seat and len(state.legal_actions()) > 1:
                began = cpu()
                state.apply_action(bot.step(state))
                searching += cpu() - began
                decisions += 1
            else:
                state.apply_action(rs.choice(state.legal_actions()))
        games += 1
        returns += state.returns()[seat]
        wins += state.returns()[seat] > 0
    return {
        "name": label,
        "games": games,
        "decisions": decisions,
        "ms_per_decision": 1000 * searching / decisions,
        "simulations_per_s": decisions * simulations / searching,
        "wins": wins,
        "mean_return": returns / games,
    }


def ismcts_figures(seconds: float, simulations: int) -> list[dict]:
    dotf = bos.load_game("duel-of-the-forces", players=2, seed=2)
    jedi = bos.load_game("jedi-duel", players=2, seed=2)
    kuhn = pyspiel.load_game("kuhn_poker")
    goof = pyspiel.load_game(GOOFSPIEL)
    return [
        ismcts_play("bridge: Duel of the Forces, 2 players", dotf, seconds, simulations),
        ismcts_play("bridge: Jedi Duel, 2 players", jedi, seconds, simulations),
        ismcts_play("OpenSpiel C++ kuhn_poker", kuhn, seconds, simulations),
        ismcts_play(
            "OpenSpiel C++ goofspiel (6 cards, turn-based, public bids)",
            goof,
            seconds,
            simulations,
            goofspiel_resampler(goof, 7),
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per contestant")
    parser.add_argument("--simulations", type=int, default=100, help="IS-MCTS, per decision")
    parser.add_argument(
        "--ismcts-seconds", type=float, default=30.0, help="IS-MCTS, seconds per game (whole games)"
    )
    args = parser.parse_args()
    print(
        f"Python {platform.python_version()}, {platform.machine()}, OpenSpiel "
        f"{getattr(pyspiel, '__version__', '2.0.2')}, same run\n"
    )
    rows = random_play(args.seconds)
    print("Random play (uniform random agents through pyspiel's Python API):\n")
    print("| game | player actions/s | games |")
    print("|---|---:|---:|")
    for r in rows:
        name = r["name"]
        if name.startswith("boardstate Duel"):
            name = "engine fast path (random_playout, no OpenSpiel): Duel of the Forces, 2 players"
        print(f"| {name} | {r['actions_per_s']:,.0f} | {r['games']:,} |")
    by = {r["name"]: r["actions_per_s"] for r in rows}
    dotf = by["bridge: Duel of the Forces, 2 players"]
    print(
        f"\nbridge Duel of the Forces (2) / its fast path: "
        f"{dotf / by['boardstate Duel of the Forces, 2 players']:.2f}; "
        f"/ OpenSpiel Python Kuhn poker: {dotf / by['OpenSpiel Python kuhn_poker']:.2f}\n"
    )
    print(
        f"IS-MCTS (OpenSpiel's Python ISMCTSBot, {args.simulations} simulations a decision, "
        "against a uniform random player, seats alternating):\n"
    )
    print("| game | ms a decision | simulations/s | games | bot's wins | mean return |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in ismcts_figures(args.ismcts_seconds, args.simulations):
        print(
            f"| {r['name']} | {r['ms_per_decision']:,.1f} | {r['simulations_per_s']:,.0f} | "
            f"{r['games']} | {r['wins']} | {r['mean_return']:+.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
