"""File format v1: a msgpack header map, then a stream of records.  See docs/file-format.md.

One format serves full logs, player views and move files.  Reading is defensive (size limits,
one clear error per kind of damage); writing is atomic (temp file, fsync, rename).
"""

from __future__ import annotations

import functools
import gc
import itertools
import os
from contextlib import contextmanager

import attrs
import msgpack

from ._armor import armor, dearmor, is_armored
from ._errors import (
    CorruptFile,
    ForeignFile,
    GameFileError,
    TruncatedFile,
)
from ._events import EventCodes
from ._filelog import FileLog
from ._header import HEADER_LIMITS, MAX_HEADER_BYTES, Header, check_records, read_header
from ._records import HASH_SIZE, NO_ACTOR, ROW_TAILS, BodyDecoder, Kind, Record, Row
from ._secrets import Reveal, Secret

# Limits (docs/file-format.md, "Limits"): every length that sizes an allocation is bounded
# before it is used.  The header has its own, tighter limits (``_header.HEADER_LIMITS``).
MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_RECORD_BYTES = 1 << 18  # one stored record [body, hash, openings]; the largest shipped: 4.8 KB
LIMITS = dict(  # inside a record body (and a revealed value)
    max_str_len=1 << 16,
    max_bin_len=1 << 16,
    max_array_len=1 << 14,
    max_map_len=0,  # no maps in records
    max_ext_len=1 << 16,
)
_STREAM_LIMITS = dict(LIMITS, max_bin_len=MAX_RECORD_BYTES, max_buffer_size=MAX_RECORD_BYTES)
_READ_SIZE = 1 << 16
# A record in a file: [body, hash, openings], then in the peer mode [signature, letters], and
# in the hosted mode [request] as well (docs/file-format.md).
_ITEM_LENGTH = {"open": 3, "peer": 5, "hosted": 6, "shared-deck": 5}
_new = tuple.__new__


# ---------------------------------------------------------------------------------- writing
def encode_file(header: Header, records, *, openings_for="all", reader=None) -> bytes:
    """Header then records.  ``openings_for``: "all", a seat (a view), or None (no openings)."""
    records = list(records)
    packer = msgpack.Packer(use_bin_type=True)
    parts = [_header_bytes(header, len(records), packer)]
    for rec in records:
        parts.append(packer.pack(_item(header, rec, openings_for, reader)))
    return b"".join(parts)


def _header_bytes(header: Header, count: int, packer) -> bytes:
    if header.shared is not None and header.shared >= count:  # (a log cut short: its
        # last record is the last another copy can hold of it; a reader checks the bound)
        header = attrs.evolve(header, shared=max(count - 1, 0))
    return packer.pack(header.compact_map() if header.compact else header.to_map())


def encode_row(header: Header, rec: Record) -> bytes:
    """One record as a full log holds it (every opening): the judge's store keeps these."""
    return msgpack.packb(_item(header, rec, "all", None), use_bin_type=True)


def _item(header: Header, rec: Record, openings_for, reader) -> list:
    item = [rec.body, rec.hash, _openings(rec, openings_for)]
    if header.signed:  # (each record's signature and letters travel beside it)
        letters = rec.letters
        if reader is not None:  # (a player's move file: only the letters to that player)
            letters = [letter for letter in letters if letter[1] == reader]
        item.append(rec.signature)
        item.append([list(letter) for letter in letters])
    if header.hosted:  # (and the player's request the judge made it from)
        item.append(list(rec.request))
    return item


def _openings(rec: Record, openings_for) -> list:
    if openings_for is None:
        return []
    return rec.openings(None if openings_for == "all" else openings_for)


