"""The seeded randomness is its definition, whatever object computes it: every block is
``HMAC-SHA256(seed, stream || counter)`` (``_rng``'s keyed object, copied a block, against the
one-shot ``hmac.digest`` that keys HMAC afresh)."""

from __future__ import annotations

import hashlib
import hmac
import struct

from boardstate._rng import Rng


def _plain(seed: bytes, stream: bytes, counter: int) -> bytes:
    return hmac.digest(seed, stream + struct.pack(">Q", counter), hashlib.sha256)


def test_blocks_are_hmac_sha256_of_stream_and_counter():
    seeds = [b"", b"s", bytes(range(32)), b"k" * 64, b"long key " * 20]  # (over a block: hashed)
    rngs = [(seed, Rng(seed, b"record:%d" % i)) for i, seed in enumerate(seeds)]
    for counter in range(6):  # (the streams interleaved: each keeps its own key)
        for i, (seed, rng) in enumerate(rngs):
            assert rng.block() == _plain(seed, b"record:%d" % i, counter)


def test_salts_and_draws_follow_the_blocks():
    rng = Rng(b"seed", b"s")
    assert rng.salt() == _plain(b"seed", b"s", 0)[:16]
    assert rng.randbelow(6) == int.from_bytes(_plain(b"seed", b"s", 1)[:8], "big") % 6
