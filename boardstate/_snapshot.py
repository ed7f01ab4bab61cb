"""A game's state at one record as bytes, and back (issue 29): what lets a checked copy's next
command run the rules on the new records only (``_checked``), and a cut start from the game the
last cut left (``_cuts``).

The state is the ``Game``'s own fields: the module's state, the plug's keys and waiting
decisions, the sealed round, the takebacks' checkpoints, the engine's words.  Pickled, because
every one of them is the engine's or a module's own Python value and no file format holds them
(docs/trust.md, "What a copy remembers having checked", says why the user's cache may hold
pickles).  What a game shares with every game of its file and never changes (the module, its
rules, the event table, the header) and what the reader rebuilds from the file (the records)
are not in the bytes: each is named by its place in a list the reader hands back
(``persistent_id``), so a record inside a checkpoint or the plug is the log's own record again.
"""

from __future__ import annotations

import io

from ._cache import HIGHEST, pickling
from ._fileformat import LIMITS
from ._filelog import held_records
from ._records import BodyDecoder, Record

# Fields a command sets for itself (its player's signing function) or a cut keeps of its own.
_TRANSIENT = frozenset(("signer", "_last_cut"))
# Fields every game of one file holds alike, handed back by the reader.
SHARED_FIELDS = ("module", "decider", "rules", "codes", "header")


class Shared:
    """The objects ``state_bytes`` names by place instead of writing: the game's shared fields,
    then its records (by sequence number: a ``FileLog``'s records still in the file are never
    in a state, they are not in memory), then more values."""

    def __init__(self, head: list, records, more: list) -> None:
        self._head, self._records, self._more = head, records, more

    def __getitem__(self, place: int):
        if place < 0:
            raise IndexError(place)
        if place < len(self._head):
            return self._head[place]
        place -= len(self._head)
        if place < len(self._records):
            return self._records[place]
        return self._more[place - len(self._records)]

    def places(self) -> dict:
        """``id`` of each object held in memory: its place."""
        out = {id(value): place for place, value in enumerate(self._head) if value is not None}
        first, held = held_records(self._records)
        start = len(self._head) + first
        out.update((id(record), start + i) for i, record in enumerate(held))
        start = len(self._head) + len(self._records)
        out.update((id(v), start + i) for i, v in enumerate(self._more) if v is not None)
        return out

    def add(self, value) -> int:
        """Put ``value`` at the next place; that place."""
        self._more.append(value)
        return len(self._head) + len(self._records) + len(self._more) - 1

    def record_at(self, place: int) -> int | None:
        """The sequence number of the record at ``place`` (None: not a record's place)."""
        seq = place - len(self._head)
        return seq if 0 <= seq < len(self._records) else None


def shared_of(game, records, *more) -> Shared:
    """The objects ``state_bytes`` names instead of writing: the game's shared fields, then
    ``records`` (by sequence number), then ``more``."""
    return Shared([getattr(game, name) for name in SHARED_FIELDS], records, list(more))


def state_bytes(game, shared: Shared, values: tuple = ()) -> bytes:
    """The game's own fields pickled, each object of ``shared`` by its place, and each
    instance of ``values`` (types whose instances never change) added to ``shared`` as it is
    met (a copy in memory: the same ``shared`` goes to ``state_from``).  Raises what pickle
    raises for a value it cannot write (a module's read-only mapping)."""
    return state_and_records(game, shared, values)[0]


def state_and_records(game, shared: Shared, values: tuple = ()) -> tuple[bytes, int | None]:
    """``state_bytes``, and the first record the bytes name (None: none)."""
    skip = _TRANSIENT.union(SHARED_FIELDS, ("records",))
    fields = {name: value for name, value in game.__dict__.items() if name not in skip}
    places = shared.places()
    named = []

    def place(value):
        where = places.get(id(value))
        if where is None and type(value) in values:
            where = places[id(value)] = shared.add(value)
        if where is not None:
            named.append(where)
        return where

    out = io.BytesIO()
    pickler = pickling.Pickler(out, protocol=HIGHEST)
    pickler.persistent_id = place
    pickler.dump(fields)
    seqs = [seq for seq in map(shared.record_at, set(named)) if seq is not None]
    return out.getvalue(), min(seqs, default=None)


def state_from(data: bytes, shared: Shared) -> dict:
    """The fields ``state_bytes`` wrote, the reader's ``shared`` objects in their places.
    Raises on bytes it did not write (the caller falls back to running the rules)."""
    unpickler = pickling.Unpickler(io.BytesIO(data))
    unpickler.persistent_load = shared.__getitem__
    fields = unpickler.load()
    if type(fields) is not dict:
        raise ValueError("not a game's fields")
    return fields


def restored(game, fields: dict, records: list) -> None:
    """``game`` (fresh, for the same file) holding ``fields`` and ``records``."""
    game.__dict__.update(fields)
    game.records = records
    game.signer = None
    game._last_cut = None


def records_of(game, rows) -> list[Record]:
    """The records of a copy's own file, as the game that wrote it held them: each body
    decoded with the openings the copy keeps beside it (what it had opened, letters too), no
    rule run.  Used only where the same rows were re-derived before (the bytes are the same)."""
    return decoded(game.codes, game.header, rows)


def decoded(codes, header, rows) -> list[Record]:
    """``records_of`` for a game's event codes and header."""
    decoder = BodyDecoder(codes.decoders, LIMITS, header)
    fields, events = decoder.fields, decoder.events
    out = []
    for body, hash_, openings, signature, letters, request in rows:
        seq, kind, actor, command, sealed, raw_events = fields(body, openings)
        out.append(
            Record(
                seq,
                kind,
                actor,
                command,
                sealed,
                events(raw_events),
                body,
                hash_,
                signature,
                letters,
                request,
            )
        )
    return out
