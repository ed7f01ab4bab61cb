"""What a mail brings: every move in it read (``read_mailed``), and refereed onto a copy in the
order its records follow one another (``referee_mailed``).

One mail may hold several moves: two armored blocks pasted one after the other, a reply that
quotes the old block above (or below) the new one, a reveal and the next bid; and a player may
name several move files at once.  Each move is read on its own (a damaged one is reported, the
others are still read) and refereed with ``referee_moves``, the one referee of a move file:
one already in the game is skipped, and one refused leaves the copy as it was before it, so the
next is refereed on that copy exactly as if the move files had been applied one by one.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import attrs

from ._armor import armored_blocks, is_armored
from ._errors import BoardstateError, ForeignFile, MoveRefused
from ._fileformat import MAX_FILE_BYTES, RawFile, _armored_text, parse_raw, read_raw
from ._game import Game
from ._records import Row
from ._rederive import Referee
from ._referee import referee_moves

APPLIED, SKIPPED, REFUSED = "applied", "skipped", "refused"
_FIELD = rb"[!-9;-~]+:"  # a mail header's field name and its colon (RFC 5322; compiled when a
# text is read as a mail, by re: not by every apply)
_MIME = (b"mime-version:", b"content-type:")


@attrs.frozen
class Mailed:
    """One move of an input: its name (the file's, and the block's number when the input holds
    several) and the move file read, or why it cannot be."""

    name: str
    raw: RawFile | None = None
    error: BoardstateError | None = None


@attrs.frozen
class MoveOutcome:
    """What became of one move: ``status`` is ``APPLIED`` (``records``: those appended or put
    in order, ``partly``: those checked only in part), ``SKIPPED`` (already in the game:
    ``error`` says so) or ``REFUSED`` (``error`` says why); ``span``: the first and last record
    it holds, when it could be read that far."""

    mailed: Mailed
    status: str
    error: BoardstateError | None = None
    records: tuple = ()
    partly: tuple[int, ...] = ()
    span: tuple[int, int] | None = None


@attrs.frozen
class Delivery:
    """The copy after every move was refereed (another object than the one handed in when a
    refused move had to be taken back), and what became of each move, in the order given."""

    game: Game
    outcomes: tuple[MoveOutcome, ...]

    @property
    def applied(self) -> list[MoveOutcome]:
        return [o for o in self.outcomes if o.status == APPLIED]

    @property
    def refused(self) -> list[MoveOutcome]:
        return [o for o in self.outcomes if o.status == REFUSED]


# ---------------------------------------------------------------------------------- reading
def read_mailed(path) -> list[Mailed]:
    """Every move of one input (``-``: standard input): a binary move file, or a text (a mail
    body, a saved mail) with one armored block or more, quoted or not; a saved MIME mail is
    decoded first (its text parts and its attachments).  Never raises for what the input holds:
    an input or a block that cannot be read is a ``Mailed`` with its ``error``."""
    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        if name == "<stdin>":
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            if not data or data[0] & 0xF0 == 0x80 or data[0] in (0xDE, 0xDF):
                return [Mailed(name, parse_raw(data, name))]
        else:
            data = _armored_text(path, every=True)
            if data is None:  # (binary: read as a stream; or why the path cannot be read)
                return [Mailed(name, read_raw(path))]
        parts = _mail_parts(data)
        moves = _moves(parts or [data])
        if not moves:
            if parts is None:  # (a text with no move: refused as every reader refuses it)
                return [Mailed(name, parse_raw(data, name))]
            raise ForeignFile(
                f"{name}: no move in this mail (neither an attached move file nor the "
                f"armored text of one)"
            )
    except BoardstateError as exc:
        return [Mailed(name, error=exc)]
    out = []
    for i, move in enumerate(moves, 1):
        label = name if len(moves) == 1 else f"{name}, block {i} of {len(moves)}"
        try:
            out.append(Mailed(label, parse_raw(move, label)))
        except BoardstateError as exc:
            out.append(Mailed(label, error=exc))
    return out


def _moves(parts: list[bytes]) -> list[bytes]:
    """The moves of a text or of a saved mail's parts, in the order found: each armored block,
    and each attached move file."""
    moves = []
    for part in parts:
        if part[:1] and (part[0] & 0xF0 == 0x80 or part[0] in (0xDE, 0xDF)):
            moves.append(part)  # (an attached move file)
        elif is_armored(part):
            moves += [block.encode() for block in armored_blocks(part.decode("utf-8", "replace"))]
    return moves


def _mail_parts(data: bytes) -> list[bytes] | None:
    """A saved MIME mail's leaves, decoded (the text ones to UTF-8; HTML left out: it repeats
    the plain text); None when ``data`` is no MIME mail (its text is read as it is)."""
    head = re.split(rb"\r?\n\r?\n", data[: 1 << 16], maxsplit=1)[0].splitlines()
    if head and head[0].startswith(b"From "):
        head = head[1:]  # (an mbox's separator line)
    if (
        not head
        or not re.match(_FIELD, head[0])
        or not all(re.match(_FIELD, line) or line[:1] in (b" ", b"\t") for line in head)
        or not any(line.lower().startswith(_MIME) for line in head)
    ):
        return None
    import email  # (here: only a mail needs its parser, and it is a tenth of a command's start)
    import email.policy

    parts = []
    try:
        for part in email.message_from_bytes(data, policy=email.policy.default).walk():
            if part.is_multipart() or part.get_content_type() == "text/html":
                continue
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                continue
            if part.get_content_maintype() == "text":
                try:
                    payload = payload.decode(part.get_content_charset() or "utf-8", "replace")
                except LookupError:  # (a charset Python does not know: ASCII stays readable)
                    payload = payload.decode("utf-8", "replace")
                payload = payload.replace("\r\n", "\n").encode()
            parts.append(payload)
    except MemoryError:
        raise
    except Exception:  # (a mail the parser cannot follow: its text is read as it is)
        return None
    return parts


# ---------------------------------------------------------------------------------- refereeing
def referee_mailed(
    game: Game, mailed: list[Mailed], *, prepare: Callable[[Game], None] | None = None
) -> Delivery:
    """Referee every readable move onto ``game``, ordered by the record each follows (stable:
    a bottom-posted reply or move files named out of order still apply), each as
    ``referee_moves`` does.  A move already in the game is skipped; a refused one is taken back
    (the copy read again from what it was before that move, ``prepare`` called on it, as the
    caller prepared ``game``) and the others are still refereed, each on a copy that holds only
    what was accepted; a move refused for a gap is tried again once another was applied."""
    done: dict[int, tuple] = {i: (REFUSED, m.error) for i, m in enumerate(mailed) if m.raw is None}
    pending = sorted(
        (i for i, m in enumerate(mailed) if m.raw is not None),
        key=lambda i: mailed[i].raw.header.base_seq,
    )
    saved = None  # (the copy before the move being refereed: its header and records)
    while pending:
        waiting, progress = [], False
        for i in pending:
            if saved is None:
                saved = (game.header, game.records.copy())
            head = _head(game)
            try:
                records, partly = referee_moves(game, mailed[i].raw)
            except BoardstateError as exc:
                if not isinstance(exc, MoveRefused) or _head(game) != head:
                    game = _as_before(game, *saved)
                    if prepare is not None:
                        prepare(game)
                done[i] = (SKIPPED if exc.code == "stale" else REFUSED, exc)
                if exc.code == "gap":
                    waiting.append(i)
                continue
            done[i] = (APPLIED, None, tuple(records), tuple(partly))
            saved, progress = None, True
        pending = waiting if progress else []
    outcomes = (MoveOutcome(m, *done[i], span=_span(m.raw)) for i, m in enumerate(mailed))
    return Delivery(game, tuple(outcomes))


def _head(game: Game) -> tuple:
    """How many records, and the last one's hash: equal, the same records (the hash chain),
    without reading a long log's first records back from its file (``_filelog``)."""
    records = game.records
    return len(records), records[-1].hash if records else None


def _as_before(game: Game, header, records: list) -> Game:
    """The copy as it was before a refused move, made again in memory from its records (they
    were checked when they came in: their signatures are not checked again, ``Game.truncate``
    does the same)."""
    fresh = Game(game.module, header, codes=game.codes)
    Referee(fresh, signed=False).run(Row.of(record) for record in records)
    return fresh


def _span(raw: RawFile | None) -> tuple[int, int] | None:
    """The first and last record a move file holds (None: its records cannot be read)."""
    if raw is None:
        return None
    try:
        count = len(raw.records)
    except (BoardstateError, RuntimeError):
        return None
    base = raw.header.base_seq
    return base + 1, base + count


__all__ = [
    "APPLIED",
    "REFUSED",
    "SKIPPED",
    "Delivery",
    "Mailed",
    "MoveOutcome",
    "read_mailed",
    "referee_mailed",
]
