#!/usr/bin/env python3
"""The cost of the peer mode (issue 13): what playing with no dealer costs beside the open mode.

The same games, played to the end with uniformly random legal commands, in one run:

- open, hot seat: one copy (``Game.new(..., seed=...)``, ``game.play(seat, command)``);
- open, by mail: one copy per player, all made from the creator's file (every copy holds the
  seed), move files exchanged as mail;
- peer, by mail: one copy per player, each with its own Ed25519 key and hash chain, the others
  joining from the creator's invitation (``encode_public``), move files exchanged as mail (the
  way tests/test_peer.py's ``Table`` plays).

Mail follows one rule in both modes: a copy that holds every record the others hold does
everything it can (its player's commands; the reveals and deals its copy makes by itself), then
every copy in turn sends a move file to each player whose copy lacks some of its records; the
receiver applies it at once (``referee_moves``) and adds its own reveals and deals.  Mails
counted are move files; the creator's first file to each other player (the game file, or the
peer invitation) is counted apart.

Reported per game, player count and mode: records (by kind), the final full file
(``encode_game``; a peer game: player 0's copy as that player saves it) in bytes per game and
per record, ``verify`` records/s on those files, wall time per game, mails per game and bytes
per move file, merges of copies that parted.  Then the peer mode's own costs: making a hash
chain (the first ``chain_of`` of a secret in a process: ``CHAIN_LENGTH`` SHA-256), checking a
link, signing and verifying one record.  Keys and chains are made before a game's clock starts.

Games: ``draw-and-roll`` (tests/peer_draw.py: owner-arranged piles, private draws, public
dice) and Duel of the Forces revision 3 (sealed bids, cards drawn as they turn up), if this
version plays it in the peer mode.

Usage: python bench/bench_peer.py [--games 30] [--games4 3] [--quick] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import attrs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate import _peer, _referee
from boardstate import keys as player_keys
from boardstate._fileformat import encode_game, encode_moves, encode_public, parse_raw
from boardstate._loading import load_game
from boardstate._peer import CHAIN_LENGTH, chain_of, link_follows, signed_message
from boardstate._records import Kind
from boardstate._referee import referee_moves, verify
from boardstate._registry import registered

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from peer_draw import MODULE as DRAW

NAMES = ("alice", "bob", "carol", "dave")
KINDS = ("setup", "join", "deal", "move", "commit", "reveal")  # (the order shown)
MODES = ("open, hot seat", "open, by mail", "peer, by mail")


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class Merges:
    """Counts ``merge_sealed`` calls (copies that parted, merged on receipt) and their time."""

    def __init__(self) -> None:
        self.count = 0
        self.seconds = 0.0
        self._real = _referee.merge_sealed

    def __enter__(self) -> Merges:
        real = self._real

        def merge_sealed(*args, **kwargs):
            t = time.process_time()
            try:
                return real(*args, **kwargs)
            finally:
                self.count += 1
                self.seconds += time.process_time() - t

        _referee.merge_sealed = merge_sealed
        return self

    def __exit__(self, *exc) -> None:
        _referee.merge_sealed = self._real


# ------------------------------------------------------------------ playing games
def open_hot_seat(module, n: int, seed: bytes, pick: random.Random) -> bs.Game:
    """One copy holds every seat: the open mode at one table."""
    game = bs.Game.new(module, NAMES[:n], {}, seed=seed)
    while game.outcome() is None:
        seat = game.to_act()[0]
        game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
    return game


class ByMail:
    """One copy per player; ``mail`` carries move files between them, counted and measured."""

    def __init__(self, copies: list[bs.Game], first_file: int, pick: random.Random) -> None:
        self.copies = copies
        self.pick = pick
        self.first_file = first_file  # bytes of the creator's first file to each other player
        self.mails = 0
        self.mail_bytes = 0
        self.mail_records = 0

    @classmethod
    def open(cls, module, n: int, seed: bytes, pick: random.Random) -> ByMail:
        first = bs.Game.new(module, NAMES[:n], {}, seed=seed)
        data = encode_game(first)  # the creator mails the game file; every copy holds the seed
        copies = [first] + [load_game(parse_raw(data, "game")) for _ in range(1, n)]
        return cls(copies, len(data), pick)

    @classmethod
    def peer(cls, module, n: int, secrets, keys, pick: random.Random) -> ByMail:
        first = bs.Game.new(module, NAMES[:n], {}, trust="peer", seat=0, peer_secret=secrets[0])
        first.signer = keys[0].sign
        first.join(0, _public(keys[0]))
        invite = encode_public(first)
        copies = [first]
        for seat in range(1, n):
            game = verify(parse_raw(invite, "invite")).game
            game.header = attrs.evolve(game.header, viewer=seat, peer_secret=secrets[seat])
            game.signer = keys[seat].sign
            copies.append(game)
        for seat in range(1, n):  # everyone joins from the invitation (joins commute)
            copies[seat].join(seat, _public(keys[seat]))
        return cls(copies, len(invite), pick)

    def mail(self, src: int, dst: int) -> bool:
        """Send ``dst`` what ``src`` holds beyond their common records (a move file), if any."""
        a, b = self.copies[src], self.copies[dst]
        common = min(a.seq, b.seq)  # (hash-chained: equal at a record, equal before it)
        while common and a.records[common - 1].hash != b.records[common - 1].hash:
            common -= 1
        if common == a.seq:
            return False
        data = encode_moves(a, common - 1)
        self.mails += 1
        self.mail_bytes += len(data)
        self.mail_records += a.seq - common
        try:
            referee_moves(b, parse_raw(data, f"from {NAMES[src]}"))
        except bs.MoveRefused as exc:
            if exc.code != "stale":
                raise
        while b.reveal_held() + b.deal_held():
            pass
        return True

    def holds_all(self, seat: int) -> bool:
        """Does ``seat``'s copy hold every record of every other copy (theirs a prefix of its
        log)?  Only then does it play on: a command made beside records it has not seen (deals
        that another copy holds in another order, say) would fork the game for good."""
        mine = self.copies[seat]
        for other in self.copies:
            if other is not mine and (
                other.seq > mine.seq or other.head_hash != mine.records[other.seq - 1].hash
            ):
                return False
        return True

    def act(self, seat: int) -> bool:
        """Everything ``seat``'s copy can do now by its player's choice (random legal commands)."""
        game, pick = self.copies[seat], self.pick
        if not self.holds_all(seat):
            return False
        acted = False
        while (
            game.outcome() is None
            and not game.due()
            and seat in game.to_act()
            and not game.reveal_due()
        ):
            game.play(seat, pick.choice(game.legal(seat)), entropy=pick.randbytes)
            acted = True
        return acted

    def act_once(self, seat: int, prefer: str) -> bool:
        """``seat``'s copy plays a command if it may act now: ``prefer`` if it is legal, else
        one chosen at random."""
        game = self.copies[seat]
        if game.outcome() is not None or game.due() or seat not in game.to_act():
            return False
        if game.reveal_due():
            return False
        legal = game.legal(seat)
        command = prefer if prefer in legal else self.pick.choice(legal)
        game.play(seat, command, entropy=self.pick.randbytes)
        return True

    def play_out(self) -> None:
        n = len(self.copies)
        for _ in range(100_000):
            busy = False
            for seat in range(n):
                busy |= self.act(seat)
                for other in range(n):
                    if other != seat:
                        busy |= self.mail(seat, other)
            if not busy:
                break
        if len({c.head_hash for c in self.copies}) != 1 or self.copies[0].outcome() is None:
            raise AssertionError(
                f"the copies did not finish alike: {self.copies[0].waiting_text()}"
            )


# ------------------------------------------------------------------ one row of the tables
@attrs.define
class Row:
    game: str
    players: int
    mode: str
    games: int = 0
    kinds: Counter = attrs.Factory(Counter)
    records: int = 0
    file_bytes: int = 0
    signature_bytes: int = 0
    seconds: float = 0.0
    mails: int = 0
    mail_bytes: int = 0
    mail_records: int = 0
    first_file: int = 0
    merges: int = 0
    merge_seconds: float = 0.0
    record_bytes: Counter = attrs.Factory(Counter)  # kind -> move-file bytes of its records
    files: list = attrs.Factory(list)
    verify_seconds: float = 0.0  # all the row's files, best pass
    signature_seconds: float = 0.0  # of it, checking signatures
    rederived: int = 0  # records verify re-derived in full (the rest: checked in part)

    def add(self, game: bs.Game, data: bytes, seconds: float, table: ByMail | None = None):
        self.games += 1
        self.kinds.update(Kind(r.kind).name.lower() for r in game.records)
        self.records += game.seq
        self.file_bytes += len(data)
        self.signature_bytes += sum(len(r.signature) for r in game.records)
        self.seconds += seconds
        self.files.append(data)
        if table is not None:
            self.mails += table.mails
            self.mail_bytes += table.mail_bytes
            self.mail_records += table.mail_records
            self.first_file += table.first_file
            for i, record in enumerate(game.records[1:], 1):  # what one more record adds
                extra = len(encode_moves(game, i - 1)) - len(encode_moves(game, i))
                self.record_bytes[Kind(record.kind).name.lower()] += extra


def play_row(module, n: int, games: int, seed: int) -> list[Row]:
    name = module.spec.id
    hot, by_mail, peer = rows = [Row(name, n, mode) for mode in MODES]
    for g in range(games):
        game_seed = b"bench-peer-%d-%d" % (seed, g)
        pick = random.Random(f"{seed}-{g}-hot")
        t = time.process_time()
        game = open_hot_seat(module, n, game_seed, pick)
        hot.add(game, encode_game(game), time.process_time() - t)

        pick = random.Random(f"{seed}-{g}-mail")
        with Merges() as merges:
            t = time.process_time()
            table = ByMail.open(module, n, game_seed, pick)
            table.play_out()
            dt = time.process_time() - t
        by_mail.add(table.copies[0], encode_game(table.copies[0]), dt, table)
        by_mail.merges += merges.count
        by_mail.merge_seconds += merges.seconds

        # keys and chains are made before the clock starts: their cost is measured apart
        secrets = [os.urandom(32) for _ in range(n)]
        keys = [Ed25519PrivateKey.generate() for _ in range(n)]
        for secret in secrets:
            chain_of(secret)
        pick = random.Random(f"{seed}-{g}-peer")
        with Merges() as merges:
            t = time.process_time()
            table = ByMail.peer(module, n, secrets, keys, pick)
            table.play_out()
            dt = time.process_time() - t
        peer.add(table.copies[0], encode_game(table.copies[0], viewer=0), dt, table)
        peer.merges += merges.count
        peer.merge_seconds += merges.seconds
        _forget(secrets)
    return rows


def _forget(secrets) -> None:
    """Drop the process's cached chains of these secrets (each game has its own)."""
    for secret in secrets:
        _peer._chains.pop(secret, None)


