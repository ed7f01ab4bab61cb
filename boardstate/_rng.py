"""Counter-based, portable randomness.

Every draw is ``HMAC-SHA256(seed, stream || counter)``; integers come from the first eight bytes
by rejection sampling, so the same seed gives the same game on every Python and platform.
Python's ``random`` is never used for anything that a game record depends on.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import struct

from ._errors import SecretUnavailable
from ._secrets import Secret, make_secret

_U64 = 1 << 64
_pack_counter = struct.Struct(">Q").pack


@functools.lru_cache(maxsize=64)
def _keyed(seed: bytes):
    """HMAC-SHA256 keyed with ``seed``, the key set up once: a block copies it (a third less
    CPU than ``hmac.digest``, which keys it again for every block of every record).  Where
    ``hmac`` wraps OpenSSL's own HMAC object, that object is the one copied (the same bytes;
    its copy, update and digest are C calls: 1.6 instead of 2.1 µs a block)."""
    mac = hmac.new(seed, digestmod=hashlib.sha256)
    return getattr(mac, "_hmac", None) or mac


class Rng:
    """A stream of random numbers for one record (or one simulation).

    ``stream`` names the use (the engine passes ``b"record:<seq>"``), so draws in one record never
    shift the draws of another.
    """

    __slots__ = ("_key", "_stream", "_counter")
    unmade = False  # a secret another copy made stood in (``PeerRng`` only)

    def __init__(self, seed: bytes, stream: bytes) -> None:
        self._key = seed
        self._stream = stream
        self._counter = 0

    def block(self) -> bytes:
        """The next 32 pseudo-random bytes."""
        mac = _keyed(self._key).copy()
        mac.update(self._stream + _pack_counter(self._counter))
        self._counter += 1
        return mac.digest()

    def randbelow(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, by rejection sampling.

        Words are 64 bits (the first 8 bytes of a block) for ``n <= 2**32``; larger ``n`` use
        words of ``n.bit_length() + 64`` bits rounded up to whole bytes, read from as many blocks
        as needed, so the rejection rate stays below 2**-32.
        """
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        if n <= 1 << 32:
            limit = _U64 - (_U64 % n)
            while True:
                word = int.from_bytes(self.block()[:8], "big")
                if word < limit:
                    return word % n
        size = (n.bit_length() + 64 + 7) // 8
        span = 1 << (8 * size)
        limit = span - (span % n)
        while True:
            data = b""
            while len(data) < size:
                data += self.block()
            word = int.from_bytes(data[:size], "big")
            if word < limit:
                return word % n

    def shuffled(self, items) -> tuple:
        """A Fisher–Yates shuffle of ``items`` (the input is not changed)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out)

    def salt(self) -> bytes:
        return self.block()[:16]

    def secret(self, value, owners: int = 0) -> Secret:
        """A committed secret whose salt comes from this stream (so a replay re-derives it)."""
        return make_secret(value, self.salt(), owners)

    def passed(self, card: Secret, owners: int) -> Secret:
        """The face-down ``card`` (a secret of the table), now held by ``owners``: drawn from a
        deck, put back on it, shown or given to a player.  The same as ``secret(card.value,
        owners)``; a mode whose face-down cards are known to nobody (the shared-deck mode,
        docs/trust.md) follows the card itself from one place to the next."""
        return self.secret(card.value, owners)

    def arrange(self, items, owner: int) -> tuple:
        """A face-down pile that only ``owner`` may know: ``items`` in an order nobody else
        knows, one secret each (owned by ``owner``).

        Draw from it at a random position (``randbelow(len(pile))``), never from a fixed top:
        the owner knows the order, so only the draw's randomness keeps the next card unknown
        to them.  In the open mode the seed arranges the pile; in the peer mode the owner's
        copy does, and supplies the commitments in a deal record before any randomness that
        draws from them is made.
        """
        owners = 1 << owner
        return tuple(self.secret(v, owners) for v in self.shuffled(items))


class SealedRng(Rng):
    """The randomness of a copy that does not hold the seed: any draw says so."""

    def __init__(self) -> None:
        super().__init__(b"", b"")

    def block(self) -> bytes:
        raise SecretUnavailable("this copy of the game does not hold the seed", code="no-seed")


class FastRng(Rng):
    """Randomness for simulations: secrets skip their salt and commitment hash (so after the
    first secret the draws no longer follow ``Rng``'s; a simulation needs no commitments)."""

    def secret(self, value, owners: int = 0) -> Secret:
        return Secret(b"", owners, value, b"")
