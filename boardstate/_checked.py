"""What this user's boardstate has already checked of a signed copy: the memory that lets
``move``, ``apply`` and merges check only the records that are new (issue 29).

A copy's records are checked twice over when they come in: re-derived under the rules, and
their signatures (and the proofs a shared deck's deals carry) checked.  Once the records 0..N
of a file were checked, the same bytes need no second check of either kind.

The memory is a digest of exactly what a signature check reads, record by record (the hash
that chains the body, the signature, the player's request), so a file whose records 0..N give
the remembered digest holds the records that were checked; a record changed, re-signed or
re-chained gives another digest and the file is checked in full.  It is kept in the user's
cache folder (``$BOARDSTATE_CACHE``, or ``$XDG_CACHE_HOME/boardstate``, ``~/.cache/boardstate``),
one small file per game, never in the game file: a field in the file would be forged with
the file (a copy received by mail, an edited file), while this folder is written by this
user's boardstate only.  The referee (``verify``) never reads it.

Beside it, the game as the last command found it (``resume``, ``keep_state``): the state at the
copy's last record (``_snapshot``), so that the rules run again only on the records after it
(what waits for whom is known only by running them: the state is what they left).
It is keyed by a digest of every byte of the records it was made from and of the header, and
by the installed code and the game's data files; a file or a saved state that does not match
is ignored, never believed.
A copy resumed so is read once as a stream (``resume_streamed``): only the records its commands
need are decoded, the others stay in the file (``_filelog.FileLog``), so ``apply``'s memory
does not grow with the game.  Nor do the commitments made, which grow with it (each may be made
once, so all are kept: ``_commitments``): they are saved in the state's file before its key and
body (sorted 32-byte digests; the body holds their count and SHA-256), and a game read back
finds them there (``OnFile``), checked against that digest as the file is opened.
"""

from __future__ import annotations

import hashlib
import os
import struct
import sys

import attrs
import msgpack

from ._cache import HIGHEST, MAX_BYTES, cache_path, code_fingerprint, open_own, pickling, put
from ._commitments import SIZE, Commitments, OnFile
from ._cuts import start_cuts_at
from ._datacache import data_key
from ._filelog import FileLog
from ._records import Row
from ._snapshot import SHARED_FIELDS, decoded, restored, shared_of, state_and_records, state_from
from ._takeback import states_since

MAX_REMEMBERED = 8  # (seq, digest) pairs per game: several copies of one game on one machine
_MAX_BYTES = 4096


def _path(game_id: bytes) -> str | None:
    return cache_path("checked", game_id.hex())


def remembered(game_id: bytes) -> list[tuple[int, bytes]]:
    """The ``(seq, digest)`` pairs remembered for a game, newest first (none if unreadable:
    the memory only ever saves work)."""
    path = _path(game_id)
    if path is None:
        return []
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_BYTES + 1)
        pairs = msgpack.unpackb(data, use_list=False) if len(data) <= _MAX_BYTES else ()
    except (OSError, ValueError, msgpack.UnpackException):
        return []
    return [
        (seq, digest)
        for seq, digest in (p for p in pairs if type(p) is tuple and len(p) == 2)
        if type(seq) is int and seq >= 0 and type(digest) is bytes and len(digest) == 32
    ][:MAX_REMEMBERED]


def remember(game_id: bytes, seq: int, digest: bytes) -> None:
    """Add ``(seq, digest)`` to the game's memory (``_cache.put``)."""
    pairs = [(seq, digest)] + [p for p in remembered(game_id) if p != (seq, digest)]
    put(_path(game_id), msgpack.packb(pairs[:MAX_REMEMBERED]))


def _signature_digest():
    """A running digest of what a signature check reads of each record, and what adds a row
    to it (the hash that chains the body, the signature, the player's request)."""
    sha = hashlib.sha256(b"boardstate-checked")
    update, pack = sha.update, msgpack.Packer(use_bin_type=True).pack

    def add(row) -> None:
        update(row[1])
        update(pack((row[3], row[5])))

    return sha, add


