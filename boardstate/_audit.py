"""End-of-game audits, above the referee: ``audit`` takes what was published and audits it as
its mode requires — a peer game re-derived with every player's published copy
(``audit_peer``), a hosted game's published log with the players' copies (``audit_hosted``) —
every letter opened."""

from __future__ import annotations

import attrs

from ._errors import (
    GameFileError,
    VerificationFailed,
)
from ._fileformat import RawFile
from ._game import Game
from ._header import SEEDLESS
from ._records import Kind, sealed_values
from ._rederive import Referee
from ._referee import verify
from ._secrets import Secret


@attrs.frozen
class Audit:
    """What an end-of-game audit found (``audit``)."""

    records: int
    partly: int  # records still checked only in part (0 when every copy was given)
    missing: tuple[str, ...]  # players whose copies were not given
    failure: VerificationFailed | None
    judges_log: bool = False  # a hosted game's: the judge's log re-derived from its seed
    copies: int = 0  # the players' copies checked against the judge's log

    @property
    def ok(self) -> bool:
        return self.failure is None

    def line(self) -> str:
        """The audit's result in one line."""
        if not self.ok:
            return f"audit failed: {self.failure}"
        if self.judges_log:
            return (
                f"audit ok: {self.records} records of the judge's log re-derived from its "
                f"seed, every letter opened and shown to its owners only; players' copies "
                f"checked against it: {self.copies}"
            )
        missing = (
            f"; not audited: the cards of {', '.join(self.missing)} (their copies were not given)"
            if self.missing
            else ""
        )
        return (
            f"audit ok: {self.records} records re-derived with "
            f"{'the copies' if self.missing else 'every copy'} given, "
            f"{self.partly} checked in part{missing}"
        )


def audit(copies) -> Audit:
    """The end-of-game audit of what was published (``RawFile``s): a hosted game's log that
    the judge published (it holds the seed), with any players' copies; or a peer game's
    players' copies."""
    copies = list(copies)
    judged = [raw for raw in copies if raw.header.hosted and raw.header.seed is not None]
    if judged:
        return audit_hosted(judged[0], [raw for raw in copies if raw is not judged[0]])
    if any(raw.header.hosted for raw in copies):
        raise GameFileError(
            "a hosted game is audited with the judge's published log "
            "(boardstate judge publish): give it too",
            code="bad-audit",
        )
    return audit_peer(copies)


def audit_peer(copies) -> Audit:
    """The end-of-game audit of a peer game: every player's copy (``RawFile``s, each with its
    player's private secret and openings) is published, and the whole game is re-derived with
    all of them: every card dealt, every salt and every pile arranged, nothing taken on trust.

    Refused before the game is over (a copy's secret decides every link it has not yet dealt)."""
    copies = list(copies)
    if not copies:
        raise GameFileError("no copies to audit", code="bad-audit")
    first = copies[0].header
    lists = []
    secrets = {}
    for raw in copies:
        h = raw.header
        if h.kind != "game" or h.trust not in SEEDLESS or h.game_id != first.game_id:
            raise GameFileError(f"{raw.path}: not a copy of the same peer game", code="bad-audit")
        if h.viewer is None or h.peer_secret is None:
            raise GameFileError(
                f"{raw.path}: not a player's own copy (it holds no private secret)",
                code="bad-audit",
            )
        secrets[h.viewer] = h.peer_secret
        lists.append(raw.records)
    longest = max(lists, key=len)
    for raw, records in zip(copies, lists):
        if [r.hash for r in records] != [r.hash for r in longest[: len(records)]]:
            raise GameFileError(f"{raw.path}: its log differs from the others'", code="bad-audit")
    merged = []
    for i, item in enumerate(longest):
        openings = []
        for records in lists:
            if i < len(records):
                for j, opening in enumerate(records[i].openings):
                    while len(openings) <= j:
                        openings.append(None)
                    if openings[j] is None and opening is not None:
                        openings[j] = opening
        merged.append(item._replace(openings=tuple(openings)))
    raw = copies[lists.index(longest)]
    game = Game.of_file(raw)
    game.audit_secrets = dict(secrets)
    referee = Referee(game)
    failure = None
    try:
        referee.run(merged)
    except VerificationFailed as exc:
        failure = exc
    if failure is None:
        if game.outcome() is None:
            raise GameFileError(
                "the game is not over: copies are published for the audit only at the end",
                code="bad-audit",
            )
        failure = _peer_letters_failure(game, secrets, [raw.records for raw in copies])
        from ._peer import chain_of

        tips = {r.actor: r.sealed[1] for r in game.records if r.kind == Kind.JOIN}
        for seat, secret in secrets.items():
            if chain_of(secret)[0] != tips.get(seat):
                failure = VerificationFailed(
                    f"{game.players[seat]}'s published secret is not the one they joined with",
                    code="bad-audit",
                    seq=0,
                )
    missing = tuple(p for s, p in enumerate(game.players) if s not in secrets)
    return Audit(len(merged), len(referee.partly_checked), missing, failure)


