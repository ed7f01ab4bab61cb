"""The peer mode's randomness: no dealer, no seed; every player's committed contribution.

Each player's copy holds a private 32-byte secret.  From it the copy makes a hash chain of
``CHAIN_LENGTH`` links and puts the last one (the *tip*) in its join record; afterwards it
reveals the links backwards, one per deal record, each checked by one hash against the one
before.  So every contribution is fixed at the join, before anyone could know the others'.

A decision that needs randomness waits for it: the engine re-runs the module's ``decide`` with
what has been supplied so far, and ``PeerRng`` stops it (``NeedsInput``) at the first thing
missing:

- random numbers of *epoch* ``e`` need one fresh link from every player; the epoch's key mixes
  them all, so nobody can predict a draw before the last link is in, nor bias it (each link was
  fixed by its chain);
- a pile arranged for ``owner`` (``Rng.arrange``) needs the owner's commitments, which only the
  owner's copy can make.  Randomness drawn after an arrangement belongs to a new epoch, whose
  links are asked for only then: an owner never arranges a pile knowing the draws from it.

See docs/trust.md ("Peer mode") for the protocol and the threat model.
"""

from __future__ import annotations

import functools
import hashlib
import hmac

from ._decider import NeedsInput as NeedsInput  # (the engine catches it: defined there)
from ._errors import IllegalCommand
from ._records import Kind, pack, sealed_values
from ._rng import Rng
from ._secrets import Secret, make_secret

UNMADE = bytes(24)  # the commitment prefix of a secret made by another copy, standing in
CHAIN_LENGTH = 1 << 16  # links per player: one per epoch a player deals in
LINK_BYTES = 32
_LINK = b"boardstate-link"


def _step(link: bytes) -> bytes:
    return hashlib.sha256(_LINK + link).digest()


_chains: dict[bytes, list[bytes]] = {}  # private secret -> its chain, tip first (per process)


def chain_of(secret: bytes) -> list[bytes]:
    """``[tip, link 1, link 2, ...]``: link ``k`` hashes (``_step``) to link ``k - 1``."""
    chain = _chains.get(secret)
    if chain is None:
        link = hmac.digest(secret, b"boardstate-chain", hashlib.sha256)
        out = [link]
        for _ in range(CHAIN_LENGTH):
            link = _step(link)
            out.append(link)
        out.reverse()
        chain = _chains[secret] = out
    return chain


def link_follows(link: bytes, previous: bytes) -> bool:
    """Is ``link`` the next link of a chain whose last revealed link is ``previous``?"""
    return type(link) is bytes and len(link) == LINK_BYTES and _step(link) == previous


def epoch_key(game_id: bytes, seq: int, epoch: int, links) -> bytes:
    """The key of one epoch's randomness: every player's link, in seat order."""
    data = pack([seq, epoch, list(links)])
    return hashlib.sha256(b"boardstate-epoch" + game_id + data).digest()


REPLY_EPOCH = -1  # the epoch a reply's signature stands in for a share: named by the reply
# (``epoch_key(game id, the reply's number, REPLY_EPOCH, links)``), not by the record using it


def share_of(signature: bytes) -> bytes:
    """A player's share of the randomness that their signature of a record stands for (the
    peer mode's protocol 2: the reply that forces the other player's reveal; docs/trust.md)."""
    return hashlib.sha256(b"boardstate-share" + signature).digest()


class Supplies:
    """What one waiting decision has been given: epoch keys and arrangements, in order."""

    __slots__ = ("keys", "arrangements", "streams")

    def __init__(self) -> None:
        self.keys: list[bytes] = []  # epoch -> key
        self.arrangements: dict[int, list[tuple]] = {}  # owner -> the piles they arranged
        self.streams: dict[int, bytes] = {}  # epoch -> its stream, when another record names it


class PeerRng(Rng):
    """``Rng`` whose bytes come from the epochs' keys, and whose arranged piles come from
    their owners.  ``mine``: the seat whose copy runs it and that seat's private secret (its
    salts and arrangements); None when the copy holds no seat's secret."""

    __slots__ = ("_supplies", "_epoch", "_fresh", "_arranged", "_seq", "_mine", "_salts", "unmade")

    def __init__(self, supplies: Supplies, seq: int, mine=None) -> None:
        super().__init__(b"", b"")
        self._supplies = supplies
        self._seq = seq
        self._epoch = -1
        self._fresh = True  # the next block opens a new epoch
        self._arranged: dict[int, int] = {}
        self._mine = mine
        self._salts = 0
        self.unmade = False  # a secret another copy made stands in (``UNMADE``)

    def block(self) -> bytes:
        if self._fresh:
            self._epoch += 1
            self._fresh = False
            keys = self._supplies.keys
            if self._epoch >= len(keys):
                raise NeedsInput(("links", self._epoch))
            self._key = keys[self._epoch]
            named = self._supplies.streams.get(self._epoch)
            self._stream = named or b"record:%d:%d" % (self._seq, self._epoch)
            self._counter = 0
        return super().block()

    def arrange(self, items, owner: int) -> tuple:
        index = self._arranged.get(owner, 0)
        piles = self._supplies.arrangements.get(owner, ())
        items = tuple(items)
        if index >= len(piles):
            raise NeedsInput(("arrange", owner, index, items))
        self._arranged[owner] = index + 1
        self._fresh = True  # draws from it come from links revealed after it
        return piles[index]

    def secret(self, value, owners: int = 0) -> Secret:
        if not owners:
            raise IllegalCommand(
                "the rules made a face-down value that nobody may know, which needs a dealer: "
                "the peer mode cannot play this (use the open or hosted mode)",
                code="needs-dealer",
            )
        mine = self._mine
        self._salts += 1
        if mine is None:  # (another copy makes it: its commitment is in
            self.unmade = True  # the record, and this copy takes it from there)
            return Secret(UNMADE + self._salts.to_bytes(8, "big"), owners)
        salt = hmac.digest(mine[1], b"salt:%d:%d" % (self._seq, self._salts), hashlib.sha256)[:16]
        return make_secret(value, salt, owners)