def digests(rows, at) -> tuple[dict[int, bytes], bytes]:
    """The running digest of a file's records (``Row``s, from the setup on) at each sequence
    number of ``at``, and after the last: what a signature check of records 0..seq reads and
    nothing else."""
    at = set(at)
    found = {}
    sha, add = _signature_digest()
    for seq, row in enumerate(rows):
        add(row)
        if seq in at:
            found[seq] = sha.copy().digest()
    return found, sha.digest()


def check_and_remember(game_id: bytes, rows: list):
    """``(through, remember)``: the last record of ``rows`` (a file's, from the setup on) whose
    signatures this user's boardstate has checked (-1: none), and what to call once every
    record of ``rows`` is checked, to remember that."""
    pairs = remembered(game_id)
    found, last = digests(rows, (seq for seq, _ in pairs))
    return _through(game_id, pairs, found, last, len(rows))


def _through(game_id: bytes, pairs, found: dict, last: bytes, count: int):
    through = max((seq for seq, digest in pairs if found.get(seq) == digest), default=-1)

    def remember_all() -> None:
        if count and through < count - 1:
            remember(game_id, count - 1, last)

    return through, remember_all


# ---------------------------------------------------------------------- the state at a record
_STATE_FORMAT = b"boardstate-state-5"
_TRAILER = struct.Struct(">QQ")  # (the bytes of the commitments, of the key and body)


def _state_path(header) -> str | None:
    return cache_path("checked", f"{header.game_id.hex()}-{header.viewer}.state")


def rows_hashed(rows, sha=None):
    """A SHA-256 of every byte of ``rows`` (``Row``s): body, hash, openings, signature,
    letters, request, so that equal digests mean the same records as stored; ``sha``: one
    over the rows before them, carried on."""
    sha, add = _rows_digest(sha)
    for row in rows:
        add(row)
    return sha


def _rows_digest(sha=None):
    """The running digest ``rows_hashed`` takes (``sha``: carried on from a copy of it), and
    what adds a row to it."""
    sha = hashlib.sha256(_STATE_FORMAT) if sha is None else sha.copy()
    update, pack = sha.update, msgpack.Packer(use_bin_type=True).pack

    def add(row) -> None:
        update(pack(row))

    return sha, add


def _key(game, count: int, rows_hash: bytes, state_hash: bytes) -> tuple:
    """What a saved state must match: its format, the installed code and the game's data
    files that wrote it, the header (but the count of records mailed, which every command may
    change), the records it was made from, and its own bytes."""
    header = msgpack.packb(attrs.evolve(game.header, shared=None).to_map(), use_bin_type=True)
    rules_file = sys.modules[type(game.rules).__module__].__file__
    code = code_fingerprint(rules_file) + data_key(rules_file)
    return (_STATE_FORMAT, code, hashlib.sha256(header).digest(), count, rows_hash, state_hash)


class Saved:
    """What ``resume`` took from a saved state: how many records it held (0: none), and the
    openings of those records that this copy knows beyond what its file keeps (values the
    rules showed its player that the file keeps for their owners only: bob's card shown to
    carol), by sequence number.  (A plain class, as ``Streamed``: an attrs class is made at
    every start of a command that imports this, 0.3 ms each, issue 29.)"""

    __slots__ = ("count", "openings", "hashed", "by_identity")

    def __init__(
        self,
        count: int = 0,
        openings: dict | None = None,
        hashed: object = None,  # (``rows_hashed`` of those records, to carry on)
        by_identity: bool = False,  # (this game's states were found not to be values)
    ) -> None:
        self.count = count
        self.openings = {} if openings is None else openings
        self.hashed = hashed
        self.by_identity = by_identity


