"""Records: one entry of the log, and its committed (hashed) encoding.

A record's *body* is the msgpack array ``[seq, kind, actor, command, sealed, events]``; its hash
is ``SHA-256(previous hash || body)``.  Secrets inside the body are extension types that carry
only the commitment, so a full log and every player's view share one hash chain.  The openings
this copy holds travel beside the body and are not hashed.
"""

from __future__ import annotations

import hashlib
from typing import NamedTuple

import msgpack

from ._kinds import Kind as Kind  # (re-exported: where the kinds were always read from)
from ._secrets import Reveal, Secret, commit, reveal_of, secret_of

EXT_SECRET = 1
EXT_REVEAL = 2
HASH_SIZE = 32
SALT_SIZE = 16
NO_ACTOR = -1


class Record(NamedTuple):
    """One record (a NamedTuple: immutable, and cheap to build in the referee's loop)."""

    seq: int
    kind: int
    actor: int
    command: str
    sealed: Secret | Reveal | None
    events: tuple
    body: bytes
    hash: bytes
    signature: bytes = b""  # the peer mode: the actor's Ed25519 signature (beside the body)
    letters: tuple = ()  # the peer mode: openings for other owners, encrypted (``_peer``)
    request: tuple = ()  # the hosted mode: ``(base, signature)`` of the player's request

    def openings(self, seat: int | None = None) -> list:
        """Openings aligned with the record's secrets in body order: ``[salt, value]`` for each
        secret this copy holds (and ``seat``, if given, may know), nil for the others; trailing
        nils dropped.  Positional, so the commitment is not stored twice."""
        out = [
            [v.salt, v.value] if v.known and (seat is None or v.owned_by(seat)) else None
            for v in sealed_values(self)
            if type(v) is Secret
        ]
        while out and out[-1] is None:
            out.pop()
        return out


_new = tuple.__new__
UNSIGNED = tuple(Record._field_defaults.values())  # signature, letters, request: none yet


class Row(NamedTuple):
    """A record as it is stored (docs/file-format.md): what the one reader of files yields
    (``RawFile.iter_records``, framing checked once) and every consumer takes — loading, the
    referee, merges, audits.  Fields a mode does not store are left at their defaults."""

    body: bytes
    hash: bytes
    openings: tuple  # ``(salt, value)`` or None per secret of the body, in body order
    signature: bytes = b""
    letters: tuple = ()
    request: tuple = ()

    @classmethod
    def of(cls, record: Record) -> Row:
        """A record this copy holds, as its own full file would give it back: a log is cut
        short in memory without writing and reading it again (``Game.truncate``)."""
        return cls(
            record.body,
            record.hash,
            tuple(None if o is None else (o[0], as_stored(o[1])) for o in record.openings()),
            record.signature,
            tuple(tuple(letter) for letter in record.letters),
            tuple(record.request),
        )


def _row_tails() -> dict[int, tuple]:
    """For a stored item of n fields, the defaults of the fields after them (a mode that
    stores less leaves them): ``tuple.__new__(Row, item + ROW_TAILS[len(item)])`` is
    ``Row(*item)`` without the constructor's Python call."""
    defaults = tuple(Row._field_defaults.values())
    given = len(Row._fields) - len(defaults)
    return {given + i: defaults[i:] for i in range(len(defaults) + 1)}


ROW_TAILS = _row_tails()


