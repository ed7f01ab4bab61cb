"""The referee: a game file or a move file re-derived under the rules (``verify``,
``referee_moves``), a copy read back to be added to (``load_checked``, ``load_peer``), and
crossing mail merged (``merge_sealed``).  The re-deriving itself, record by record, is
``_rederive.Referee``; the canonical order of a merge is ``_canonical``'s.
"""

from __future__ import annotations

import attrs

from ._canonical import canonical_region, conflict_at, content_key, rebuild
from ._checked import (
    Saved,
    check_and_remember,
    is_by_identity,
    keep_state,
    resume,
    resume_streamed,
    saved_state,
)
from ._errors import (
    GameFileError,
    MoveRefused,
    VerificationFailed,
)
from ._fileformat import LIMITS, RawFile, read_raw
from ._game import Game
from ._records import BodyDecoder, chain
from ._rederive import Referee


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


def verify(path_or_raw, *, keep_records: bool = True, fast: bool = True) -> Verdict:
    """Re-derive every record of a game file under the installed rules.

    With ``keep_records=False`` the records stream through and memory stays flat in the length
    of the log (``Verdict.game`` then holds the final state but no records).  ``fast=False``
    turns the referee's fast paths off (the same verdict, more work).
    """
    raw = path_or_raw if isinstance(path_or_raw, RawFile) else read_raw(path_or_raw)
    if raw.header.kind != "game":
        raise GameFileError(
            f"{raw.path}: a move file cannot be verified alone; apply it to its "
            f"game with 'boardstate apply GAME {raw.path}'",
            code="not-a-game",
        )
    game = Game.of_file(raw, keep_records=keep_records)
    referee = Referee(game, fast=fast)
    failure = None
    try:
        referee.run(raw.iter_records())
    except VerificationFailed as exc:
        failure = exc
    except GameFileError as exc:  # (the file is refused, as a whole: it names itself)
        raise type(exc)(f"{raw.path}: corrupt: {exc.reason}", code=exc.code) from None
    if failure is None and game.seq == 0:
        failure = VerificationFailed(
            "the file holds no records (not even the setup)", code="empty-log", seq=0
        )
    return Verdict(
        raw.path,
        game.seq + (failure is not None),
        referee.rederived,
        game.outcome() if failure is None else None,
        failure,
        game,
    )


def load_peer(raw: RawFile, *, signed: bool = True) -> Game:
    """A peer game's copy read back: re-derived (what waits for whom is known only by
    re-running the rules), a failure one line.  ``signed=False``: records this copy has
    checked already (their signatures are not checked again)."""
    if signed:
        verdict = verify(raw)
        if not verdict.ok:
            raise GameFileError(f"{raw.path}: corrupt: {verdict.failure}", code="corrupt")
        return verdict.game
    return Game.rederived(raw)


def load_checked(path_or_raw) -> Game:
    """Read a game file to add to it: every record re-derived, as ``verify`` does (a game file
    received by mail with a forged deal is refused before anything is added to it).  A copy
    read from its path does not have the records this user's boardstate checked before
    checked again (``_checked``: the same bytes; an open game's too, which has no signatures:
    the rules run from the game saved after them); a failure is the full check's."""
    if isinstance(path_or_raw, RawFile):  # (a file received, not a copy kept: checked in full)
        return _checked_in_full(path_or_raw)
    raw = read_raw(path_or_raw, keep=True)
    header = raw.header
    if header.kind != "game":
        return _checked_in_full(raw)
    if raw.stored is not None:  # (a binary file: from the saved game, the file read once)
        game = _checked_from_saved(raw)
        if game is not None:
            return game
        raw.close()  # (the first reading's file, not left to the cyclic collector)
        raw = read_raw(path_or_raw)
    try:
        rows = raw.records
    except GameFileError:  # (a damaged file: the full check says where, as ever)
        return _checked_in_full(read_raw(path_or_raw))
    through, remember = check_and_remember(header.game_id, rows) if header.signed else (-1, None)
    game, saved = _checked_beyond_memory(raw, rows, through)
    if game is None:
        game, saved = _checked_in_full(raw), Saved(by_identity=saved.by_identity)
    if remember is not None:  # (the signatures checked: none in an open game)
        remember()
    keep_state(game, rows[saved.count :], saved)
    return game