def time_verify(row: Row, rounds: int) -> None:
    """Best of ``rounds`` passes of ``verify`` over the row's final files, and the time that
    pass spent checking signatures (``player_keys.verifies``, which ``Game.check_signature`` calls)."""
    spent = [0.0]
    real = player_keys.verifies

    def timed(*args):
        t = time.process_time()
        try:
            return real(*args)
        finally:
            spent[0] += time.process_time() - t

    best = float("inf")
    player_keys.verifies = timed
    try:
        for _ in range(rounds):
            gc.collect()
            player_keys._GOOD.clear()  # (every signature checked afresh in each pass)
            spent[0] = 0.0
            t = time.process_time()
            verdicts = [verify(parse_raw(data, "final")) for data in row.files]
            took = time.process_time() - t
            if took < best:
                best, row.signature_seconds = took, spent[0]
            for v in verdicts:
                assert v.ok, v.failure
            row.rederived = sum(v.rederived for v in verdicts)
    finally:
        player_keys.verifies = real
    row.verify_seconds = best


# ------------------------------------------------------------------ the peer mode's own costs
def chain_costs(rounds: int) -> tuple[float, float]:
    """Seconds to make one chain (the first ``chain_of`` of a fresh secret: the median of
    ``rounds``), and to check one link (``link_follows``, mean of 20,000)."""
    times = []
    for _ in range(rounds):
        secret = os.urandom(32)
        t = time.process_time()
        chain = chain_of(secret)
        times.append(time.process_time() - t)
        _forget([secret])
    pairs = [(chain[k], chain[k - 1]) for k in range(1, 20_001)]
    t = time.process_time()
    for link, previous in pairs:
        assert link_follows(link, previous)
    return statistics.median(times), (time.process_time() - t) / len(pairs)


