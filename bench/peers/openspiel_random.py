#!/usr/bin/env python3
"""Peer benchmark: OpenSpiel random self-play throughput (player actions/s).

Uniform random agents play complete games through OpenSpiel's Python API
(``pyspiel``) for a fixed wall-clock budget.  One "action" is one action
applied for one player: at a simultaneous-move node with k players that is k
actions (applied together with ``state.apply_actions``).  Chance outcomes are
sampled by their probabilities with the same RNG but are counted separately
(``chance_actions``), never in ``actions``; ``actions_incl_chance_per_s``
gives the rate with chance outcomes counted too.

Games measured:

* ``goofspiel`` -- OpenSpiel's C++ Goofspiel, the closest public sealed-bid
  card game (simultaneous bids, chance reveals the prize card each round).
* ``python_kuhn_poker`` -- OpenSpiel's Python-implemented Kuhn poker.
* ``python_iterated_prisoners_dilemma`` -- OpenSpiel's only Python-implemented
  simultaneous-move game.  OpenSpiel 2.0.2 ships no Python Goofspiel
  (no ``python_goofspiel``), so this stands in as the Python simultaneous-move
  reference.
* ``kuhn_poker`` -- the C++ Kuhn poker, to show the C++/Python gap on one game.

Run as a plain file:  ``python bench/peers/openspiel_random.py [seconds]``.
Needs ``pip install -r bench/requirements-peers.txt``.
"""

from __future__ import annotations

import random
import sys
import time

MISSING_MSG = (
    "openspiel_random: the peer package open_spiel is not installed "
    "(pip install -r bench/requirements-peers.txt)"
)

try:  # pragma: no cover - depends on the environment
    import pyspiel

    # Importing this package registers the python_* games with pyspiel.
    from open_spiel.python import games as _python_games  # noqa: F401
except ImportError:  # pragma: no cover
    pyspiel = None

SEED = 20240601


class PeerMissing(RuntimeError):
    """Raised when the peer package needed for a measurement is missing."""


def _require() -> None:
    if pyspiel is None:
        raise PeerMissing(MISSING_MSG)


def random_playout_actions_per_s(
    game_name: str,
    params: dict | None = None,
    seconds: float = 3.0,
    seed: int = SEED,
    label: str | None = None,
) -> dict:
    """Play whole games of ``game_name`` with uniform random agents.

    Games are played to the end; the clock is checked between games, so the
    measured time slightly exceeds ``seconds``.  Game construction
    (``load_game``) is outside the timed region; ``new_initial_state`` and
    everything after it is inside.
    """
    _require()
    game = pyspiel.load_game(game_name, dict(params or {}))
    num_players = game.num_players()
    rng = random.Random(seed)
    choice = rng.choice
    choices = rng.choices
    players = range(num_players)

    actions = 0
    chance_actions = 0
    games = 0
    perf = time.perf_counter
    start = perf()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(choices(outcomes, probs)[0])
                chance_actions += 1
            elif state.is_simultaneous_node():
                joint = [choice(state.legal_actions(p)) for p in players]
                state.apply_actions(joint)
                actions += num_players
            else:
                state.apply_action(choice(state.legal_actions()))
                actions += 1
        games += 1
        now = perf()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "name": label or f"openspiel {game}",
        "game": str(game),
        "actions": actions,
        "seconds": elapsed,
        "actions_per_s": actions / elapsed if elapsed > 0 else 0.0,
        "games": games,
        "chance_actions": chance_actions,
        "actions_incl_chance_per_s": (actions + chance_actions) / elapsed if elapsed > 0 else 0.0,
    }


def goofspiel_cpp_actions_per_s(seconds: float = 3.0, num_cards: int = 8, players: int = 2) -> dict:
    """C++ Goofspiel (pyspiel.load_game("goofspiel", ...)), random agents."""
    return random_playout_actions_per_s(
        "goofspiel",
        {"num_cards": num_cards, "players": players},
        seconds=seconds,
        label=f"OpenSpiel C++ goofspiel ({num_cards} cards, {players}p)",
    )


def python_kuhn_actions_per_s(seconds: float = 3.0) -> dict:
    """OpenSpiel's Python-implemented Kuhn poker, chance nodes sampled."""
    return random_playout_actions_per_s(
        "python_kuhn_poker",
        seconds=seconds,
        label="OpenSpiel Python kuhn_poker",
    )


def python_goofspiel_actions_per_s(seconds: float = 3.0, **params) -> dict:
    """Python-implemented Goofspiel, if this OpenSpiel has one.

    OpenSpiel 2.0.2 does not ship ``python_goofspiel``; this raises
    PeerMissing then.  See python_simultaneous_actions_per_s() instead.
    """
    _require()
    if "python_goofspiel" not in pyspiel.registered_names():
        raise PeerMissing("openspiel_random: this OpenSpiel has no python_goofspiel game")
    return random_playout_actions_per_s(
        "python_goofspiel",
        params,
        seconds=seconds,
        label="OpenSpiel Python goofspiel",
    )


def python_simultaneous_actions_per_s(seconds: float = 3.0) -> dict:
    """OpenSpiel's Python iterated prisoner's dilemma (simultaneous moves)."""
    return random_playout_actions_per_s(
        "python_iterated_prisoners_dilemma",
        seconds=seconds,
        label="OpenSpiel Python iterated_prisoners_dilemma",
    )


def kuhn_cpp_actions_per_s(seconds: float = 3.0) -> dict:
    """OpenSpiel's C++ Kuhn poker, for the C++/Python comparison."""
    return random_playout_actions_per_s(
        "kuhn_poker",
        seconds=seconds,
        label="OpenSpiel C++ kuhn_poker",
    )


def run_all(seconds: float = 3.0) -> list[dict]:
    results = [
        goofspiel_cpp_actions_per_s(seconds),
        python_kuhn_actions_per_s(seconds),
    ]
    _require()
    if "python_goofspiel" in pyspiel.registered_names():
        results.append(python_goofspiel_actions_per_s(seconds))
    results.append(python_simultaneous_actions_per_s(seconds))
    results.append(kuhn_cpp_actions_per_s(seconds))
    return results


def format_table(results: list[dict]) -> str:
    head = f"{'peer':<48} {'actions/s':>12} {'+chance/s':>12} {'actions':>10} {'games':>8} {'s':>6}"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r['name']:<48} {r['actions_per_s']:>12,.0f}"
            f" {r['actions_incl_chance_per_s']:>12,.0f} {r['actions']:>10,}"
            f" {r['games']:>8,} {r['seconds']:>6.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    seconds = float(argv[0]) if argv else 3.0
    try:
        results = run_all(seconds)
    except PeerMissing as exc:
        print(exc, file=sys.stderr)
        return 2
    print(
        f"OpenSpiel {getattr(pyspiel, '__version__', '?')} random self-play,"
        f" {seconds:g}s per game, seed {SEED}"
    )
    print(format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
