"""Typed errors.  Every error a user can cause is a ``ValueError`` with a stable code.

Three kinds mirror what can be wrong with a command (as in python-chess): it does not parse
(``InvalidCommand``), it parses but the rules forbid it (``IllegalCommand``), or it could mean
more than one thing (``AmbiguousCommand``).  Files and verification have their own branch.
"""

from __future__ import annotations


class BoardstateError(ValueError):
    """Base of every error boardstate raises on bad input.

    ``code`` is stable (scripts may match on it), ``reason`` is one line for a person, ``rule``
    points into the rulebook (or the engine's own rules) when there is one.
    """

    code = "error"

    def __init__(self, reason: str, *, code: str | None = None, rule: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        if code is not None:
            self.code = code
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.reason} [{self.code}]" + (f" (rule: {self.rule})" if self.rule else "")


class InvalidCommand(BoardstateError):
    """The command text does not parse."""

    code = "invalid"


class IllegalCommand(BoardstateError):
    """The command parses but the rules forbid it now."""

    code = "illegal"


class AmbiguousCommand(BoardstateError):
    """The command could mean more than one legal move."""

    code = "ambiguous"


class OptionError(BoardstateError):
    """A module option is unknown or has a bad value (bad usage, like InvalidCommand)."""

    code = "bad-option"


class GameFileError(BoardstateError):
    """A file cannot be read as a boardstate game, view or move file."""

    code = "bad-file"


class TruncatedFile(GameFileError):
    code = "truncated"


class CorruptFile(GameFileError):
    code = "corrupt"


class ViewerMismatch(CorruptFile):
    """A file holds the opening of a value its header says it may not: a view one that is not
    its viewer's, a file without viewer or seed any (``_records.may_open``)."""

    code = "not-for-viewer"


class ForeignFile(GameFileError):
    """Not a boardstate file at all, or a file of another game."""

    code = "foreign"


class FutureVersion(GameFileError):
    """Written by a newer format or module version than this installation reads."""

    code = "future-version"


class BoardError(BoardstateError):
    """A mistake in a board data file.  ``str()`` is one line that points at it:
    ``path:line:column: reason`` (scripts match on ``code``, people read the place)."""

    code = "bad-board"

    def __init__(
        self,
        reason: str,
        *,
        path: str = "<board>",
        line: int = 1,
        column: int = 1,
        code: str | None = None,
        rule: str = "",
    ) -> None:
        super().__init__(" ".join(reason.split()), code=code, rule=rule)  # one line, always
        self.path, self.line, self.column = path, line, column

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.reason}"


class OffBoard(BoardstateError):
    """A cell off the board, or a square name the board does not have."""

    code = "off-board"


class MoveRefused(BoardstateError):
    """A move file does not fit this game's log (stale, foreign, fork, gap)."""

    code = "move-refused"


class VerificationFailed(BoardstateError):
    """A record fails the referee's re-derivation.  Carries where and why."""

    code = "verify-failed"

    def __init__(
        self,
        reason: str,
        *,
        code: str | None = None,
        rule: str = "",
        seq: int = -1,
        actor: str = "",
        command: str = "",
    ) -> None:
        super().__init__(reason, code=code, rule=rule)
        self.seq = seq
        self.actor = actor
        self.command = command

    def __str__(self) -> str:
        parts = [f"record {self.seq}"] if self.seq >= 0 else []  # (-1: no one record)
        parts += [f"by {self.actor}"] if self.actor else []
        parts += [repr(self.command)] if self.command else []
        rule = f" (rule: {self.rule})" if self.rule else ""
        where = " ".join(parts)
        return f"{where + ': ' if where else ''}{self.reason} [{self.code}]{rule}"


class SecretUnavailable(BoardstateError):
    """The rules needed a secret (an opening or the seed) this copy of the game does not hold.

    ``partial``: the events the rules gave before they needed it (or, for a command whose
    legality this copy cannot judge, every event: the referee still compares them)."""

    code = "secret-unavailable"

    def __init__(self, reason: str, *, code: str | None = None, rule: str = "", partial=()) -> None:
        super().__init__(reason, code=code, rule=rule)
        self.partial = tuple(partial)

    def given(self, partial) -> SecretUnavailable:
        """The same refusal, with the events the rules gave before it."""
        return type(self)(self.reason, code=self.code, rule=self.rule, partial=partial)


def short(value) -> str:
    """``repr`` cut to a length fit for a one-line message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