def signature_costs(rows: list[Row]) -> tuple[float, float, int]:
    """Seconds to sign one record (``signed_message`` made beforehand) and to verify its
    signature as ``Game.check_signature`` does (``player_keys.verifies``), over every signed record
    of the peer games' final files: best of three passes."""
    key = Ed25519PrivateKey.generate()
    public = _public(key)
    messages = []
    for row in rows:
        if row.mode.startswith("peer"):
            for data in row.files:
                game = verify(parse_raw(data, "final")).game
                gid = game.header.game_id
                messages += [signed_message(gid, r) for r in game.records if r.kind != Kind.SETUP]
    best_sign = best_check = float("inf")
    for _ in range(3):
        t = time.process_time()
        signatures = [key.sign(m) for m in messages]
        best_sign = min(best_sign, time.process_time() - t)
        player_keys._GOOD.clear()  # (checked afresh: none found good before)
        t = time.process_time()
        for m, s in zip(messages, signatures):
            assert player_keys.verifies(public, s, m)
        best_check = min(best_check, time.process_time() - t)
    return best_sign / len(messages), best_check / len(messages), len(messages)


# ------------------------------------------------------------------ output
def print_tables(rows: list[Row]) -> None:
    print("**The final file** (verify: best of the passes over all the row's files)\n")
    print(
        "| game | players | mode | games | records/game | bytes/game | bytes/record "
        "| signatures, bytes/game | verify records/s | verify ms/file | of it signature checks "
        "| re-derived in full |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        g = r.games
        share = f"{r.signature_seconds / r.verify_seconds:.0%}" if r.signature_bytes else "—"
        print(
            f"| {r.game} | {r.players} | {r.mode} | {g} | {r.records / g:.1f} | "
            f"{r.file_bytes / g:,.0f} | {r.file_bytes / r.records:.1f} | "
            f"{r.signature_bytes / g:,.0f} | {r.records / r.verify_seconds:,.0f} | "
            f"{r.verify_seconds / g * 1000:.2f} | {share} | {r.rederived / r.records:.1%} |"
        )
    print("\n**Records per game, by kind** (mean)\n")
    print("| game | players | mode | " + " | ".join(KINDS) + " |")
    print("|---|---:|---|" + "---:|" * len(KINDS))
    for r in rows:
        counts = " | ".join(f"{r.kinds[k] / r.games:.1f}" if r.kinds[k] else "—" for k in KINDS)
        print(f"| {r.game} | {r.players} | {r.mode} | {counts} |")
    print("\n**Play** (CPU time per game, every copy's work; by mail: mails and move files)\n")
    print(
        "| game | players | mode | ms/game | first file, bytes | mails/game | bytes/mail "
        "| records/mail | merges/game | ms/game in merges |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        g = r.games
        if r.mails:
            mail = (
                f"{r.first_file / g:,.0f} | {r.mails / g:.1f} | {r.mail_bytes / r.mails:,.0f} | "
                f"{r.mail_records / r.mails:.2f} | {r.merges / g:.1f} | "
                f"{r.merge_seconds / g * 1000:.1f}"
            )
        else:
            mail = "— | — | — | — | — | —"
        print(f"| {r.game} | {r.players} | {r.mode} | {r.seconds / g * 1000:.1f} | {mail} |")
    print("\n**Move-file bytes per record, by kind** (what one more record adds to a move file)\n")
    print("| game | players | mode | " + " | ".join(KINDS[1:]) + " |")
    print("|---|---:|---|" + "---:|" * (len(KINDS) - 1))
    for r in rows:
        if r.record_bytes:
            sizes = " | ".join(
                f"{r.record_bytes[k] / r.kinds[k]:.0f}" if r.kinds[k] else "—" for k in KINDS[1:]
            )
            print(f"| {r.game} | {r.players} | {r.mode} | {sizes} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="games per row, 2 players")
    parser.add_argument(
        "--games4",
        type=int,
        default=3,
        help="games per row, 4 players (peer games by mail merge often: seconds each)",
    )
    parser.add_argument("--quick", action="store_true", help="2 games per row: a smoke run")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = {2: 2, 4: 2} if args.quick else {2: args.games, 4: args.games4}
    start = time.process_time()
    import cryptography

    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.platform()}, {os.cpu_count()} CPUs; cryptography {cryptography.__version__}"
        f"\n"
    )
    modules = [DRAW]
    duel = bs.get_module("duel-of-the-forces")
    try:
        bs.Game.new(duel, ["a", "b"], {}, trust="peer", seat=0)
        modules.append(duel)
    except bs.OptionError as exc:
        print(f"(Duel of the Forces skipped: this version refuses it in the peer mode: {exc})\n")
    rows: list[Row] = []
    with registered(DRAW):
        for module in modules:
            for n, count in games.items():
                rows += play_row(module, n, count, args.seed)
        for row in rows:
            time_verify(row, 1 if args.quick else 3)
        sign, check_signature, signed = signature_costs(rows)
    chain, check_link = chain_costs(3 if args.quick else 7)
    print_tables(rows)
    print(
        f"\n**Peer mode's own costs**: making one chain ({CHAIN_LENGTH:,} links; the first "
        f"`chain_of` of a secret in a process, median of {3 if args.quick else 7}) "
        f"{chain * 1000:.1f} ms, {chain / CHAIN_LENGTH * 1e6:.2f} µs per link; checking one "
        f"link (`link_follows`) {check_link * 1e6:.2f} µs. Over the {signed:,} signed records "
        f"of the peer games: signing one {sign * 1e6:.1f} µs, verifying its signature "
        f"{check_signature * 1e6:.1f} µs."
    )
    print(f"\n(whole run: {time.process_time() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
