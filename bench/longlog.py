"""Make a long Duel of the Forces log with the engine itself (for the file benchmarks).

A Duel of the Forces game is short (50-200 records), so a long log is made legal the only way the
rules allow: both players play R2-D2 for ``rounds`` rounds (nobody competes, the villain stays up),
then random legal play to the end.  Every record is real: commitments, reveals, resolutions.
"""

from __future__ import annotations

import random
import sys

import boardstate as bs


def make_long_game(rounds: int, seed: int = 1) -> bs.Game:
    module = bs.get_module("duel-of-the-forces")
    game = bs.Game.new(
        module, ["ann", "ben"], {}, seed=b"long-%d" % seed, created="2026-01-01T00:00:00+00:00"
    )
    pick = random.Random(seed)
    entropy = pick.randbytes
    done = 0
    while game.outcome() is None:
        seat = game.to_act()[0]
        legal = game.legal(seat)
        command = "play r2" if done < rounds and "play r2" in legal else pick.choice(legal)
        records = game.play(seat, command, entropy=entropy)
        if any(r.events for r in records):
            done += 1
    return game


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    out = sys.argv[2] if len(sys.argv) > 2 else "long.msgpack"
    game = make_long_game(rounds)
    bs.save_game(game, out)
    print(f"{out}: {game.seq} records")