def _checked_from_saved(raw: RawFile) -> Game | None:
    """The copy started from the game the last command saved (``_checked.resume_streamed``:
    the file read once, the records before those the game needs left in it), the records
    after it re-derived, their signatures checked; None when nothing saved matches or
    anything fails (the caller reads the file again and checks it as ever)."""
    game = Game.of_file(raw)
    found = saved_state(game)
    if found is None or is_by_identity(game, found):
        return None
    try:
        streamed = resume_streamed(game, raw, found)
        if streamed is None:
            return None
        saved = streamed.saved
        Referee(game, checked_through=max(streamed.through, saved.count - 1)).run(streamed.rows)
    except (VerificationFailed, GameFileError):
        return None
    if raw.header.signed:  # (the signatures checked: none in an open game)
        streamed.remember()
    keep_state(game, streamed.rows, saved)
    return game


def _checked_beyond_memory(raw: RawFile, rows: list, through: int) -> tuple[Game | None, Saved]:
    """``(the copy, the saved state it started from)``: the records after the saved state's
    (``resume``) re-derived, the signatures of records after ``through`` checked; no game
    when nothing is remembered or anything fails (the full check then says what, as ever)."""
    game = Game.of_file(raw)
    saved = resume(game, rows)
    if through < 0 and not saved.count:
        return None, saved
    try:
        Referee(game, checked_through=max(through, saved.count - 1)).run(rows[saved.count :])
    except (VerificationFailed, GameFileError):
        return None, saved
    return (game if game.seq else None), saved


def _checked_in_full(raw: RawFile) -> Game:
    verdict = verify(raw)
    if not verdict.ok:
        raise VerificationFailed(
            f"{verdict.path} does not verify, so nothing is added to it: {verdict.failure}",
            code=verdict.failure.code,
            rule=verdict.failure.rule,
        )
    return verdict.game


def merge_sealed(game: Game, move: RawFile, at: int, theirs, *, fast: bool = True):
    """Two copies parted at record ``at``: merge them if what each added commutes.

    Choices made at once and sealed commute: commitments of one round, from different seats,
    and, once every choice is committed, their reveals; so do the peer mode's joins and deals.
    The records from the copy's unsettled region on (``Game.region_start``: the first record
    not yet in the order every copy holds) and the move file's are put in one canonical order
    (``rebuild``), each record made again and chained here; every copy that merges the same
    records computes the same log, whatever order the mail came in.  Anything else that forks
    (two moves of a sequential phase, one seat's two different choices) is refused, saying how
    to recover.  ``(records from the region on, records checked only in part)``.
    """
    decoder = BodyDecoder(game.codes.decoders, LIMITS, game.header)
    prev = game.records[at - 1].hash if at else game.header.game_id
    conflict = conflict_at(game, move.path, at)
    incoming = []
    for body, hash_, openings, signature, letters, _request in theirs:
        if chain(prev, body) != hash_:
            raise MoveRefused(f"{move.path}: hash chain broken at record {at}", code="bad-hash")
        prev = hash_
        try:
            _seq, kind, actor, _command, sealed, _events = decoder.fields(body, openings)
        except (ValueError, TypeError) as exc:
            raise MoveRefused(
                f"{move.path}: a record does not decode ({exc})", code="corrupt"
            ) from None
        if not 0 <= actor < len(game.players) or sealed is None:
            raise conflict(f"{move.path} holds a record that is no sealed choice")
        incoming.append((kind, actor, sealed, signature, letters))
    start = game.region_start
    if at < start:  # (this copy has settled what the file is still collecting: all held?)
        held = {content_key(r.kind, r.actor, r.sealed) for r in game.records[at:]}
        if all(content_key(k, a, s_) in held for k, a, s_, _sig, _l in incoming):
            raise MoveRefused(
                f"stale: every record {move.path} holds is already in this game", code="stale"
            )
        raise conflict(f"{move.path} holds a choice other than the one this copy settled")
    mine = [(r.kind, r.actor, r.sealed, r.signature, r.letters) for r in game.records[start:]]
    before = [r.hash for r in game.records]
    keep, game.keep_canonical = game.keep_canonical, False  # (a rebuild is canonical)
    try:
        rebuild(game, start, mine + incoming, conflict, where=move.path)
    finally:
        game.keep_canonical = keep
    if [r.hash for r in game.records] == before:
        raise MoveRefused(
            f"stale: every sealed choice {move.path} holds is already in this game", code="stale"
        )
    game.mark_shared(game.last_seq)  # (whose record came first, the merged ones are not undone)
    return game.records[start:], []