def arrangement(secret: bytes, game_id: bytes, seq: int, owner: int, index: int, items):
    """The owner's copy arranges ``items``: an order and salts from its private secret only."""
    key = hmac.digest(secret, b"arrange" + game_id + pack([seq, index]), hashlib.sha256)
    rng = Rng(key, b"arrange")
    return tuple(make_secret(v, rng.salt(), 1 << owner) for v in rng.shuffled(items))


def signed_message(game_id: bytes, record) -> bytes:
    """What a record's actor signs: the game, and their decision.

    A move is signed whole (its body: number, command and events).  A commitment, a reveal,
    a join or a deal is signed by what it holds alone (a salted commitment, an opening, a chain
    link, an arranged pile: each unique), so that a merge, which re-makes and re-numbers the
    records of simultaneous choices, keeps every signature good.  A signed choice replayed
    elsewhere is refused by the game itself: a commitment or a pile may be made only once, a
    link must follow the last, and a reveal opens only the commitment due.
    """
    if record.kind == Kind.MOVE:
        content = record.body
    else:
        content = pack([record.kind, record.actor, record.sealed])
    return b"boardstate-signed" + game_id + content


# ---------------------------------------------------------------------------------- letters
# A value shown to some players only (a secret whose owners include seats other than the
# copy that made it) travels to each of them as a *letter*: its opening, encrypted with a key
# only the maker and that player share (X25519 between the keys both published at their joins,
# then HKDF-SHA256; ChaCha20-Poly1305 with a nonce unique to the record, secret and reader).


def exchange_key(secret: bytes):
    """This player's X25519 key for letters, made from their private secret."""
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    return X25519PrivateKey.from_private_bytes(
        hmac.digest(secret, b"boardstate-x25519", hashlib.sha256)
    )


def exchange_public(secret: bytes) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return (
        exchange_key(secret)
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )


@functools.lru_cache(maxsize=64)
def _cipher(secret: bytes, their_public: bytes, game_id: bytes):
    """The letters' cipher between two players of a game, made once a pair (an X25519
    exchange, HKDF and a key object: about 150 µs, paid once a letter before)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

    shared = exchange_key(secret).exchange(X25519PublicKey.from_public_bytes(their_public))
    key = HKDF(hashes.SHA256(), 32, salt=game_id, info=b"boardstate-letters").derive(shared)
    return ChaCha20Poly1305(key)


def _nonce(game_id: bytes, seq: int, index: int, reader: int) -> bytes:
    return hashlib.sha256(b"boardstate-nonce" + game_id + pack([seq, index, reader])).digest()[:12]


def write_letters(secret: bytes, publics: dict, game_id: bytes, record, *, maker=-2) -> list:
    """``[[index, reader, ciphertext], ...]``: the openings of ``record``'s secrets that this
    copy holds, for each owner but ``maker`` (``publics``: seat -> their exchange key; the
    maker is the record's actor unless given: None for the hosted mode's judge)."""
    maker = record.actor if maker == -2 else maker
    out = []
    index = -1
    for value in sealed_values(record):
        if type(value) is not Secret:
            continue
        index += 1
        if not value.known:
            continue
        for reader, public in sorted(publics.items()):
            if reader != maker and value.owned_by(reader):
                plain = pack([value.salt, value.value])
                nonce = _nonce(game_id, record.seq, index, reader)
                box = _cipher(secret, public, game_id).encrypt(nonce, plain, None)
                out.append([index, reader, box])
    return out


def read_letters(
    secret: bytes, me: int, writer_public: bytes, game_id: bytes, seq: int, letters
) -> dict:
    """``{index: (salt, value)}``: the letters of one record addressed to ``me``, opened
    (a letter that does not open is left out: its secret stays sealed here)."""
    import msgpack

    out = {}
    if type(letters) is not tuple:
        return out
    for letter in letters:
        if (
            type(letter) is not tuple
            or len(letter) != 3
            or letter[1] != me
            or type(letter[0]) is not int
            or type(letter[2]) is not bytes
        ):
            continue
        try:
            plain = _cipher(secret, writer_public, game_id).decrypt(
                _nonce(game_id, seq, letter[0], me), letter[2], None
            )
            salt, value = msgpack.unpackb(plain, raw=False, use_list=False)
        except Exception:
            continue
        out[letter[0]] = (salt, value)
    return out


def same_but_unmade(derived, recorded) -> bool:
    """Are two events' committed forms equal, a secret another copy made (``UNMADE``) standing
    for any secret with the same owners?"""
    if type(derived) is tuple and type(recorded) is tuple:
        if len(derived) == 3 and derived and derived[0] == "secret":
            if type(derived[1]) is bytes and derived[1].startswith(UNMADE):
                return len(recorded) == 3 and recorded[0] == "secret" and recorded[2] == derived[2]
        return len(derived) == len(recorded) and all(
            same_but_unmade(a, b) for a, b in zip(derived, recorded)
        )
    return derived == recorded
