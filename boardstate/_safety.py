"""Never destroy a game: where an output may go, and one writer at a time on a game file.

- ``check_output``: an output never replaces a file the same command reads, and never replaces
  an existing game or view file unless the user says ``--force``; a symlink is written through
  (its target is replaced, the link stays); anything but a regular file is refused.
- ``locked``: the whole read-modify-write of a game file holds the OS's advisory lock
  (``fcntl.flock``), so two commands on one file cannot lose an update: the second waits, then
  refuses with a clear message if the first does not finish.
- ``open_regular``, ``read_regular``: a file a command is given (a game, a key, a data file, a
  manifest) is read only if it is a regular file, judged on its descriptor before a byte is
  read.
"""

from __future__ import annotations

import fcntl
import os
import stat
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ._errors import GameFileError

if TYPE_CHECKING:
    from pathlib import Path

LOCK_WAIT_SECONDS = 30.0


def write_target(path) -> str:
    """The file a write to ``path`` replaces: a symlink's target (so the link stays a link).
    A string: a file written needs no ``pathlib`` (3 ms, issue 29); never the folder an empty
    name would be (``named``)."""
    return os.path.realpath(named(path))


def named(path) -> str:
    """``path`` as a name (``os.fspath``); an empty one (an unset shell variable) names no file:
    pathlib's ``.`` would read or write the folder (``GameFileError``, code ``no-name``)."""
    name = os.fspath(path)
    if not name:
        raise GameFileError("'': an empty name names no file", code="no-name")
    return name


# Opened at once: a named pipe is not waited on (for a writer, for ever) but judged on its
# descriptor; nor is the descriptor left to a program the command starts.
OPEN_AT_ONCE = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


class NotRegular(Exception):
    """The file ``open_regular`` was given is no regular file: ``folder`` or not, ``kind`` says
    which in words."""

    def __init__(self, folder: bool) -> None:
        self.folder = folder
        self.kind = "a directory" if folder else "not a regular file"
        super().__init__(self.kind)


def open_regular(path) -> tuple[int, os.stat_result]:
    """A descriptor of the file at ``path`` and its status, judged on the descriptor before a
    byte is read: a folder, a named pipe, a device (all of ``/dev/zero``) raise ``NotRegular``
    (the descriptor closed); the open's ``OSError`` is its caller's to word."""
    fd = os.open(named(path), OPEN_AT_ONCE)
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode):
            raise NotRegular(folder=stat.S_ISDIR(found.st_mode))
    except BaseException:
        os.close(fd)
        raise
    return fd, found


