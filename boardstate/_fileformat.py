"""File format v1: a msgpack header map, then a stream of records.  See docs/file-format.md.

One format serves full logs, player views and move files.  Reading is defensive (size limits,
one clear error per kind of damage); writing is atomic (temp file, fsync, rename).
"""

from __future__ import annotations

import gc
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import attrs
import msgpack

from ._errors import (
    BoardstateError,
    CorruptFile,
    ForeignFile,
    FutureVersion,
    GameFileError,
    TruncatedFile,
)
from ._events import EventCodes
from ._game import Game
from ._header import FORMAT_NAME, FORMAT_VERSION, Header
from ._records import HASH_SIZE, BodyDecoder, Record
from ._registry import get_module

MAX_FILE_BYTES = 512 * 1024 * 1024
LIMITS = dict(
    max_str_len=1 << 20,
    max_bin_len=1 << 20,
    max_array_len=1 << 20,
    max_map_len=1 << 12,
    max_ext_len=1 << 16,
)
_STREAM_LIMITS = dict(LIMITS, max_bin_len=1 << 24, max_buffer_size=1 << 25)


# ---------------------------------------------------------------------------------- writing
def encode_file(header: Header, records, *, openings_for="all") -> bytes:
    """Header then records.  ``openings_for``: "all", a seat (a view), or None (no openings)."""
    packer = msgpack.Packer(use_bin_type=True)
    parts = [packer.pack(header.to_map())]
    for rec in records:
        parts.append(packer.pack([rec.body, rec.hash, _openings(rec, openings_for)]))
    return b"".join(parts)


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
    from ._safety import write_target

    shown = path
    path = write_target(path)
    if path.exists() and not path.is_file():
        raise GameFileError(f"{shown}: not a regular file; not writing there", code="not-a-file")
    directory = path.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise _unwritable(shown, exc) from None
    try:
        os.fchmod(fd, _mode_for(path))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
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


def _unwritable(path, exc: OSError) -> GameFileError:
    return GameFileError(
        f"{path}: cannot write ({exc.strerror or exc}); nothing was changed", code="unwritable"
    )


def _mode_for(path: Path) -> int:
    """Keep an existing file's permissions; a new file gets the usual 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def encode_game(game: Game, *, viewer: int | None = None, settled: bool = False) -> bytes:
    """The full log, or with ``viewer`` that player's view (no seed, others' secrets sealed).

    ``settled``: leave out the records of a sealed phase still collecting choices, so that no
    unrevealed choice reaches the disk (hot seat: the players share the file).
    """
    records = game.records[: game.settled()] if settled else game.records
    if viewer is None:
        return encode_file(game.header, records)
    header = attrs.evolve(game.header, seed=None, viewer=viewer)
    return encode_file(header, records, openings_for=viewer)


def save_game(game: Game, path, *, viewer: int | None = None, settled: bool = False) -> None:
    """Write ``encode_game`` atomically."""
    atomic_write(path, encode_game(game, viewer=viewer, settled=settled))


def encode_moves(game: Game, base_seq: int) -> bytes:
    """A move file: the header naming the game and base hash, then the records after ``base_seq``.

    No openings and no seed travel: the receiver re-derives what the seed gives, and sealed
    choices stay sealed until their reveal record.
    """
    base_hash = game.header.game_id if base_seq < 0 else game.records[base_seq].hash
    header = attrs.evolve(
        game.header, kind="move", seed=None, viewer=None, base_seq=base_seq, base_hash=base_hash
    )
    return encode_file(header, game.records[base_seq + 1 :], openings_for=None)


def save_moves(game: Game, base_seq: int, path) -> int:
    """Write ``encode_moves`` atomically; the number of records it holds."""
    atomic_write(path, encode_moves(game, base_seq))
    return game.seq - 1 - base_seq


# ---------------------------------------------------------------------------------- reading
class RawFile:
    """A file split into its header and raw records ``(body, hash, openings)``.

    Records are read lazily from a stream: ``iter_records()`` once (memory stays flat, as
    ``verify`` needs), or ``records`` to hold them all.
    """

    def __init__(self, name: str, header: Header, module, unpacker, size: int, close=None) -> None:
        self.path = name
        self.header = header
        self.module = module
        self._unpacker = unpacker
        self._size = size
        self._close = close
        self._list: list | None = None

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
        end = unpacker.tell()
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
                    return
                except (ValueError, msgpack.UnpackException) as exc:
                    why = str(exc) or type(exc).__name__  # StackError: nested too deeply
                    raise CorruptFile(f"{name}: corrupt at record {count} ({why})") from None
                if (
                    type(item) is not tuple
                    or len(item) != 3
                    or type(item[0]) is not bytes
                    or type(item[1]) is not bytes
                    or len(item[1]) != HASH_SIZE
                    or type(item[2]) is not tuple
                ):
                    raise CorruptFile(f"{name}: corrupt at record {count} (malformed record)")
                yield item
                count += 1
                end = unpacker.tell()
        finally:
            if self._close is not None:
                self._close()

    def codes(self) -> EventCodes:
        """The file's own event table, read against the installed module's events."""
        try:
            return EventCodes(self.module.spec.events, self.header.events)
        except GameFileError as exc:
            raise type(exc)(f"{self.path}: {exc.reason}", code=exc.code) from None

    def game(self, *, keep_records: bool = True) -> Game:
        """An empty game for this file's header, to fold or referee its records onto."""
        return Game(self.module, self.header, codes=self.codes(), keep_records=keep_records)

    @staticmethod
    def decoder(game: Game) -> BodyDecoder:
        return BodyDecoder(game.codes.decoders, LIMITS)