def saved_state(game) -> tuple | None:
    """``(key, body)`` of the state saved for ``game``'s file (fresh, for its header), or None
    (nothing saved, or unreadable).  Nothing of it is believed yet."""
    try:
        fd = open_own(_state_path(game.header))
        if fd is None:
            return None
        try:
            commitments, head = _framing(fd)
            data = os.pread(fd, head, commitments) if head <= MAX_BYTES else b""
        finally:
            os.close(fd)
        if len(data) != head:
            return None
        key, body = _unpacked(data)
        return (key, body) if type(key) is tuple and len(key) == 6 else None
    except Exception:  # (a damaged or foreign file of the cache: the rules run, as ever)
        return None


def _framing(fd: int) -> tuple[int, int]:
    """A saved state's file: the bytes of its commitments (first) and of its key and body
    (then, before the trailer that says both)."""
    size = os.fstat(fd).st_size
    commitments, head = _TRAILER.unpack(os.pread(fd, _TRAILER.size, size - _TRAILER.size))
    if commitments % SIZE or commitments + head + _TRAILER.size != size:
        raise ValueError("not a saved state")
    return commitments, head


def _saved_commitments(game, saved) -> Commitments:
    """The commitments saved with ``game``'s state, left in its file (``OnFile``, its own
    descriptor), when the file holds ``saved`` = ``(count, SHA-256)`` of them; else raises."""
    count, digest = saved
    fd = open_own(_state_path(game.header))
    if fd is None:
        raise ValueError("the saved state's file is not this user's alone")
    try:
        on_file = OnFile(fd, 0, _framing(fd)[0] // SIZE)
    except BaseException:
        os.close(fd)
        raise
    sha = hashlib.sha256()
    for chunk in on_file.chunks():
        sha.update(chunk)
    if (on_file.count, sha.digest()) != (count, digest):
        raise ValueError("the saved commitments are not the ones the saved state names")
    if not count:  # (none, as in an open game: no descriptor kept, ``on_file`` closes it)
        return Commitments()
    return Commitments(b"", on_file)


def _put_state(game, make_body, commitments: Commitments) -> None:
    """Write the state saved for ``game``'s file: its commitments streamed, then the key and
    body ``make_body((count, SHA-256) of the commitments)`` gives, then their sizes."""
    sha, size = hashlib.sha256(), 0

    def parts():
        nonlocal size
        for chunk in commitments.chunks():
            sha.update(chunk)
            size += len(chunk)
            yield chunk
        head = msgpack.packb(make_body((size // SIZE, sha.digest())), use_bin_type=True)
        yield head
        yield _TRAILER.pack(size, len(head))

    put(_state_path(game.header), parts())


def resume(game, rows: list) -> Saved:
    """Put into ``game`` (fresh, for this file's header) the state saved after the first
    records of ``rows``, when the saved state matches them byte for byte (``Saved.count``
    of them; 0: nothing saved matches, the rules run from the setup).  Anything unreadable is
    ignored."""
    found = saved_state(game)
    if found is None:
        return Saved()
    key, body = found
    if is_by_identity(game, found):
        return Saved(by_identity=True)
    count = key[3] if type(key[3]) is int else 0
    if not 0 < count <= len(rows):
        return Saved()
    saved = _restore(game, key, body, rows_hashed(rows[:count]), rows, 0, None)
    return Saved() if saved is None else saved


class Streamed:
    """What ``resume_streamed`` found: the saved state put into the game, the file's rows
    after it, and the signatures' memory (``check_and_remember``'s pair)."""

    __slots__ = ("saved", "rows", "through", "remember")

    def __init__(self, saved: Saved, rows: list, through: int, remember: object) -> None:
        self.saved, self.rows, self.through, self.remember = saved, rows, through, remember


def resume_streamed(game, raw, found: tuple) -> Streamed | None:
    """``resume`` on a file read once as a stream (``raw``, read with ``keep``: its bytes are
    kept readable): only the records the game needs are decoded, from the first one its saved
    state names or has openings of, the records not settled with the other copies, and the
    last; the others stay in the file (``FileLog``).  ``found``: ``saved_state``'s.  None when
    the saved state does not match (then ``raw`` may have been read)."""
    key, body = found
    count = key[3] if type(key[3]) is int else 0
    first = _first_needed(body, count)
    if first is None:
        return None
    pairs = remembered(game.header.game_id)
    at = {seq for seq, _ in pairs}
    signatures, add = _signature_digest()
    rows_sha, add_row = _rows_digest()
    found_digests, kept, hashed, end, total = {}, [], None, raw.read_to, 0
    for seq, row in enumerate(raw.iter_records()):
        add(row)
        if seq in at:
            found_digests[seq] = signatures.copy().digest()
        if seq < count:
            add_row(row)
            if seq == count - 1:
                hashed = rows_sha
        if seq >= first:
            kept.append(row)
        else:
            end = raw.read_to
        total = seq + 1
    if hashed is None:
        return None
    through, remember_all = _through(
        game.header.game_id, pairs, found_digests, signatures.digest(), total
    )
    saved = _restore(game, key, body, hashed, kept, first, (raw.stored, end))
    if saved is None:
        return None
    return Streamed(saved, kept[count - first :], through, remember_all)


def _first_needed(body, count: int) -> int | None:
    """The first record a saved state's game needs in memory (None: not a saved state)."""
    if count <= 0:
        return None
    try:
        openings, _state, first, _folded, _committed = _unpacked(body, 5)
        if type(first) is not int or not all(type(seq) is int for seq in openings):
            return None
    except Exception:
        return None
    return first_needed(count, openings, first)


def first_needed(count: int, openings, *named: int) -> int:
    """The first record of ``count`` that a copy's saved game keeps in memory, the records
    before it left in the file: the last record, those whose ``openings`` the copy knows
    beyond its file (put back into them when it is read), and ``named`` (the last record
    settled with the other copies, the one the state names).  Said once, for ``keep_state``,
    which writes it and folds the state before it, and ``resume_streamed``, which reads from
    it: a reader starting earlier than the writer named would drop that folded state."""
    return max(0, min(count - 1, *openings, *named))


def _restore(game, key, body, hashed, rows: list, first: int, stored) -> Saved | None:
    """Put the saved state ``(key, body)`` into ``game`` if it matches the file's records
    (``hashed``: ``rows_hashed`` of the first ``key[3]``); ``rows``: the file's rows from
    ``first`` on, the records before it left in the file (``stored``: its bytes)."""
    count = key[3]
    try:
        if key != _key(game, count, hashed.digest(), hashlib.sha256(body).digest()):
            return None
        openings, state, _first, folded, commitments = _unpacked(body, 5)
        if not all(type(seq) is int and first <= seq < count for seq in openings):
            return None
        committed = _saved_commitments(game, commitments)
        kept = rows[: count - first]
        for seq, known in openings.items():
            kept[seq - first] = kept[seq - first]._replace(openings=known)
        records = decoded(game.codes, game.header, kept)
        log = _log(game, records, first, stored, folded) if first else records
        fields = state_from(state, shared_of(game, log, committed))
        if fields.get("_count") != count or fields.get("head_hash") != kept[-1][1]:
            return None
    except Exception:  # (a damaged or foreign file of the cache: the rules run, as ever)
        return None
    restored(game, fields, log)
    start_cuts_at(game, _copy_maker(game, state, log.copy(), committed))
    return Saved(count, openings, hashed)


def _copy_maker(game, state: bytes, log, committed: Commitments):
    """What makes another copy of ``game`` as ``_restore`` left it, from the same saved bytes
    (``log``: a copy of its records then; ``committed``: its commitments then, copied), or
    None if they do not unpickle again."""
    committed = committed.__copy__()
    cls, shared = type(game), {name: getattr(game, name) for name in SHARED_FIELDS}

    def make():
        copy = object.__new__(cls)
        copy.__dict__.update(shared)
        try:
            restored(copy, state_from(state, shared_of(copy, log, committed.__copy__())), log)
        except Exception:  # (pickle's complaints: the cut runs from the setup, as before)
            return None
        return copy

    return make


def _log(game, records: list, first: int, stored, folded: bytes) -> FileLog:
    """The log: ``records`` after the ``first`` that stay in the file (``stored``: its
    bytes, and where the first of ``records`` begins), read back if a command asks;
    ``folded``: the state before ``records`` as words about them fold it (pickled)."""
    codes, header, module, (source, end) = game.codes, game.header, game.module, stored

    def load() -> list:
        return decoded(codes, header, source.rows(header, module, first))

    at, state = pickling.loads(folded) if folded else (None, None)
    folded = (at, state) if at == first - 1 else None
    return FileLog(first, records, (source, end), load, folded)


def _folded(game, first: int) -> bytes:
    """The state after record ``first - 1`` as words about records fold it
    (``_takeback.states_after``), pickled; empty if it cannot be had without reading
    the records before it back, or written."""
    records = game.records
    at, state = getattr(records, "folded", None) or (-1, None)
    if state is None:
        header = game.header
        state = game.decider.initial(header.options, header.players, header.revision)
    elif at >= first or isinstance(records, FileLog) and records.held()[0] > at + 1:
        return b""
    states = states_since(game, at + 1, state, records[at + 1 : first])
    if states is None:
        return b""
    try:
        return pickling.dumps((first - 1, states[-1] if states else state), HIGHEST)
    except Exception:  # (pickle's complaints about a value it cannot write)
        return b""


def keep_state(game, rows: list, saved: Saved) -> None:
    """Save ``game``, just checked, for the next command (``resume``); ``rows``: the file's
    rows after ``saved``'s.  Nothing when the saved state is already at its last record, or
    when a value of the game cannot be written (that game's commands run the rules from the
    setup: a game whose state was once found not to be a value is not pickled again to find
    out)."""
    count = saved.count + len(rows)
    if saved.by_identity or not rows or (game.seq, len(game.records)) != (count,) * 2:
        return
    openings = dict(saved.openings)
    for record in game.records[saved.count :]:  # (the records the rules ran on this time)
        known = Row.of(record).openings
        if known != rows[record.seq - saved.count][2]:
            openings[record.seq] = known
    try:  # (the commitments named in the pickle, saved beside it: ``_put_state``)
        shared = shared_of(game, game.records, game.committed)
        state, named = state_and_records(game, shared)
        a_value = state_from(state, shared)["state"] == game.state
    except Exception:  # (pickle's complaints about a value it cannot write)
        a_value = False
    if not a_value:  # (a module's read-only mapping, or states that compare by identity)
        _put_state(game, lambda _none: (_by_identity_key(game), b""), Commitments())
        return
    # (the last record settled with the other copies: a move file's base at the earliest)
    settled = game.region_start - 1
    first = first_needed(count, openings, settled, *(() if named is None else (named,)))
    folded = _folded(game, first)
    hashed = rows_hashed(rows, saved.hashed if saved.count else None)

    def key_and_body(commitments: tuple) -> tuple:
        body = msgpack.packb((openings, state, first, folded, commitments), use_bin_type=True)
        return _key(game, count, hashed.digest(), hashlib.sha256(body).digest()), body

    _put_state(game, key_and_body, game.committed)


def is_by_identity(game, found: tuple) -> bool:
    """Is ``saved_state``'s ``found`` the mark that ``game``'s states are not values?"""
    return found[0] == _by_identity_key(game)


def _by_identity_key(game) -> tuple:
    """The key of the mark that this game's states are not values (a module's state pickle
    cannot write, or one that compares by identity), for this code: ``keep_state`` need not
    pickle it to find out again.  Believing a forged mark costs time only (the rules run from
    the setup)."""
    return _key(game, 0, b"", hashlib.sha256(b"").digest())


def _unpacked(data: bytes, length: int = 2) -> tuple:
    """The parts a saved state is made of: its key and body; the body's openings, state, first
    record needed, folded state and its commitments' count and SHA-256 (``length`` 5)."""
    parts = msgpack.unpackb(data, use_list=False, strict_map_key=False)
    if type(parts) is not tuple or len(parts) != length:
        raise ValueError("not a saved state")
    return parts
