"""The referee: ``verify`` a whole file, ``apply`` a move file onto a game."""
from __future__ import annotations

import attrs

from ._errors import GameFileError, MoveRefused, VerificationFailed
from ._fileformat import RawFile, read_raw, referee
from ._game import Game
from ._records import Kind


@attrs.frozen
class Verdict:
    """What ``verify`` found: either every record re-derived, or the first failure."""

    path: str
    records: int
    rederived: int
    outcome: object
    failure: VerificationFailed | None
    game: Game = attrs.field(eq=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.failure is None


def verify(path_or_raw, *, keep_records: bool = True) -> Verdict:
    """Re-derive every record of a game file under the installed rules.

    With ``keep_records=False`` the records stream through and memory stays flat in the length
    of the log (``Verdict.game`` then holds the final state but no records).
    """
    raw = path_or_raw if isinstance(path_or_raw, RawFile) else read_raw(path_or_raw)
    if raw.header.kind != "game":
        raise GameFileError(f"{raw.path}: a move file cannot be verified alone; apply it to its "
                            f"game with 'boardstate apply GAME {raw.path}'", code="not-a-game")
    game = Game(raw.module, raw.header, keep_records=keep_records)
    failure = None
    try:
        referee(game, raw)
    except VerificationFailed as exc:
        failure = exc
    if failure is None and game.seq == 0:
        failure = VerificationFailed("the file holds no records (not even the setup)",
                                     code="empty-log", seq=0)
    return Verdict(raw.path, game.seq + (failure is not None), game.rederived,
                   game.outcome() if failure is None else None, failure, game)


def apply_moves(game: Game, move: RawFile) -> list:
    """Referee a move file's records onto ``game``; the records appended.

    Refused (``MoveRefused``) when the file is not a move file, is from another game, is stale
    (already applied), forks (another move was made on the same base) or leaves a gap.
    """
    header = move.header
    if header.kind != "move":
        raise MoveRefused(f"{move.path} is a game file, not a move file", code="not-a-move-file")
    if header.game_id != game.header.game_id:
        raise MoveRefused(f"{move.path} is from another game (game {header.game_id.hex()[:12]}, "
                          f"this game {game.header.game_id.hex()[:12]})", code="foreign-game")
    head = game.seq - 1
    base = header.base_seq
    if base > head:
        raise MoveRefused(f"{move.path} follows record {base} but this game ends at record {head}: "
                          f"apply the move files in between first", code="gap")
    local_base_hash = game.header.game_id if base < 0 else game.records[base].hash
    if header.base_hash != local_base_hash:
        raise MoveRefused(f"{move.path} was made on a different record {base} than this game's: "
                          f"the two copies have forked", code="fork")
    incoming = move.records
    overlap = game.records[base + 1:]
    for mine, theirs in zip(overlap, incoming):
        if mine.hash != theirs[1]:
            raise MoveRefused(
                f"fork: record {mine.seq} here is {describe(game, mine)}, but {move.path} holds "
                f"another record {mine.seq} on the same base", code="fork")
    fresh = incoming[len(overlap):]
    if not fresh:
        raise MoveRefused(f"stale: {move.path} holds records {base + 1}-{base + len(incoming)}, "
                          f"already in this game", code="stale")
    start = game.seq
    referee(game, move, fresh)
    return game.records[start:]


def describe(game: Game, record, viewer: int | None = None) -> str:
    """A record in words, e.g. ``alice: play luke 5`` or ``bob commits a sealed choice``."""
    if record.kind == Kind.SETUP:
        return "setup"
    who = game.players[record.actor]
    if record.kind == Kind.COMMIT:
        mine = viewer is None or viewer == record.actor
        held = record.sealed.known and mine
        return f"{who} commits a sealed choice" + (f" ({record.sealed.value})" if held else "")
    if record.kind == Kind.REVEAL:
        return f"{who} reveals: {record.sealed.value}"
    return f"{who}: {record.command}"
