"""The judge's games in a list (``boardstate judge list``, and the index of ``judge site``): each
says where the game stands in ``_words``' terms, and since when."""

from __future__ import annotations

from collections.abc import Iterator

from .._deadline import stamp_words
from .._words import stage_line
from ._judge import read_game


def stored_games(store) -> Iterator[tuple[bytes, object, str]]:
    """Each game of ``store``, oldest first: its id, the judge's copy (every secret in it: what
    is shown of it is for the caller to choose) and since when it stands where it does."""
    for game_id in store.game_ids():
        header, rows = store.load(game_id)
        game = read_game(header, rows, game_id)
        changed = store.settings(game_id)["changed"]
        since = f"since {changed}" if changed else f"since record {game.last_seq}"
        if game.outcome() is not None:
            since = f"ended {changed}" if changed else f"ended at record {game.last_seq}"
        yield game_id, game, since


def game_lines(store) -> list[str]:
    """Each game of ``store``, oldest first: its id, module, players, records, where it stands
    (waiting for joins, in play and whose turn, or over and the result) and since when; in a
    game with a deadline, when the time of each player it waits for runs out."""
    return [
        f"{game_id.hex()[:16]}  {game.header.module}  {', '.join(game.players)}  "
        f"{len(game.records)} records  {stage_line(game)}  ({since}){_deadlines(game)}"
        for game_id, game, since in stored_games(store)
    ]


def _deadlines(game) -> str:
    """``  deadline: ann 2026-11-25T10:00:00Z (then forfeit)`` ('' without a deadline)."""
    due = game.trust.deadlines(game) if game.header.deadline is not None else {}
    if not due:
        return ""
    times = ", ".join(f"{game.players[s]} {stamp_words(t)}" for s, t in sorted(due.items()))
    return f"  deadline: {times} (then {game.header.deadline.policy})"
