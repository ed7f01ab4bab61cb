#!/usr/bin/env python3
"""Peer benchmark: pyeventsourcing aggregate replay throughput (events/s).

Builds one aggregate with ``n_events`` stored events (1 creation event plus
``n_events - 1`` small "Played" events carrying a player and a card, as a
game log would) in an ``eventsourcing`` Application, then times
``app.repository.get(id)``: selecting the stored events from the recorder,
decoding them (JSON transcoder) into domain-event objects and applying them
to rebuild the aggregate.  There is no rules check and no hash chain: this is
the library's bare replay cost.  Snapshotting and the aggregate cache are off
(the library defaults), so every ``get`` replays all events.

Two recorders: ``popo`` (plain Python objects in memory, the default) and
``sqlite`` (SQLite ``:memory:`` database).

Run as a plain file:
``python bench/peers/eventsourcing_replay.py [n_events] [popo|sqlite|all]``.
Needs ``pip install -r bench/requirements-peers.txt``.
"""

from __future__ import annotations

import sys
import time

MISSING_MSG = (
    "eventsourcing_replay: the peer package eventsourcing is not installed "
    "(pip install -r bench/requirements-peers.txt)"
)

try:  # pragma: no cover - depends on the environment
    import eventsourcing
    from eventsourcing.application import Application
    from eventsourcing.domain import Aggregate, event
except ImportError:  # pragma: no cover
    eventsourcing = None


class PeerMissing(RuntimeError):
    """Raised when the peer package needed for a measurement is missing."""


PERSISTENCE = {
    "popo": {"PERSISTENCE_MODULE": "eventsourcing.popo"},
    "sqlite": {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": ":memory:",
    },
}

_classes: dict = {}


def _game_class():
    """Define the aggregate lazily, so importing this file never needs the peer."""
    if eventsourcing is None:
        raise PeerMissing(MISSING_MSG)
    if "Game" not in _classes:

        class Game(Aggregate):
            @event("Started")
            def __init__(self, players: int) -> None:
                self.players = players
                self.moves = 0
                self.score = 0

            @event("Played")
            def play(self, player: int, card: int) -> None:
                self.moves += 1
                self.score += card if player == 0 else -card

        _classes["Game"] = Game
    return _classes["Game"]


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eventsourcing")
    except PackageNotFoundError:  # pragma: no cover
        return "?"


def eventsourcing_replay_events_per_s(
    n_events: int = 100_000, persistence: str = "popo", repeats: int = 3
) -> dict:
    """Time ``repository.get(id)`` of one aggregate with ``n_events`` events.

    The replay is run ``repeats`` times; ``seconds`` is the fastest run
    (``all_seconds`` lists them all).  Building and saving the events is timed
    separately (``save_seconds``).
    """
    if persistence not in PERSISTENCE:
        raise ValueError(f"persistence must be one of {sorted(PERSISTENCE)}")
    Game = _game_class()
    app = Application(env=dict(PERSISTENCE[persistence]))

    t0 = time.perf_counter()
    game = Game(players=2)
    for i in range(n_events - 1):
        game.play(i & 1, i % 13 + 1)
    app.save(game)
    save_seconds = time.perf_counter() - t0

    runs = []
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        copy = app.repository.get(game.id)
        runs.append(time.perf_counter() - t0)
        if copy.version != n_events or copy.moves != n_events - 1:
            raise AssertionError(f"replay rebuilt version {copy.version}, expected {n_events}")
        del copy
    app.close()
    best = min(runs)
    return {
        "name": f"eventsourcing {_version()} {persistence} replay",
        "events": n_events,
        "seconds": best,
        "events_per_s": n_events / best if best > 0 else 0.0,
        "all_seconds": runs,
        "save_seconds": save_seconds,
        "persistence": persistence,
    }


def format_table(results: list[dict]) -> str:
    head = f"{'peer':<42} {'events/s':>10} {'events':>9} {'replay s':>9} {'save s':>7}"
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r['name']:<42} {r['events_per_s']:>10,.0f} {r['events']:>9,}"
            f" {r['seconds']:>9.3f} {r['save_seconds']:>7.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    n_events = int(argv[0]) if argv else 100_000
    which = argv[1] if len(argv) > 1 else "all"
    kinds = sorted(PERSISTENCE) if which == "all" else [which]
    try:
        results = [eventsourcing_replay_events_per_s(n_events, k) for k in kinds]
    except PeerMissing as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"eventsourcing replay of one aggregate, {n_events:,} events, best of 3")
    print(format_table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
