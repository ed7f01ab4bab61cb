"""One-line errors and the exit codes: 0 done, 1 rejected by the rules / verification failed,
2 bad usage or unreadable input, 3 an internal error (a bug: please report it)."""

from __future__ import annotations

import errno
import functools
import io
import os
import sys

import click

from boardstate import BoardstateError, IllegalCommand, MoveRefused, VerificationFailed

RULES_REJECTED = 1
BAD_INPUT = 2
INTERNAL = 3


def exit_code(exc: BoardstateError) -> int:
    if isinstance(exc, (IllegalCommand, VerificationFailed, MoveRefused)):
        return RULES_REJECTED
    return BAD_INPUT


def fail(message: str, code: int) -> None:
    click.echo(f"boardstate: {one_line(message)}", err=True)
    sys.exit(code)


def one_line(message: str) -> str:
    """``message`` as one line that shows what it names: a control or invisible character (a
    newline in a file name, a terminal escape, a right-to-left mark in a command) is written as
    its escape, never sent to the terminal."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def output_failed(exc: OSError) -> None:
    """Standard output cannot be written (a full disk, say): one line and exit 2, as any failed
    write (docs/reliability.md).  A closed pipe is not this: its reader has had all it wanted."""
    fail(f"error: standard output: cannot write ({exc.strerror or exc})", BAD_INPUT)


class StandardOutputFailed(Exception):
    """A write to standard output failed (``GuardedOutput``): told apart from a failure of any
    other file a command writes, which is that file's one line."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause


class GuardedOutput:
    """Standard output while a command runs (``cli.app``): a write or flush that fails raises
    ``StandardOutputFailed``, but a closed pipe, which stays a ``BrokenPipeError`` (its reader
    has had all it wanted); the rest is the stream's own.  Its ``buffer`` is guarded too (move
    files and requests are written there as bytes)."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, data):
        return self._guarded(self._stream.write, data)

    def writelines(self, lines) -> None:
        self._guarded(self._stream.writelines, lines)

    def flush(self) -> None:
        self._guarded(self._stream.flush)

    @property
    def buffer(self):
        return GuardedOutput(self._stream.buffer)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)

    @staticmethod
    def _guarded(call, *args):
        try:
            return call(*args)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StandardOutputFailed(exc) from exc


class ClosedOutput:
    """Standard output of a process started without one (``>&-``: ``sys.stdout`` is None):
    every write fails as a closed descriptor's does, so the command ends with one line (through
    ``GuardedOutput``), never an AttributeError, and writes no game after a move file that
    went nowhere."""

    encoding = "utf-8"

    def write(self, data):
        raise OSError(errno.EBADF, "standard output is closed")

    writelines = write

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    @property
    def buffer(self):
        return self


def open_streams() -> None:
    """Stand-ins for standard streams the process was started without (``<&-``, ``>&-``):
    no input at all (a file of ``-`` is empty, a prompt ends as at end of file), an output
    that cannot be written (``ClosedOutput``), and an error stream that says nothing (``2>&-``:
    ``print(file=None)`` writes to standard output, into a move file of ``-o -``; a progress
    bar asked None ``isatty()``)."""
    if sys.stdin is None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # (for the life of the process)


def one_line_errors(func):
    """Turn every error into one line on stderr and the documented exit status."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except BoardstateError as exc:
            label = {
                IllegalCommand: "illegal",
                VerificationFailed: "verification failed",
                MoveRefused: "refused",
            }.get(type(exc), "error")
            fail(f"{label}: {exc}", exit_code(exc))
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            fail("interrupted", 130)
        except BrokenPipeError:
            sys.exit(0)
        except StandardOutputFailed as exc:
            output_failed(exc.cause)
        except MemoryError:  # the input needs more memory than the process may take: no bug,
            # and no damaged file (every reader lets MemoryError through, docs/reliability.md)
            fail(
                "error: out of memory: this needs more memory than the process may use "
                "(docs/reliability.md, 'Bounded memory') [out-of-memory]",
                BAD_INPUT,
            )
        except Exception as exc:  # a bug: still one line, never a traceback
            fail(f"internal error: {type(exc).__name__}: {exc} (please report this)", INTERNAL)

    return wrapper