def atomic_write(path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves the old file or the new, never half.

    A symlink is written through: its target is replaced and the link stays.  A failed write
    (disk full, read-only or missing directory) is a one-line ``GameFileError`` and leaves
    neither a changed file nor a temporary one behind.
    """
    with atomic_stream(path) as f:
        f.write(data)


@contextmanager
def atomic_stream(path):
    """``atomic_write`` step by step: a binary file to write an output too large to hold in
    memory (the replay page) piece by piece.  It replaces ``path`` only when the ``with``
    block ends without an error; otherwise nothing is changed and no temporary file stays."""
    from ._safety import regular_or_nothing, write_target

    shown = path
    path = write_target(path)
    regular_or_nothing(path, shown)
    directory, name = os.path.split(path)
    _remove_orphans(directory, name)
    try:
        prefix = f".{name}.{os.getpid()}."  # (the writer's pid: see _remove_orphans)
        fd, tmp = new_temporary(directory, prefix, ".tmp")
    except OSError as exc:
        raise _unwritable(shown, exc) from None
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(exc, OSError):
            raise _unwritable(shown, exc) from None
        raise
    try:
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def new_temporary(directory, prefix: str, suffix: str) -> tuple[int, str]:
    """A new file of this user's only (0o600) in ``directory``, opened for writing: its
    descriptor and path, as ``tempfile.mkstemp`` makes it (a random name, created exclusively,
    never through a link) without importing ``tempfile``, which brings ``shutil`` with the
    compressors and ``random``: 4 ms of every command that writes a file (issue 29)."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    flags |= getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        path = os.path.join(directory, f"{prefix}{os.urandom(6).hex()}{suffix}")
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError(f"no new temporary name in {directory}")


def _remove_orphans(directory: str, name: str) -> None:
    """Remove the temporary files that a killed writer of ``name`` left behind: those whose
    writing process no longer exists (a live writer's file is never touched)."""
    prefix = f".{name}."
    try:
        leftovers = [n for n in os.listdir(directory) if n.startswith(prefix)]
    except OSError:
        return
    for tmp in leftovers:
        pid = _writer_of(tmp[len(prefix) :])
        if pid is None or _alive(pid):
            continue
        try:
            os.unlink(os.path.join(directory, tmp))
        except OSError:
            pass


def _writer_of(rest: str) -> int | None:
    """The writer's pid if ``.NAME.`` + ``rest`` is ``new_temporary``'s name for a write of
    ``NAME`` (``PID.RANDOM.tmp``: ASCII digits, a dotless random part), else None: a file
    named ``NAME.123`` has writers of its own (``.NAME.123.PID.RANDOM.tmp``), and a name whose
    PID no process can have (``²``, 20 digits) is no writer's."""
    pid, dot, random_part = rest.removesuffix(".tmp").partition(".")
    if not (rest.endswith(".tmp") and dot and random_part) or "." in random_part:
        return None
    if not (pid.isascii() and pid.isdigit()) or len(pid) > 9:  # (a pid_t: below 2**31)
        return None
    return int(pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # (it exists but is not ours to signal)
        return True
    return True


def _unwritable(path, exc: OSError) -> GameFileError:
    return GameFileError(
        f"{path}: cannot write ({exc.strerror or exc}); nothing was changed", code="unwritable"
    )


def _mode_for(path: str) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def encode_game(game, *, viewer: int | None = None, settled: bool = False) -> bytes:
    """The full log, or with ``viewer`` that player's view (no seed, others' secrets sealed).

    ``settled``: leave out the records of a sealed phase still collecting choices, so that no
    unrevealed choice reaches the disk (hot seat: the players share the file).
    """
    records = game.records[: game.settled()] if settled else game.records
    if viewer is None:
        return encode_file(game.header, records)
    header = attrs.evolve(game.header, seed=None, seed_salt=None, viewer=viewer)
    if viewer != game.header.viewer:
        header = attrs.evolve(header, peer_secret=None)  # (only in its own player's copy)
    return encode_file(header, records, openings_for=viewer)


def encode_public(game) -> bytes:
    """A peer game as every player may see it (no private secret, no openings): what a new
    player joins from (``boardstate join``)."""
    header = attrs.evolve(game.header, seed=None, seed_salt=None, viewer=None, peer_secret=None)
    return encode_file(header, game.records, openings_for=None)


def save_game(game, path, *, viewer: int | None = None, settled: bool = False) -> None:
    """Write ``encode_game`` atomically.  A full log whose first records are still in the
    file it was read from (``_filelog.FileLog``) streams their bytes, checked as it goes,
    instead of holding the whole file in memory: the same bytes."""
    first, stored = game.records.on_file() if isinstance(game.records, FileLog) else (0, None)
    if not first or viewer is not None or settled:
        atomic_write(path, encode_game(game, viewer=viewer, settled=settled))
        return
    packer = msgpack.Packer(use_bin_type=True)
    records, end = game.records, stored[1]
    with atomic_stream(path) as f:
        f.write(_header_bytes(game.header, len(records), packer))
        stored[0].copy_to(f, end)
        for rec in records[first:]:
            f.write(packer.pack(_item(game.header, rec, "all", None)))


def encode_moves(game, base_seq: int, *, reader: int | None = None) -> bytes:
    """A move file: the compact header naming the game and base hash, then the records after
    ``base_seq``.

    No openings and no seed travel: the receiver re-derives what the seed gives, and sealed
    choices stay sealed until their reveal record.  ``reader``: only that player's letters
    (the hosted mode's judge writes each player their own move file).
    """
    base_hash = game.header.game_id if base_seq < 0 else game.records[base_seq].hash
    header = attrs.evolve(
        game.header,
        kind="move",
        seed=None,
        seed_salt=None,
        viewer=None,
        shared=None,
        peer_secret=None,
        base_seq=base_seq,
        base_hash=base_hash,
        given_id=game.header.game_id,  # compact: the receiver holds what the id commits to
    )
    return encode_file(header, game.records[base_seq + 1 :], openings_for=None, reader=reader)


def save_moves(game, base_seq: int, path, *, text: bool = False) -> int:
    """Write ``encode_moves`` atomically (``-``: to standard output; ``text``: armored, to
    paste into a mail body); the number of records it holds."""
    data = encode_moves(game, base_seq)
    if text:
        from ._words import describe

        said = "; ".join(describe(game, r) for r in game.records[base_seq + 1 :])
        last = game.last_seq
        summary = f"{game.header.module} {game.header.game_id.hex()[:12]}, records {base_seq + 1}-{last}: {said}"
        data = armor(data, summary[:300]).encode()
    if str(path) == "-":
        import sys

        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        atomic_write(path, data)
    game.mark_shared(game.last_seq)
    return game.last_seq - base_seq


# ---------------------------------------------------------------------------------- reading
class RawFile:
    """A file split into its header and its stored records (``Row``), the one reader of both.

    Records are read lazily from a stream: ``iter_records()`` once (memory stays flat, as
    ``verify`` needs), or ``records`` to hold them all.  Each record is bounded
    (``MAX_RECORD_BYTES``) before it is decoded.
    """

    def __init__(
        self,
        name: str,
        header: Header,
        module,
        unpacker,
        size: int,
        close=None,
        start: int = 0,
        stored: StoredRecords | None = None,
    ) -> None:
        self.path = name
        self.header = header
        self.module = module
        self._unpacker = unpacker
        self._size = size
        self._start = start  # where the records begin (the header's end)
        self._close = close
        self._list: list | None = None
        self.read_to = start  # where the last record yielded ends, in the file
        self.stored = stored  # (``read_raw(keep=True)``: the records' bytes, to read again)

    def close(self) -> None:
        """The file and its kept descriptor closed now (a reading given up)."""
        if self._close is not None:
            self._close()
        if self.stored is not None:
            self.stored.close()

    @property
    def records(self) -> list:
        if self._list is None:
            self._list = list(self.iter_records())
        return self._list

    def iter_records(self):
        if self._list is not None:
            yield from self._list
            return
        unpacker, name = self._unpacker, self.path
        if unpacker is None:
            raise RuntimeError("the records of this file were already read")
        self._unpacker = None
        count = 0
        start = self._start
        end = start + unpacker.tell()
        length = _ITEM_LENGTH[self.header.trust]
        tail = ROW_TAILS[length]
        try:
            while True:
                try:
                    item = unpacker.unpack()
                except msgpack.OutOfData:
                    if end != self._size:
                        raise TruncatedFile(
                            f"{name}: truncated after record {count - 1} ({self._size - end} "
                            f"bytes of a partial record)"
                        ) from None
                    if count == 0 and self.header.kind == "game":
                        raise TruncatedFile(
                            f"{name}: truncated: no records after the header (not even the setup)"
                        ) from None
                    check_records(self.header, count, name)
                    return
                except msgpack.BufferFull:
                    raise CorruptFile(
                        f"{name}: corrupt at record {count} (larger than the limit of "
                        f"{MAX_RECORD_BYTES} bytes per record)"
                    ) from None
                except (ValueError, msgpack.UnpackException) as exc:
                    why = str(exc) or type(exc).__name__  # StackError: nested too deeply
                    raise CorruptFile(f"{name}: corrupt at record {count} ({why})") from None
                if (
                    type(item) is not tuple
                    or len(item) != length
                    or (length >= 5 and (type(item[3]) is not bytes or type(item[4]) is not tuple))
                    or (length == 6 and type(item[5]) is not tuple)
                    or type(item[0]) is not bytes
                    or type(item[1]) is not bytes
                    or len(item[1]) != HASH_SIZE
                    or type(item[2]) is not tuple
                ):
                    raise CorruptFile(f"{name}: corrupt at record {count} (malformed record)")
                end = self.read_to = start + unpacker.tell()
                yield _new(Row, item + tail)
                count += 1
        finally:
            if self._close is not None:
                self._close()

    def codes(self) -> EventCodes:
        """The file's own event table, read against the installed module's events."""
        try:
            return _event_codes(tuple(self.module.spec.events), self.header.events)
        except GameFileError as exc:
            raise type(exc)(f"{self.path}: {exc.reason}", code=exc.code) from None

    @staticmethod
    def decoder(game) -> BodyDecoder:
        return BodyDecoder(game.codes.decoders, LIMITS, game.header)


@functools.lru_cache(maxsize=64)
def _event_codes(installed: tuple, file_table: tuple) -> EventCodes:
    """A file's event table read against the installed events, once for all the files that
    share it (a folder of one module's games; an ``EventCodes`` is never changed)."""
    return EventCodes(installed, file_table)


def _why(exc: BaseException) -> str:
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= 120 else text[:117] + "..."


def read_raw(path, *, keep: bool = False) -> RawFile:
    """Open a file and read its header; the records stream from the open file (``-``: the
    whole of standard input, bounded like a file).  ``keep``: the records' bytes stay
    readable (``RawFile.stored``, a binary file's only), a digest of them taken as they
    stream."""
    if str(path) == "-":
        import sys

        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        return parse_raw(data, "<stdin>")
    path = path_name(path)
    armored = _armored_text(path)
    if armored is not None:
        return parse_raw(dearmor(armored, str(path)), str(path))
    from ._safety import NotRegular, open_regular

    try:
        fd, st = open_regular(path)
    except NotRegular as exc:
        said = "is a directory" if exc.folder else "not a regular file (a device or a pipe)"
        raise GameFileError(f"{path}: {said}, not a game file", code="unreadable") from None
    except IsADirectoryError:
        raise GameFileError(f"{path}: is a directory, not a game file", code="unreadable") from None
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such file", code="unreadable") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read ({exc.strerror})", code="unreadable") from None
    f = os.fdopen(fd, "rb")
    try:
        size = st.st_size
        if size > MAX_FILE_BYTES:
            raise GameFileError(
                f"{path}: file too large ({size} bytes; limit {MAX_FILE_BYTES})", code="too-large"
            )
        return _open_stream(f, size, str(path), f.close, keep)
    except BaseException:
        f.close()
        raise


def path_name(path) -> str:
    """``str(pathlib.Path(path))``: the name a file's messages give it (repeated and trailing
    slashes and ``.`` parts dropped), without importing ``pathlib``, which brings
    ``urllib.parse`` and ``ipaddress`` to every command (3 ms, issue 29).  An empty name names
    no file (``_safety.named``)."""
    from ._safety import named

    name = named(path)
    if type(name) is not str or os.sep != "/" or os.altsep:  # (bytes, or another system's)
        from pathlib import Path

        return str(Path(path))
    root = "//" if name[:2] == "//" and name[:3] != "///" else "/" * name.startswith("/")
    return root + "/".join(p for p in name.split("/") if p and p != ".") or "."


def _armored_text(path, *, every: bool = False) -> bytes | None:
    """The whole text of a file that holds an armored move (a mail body saved as text), else
    None (a binary file: read as a stream).  ``every``: the text of any file that is not
    binary (a saved mail's encoded body shows its moves once decoded: ``read_mailed``)."""
    from ._safety import NotRegular, open_regular

    try:
        with os.fdopen(open_regular(path)[0], "rb") as f:
            head = f.read(4096)
            if not head or head[0] & 0xF0 == 0x80 or head[0] in (0xDE, 0xDF):
                return None  # (a msgpack header map: the binary form)
            text = head + _read_at_most(f, MAX_FILE_BYTES)
    except (OSError, NotRegular):
        return None  # (read_raw says why, in its own words; a pipe is not waited on)
    return text if every or is_armored(text) else None


def _read_at_most(f, limit: int) -> bytes:
    """Up to ``limit`` bytes, read as they come: ``f.read(limit)`` reserves the whole limit
    first (512 MiB of address space for a 20-byte text file: past the memory bound)."""
    chunks = []
    while limit > 0:
        chunk = f.read(min(_READ_SIZE, limit))
        if not chunk:
            break
        chunks.append(chunk)
        limit -= len(chunk)
    return b"".join(chunks)


def parse_raw(data: bytes, name: str = "<bytes>") -> RawFile:
    """The same as ``read_raw`` for bytes in memory (an armored move's text is read too)."""
    import io

    if data[:1] and not (data[0] & 0xF0 == 0x80 or data[0] in (0xDE, 0xDF)) and is_armored(data):
        data = dearmor(data, name)
    if len(data) > MAX_FILE_BYTES:
        raise GameFileError(
            f"{name}: file too large ({len(data)} bytes; limit {MAX_FILE_BYTES})", code="too-large"
        )
    return _open_stream(io.BytesIO(data), len(data), name, None)


def _open_stream(f, size: int, name: str, close, keep: bool = False) -> RawFile:
    """The header, decoded from a bounded prefix with its own limits; then the record stream
    (``keep``: through a digest, the file kept open for ``StoredRecords``)."""
    prefix = f.read(MAX_HEADER_BYTES)
    if not prefix:
        raise TruncatedFile(f"{name}: empty file")
    # A boardstate file starts with a msgpack map (the header).
    if prefix[0] & 0xF0 != 0x80 and prefix[0] not in (0xDE, 0xDF):
        raise ForeignFile(f"{name}: not a boardstate file (no header map)")
    head = msgpack.Unpacker(raw=False, use_list=False, strict_map_key=True, **HEADER_LIMITS)
    head.feed(prefix)
    try:
        header_map = head.unpack()
    except msgpack.OutOfData:
        if len(prefix) < MAX_HEADER_BYTES:
            raise TruncatedFile(f"{name}: truncated inside the header") from None
        raise CorruptFile(
            f"{name}: corrupt header (larger than the limit of {MAX_HEADER_BYTES} bytes)"
        ) from None
    except (ValueError, msgpack.UnpackException, msgpack.ExtraData) as exc:
        why = str(exc) or type(exc).__name__
        raise ForeignFile(f"{name}: not a boardstate file ({why})") from None
    start = head.tell()
    del head, prefix
    header, module = read_header(header_map, name)
    f.seek(start)
    stored = StoredRecords(name, os.dup(f.fileno()), start, size) if keep else None
    unpacker = msgpack.Unpacker(
        f if stored is None else stored.hashing(f),
        raw=False,
        use_list=False,
        strict_map_key=True,
        read_size=_READ_SIZE,
        **_STREAM_LIMITS,
    )
    return RawFile(name, header, module, unpacker, size, close, start, stored)


class StoredRecords:
    """The records' bytes of a file as it was read, to read again (``_filelog.FileLog``): its
    own descriptor of the file (replaced since, it is still the file read) and a SHA-256 of
    every byte of its records taken as they were read, so that bytes changed since are
    refused, never used."""

    def __init__(self, name: str, fd: int, start: int, size: int) -> None:
        import hashlib
        import weakref

        self.name = name
        self._fd = fd
        self._start = start
        self._size = size
        self._sha = hashlib.sha256()
        self.close = weakref.finalize(self, os.close, fd)  # (now, or once unused)

    def hashing(self, f):
        """``f`` read through the digest."""
        update = self._sha.update

        class Hashing:
            def read(self, n: int = -1) -> bytes:
                data = f.read(n)
                update(data)
                return data

        return Hashing()

    def _checked(self):
        """The records' bytes read again, in chunks; raises once they are all read if they
        are not the bytes first read."""
        import hashlib

        sha, at = hashlib.sha256(), self._start
        while at < self._size:
            chunk = os.pread(self._fd, min(_READ_SIZE, self._size - at), at)
            if not chunk:
                break
            sha.update(chunk)
            yield at, chunk
            at += len(chunk)
        if sha.digest() != self._sha.digest():
            raise CorruptFile(f"{self.name}: changed while it was read; nothing was written")

    def copy_to(self, out, end: int) -> None:
        """Write the bytes from the records' start to ``end`` to ``out`` (the rest is read
        too: the digest is of them all)."""
        for at, chunk in self._checked():
            if at < end:
                out.write(chunk if at + len(chunk) <= end else chunk[: end - at])

    def rows(self, header: Header, module, count: int) -> list:
        """The first ``count`` records as ``Row``s, read again and checked as they were."""
        import io

        data = b"".join(chunk for _at, chunk in self._checked())
        unpacker = msgpack.Unpacker(
            io.BytesIO(data), raw=False, use_list=False, strict_map_key=True, **_STREAM_LIMITS
        )
        rows = RawFile(self.name, header, module, unpacker, len(data)).iter_records()
        return list(itertools.islice(rows, count))


@contextmanager
def no_cyclic_gc():
    """Pause Python's cyclic collector while a log is read.  Records and states hold no
    reference cycles (reference counting frees them), but the collector's repeated passes over
    a growing log cost a quarter of the time of loading a long one."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_SEALED = {
    Kind.SETUP: type(None),
    Kind.MOVE: type(None),
    Kind.COMMIT: Secret,
    Kind.REVEAL: Reveal,
    Kind.JOIN: tuple,
    Kind.DEAL: tuple,
}


def _check_shape(fields: tuple, players: int) -> None:
    """What ``load_game`` (which does not re-run the rules) holds a record's fields to, so that
    nothing read can reach the rest of the engine in a shape it never makes: the setup by the
    engine, every other record by a seat; a commitment a Secret its maker alone owns; a reveal a
    Reveal of a command."""
    seq, kind, actor, command, sealed, events = fields
    if (actor == NO_ACTOR) != (kind == Kind.SETUP) or not -1 <= actor < players:
        raise CorruptFile(f"record {seq}: malformed (actor {actor} in a record of kind {kind})")
    if type(sealed) is not _SEALED[kind] or (kind == Kind.COMMIT and sealed.owners != 1 << actor):
        raise CorruptFile(f"record {seq}: malformed (its sealed value)")
    if kind == Kind.REVEAL and type(sealed.value) is not str:
        raise CorruptFile(f"record {seq}: malformed (the revealed choice is not a command)")