def apply_moves(game: Game, move: RawFile, *, fast: bool = True) -> list:
    """Referee a move file's records onto ``game``; the records appended (see ``referee_moves``
    for which of them this copy could check only in part)."""
    return referee_moves(game, move, fast=fast)[0]


def referee_moves(game: Game, move: RawFile, *, fast: bool = True) -> tuple[list, list[int]]:
    """Referee a move file's records onto ``game``: ``(records appended, the sequence numbers
    of those this copy could re-derive only in part)`` — a copy without the seed or another
    player's openings checks what its information allows, and says which records it could not
    check in full (the end-of-game audit checks them).

    Refused (``MoveRefused``) when the file is not a move file, is from another game, is stale
    (already applied), forks (another move was made on the same base) or leaves a gap.
    """
    header = move.header
    if header.kind != "move":
        raise MoveRefused(f"{move.path} is a game file, not a move file", code="not-a-move-file")
    if header.game_id != game.header.game_id:
        raise MoveRefused(
            f"{move.path} is from another game (game {header.game_id.hex()[:12]}, "
            f"this game {game.header.game_id.hex()[:12]})",
            code="foreign-game",
        )
    game.check_writable()
    head = game.last_seq
    base = header.base_seq
    if base > head:
        raise MoveRefused(
            f"{move.path} follows record {base} but this game ends at record {head}: "
            f"apply the move files in between first",
            code="gap",
        )
    local_base_hash = game.header.game_id if base < 0 else game.records[base].hash
    if (
        header.base_hash != local_base_hash
        and game.trust.keeps_canonical_order
        and base >= game.region_start
    ):
        raise MoveRefused(
            f"{move.path} follows records this copy does not hold all of yet (choices, joins "
            f"or shares of the randomness made at once, of which this copy has only some): "
            f"apply the other move files first",
            code="gap",
        )
    if header.base_hash != local_base_hash:
        raise MoveRefused(
            f"{move.path} was made on a different record {base} than this game's: "
            f"the two copies have forked",
            code="fork",
        )
    incoming = move.records
    overlap = game.records[base + 1 :]
    for i, (mine, theirs) in enumerate(zip(overlap, incoming)):
        if mine.hash != theirs.hash:
            return merge_sealed(game, move, base + 1 + i, incoming[i:], fast=fast)
    fresh = incoming[len(overlap) :]
    if not fresh:
        raise MoveRefused(
            f"stale: {move.path} holds records {base + 1}-{base + len(incoming)}, "
            f"already in this game",
            code="stale",
        )
    start = game.seq
    h = game.header
    referee = Referee(
        game, fast=fast, owed=h.signed and h.viewer is not None and h.peer_secret is not None
    )
    first = game.region_start
    referee.run(fresh)
    game.mark_shared(game.last_seq)  # (they came from another copy)
    if game.keep_canonical:  # (a peer copy: in the order every copy keeps)
        canonical_region(game)
        return game.records[min(first, start) :], referee.partly_checked
    return game.records[start:], referee.partly_checked


__all__ = [
    "Referee",
    "Verdict",
    "apply_moves",
    "canonical_region",
    "load_checked",
    "load_peer",
    "merge_sealed",
    "referee_moves",
    "verify",
]