def read_regular(path, limit: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file at ``path`` (``open_regular``; at most ``limit`` + 1: its
    caller tells a larger file) and its status; a read's ``OSError`` is its caller's too."""
    fd, found = open_regular(path)
    with os.fdopen(fd, "rb") as f:
        return (f.read() if limit is None else f.read(limit + 1)), found


def _same_file(a, b) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _is_game_file(path: str) -> bool:
    """Does ``path`` hold a boardstate game or view file?  Judged from its header map alone (any
    module, any version, damaged records or not): a file that says it is a boardstate file and
    not a move file is treated as a game."""
    import msgpack

    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
        unpacker = msgpack.Unpacker(raw=False, max_buffer_size=1 << 16, strict_map_key=False)
        unpacker.feed(head)
        header = unpacker.unpack()
    except MemoryError:
        raise
    except Exception:  # not msgpack, or not even readable: not a game file
        return False
    return (
        isinstance(header, dict)
        and header.get("format") == "boardstate"
        and (header.get("kind") != "move")
    )


def check_output(path, *, force: bool = False, reading=(), as_path: bool = True) -> Path | str:
    """Where ``path`` may be written by a command that reads ``reading``; the target path (a
    ``Path``; ``as_path=False``: the string, with no ``pathlib``, 3 ms of a command, issue 29).

    Refused (``GameFileError``, code ``"would-overwrite"``) when it is one of the files read
    (even with ``--force``: the command would destroy its own input), or an existing game or
    view file without ``force``; refused (``"not-a-file"``) when it exists and is not a
    regular file (a device, a directory).
    """
    target = write_target(path)
    for source in reading:
        if source is not None and _same_file(target, source):
            raise GameFileError(
                f"{path}: this is the file the command reads; write the output to another name",
                code="would-overwrite",
            )
    if regular_or_nothing(target, path) and not force and _is_game_file(target):
        raise GameFileError(
            f"{path} is a game file; not replacing it (choose another name, or add --force)",
            code="would-overwrite",
        )
    if not as_path:
        return target
    from pathlib import Path  # (what it returns)

    return Path(target)


def regular_or_nothing(target: str, shown) -> bool:
    """Is a regular file at ``target`` (False: nothing is)?  Never write over (or through)
    anything else: a device, a directory, a pipe (``GameFileError``, code ``"not-a-file"``), nor
    where what is there cannot be told (no permission, a loop of links: ``"unwritable"``),
    naming ``shown``.  Both ``check_output`` and every atomic write ask it."""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise GameFileError(f"{shown}: cannot write ({exc.strerror})", code="unwritable") from None
    if not stat.S_ISREG(mode):
        raise GameFileError(f"{shown}: not a regular file; not writing there", code="not-a-file")
    return True


@contextmanager
def locked(path, *, wait: float | None = None, say=None, as_path: bool = True):
    """Hold the advisory lock of the game file at ``path`` for a read-modify-write.

    A writer replaces the file (a new inode) while it holds the lock, so after taking the lock
    on the file we opened we check that the path still names it, and start again if not.
    ``say`` (default: stderr) hears one line if we have to wait.  It gives the file locked, a
    ``Path``; ``as_path=False``: the string (no ``pathlib``, 3 ms of a command, issue 29).
    """
    target = write_target(path)
    if wait is None:
        wait = _lock_wait()
    deadline = time.monotonic() + wait
    told = False
    while True:
        try:
            fd = os.open(target, OPEN_AT_ONCE)  # (a named pipe: refused by the reader)
        except FileNotFoundError:
            raise GameFileError(f"{path}: no such file", code="unreadable") from None
        except OSError as exc:
            raise GameFileError(
                f"{path}: cannot read ({exc.strerror})", code="unreadable"
            ) from None
        try:
            if _take(fd, deadline, path, told, say):
                told = True
            if os.fstat(fd).st_ino == os.stat(target).st_ino:
                break  # the lock is on the file the path names
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)  # replaced while we waited: lock the new file
    try:
        if not as_path:
            yield target
        else:
            from pathlib import Path  # (what it gives)

            yield Path(target)
    finally:
        os.close(fd)  # (closing releases the lock)


def _lock_wait() -> float:
    """Seconds to wait for another writer: ``BOARDSTATE_LOCK_WAIT`` (0 or more; ``inf``: as long
    as it takes), else the default, which suits a person at a prompt.  Anything else is one
    line (it was ``float()``'s ValueError, an internal error; NaN waited forever)."""
    given = os.environ.get("BOARDSTATE_LOCK_WAIT")
    if given is None:
        return LOCK_WAIT_SECONDS
    try:
        wait = float(given)
    except ValueError:
        wait = float("nan")
    if not wait >= 0:  # (NaN too)
        raise GameFileError(
            f"BOARDSTATE_LOCK_WAIT={given!r} is not a number of seconds (0 or more)",
            code="bad-environment",
        )
    return wait


def _take(fd: int, deadline: float, path, told: bool, say) -> bool:
    """Take the lock on ``fd``, waiting until ``deadline``; True if we had to wait."""
    waited = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return waited
        except BlockingIOError:
            pass
        if time.monotonic() >= deadline:
            raise GameFileError(
                f"{path}: another boardstate command is still writing this game; try again "
                f"when it has finished",
                code="locked",
            )
        if not (told or waited):
            (say or _stderr)(f"waiting for another boardstate command on {path} ...")
        waited = True
        time.sleep(0.05)


def _stderr(line: str) -> None:
    print(f"boardstate: {line}", file=sys.stderr)
