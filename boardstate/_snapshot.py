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
import pickle

from ._fileformat import LIMITS
from ._records import BodyDecoder, Record

# Fields a command sets for itself (its player's signing function) or a cut keeps of its own.
_TRANSIENT = frozenset(("signer", "_last_cut"))
# Fields every game of one file holds alike, handed back by the reader.
SHARED_FIELDS = ("module", "decider", "rules", "codes", "header")


def shared_of(game, records, *more) -> list:
    """The objects ``state_bytes`` names instead of writing: the game's shared fields, then
    ``records`` (by sequence number), then ``more``."""
    return [*(getattr(game, name) for name in SHARED_FIELDS), *records, *more]


def state_bytes(game, shared: list, values: tuple = ()) -> bytes:
    """The game's own fields pickled, each object of ``shared`` by its place in the list, and
    each instance of ``values`` (types whose instances never change) added to ``shared`` as
    it is met (a copy in memory: the same list goes to ``state_from``).  Raises what pickle
    raises for a value it cannot write (a module's read-only mapping)."""
    skip = _TRANSIENT.union(SHARED_FIELDS, ("records",))
    fields = {name: value for name, value in game.__dict__.items() if name not in skip}
    places = {id(value): place for place, value in enumerate(shared) if value is not None}

    def place(value):
        where = places.get(id(value))
        if where is None and type(value) in values:
            where = places[id(value)] = len(shared)
            shared.append(value)
        return where

    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.persistent_id = place
    pickler.dump(fields)
    return out.getvalue()


def state_from(data: bytes, shared: list) -> dict:
    """The fields ``state_bytes`` wrote, the reader's ``shared`` objects in their places.
    Raises on bytes it did not write (the caller falls back to running the rules)."""
    unpickler = pickle.Unpickler(io.BytesIO(data))
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
    decoder = BodyDecoder(game.codes.decoders, LIMITS, game.header)
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
