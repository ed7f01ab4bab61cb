"""The files a run covers, and its manifest: one JSON line per file (or game), written as the
work is done so that an interrupted run keeps it, and sorted when the run completes — so the
manifest of a run is the same bytes however its work was shared out."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .._errors import BoardstateError, GameFileError
from .._fileformat import atomic_write
from .._safety import NotRegular, read_regular

GAME_FILES = ".msgpack"  # what a folder named to verify contributes (at any depth)


def game_paths(paths) -> list[str]:
    """The files named, and in each folder named the game files under it (``*.msgpack``, at
    any depth, in sorted order); each path once.  A path that does not exist is kept: its
    verdict says so; so is a folder that cannot be listed (no permission), whose games would
    otherwise go unchecked without a word."""
    out: dict[str, None] = {}
    for path in map(str, paths):
        if not os.path.isdir(path):
            out.setdefault(path)
            continue
        for folder, dirs, names in os.walk(path, onerror=lambda exc: out.setdefault(exc.filename)):
            dirs.sort()
            for name in sorted(names):
                if name.endswith(GAME_FILES) and not name.startswith("."):
                    out.setdefault(os.path.join(folder, name))
    return list(out)


class BadManifest(BoardstateError):
    code = "bad-manifest"


def read_manifest(path, entry_class) -> list:
    """The entries of a manifest (``entry_class.from_line``); a last line cut short (a run
    killed while writing it) is left out, any other line that does not parse is refused."""
    try:  # (a pipe was waited on for ever, /dev/zero read for ever)
        text = read_regular(path)[0].decode("utf-8")
    except NotRegular:
        raise BadManifest(f"{path}: not a regular file, so not a manifest") from None
    except OSError as exc:
        raise BadManifest(f"{path}: cannot read ({exc.strerror})", code="unreadable") from None
    except UnicodeDecodeError:
        raise BadManifest(f"{path}: not a manifest (not text)") from None
    lines = text.split("\n")
    entries = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entries.append(entry_class.from_line(line))
        except (ValueError, TypeError):
            if number == len(lines):  # (no newline after it: torn by an interruption)
                break
            raise BadManifest(f"{path}:{number}: not a manifest line") from None
    return entries


def _cut_torn_line(f) -> None:
    """A line that an interruption cut short (no newline after it) goes: the lines added next
    start on a line of their own."""
    f.seek(0, os.SEEK_END)
    size = f.tell()
    if size == 0:
        return
    f.buffer.seek(max(0, size - (1 << 16)))
    tail = f.buffer.read()
    if tail.endswith(b"\n"):
        return
    cut = tail.rfind(b"\n")
    f.truncate(size - len(tail) + cut + 1 if cut >= 0 else max(0, size - len(tail)))
    f.seek(0, os.SEEK_END)


class Manifest:
    """A manifest being written.  Each line is appended and flushed as it comes (an interrupted
    run keeps every line written); ``finish`` rewrites the whole file sorted by the entries'
    ``key`` (a line per key, the last written winning), atomically.

    ``path=None``: a scratch file, kept only if the run stops early (``keep_as``)."""

    def __init__(self, path=None) -> None:
        if path is None:
            fd, name = tempfile.mkstemp(prefix="boardstate-", suffix=".jsonl")
            self.path, self.scratch = Path(name), True
            self._file = os.fdopen(fd, "a", encoding="utf-8")
        else:
            self.path, self.scratch = Path(path), False
            try:
                self._file = open(self.path, "a+", encoding="utf-8")
            except OSError as exc:  # (a read-only folder: one line, not an internal error)
                raise GameFileError(
                    f"{path}: cannot write ({exc.strerror}); nothing was changed",
                    code="unwritable",
                ) from None
            _cut_torn_line(self._file)

    def add(self, entry) -> None:
        self._file.write(entry.line() + "\n")
        self._file.flush()

    def close(self) -> None:
        if not self._file.closed:
            os.fsync(self._file.fileno())
            self._file.close()

    def finish(self, entry_class) -> None:
        """Sorted and rewritten (the run is complete); a scratch manifest is removed."""
        self.close()
        if self.scratch:
            self.path.unlink(missing_ok=True)
            return
        entries = {e.key: e for e in read_manifest(self.path, entry_class)}
        lines = [entries[k].line() + "\n" for k in sorted(entries)]
        atomic_write(self.path, "".join(lines).encode("utf-8"))

    def keep_as(self, folder=".", stem: str = "manifest") -> Path:
        """An interrupted run's scratch manifest moved to ``folder`` under a new name (never
        over a file); a named manifest stays where it is."""
        self.close()
        if not self.scratch:
            return self.path
        for n in range(1, 10_000):
            target = Path(folder) / (f"{stem}.jsonl" if n == 1 else f"{stem}-{n}.jsonl")
            try:
                fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as out:
                out.write(self.path.read_bytes())
            self.path.unlink(missing_ok=True)
            self.path, self.scratch = target, False
            return target
        raise BadManifest(f"no free name for {stem}.jsonl in {folder}", code="unwritable")
