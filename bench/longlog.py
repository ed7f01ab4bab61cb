"""Make a long Duel of the Forces log with the engine itself (for the file benchmarks).

A Duel of the Forces game is short (50-200 records), so a long log is made legal the only way the
rules allow: both players play R2-D2 for ``rounds`` rounds (nobody competes, the villain stays up),
then random legal play to the end.  Every record is real: commitments, reveals, resolutions.

``make_long_peer_copies``: the same in the peer mode, two players by mail (each copy its own
player's records, signed; the shares of the randomness in deals), stopped in the middle of
the game where both copies hold the same records and the first player is to bid.
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


def make_long_peer_copies(records: int, keys, seed: int = 1) -> list[bs.Game]:
    """Two players' copies of one peer game of at least ``records`` records, alike, the first
    player to act; ``keys``: the players' Ed25519 private keys (``boardstate.keys``)."""
    from bench_peer import ByMail

    module = bs.get_module("duel-of-the-forces")
    pick = random.Random(seed)
    table = ByMail.peer(module, 2, [pick.randbytes(32) for _ in keys], keys, pick)
    first, second = table.copies

    def ready() -> bool:
        return (
            first.seq >= records
            and first.head_hash == second.head_hash
            and first.outcome() is None
            and 0 in first.to_act()
            and not first.due()
            and not first.reveal_due()
        )

    while True:
        while table.mail(0, 1) | table.mail(1, 0):  # (until neither copy has anything to send)
            pass
        if ready():
            return table.copies
        for seat in (0, 1):
            while table.holds_all(seat) and table.act_once(seat, "play r2"):
                pass
            table.mail(seat, 1 - seat)
        if first.outcome() is not None:
            raise AssertionError("the long peer game ended: R2-D2 was not legal throughout")


if __name__ == "__main__":
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    out = sys.argv[2] if len(sys.argv) > 2 else "long.msgpack"
    game = make_long_game(rounds)
    bs.save_game(game, out)
    print(f"{out}: {game.seq} records")