def as_stored(value):
    """``value`` as a file gives it back (msgpack: sequences become tuples)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False, use_list=False)


def sealed_values(record):
    """Every ``Secret`` and ``Reveal`` in a record, in body order (the order openings follow)."""
    yield from _walk(record.sealed)
    for ev in record.events:
        yield from _walk(type(ev).__event_fields__(ev))


def _walk(value):
    kind = type(value)
    if kind is Secret or kind is Reveal:
        yield value
    elif kind is tuple:
        for item in value:
            yield from _walk(item)


def _ext_default(obj):
    # (msgpack.ExtType is a namedtuple whose __new__ re-checks its arguments in Python; ours
    # are right by construction, made directly: this runs for every secret the referee encodes)
    if type(obj) is Secret:
        return _new(_ExtType, (EXT_SECRET, bytes((obj.owners,)) + obj.commitment))
    if type(obj) is Reveal:
        return _new(_ExtType, (EXT_REVEAL, obj.commitment + obj.salt + _pack_value(obj.value)))
    raise TypeError(f"cannot encode {type(obj).__name__} in a record")


_ExtType = msgpack.ExtType


_packer = msgpack.Packer(default=_ext_default, use_bin_type=True)
_pack_value = msgpack.Packer(use_bin_type=True).pack  # a second packer: _packer is busy then


def pack(obj) -> bytes:
    """The canonical encoding (msgpack's smallest forms, bin for bytes, no maps in records)."""
    return _packer.pack(obj)


def chain(prev_hash: bytes, body: bytes) -> bytes:
    return _sha256(prev_hash + body).digest()


_sha256 = hashlib.sha256


def make_record(
    table,
    prev_hash: bytes,
    seq: int,
    kind: int,
    actor: int,
    command: str,
    sealed,
    events: tuple,
    hash_: bytes | None = None,
) -> Record:
    """Encode a record.  ``hash_``: the referee's already-checked hash for this very body."""
    kind = int(kind)
    body = _packer.pack([seq, kind, actor, command, sealed, list(map(table.encode, events))])
    if hash_ is None:
        hash_ = chain(prev_hash, body)
    # (the tuple made directly: a NamedTuple's constructor is a Python function, a record of
    # the referee's loop twice the time; the fields a mode adds at their defaults)
    return _new(Record, (seq, kind, actor, command, sealed, tuple(events), body, hash_) + UNSIGNED)


def may_open(header) -> int | None:
    """The seats whose values a file may hold openings of, as an owners mask (a value may be
    opened when its owners and the mask share a seat); None: any value.

    A full log (it holds the seed) and a player's own copy (it holds their private secret:
    their values, the values their moves made for others, the letters sent to them) hold what
    their maker knows.  A view holds its viewer's values only; a file with neither viewer nor
    seed (a spectator's view, a public copy, an invitation) holds none."""
    if header.seed is not None or header.peer_secret is not None:
        return None
    return 0 if header.viewer is None else 1 << header.viewer


def _not_for_viewer(header, seq, owners: int):
    from ._errors import ViewerMismatch

    players = header.players
    names = " and ".join(p for i, p in enumerate(players) if owners >> i & 1)
    value = f"a value of {names}'s" if names else "a value hidden from every player"
    if header.viewer is None:
        held = "a file without viewer or seed (a spectator's, a public copy) holds no opening"
    else:
        held = f"{players[header.viewer]}'s view holds only {players[header.viewer]}'s values"
    return ViewerMismatch(f"record {seq} opens {value}: {held}")


_FIRST_BUFFER = 4096  # bytes: a body unpacker's buffer before a larger body grows it


class _Secrets:
    """What the body unpacker's ext hook reads and counts while a body is decoded (the openings
    given, the next secret's index, the first opening its file may not hold), kept apart from
    ``BodyDecoder``: the unpacker holds the hook, and a hook bound to the decoder that holds
    the unpacker made a reference cycle, which left every decoder (one a file ``verify``
    reads) and its unpackers to the cyclic collector, their memory never reused by the next."""

    __slots__ = ("openings", "next", "sees", "unseen", "values")

    def __init__(self, sees: int | None) -> None:
        self.openings: tuple = ()
        self.next = 0  # index of the next secret in the body being decoded
        self.sees = sees
        self.unseen = -1  # owners of the first opening in this body its file may not hold
        self.values = None  # the unpacker of a revealed value (``BodyDecoder._reset``)

    def hook(self, code: int, data: bytes):
        if code == EXT_SECRET:
            if len(data) != HASH_SIZE + 1:
                raise ValueError("bad secret")
            commitment = data[1:]
            index = self.next
            self.next = index + 1
            openings = self.openings
            opening = openings[index] if index < len(openings) else None
            if opening is None:
                return secret_of(commitment, data[0])
            if self.sees is not None and not data[0] & self.sees and self.unseen < 0:
                self.unseen = data[0]  # (refused once the body is read: ``fields``)
            if (
                type(opening) is not tuple
                or len(opening) != 2
                or type(opening[0]) is not bytes
                or commit(opening[1], opening[0]) != commitment
            ):
                raise ValueError("an opening does not match its commitment")
            return secret_of(commitment, data[0], opening[1], opening[0])
        if code == EXT_REVEAL:
            if len(data) < HASH_SIZE + SALT_SIZE + 1:
                raise ValueError("bad reveal")
            value = _one(self.values, data[HASH_SIZE + SALT_SIZE :])
            return reveal_of(data[:HASH_SIZE], data[HASH_SIZE : HASH_SIZE + SALT_SIZE], value)
        raise ValueError(f"unknown extension type {code}")


def _one(unpacker, data: bytes):
    """Exactly one msgpack object from ``data`` (ValueError for less or more; the caller
    resets the unpacker on any error: never a half-read object left in a reused buffer)."""
    start = unpacker.tell()
    unpacker.feed(data)
    try:
        out = unpacker.unpack()
    except msgpack.OutOfData:
        raise ValueError("truncated data") from None
    if unpacker.tell() - start != len(data):
        raise ValueError("extra data after the object")
    return out


class BodyDecoder:
    """Decodes record bodies of one file: ext types back to secrets, filling held openings."""

    def __init__(self, decoders, limits: dict, header=None) -> None:
        self.decoders = decoders
        self._header = header
        self._secrets = _Secrets(None if header is None else may_open(header))
        self._limits = limits
        self._reset()

    def _reset(self) -> None:
        # Reused unpackers: building one per body costs more than decoding a small body.  Their
        # first buffer is small (a body is fed whole, and the buffer grows to hold a larger
        # one): msgpack's default, a MiB, was mapped and unmapped for every decoder.
        limits, secrets = self._limits, self._secrets
        self._bodies = msgpack.Unpacker(
            use_list=False, raw=False, ext_hook=secrets.hook, read_size=_FIRST_BUFFER, **limits
        )
        secrets.values = msgpack.Unpacker(
            use_list=False, raw=False, read_size=_FIRST_BUFFER, **limits
        )

    def fields(self, body: bytes, openings=()) -> tuple:
        """``(seq, kind, actor, command, sealed, raw_events)`` of a body; ``openings`` are
        aligned with its secrets and checked against their commitments as they are decoded."""
        secrets = self._secrets
        secrets.openings = openings
        secrets.next = 0
        secrets.unseen = -1
        try:
            out = _one(self._bodies, body)
        except BaseException:
            self._reset()  # never leave a half-read object in a reused buffer
            raise
        if secrets.next < len(openings):
            raise ValueError("more openings than secrets")
        if (
            not isinstance(out, tuple)
            or len(out) != 6
            or type(out[0]) is not int
            or type(out[1]) is not int
            or type(out[2]) is not int
            or not isinstance(out[3], str)
            or not isinstance(out[5], tuple)
        ):
            raise ValueError("malformed record body")
        if out[1] not in (0, 1, 2, 3, 4, 5):
            raise ValueError(f"unknown record kind {out[1]}")
        if secrets.unseen >= 0:
            raise _not_for_viewer(self._header, out[0], secrets.unseen)
        return out

    def events(self, raw_events: tuple) -> tuple:
        decoders = self.decoders
        out = []
        for raw in raw_events:
            if (
                not isinstance(raw, tuple)
                or not raw
                or type(raw[0]) is not int
                or not 0 <= raw[0] < len(decoders)
            ):
                raise ValueError("malformed event")
            out.append(decoders[raw[0]](raw[1:]))
        return tuple(out)