def audit_hosted(full: RawFile, copies=()) -> Audit:
    """The end-of-game audit of a hosted game: the judge's published log (with its seed and
    its own secret) is re-derived in full, every letter it wrote is opened and must show a
    value to its owners only, and every player's copy must be a prefix of that log, its
    letters likewise.  Catches a judge that dealt from another seed, changed a move, or showed
    a card in a letter to someone it does not belong to."""
    h = full.header
    if h.kind != "game" or not h.hosted or h.seed is None or h.viewer is not None:
        raise GameFileError(
            f"{full.path}: not the judge's published log of a hosted game (it holds no seed)",
            code="bad-audit",
        )
    copies = list(copies)
    for raw in copies:
        if raw.header.kind != "game" or raw.header.game_id != h.game_id:
            raise GameFileError(f"{raw.path}: not a copy of the same game", code="bad-audit")
    verdict = verify(full)
    game = verdict.game
    failure = verdict.failure
    if failure is None and game.outcome() is None:
        raise GameFileError(
            "the game is not over: the judge publishes its log for the audit at the end",
            code="bad-audit",
        )
    if failure is None:
        failure = _letters_failure(game, [(full.path, game.records)])
    for raw in copies if failure is None else ():
        theirs = raw.records
        hashes = [r.hash for r in game.records]
        if [item.hash for item in theirs] != hashes[: len(theirs)]:
            failure = VerificationFailed(
                f"{raw.path}: the judge sent this player a log other than the one it published",
                code="bad-audit",
                seq=next(
                    (
                        i
                        for i, item in enumerate(theirs)
                        if i >= len(hashes) or item.hash != hashes[i]
                    ),
                    len(theirs),
                ),
            )
            break
        shown = [game.records[i]._replace(letters=item.letters) for i, item in enumerate(theirs)]
        failure = _letters_failure(game, [(raw.path, shown)])
        if failure is not None:
            break
    given = {raw.header.viewer for raw in copies}
    missing = tuple(p for s, p in enumerate(game.players) if s not in given)
    return Audit(verdict.records, 0, missing, failure, judges_log=True, copies=len(copies))


def _peer_letters_failure(game: Game, secrets: dict, lists) -> VerificationFailed | None:
    """The audit of a peer game's letters, with the published secrets: every value a record
    makes for owners other than its maker must reach each of them in a letter (in every copy
    that holds the record) that opens to the committed value, and no letter may show a value to
    anyone else.  A letter is opened with the reader's secret or the maker's (X25519: either
    side of the pair makes the key).  Readers whose copies were not given are checked through
    the maker's secret, when that was given."""
    from ._peer import read_letters

    game_id = game.header.game_id
    seen: set = set()  # commitments made by earlier records (re-mentioned values owe nothing)
    for record in game.records:
        values = [v for v in sealed_values(record) if type(v) is Secret]
        actor = record.actor
        for copy_records in lists:
            if record.seq >= len(copy_records) or actor < 0:
                continue
            letters = copy_records[record.seq].letters
            letters = tuple(x for x in letters if type(x) is tuple and len(x) == 3)
            for reader in range(len(game.players)):
                if reader == actor or not letters and not any(v.owned_by(reader) for v in values):
                    continue
                if reader in secrets:
                    opened = read_letters(
                        secrets[reader], reader, game.exchange[actor], game_id, record.seq, letters
                    )
                elif actor in secrets:
                    opened = read_letters(
                        secrets[actor], reader, game.exchange[reader], game_id, record.seq, letters
                    )
                    opened = {
                        i: o
                        for i, o in opened.items()
                        if any(x[:2] == (i, reader) for x in letters)
                    }
                else:
                    continue
                name, maker = game.players[reader], game.players[actor]
                addressed = {x[0] for x in letters if x[1] == reader}
                for index in sorted(addressed):
                    held = (
                        values[index] if type(index) is int and 0 <= index < len(values) else None
                    )
                    if held is None or not held.owned_by(reader):
                        return VerificationFailed(
                            f"{maker} showed {name} a hidden value that is not theirs",
                            code="shown",
                            seq=record.seq,
                        )
                    if index not in opened or opened[index] != (held.salt, held.value):
                        return VerificationFailed(
                            f"{maker}'s letter to {name} does not open to the value the record "
                            f"commits to (damaged, or a lie)",
                            code="bad-letter",
                            seq=record.seq,
                        )
                for index, held in enumerate(values):
                    if (
                        held.owned_by(reader)
                        and held.commitment not in seen
                        and index not in addressed
                    ):
                        return VerificationFailed(
                            f"{maker} made a value for {name} and wrote them no letter (the "
                            f"letter was dropped, or never written)",
                            code="missing-letter",
                            seq=record.seq,
                        )
        seen.update(v.commitment for v in values)
    return None


def _letters_failure(game: Game, logs) -> VerificationFailed | None:
    """The first letter of the judge's that shows a value to someone who does not own it, or
    that does not open to the value the log holds."""
    from ._peer import read_letters

    secret, game_id = game.header.peer_secret, game.header.game_id
    for _path, records in logs:
        for record in records:
            values = [v for v in sealed_values(record) if type(v) is Secret]
            readers = {letter[1] for letter in record.letters if type(letter) is tuple}
            for reader in sorted(r for r in readers if type(r) is int):
                public = game.exchange.get(reader)
                if public is None:
                    continue
                found = read_letters(secret, reader, public, game_id, record.seq, record.letters)
                for index, (salt, value) in found.items():
                    held = values[index] if 0 <= index < len(values) else None
                    name = game.players[reader]
                    if held is None or not held.owned_by(reader):
                        return VerificationFailed(
                            f"the judge showed {name} a hidden value that is not theirs",
                            code="shown",
                            seq=record.seq,
                        )
                    if (salt, value) != (held.salt, held.value):
                        return VerificationFailed(
                            f"the judge's letter to {name} does not hold the value it committed",
                            code="bad-letter",
                            seq=record.seq,
                        )
    return None
