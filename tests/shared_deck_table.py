"""A table of shared-deck copies for the tests: one copy per player, move files carried between
them (``mail``), and a count of the mails sent.  The shuffle proofs run at 8 rounds here (the
protocol's plumbing; ``test_shared_deck_crypto`` proves the real 80), unless ``rounds`` says
otherwise."""

from __future__ import annotations

import hashlib
import random

import attrs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate import _mental
from boardstate._fileformat import encode_moves, encode_public, parse_raw
from boardstate._referee import referee_moves, verify

NAMES = ("ann", "ben", "cat", "dan")
JEDI = bs.get_module("jedi-duel")


def key_of(secret: bytes) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"test key" + secret).digest())


def public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class Table:
    """``n`` players of a shared-deck Jedi Duel, each with their own copy."""

    def __init__(self, n: int, seed: int = 0, deliver=None) -> None:
        self.secrets = [hashlib.sha256(b"secret %d %d" % (seed, i)).digest() for i in range(n)]
        self.keys = [key_of(s) for s in self.secrets]
        first = bs.Game.new(
            JEDI,
            NAMES[:n],
            {},
            created="2026-11-26T00:00:00+00:00",
            seed_salt=bytes([seed % 256]) * 32,
            trust="shared-deck",
            seat=0,
            peer_secret=self.secrets[0],
        )
        first.signer = self.keys[0].sign
        first.join(0, public(self.keys[0]))
        self.invite = encode_public(first)
        self.copies = [first]
        for seat in range(1, n):
            game = verify(parse_raw(self.invite, "invite")).game
            game.header = attrs.evolve(game.header, viewer=seat, peer_secret=self.secrets[seat])
            game.signer = self.keys[seat].sign
            self.copies.append(game)
        self.rng = random.Random(seed)
        self.mails = 0
        self.files: list[bytes] = []  # every move file sent
        for seat in range(1, n):  # (``deliver``: how the mail goes, default every copy at once)
            self.copies[seat].join(seat, public(self.keys[seat]))
            (deliver or Table.settle)(self)

    def mail(self, src: int) -> bool:
        """``src`` sends what the others lack (one mail to everyone); True if it sent any."""
        a = self.copies[src]
        sent = False
        for dst, b in enumerate(self.copies):
            if dst == src:
                continue
            common = 0
            while common < min(a.seq, b.seq) and a.records[common].hash == b.records[common].hash:
                common += 1
            if common == a.seq:
                continue
            data = encode_moves(a, common - 1)
            self.files.append(data)
            try:
                referee_moves(b, parse_raw(data, f"from {NAMES[src]}"))
            except bs.MoveRefused as exc:
                if exc.code != "stale":
                    raise
            b.add_owed()
            sent = True
        self.mails += sent
        return sent

    def settle(self) -> None:
        for _ in range(50):
            if len({c.head_hash for c in self.copies}) == 1:
                return
            for src in range(len(self.copies)):
                self.mail(src)
        raise AssertionError("the copies never agreed")

    def act(self, choose=None) -> int:
        """The player to act plays a legal command (``choose(legal)``, default at random) on
        their own copy and mails it; returns the seat."""
        lead = self.copies[0]
        (seat,) = lead.to_act()
        game = self.copies[seat]
        assert game.to_act() == (seat,), game.waiting_text()
        legal = game.legal(seat)
        game.play(seat, (choose or self.rng.choice)(legal))
        self.mail(seat)
        self.settle()
        return seat

    def play_out(self, moves: int = 2000) -> None:
        for _ in range(moves):
            if self.copies[0].outcome() is not None:
                return
            self.act()
        raise AssertionError("the game did not end")


def fast_proofs(monkeypatch, rounds: int = 8) -> None:
    monkeypatch.setattr(_mental, "SHUFFLE_ROUNDS", rounds)
