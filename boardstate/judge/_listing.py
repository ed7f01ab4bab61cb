"""The judge's games in a list (``boardstate judge list``): one line each, saying where the game
stands in ``_words``' terms, and since when."""

from __future__ import annotations

from .._words import stage_line
from ._judge import read_game


def game_lines(store) -> list[str]:
    """Each game of ``store``, oldest first: its id, module, players, records, where it stands
    (waiting for joins, in play and whose turn, or over and the result) and since when."""
    lines = []
    for game_id in store.game_ids():
        header, rows = store.load(game_id)
        game = read_game(header, rows, game_id)
        changed = store.settings(game_id)["changed"]
        since = f"since {changed}" if changed else f"since record {game.last_seq}"
        if game.outcome() is not None:
            since = f"ended {changed}" if changed else f"ended at record {game.last_seq}"
        names = ", ".join(game.players)
        lines.append(
            f"{game_id.hex()[:16]}  {game.header.module}  {names}  {len(rows)} records  "
            f"{stage_line(game)}  ({since})"
        )
    return lines
