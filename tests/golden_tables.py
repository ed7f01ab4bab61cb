"""Golden move-count tables: the number of legal commands at every step of fixed games.

Like chess engines' perft tables: any change to the rules that changes what is legal shows up as
a diff.  Regenerate (after a deliberate rules change) with:  python tests/golden_tables.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

GOLDEN = Path(__file__).parent / "golden"
SEEDS = (1, 2, 3)


def table(module, seed: int) -> list:
    """[[seq, seat, number of legal commands], ...] along a fixed random game."""
    from conftest import random_game

    rows: list = []

    def record(game):
        for seat in game.to_act():
            rows.append([game.seq, seat, len(game.legal(seat))])

    game = random_game(module, seed, check_each=record)
    return {
        "players": len(game.players),
        "records": game.seq,
        "scores": list(game.outcome().scores),
        "counts": rows,
    }


def build(module) -> dict:
    return {str(seed): table(module, seed) for seed in SEEDS}


if __name__ == "__main__":
    import boardstate as bs

    GOLDEN.mkdir(exist_ok=True)
    for module in bs.installed_modules().values():
        path = GOLDEN / f"{module.spec.id}.json"
        path.write_text(json.dumps(build(module), separators=(",", ":")) + "\n")
        print(f"wrote {path}")