def read_raw(path) -> RawFile:
    """Open a file and read its header; the records stream from the open file."""
    path = Path(path)
    try:
        f = open(path, "rb")
    except IsADirectoryError:
        raise GameFileError(f"{path}: is a directory, not a game file", code="unreadable") from None
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such file", code="unreadable") from None
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read ({exc.strerror})", code="unreadable") from None
    try:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise GameFileError(
                f"{path}: file too large ({size} bytes; limit {MAX_FILE_BYTES})", code="too-large"
            )
        return _open_stream(f, size, str(path), f.read(1), f.close)
    except BaseException:
        f.close()
        raise


def parse_raw(data: bytes, name: str = "<bytes>") -> RawFile:
    """The same as ``read_raw`` for bytes in memory."""
    import io

    return _open_stream(io.BytesIO(data), len(data), name, data[:1], None)


def _open_stream(f, size: int, name: str, first: bytes, close) -> RawFile:
    if not first:
        raise TruncatedFile(f"{name}: empty file")
    # A boardstate file starts with a msgpack map (the header).
    if first[0] & 0xF0 != 0x80 and first[0] not in (0xDE, 0xDF):
        raise ForeignFile(f"{name}: not a boardstate file (no header map)")
    f.seek(0)
    unpacker = msgpack.Unpacker(
        f, raw=False, use_list=False, strict_map_key=True, read_size=1 << 16, **_STREAM_LIMITS
    )
    try:
        header_map = unpacker.unpack()
    except msgpack.OutOfData:
        raise TruncatedFile(f"{name}: truncated inside the header") from None
    except (ValueError, msgpack.UnpackException, msgpack.ExtraData) as exc:
        raise ForeignFile(f"{name}: not a boardstate file ({exc})") from None
    header, module = _parse_header(header_map, name)
    return RawFile(name, header, module, unpacker, size, close)


