"""The shared-deck mode's costs (docs/performance.md, "The shared deck"): the mails of the
set-up, the size of the shuffle proofs, how many draws need no extra mail, the CPU to make
and to check one player's shuffle, and to read a copy checked after the set-up (what ``move``
and ``apply`` do first).

    python bench/bench_shared_deck.py [--games N]

Games are played by the players' own copies through move files (tests/shared_deck_table.py),
each copy mailing only when another player must act next (what a player does by mail: their
deals ride on the move they make next).  A draw "needs an extra mail" when the player to act
has to wait for another player's share of a card they drew (a round trip).  The mail counts do
not depend on the proofs' rounds: the games run at 8, the set-up and the proofs at 80.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from shared_deck_table import Table

from boardstate import _mental as mental
from boardstate._fileformat import encode_game
from boardstate._records import Kind
from boardstate._referee import load_checked

PLAYED = (Kind.MOVE, Kind.COMMIT, Kind.REVEAL)


def behind(table: Table, src: int) -> bool:
    a = table.copies[src]
    return any(
        c.seq < a.seq or c.records[a.seq - 1].hash != a.records[-1].hash
        for i, c in enumerate(table.copies)
        if i != src
    )


def by_mail(table: Table, counts: dict) -> None:
    """Deliver what the players must see: a copy mails only when someone else acts next."""
    for _ in range(200):
        sent = False
        for src, game in enumerate(table.copies):
            if not behind(table, src):
                continue
            if game.outcome() is None and set(game.to_act()) <= {src}:
                continue  # (its records ride on its next mail)
            first = min(c.seq for i, c in enumerate(table.copies) if i != src)
            played = any(r.kind in PLAYED for r in game.records[first:])
            table.mail(src)
            sent = True
            counts["mails"] += 1
            if not played:  # (a reply of deals alone: someone waited for it)
                counts["waits"] += 1
        if not sent:
            return
    raise AssertionError("the mail never settled")


def one_game(players: int, seed: int) -> dict:
    counts = {"mails": 0, "waits": 0, "draws": 0}
    table = Table(players, seed, deliver=lambda t: by_mail(t, counts))
    counts = {"setup": counts["mails"] + 1, "mails": 0, "waits": 0, "draws": 0}  # (+ invite)
    while max(table.copies, key=lambda c: c.seq).outcome() is None:
        lead = max(table.copies, key=lambda c: c.seq)
        (seat,) = lead.to_act()
        game = table.copies[seat]
        game.play(seat, table.rng.choice(game.legal(seat)))
        game.add_owed()
        by_mail(table, counts)
    setup_draws = 5 * players
    for record in table.copies[0].records:
        for event in record.events:
            if type(event).__name__ == "CardsDrawn":
                counts["draws"] += len(event.cards)
    counts["draws"] -= setup_draws  # (the deal itself is the set-up's)
    counts["records"] = table.copies[0].seq
    return counts


def proofs() -> dict:
    """One player's shuffle of the 54 cards at 80 rounds: bytes, seconds to make and check."""
    gid = bytes(32)
    keys = [mental.key_share(bytes([i]) * 32, gid) for i in range(2)]
    joint = mental.joint_key([k[1] for k in keys])
    deck = mental.opened_deck(range(54), joint)
    start = time.process_time()
    out, perm, rhos = mental.shuffle(deck, joint, b"k" * 32)
    proof = mental.prove_shuffle(deck, out, perm, rhos, joint, b"k" * 32, (gid, 0))
    made = time.process_time() - start
    start = time.process_time()
    mental.check_shuffle(deck, out, proof, joint, (gid, 0))
    checked = time.process_time() - start
    size = sum(map(len, proof)) + sum(map(len, out))
    return {"bytes": size, "prove s": round(made, 2), "check s": round(checked, 2)}


def read_checked() -> dict:
    """A 2-player game just set up (two shuffles at 80 rounds): the CPU to read each copy
    checked, as ``move`` and ``apply`` read it (``load_checked``), the first time (its own
    shuffle made again, the other's proven) and again (the records checked before are
    remembered, ``_checked``: no proof is checked twice)."""
    table = Table(2, seed=0)
    out = {}
    with tempfile.TemporaryDirectory() as folder:
        for seat, game in enumerate(table.copies):  # (each player's own machine and cache)
            os.environ["BOARDSTATE_CACHE"] = str(Path(folder, f"cache{seat}"))
            path = Path(folder, f"copy{seat}.msgpack")
            path.write_bytes(encode_game(game))
            for when in ("first", "again"):
                start = time.process_time()
                load_checked(str(path))
                out[f"copy {seat} {when} s"] = round(time.process_time() - start, 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    print("one shuffle (54 cards, 80 rounds):", proofs())
    print("a copy read checked after the set-up (80 rounds):", read_checked())
    mental.SHUFFLE_ROUNDS = 8  # (the games: mail counts do not depend on the rounds)
    for players in (2, 3):
        total = {"setup": 0, "mails": 0, "waits": 0, "draws": 0, "records": 0}
        for seed in range(args.games):
            for key, value in one_game(players, seed).items():
                total[key] += value
        free = 1 - total["waits"] / total["draws"]
        print(
            f"{players} players, {args.games} games: set-up {total['setup'] / args.games:.1f} "
            f"mails; play {total['mails'] / args.games:.0f} mails, of which "
            f"{total['waits'] / args.games:.1f} replies someone waited for; "
            f"{total['draws'] / args.games:.0f} draws after the deal, {free:.0%} needing no "
            f"extra mail; {total['records'] / args.games:.0f} records"
        )


if __name__ == "__main__":
    main()