def _parse_header(m, name: str):
    if not isinstance(m, dict) or m.get("format") != FORMAT_NAME:
        raise ForeignFile(f"{name}: not a boardstate file")
    version = m.get("version")
    if not isinstance(version, int):
        raise CorruptFile(f"{name}: header has no format version")
    if version > FORMAT_VERSION:
        raise FutureVersion(
            f"{name}: written in file format v{version}; this boardstate reads "
            f"up to v{FORMAT_VERSION} (upgrade boardstate)"
        )
    try:
        module = get_module(m["module"])
        events = tuple((str(n), int(v)) for n, v in m["events"])
        base = m.get("base") or (-1, b"")
        header = Header(
            module=str(m["module"]),
            module_version=str(m["module_version"]),
            data_digest=str(m["data_digest"]),
            options=tuple((str(k), v) for k, v in m["options"]),
            players=tuple(str(p) for p in m["players"]),
            created=str(m["created"]),
            seed=m["seed"],
            seed_commitment=bytes(m["seed_commitment"]),
            events=events,
            kind=str(m["kind"]),
            viewer=m["viewer"],
            base_seq=int(base[0]),
            base_hash=bytes(base[1]),
            revision=m.get("revision", 1),
        )
    except BoardstateError as exc:
        raise GameFileError(f"{name}: {exc.reason}", code=exc.code) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise CorruptFile(f"{name}: corrupt header ({exc!r})") from None
    if header.kind not in ("game", "move"):
        raise CorruptFile(f"{name}: unknown file kind {header.kind!r}")
    viewer = header.viewer
    if viewer is not None and (
        type(viewer) is not int
        or not 0 <= viewer < len(header.players)
        or header.seed is not None
        or header.kind != "game"
    ):
        raise CorruptFile(f"{name}: bad viewer in the header")
    if (m.get("base") is None) != (header.kind == "game") or (
        header.kind == "move" and (type(base[0]) is not int or len(header.base_hash) != 32)
    ):
        raise CorruptFile(f"{name}: bad base in the header")
    if type(header.revision) is not int or ("revision" in m and header.revision == 1):
        raise CorruptFile(f"{name}: bad rules revision in the header")
    if set(m) - {"revision"} != _HEADER_KEYS:
        raise CorruptFile(f"{name}: unexpected header fields")
    if m.get("game") != header.game_id:
        raise CorruptFile(f"{name}: the header's game id does not match its content")
    if header.seed is not None:
        from ._header import seed_commitment

        if (
            not isinstance(header.seed, bytes)
            or seed_commitment(header.seed) != header.seed_commitment
        ):
            raise CorruptFile(f"{name}: the seed does not match its commitment")
    installed = module.spec
    from ._decider import Decider

    Decider(module).check_revision(header.revision, name, header.module_version)
    file_major = int(header.module_version.split(".")[0])
    if file_major > installed.major:
        raise FutureVersion(
            f"{name}: made with {header.module} {header.module_version}; installed "
            f"is {installed.version} (needs {header.module} >= {file_major}.0)"
        )
    return header, module


_HEADER_KEYS = {
    "format",
    "version",
    "kind",
    "game",
    "module",
    "module_version",
    "data_digest",
    "options",
    "players",
    "created",
    "seed",
    "seed_commitment",
    "events",
    "viewer",
    "base",
}


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


def load_game(path_or_raw) -> Game:
    """Read our own file back: chain checked, events folded, rules not re-run (fast)."""
    with no_cyclic_gc():
        return _load_game(path_or_raw)


def _load_game(path_or_raw) -> Game:
    raw = path_or_raw if isinstance(path_or_raw, RawFile) else read_raw(path_or_raw)
    if raw.header.kind != "game":
        raise GameFileError(
            f"{raw.path}: this is a move file; apply it to a game with "
            f"'boardstate apply GAME {raw.path}'",
            code="not-a-game",
        )
    game = raw.game()
    decoder = raw.decoder(game)
    for i, (body, hash_, openings) in enumerate(raw.iter_records()):
        try:
            game.load(decoder.fields(body, openings), body, hash_, decoder)
        except CorruptFile as exc:
            raise CorruptFile(f"{raw.path}: corrupt: {exc.reason}") from None
        except BoardstateError:
            raise
        except (ValueError, TypeError) as exc:  # msgpack's and the decoder's own complaints
            raise CorruptFile(f"{raw.path}: corrupt at record {i} ({exc})") from None
    return game
