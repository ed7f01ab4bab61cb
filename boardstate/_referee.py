"""The referee: re-derive every incoming record under the rules, in one place.

``Referee.accept`` takes one record of a file (or of a move file), asks the game's engine checks
and the module's rules what that record must be, and compares.  The rules are asked once, by
the same ``Game`` methods that local play uses (``check_turn``, ``commit_events``,
``check_reveal``, ``decide``): the referee restates none of them.  Its fast paths only skip work:

- a record without events (a commitment of a sealed round, a reveal that resolves nothing) is
  compared field by field instead of being re-encoded and compared byte for byte;
- a reveal that repeats an opening this copy already checked is not hashed again.

``Referee(game, fast=False)`` does all the work; the differential test holds the verdicts equal.
"""

from __future__ import annotations

import attrs

from ._decider import ENGINE_RULE
from ._errors import (
    BoardstateError,
    GameFileError,
    IllegalCommand,
    MoveRefused,
    SecretUnavailable,
    VerificationFailed,
)
from ._fileformat import LIMITS, RawFile, no_cyclic_gc, read_raw
from ._game import Game
from ._records import NO_ACTOR, BodyDecoder, Kind, Record, chain, pack, sealed_values
from ._secrets import Reveal, Secret, committed_form
from ._talk import canonical


class Referee:
    """Re-derives records onto ``game`` (which holds the log and the state so far)."""

    def __init__(
        self, game: Game, *, fast: bool = True, signed: bool = True, owed: bool = False
    ) -> None:
        self.game = game
        self.fast = fast
        self.signed = signed  # False: records this copy already checked (a merge's rebuild)
        self.owed = owed  # a player's copy taking mail: every value shown to it must open
        self.decoder = BodyDecoder(game.codes.decoders, LIMITS, game.header)
        self.rederived = 0  # records re-derived in full
        self.partly_checked: list[int] = []  # records this copy could not re-derive in full

    def run(self, records) -> None:
        """Referee ``(body, hash, openings)`` triples in order; raises VerificationFailed."""
        with no_cyclic_gc():
            decoder, game = self.decoder, self.game
            for item in records:
                body, hash_, openings = item[:3]
                signature = item[3] if len(item) > 3 else b""
                letters = item[4] if len(item) > 4 else ()
                request = item[5] if len(item) > 5 else ()
                try:
                    fields = decoder.fields(body, openings)
                    if letters:  # (openings for this copy's player, encrypted by the actor)
                        opened = game.open_letters(fields[2], fields[0], letters, openings)
                        if opened is not openings:
                            fields = decoder.fields(body, opened)
                except GameFileError:  # (openings the file's header forbids: ``may_open``)
                    raise
                except (ValueError, TypeError) as exc:
                    raise VerificationFailed(
                        f"the record does not decode ({exc})", code="corrupt", seq=game.seq
                    ) from None
                try:
                    record = self.accept(fields, body, hash_, signature, letters, request)
                    if self.owed:
                        self._check_owed(fields, record)
                except (BoardstateError, MemoryError):
                    raise
                except Exception as exc:  # the module's fold on events it never gave (forged)
                    why = " ".join(f"{type(exc).__name__}: {exc}".split())[:120]
                    raise VerificationFailed(
                        f"the rules cannot take this record ({why})", code="corrupt", seq=game.seq
                    ) from None

    def accept(
        self,
        fields: tuple,
        body: bytes,
        hash_: bytes,
        signature: bytes = b"",
        letters=(),
        request=(),
    ) -> Record:
        """Re-derive one record; append it if it is exactly what the rules give (and, in the
        peer mode, carries its actor's signature; in the hosted mode, the judge's and its
        player's request)."""
        game = self.game
        if self.signed and game.header.signed and fields[1] != Kind.SETUP:
            try:
                game.check_signature(
                    Record(
                        fields[0],
                        fields[1],
                        fields[2],
                        fields[3],
                        fields[4],
                        (),
                        body,
                        hash_,
                        signature,
                        letters,
                        request,
                    )
                )
            except BoardstateError as exc:
                raise self._failure(fields, exc.reason, exc.code, exc.rule) from None
        seq, kind, actor, command, sealed, raw_events = fields
        if chain(game.head_hash, body) != hash_:
            raise self._failure(
                fields,
                "hash chain broken: the record's hash does not match its "
                "content and the record before it",
                "bad-hash",
            )
        if seq != game.seq:
            raise self._failure(fields, f"out of sequence: expected record {game.seq}", "bad-seq")
        if (kind == Kind.SETUP) != (seq == 0):
            raise self._failure(
                fields, "the first record, and only the first, is the setup", "bad-kind"
            )
        try:
            try:
                expected = self._expected(kind, actor, command, sealed)
            except SecretUnavailable:
                # The rules needed a value this copy does not hold: the record may bring its
                # owner's opening (a reveal), checked against its commitment.
                openings = self._openings(raw_events)
                if openings is None:
                    raise
                expected = self._expected(kind, actor, command, sealed, openings)
        except SecretUnavailable as exc:
            record = self._trust_chain(fields, body, hash_, getattr(exc, "partial", ()))
            self.partly_checked.append(seq)
            game.append(record._replace(signature=signature, letters=letters, request=request))
            return record
        except BoardstateError as exc:
            raise self._failure(fields, exc.reason, exc.code, exc.rule) from None
        command, events, state = expected
        if game.unmade and events:  # (secrets the actor's copy made: their commitments are
            return self._take_unmade(fields, body, hash_, command, events, signature, letters)
        if self.fast and not events:
            # Nothing to encode: every field is either checked above or must be empty.
            if fields[3] != command or raw_events:
                raise self._failure(fields, self._difference(command, events, body), "not-derived")
            record = Record(seq, kind, actor, command, sealed, (), body, hash_)
        else:
            try:
                record = game.make(kind, actor, command, sealed, events, hash_)
                same = record.body == body
            except GameFileError:  # an older event schema: compare the upcast events by value
                record = Record(seq, kind, actor, command, sealed, events, body, hash_)
                try:
                    same = fields[3] == command and _same_events(events, self._decoded(raw_events))
                except GameFileError:
                    same = False
            if not same:
                raise self._failure(fields, self._difference(command, events, body), "not-derived")
        self.rederived += 1
        if signature:
            record = record._replace(signature=signature, letters=letters, request=request)
        game.append(record, state)
        return record

    def _check_owed(self, fields, record: Record) -> None:
        """A value this copy's player owns reaches it in the record (the rules give it from what
        the copy holds) or in a letter that opens its commitment.  The commitment is in the
        signed, hashed body, so it binds the letter's content: a letter dropped or garbled on
        the way, or never written, leaves the value sealed here, and the record is refused
        (taken, the player could never make the move the rules then ask of them)."""
        game = self.game
        me = game.header.viewer
        record = game.records[-1] if game.records else record
        index = -1
        for value in sealed_values(record):
            if type(value) is not Secret:
                continue
            index += 1
            if value.owned_by(me) and not value.known and record.actor != me:
                maker = "the judge" if game.header.hosted else game.players[record.actor]
                raise self._failure(
                    fields,
                    f"a value shown to {game.players[me]} (secret {index + 1} of the record) "
                    f"came without a letter that opens it (dropped or damaged on the way, or "
                    f"never written): ask {maker} to send the move file again",
                    "missing-letter",
                )

    def _take_unmade(self, fields, body, hash_, command, events, signature, letters) -> Record:
        """A record whose rules made secrets on the actor's copy (a card shown to a player):
        every event is compared, those secrets by their owners, and their commitments taken
        from the record (what they hide is checked by their owners, and by the audit)."""
        game = self.game
        seq, kind, actor, _command, sealed, raw_events = fields
        recorded = self._decoded(raw_events)
        same = fields[3] == command and len(recorded) == len(events)
        for want, have in zip(events, recorded):
            same = same and _same_unmade(want, have)
        if not same:
            raise self._failure(fields, self._difference(command, events, body), "not-derived")
        record = Record(
            seq, kind, actor, command, sealed, recorded, body, hash_, signature, letters
        )
        self.partly_checked.append(seq)
        game.append(record)
        return record

    # ------------------------------------------------------------------ what the rules give
    def _expected(self, kind, actor, command, sealed, openings=None) -> tuple:
        """``(command text, events, state after them)`` that the rules give for a record of
        ``kind`` by ``actor`` (raises IllegalCommand / SecretUnavailable)."""
        game = self.game
        if kind == Kind.SETUP:
            if actor != NO_ACTOR or sealed is not None:
                raise IllegalCommand("malformed setup record", code="bad-kind", rule=ENGINE_RULE)
            return ("",) + game.start_events()
        if kind == Kind.JOIN:
            return ("",) + game.check_join(actor, sealed)
        if kind == Kind.DEAL:
            return ("",) + game.check_deal(actor, sealed)
        if game.due():
            raise IllegalCommand(
                f"the game is {game.waiting_text()}", code="waiting", rule=ENGINE_RULE
            )
        if kind == Kind.REVEAL:  # (whose reveal is due is the reveal's own turn rule)
            return ("",) + game.check_reveal(actor, sealed, rehash=not self.fast, openings=openings)
        said = canonical(command) if kind == Kind.MOVE else None
        if said is not None:  # a note, a resignation, a draw: the engine's, any time
            if sealed is not None:
                raise IllegalCommand(
                    "an open move carries no sealed value", code="bad-kind", rule=ENGINE_RULE
                )
            game.check_talk(actor, said)
            return said, (), game.state
        game.check_turn(actor)
        if kind == Kind.COMMIT:
            return ("",) + game.commit_events(actor, sealed, openings)
        if not game.open_move_due():
            raise IllegalCommand(
                "an open move where the choice is sealed or face down",
                code="not-sealed",
                rule=ENGINE_RULE,
            )
        if sealed is not None:
            raise IllegalCommand(
                "an open move carries no sealed value", code="bad-kind", rule=ENGINE_RULE
            )
        try:
            parsed, judged = game.checked(actor, command), True
        except SecretUnavailable:  # legal or not depends on cards this copy does not hold:
            parsed, judged = game.rules.parse(game.state, actor, command), False  # the rest can
        text = game.rules.notation(game.state, actor, parsed)
        events, state = game.decide(((actor, parsed),), openings)
        if not judged:
            unjudged = SecretUnavailable("this copy cannot judge whether the command is legal")
            unjudged.partial = events  # (every event is still compared)
            raise unjudged
        return text, events, state

    def _openings(self, raw_events) -> dict | None:
        """The reveals an incoming record brings, by commitment: the owner's openings of values
        this copy may not hold (checked against their commitments before use)."""
        if not raw_events:
            return None
        try:
            events = self._decoded(raw_events)
        except GameFileError:
            return None
        found = {}
        for ev in events:
            for value in sealed_values(Record(0, 0, 0, "", None, (ev,), b"", b"")):
                if type(value) is Reveal and value.checks():
                    found[value.commitment] = value
        return found or None

    def _decoded(self, raw_events) -> tuple:
        try:
            return self.decoder.events(raw_events)
        except (ValueError, TypeError) as exc:
            raise GameFileError(f"undecodable events ({exc})", code="corrupt") from None

    def _trust_chain(self, fields, body, hash_, partial=()) -> Record:
        """A copy without the seed (or another player's openings) cannot re-run every rule of a
        record: it checks the events the rules gave before they needed what it lacks (``partial``:
        a forged damage figure or a dropped event before a draw is caught here), every reveal
        against its commitment, and the chain; the end-of-game audit checks the rest."""
        seq, kind, actor, command, sealed, raw_events = fields
        try:
            events = self.decoder.events(raw_events)
        except (ValueError, TypeError) as exc:
            raise self._failure(fields, f"undecodable events ({exc})", "corrupt") from None
        for i, want in enumerate(partial):
            have = events[i] if i < len(events) else None
            if have is None or not _same_unmade(want, have):
                shown = _show(have) if have is not None else "nothing"
                raise self._failure(
                    fields,
                    f"event {i + 1} differs from what the rules give: recorded {shown}, rules "
                    f"give {_show(want)}",
                    "not-derived",
                )
        record = Record(seq, kind, actor, command, sealed, events, body, hash_)
        held = None
        for value in sealed_values(record):
            if type(value) is Reveal and not value.checks():
                raise self._failure(
                    fields, "a revealed value does not match its commitment", "bad-reveal"
                )
            if type(value) is Reveal and self.game.header.peer:
                if held is None:  # (every commitment the game and this record hold)
                    game = self.game
                    held = commitments_in(game.state) | {
                        v.commitment for v in sealed_values(record) if type(v) is Secret
                    }
                    held.update(f.secret.commitment for f in game.face_down.values())
                    if game.round is not None:
                        held.update(c.commitment for c in game.round.commits.values())
                if value.commitment not in held:
                    raise self._failure(
                        fields,
                        "a revealed card opens no commitment the game holds (a card never dealt)",
                        "bad-reveal",
                    )
        return record

    # ------------------------------------------------------------------ saying what is wrong
    def _failure(self, fields, reason, code, rule=ENGINE_RULE) -> VerificationFailed:
        seq, kind, actor, command, sealed, raw_events = fields
        players = self.game.players
        label = players[actor] if type(actor) is int and 0 <= actor < len(players) else ""
        shown = command or (sealed.value if isinstance(sealed, Reveal) else "")
        return VerificationFailed(
            reason,
            code=code,
            rule=rule,
            seq=seq,
            actor=label,
            command=shown if isinstance(shown, str) else repr(shown),
        )

    def _difference(self, command: str, events: tuple, body: bytes) -> str:
        """Say what differs between the recorded body and the one the rules give."""
        try:
            recorded = self.decoder.fields(body)
        except ValueError:
            return "the record does not decode"
        if recorded[3] != command:
            return f"the recorded command text differs from its canonical form {command!r}"
        try:
            got = self.decoder.events(recorded[5])
        except (ValueError, TypeError):
            return "the recorded events do not decode"
        for i, (want, have) in enumerate(zip(events, got)):
            if not _same_events((want,), (have,)):
                return (
                    f"event {i + 1} differs from what the rules give: recorded "
                    f"{_show(have)}, rules give {_show(want)}"
                )
        if len(events) != len(got):
            return f"the record holds {len(got)} events, the rules give {len(events)}"
        return "the record differs from what the rules give"


def commitments_in(value, out=None) -> set:
    """Every commitment of a secret in ``value`` (a module's state: tuples, named tuples,
    lists, dicts, sets, walked all the way down)."""
    out = set() if out is None else out
    stack = [value]
    while stack:
        v = stack.pop()
        kind = type(v)
        if kind is Secret:
            out.add(v.commitment)
        elif isinstance(v, (tuple, list, frozenset, set)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif hasattr(v, "__attrs_attrs__"):
            stack.extend(getattr(v, a.name) for a in v.__attrs_attrs__)
    return out


def _same_unmade(want, have) -> bool:
    """One event as the rules give it and as recorded, a secret the actor's copy made standing
    for any secret with the same owners (``_peer.same_but_unmade``)."""
    from ._peer import same_but_unmade

    return type(want) is type(have) and same_but_unmade(
        committed_form(type(want).__event_fields__(want)),
        committed_form(type(have).__event_fields__(have)),
    )


def _same_events(a: tuple, b: tuple) -> bool:
    """Equal in their committed form (a secret is its commitment and owners, held or not)."""
    return len(a) == len(b) and all(
        type(x) is type(y)
        and committed_form(type(x).__event_fields__(x))
        == committed_form(type(y).__event_fields__(y))
        for x, y in zip(a, b)
    )


def _show(ev) -> str:
    name = type(ev).__event_name__
    parts = []
    for f, v in zip(attrs.fields(type(ev)), type(ev).__event_fields__(ev)):
        parts.append(f"{f.name}={committed_form(v)!r}"[:60])
    return f"{name}({', '.join(parts)})"


# ---------------------------------------------------------------------------------- verdicts
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
    game = raw.game(keep_records=keep_records)
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


@attrs.frozen
class Audit:
    """What the end-of-game audit of a peer game found (``audit``)."""

    records: int
    partly: int  # records still checked only in part (0 when every copy was given)
    missing: tuple[str, ...]  # players whose copies were not given
    failure: VerificationFailed | None

    @property
    def ok(self) -> bool:
        return self.failure is None


def audit(copies) -> Audit:
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
        if h.kind != "game" or not h.peer or h.game_id != first.game_id:
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
        if [r[1] for r in records] != [r[1] for r in longest[: len(records)]]:
            raise GameFileError(f"{raw.path}: its log differs from the others'", code="bad-audit")
    merged = []
    for i, item in enumerate(longest):
        openings = []
        for records in lists:
            if i < len(records):
                for j, opening in enumerate(records[i][2]):
                    while len(openings) <= j:
                        openings.append(None)
                    if openings[j] is None and opening is not None:
                        openings[j] = opening
        merged.append((item[0], item[1], tuple(openings)) + tuple(item[3:]))
    raw = copies[lists.index(longest)]
    game = raw.game()
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


def load_peer(raw: RawFile, *, signed: bool = True) -> Game:
    """A peer game's copy read back: re-derived (what waits for whom is known only by
    re-running the rules), a failure one line.  ``signed=False``: records this copy has
    checked already (their signatures are not checked again)."""
    if signed:
        verdict = verify(raw)
        if not verdict.ok:
            raise GameFileError(f"{raw.path}: corrupt: {verdict.failure}", code="corrupt")
        return verdict.game
    game = raw.game()
    try:
        Referee(game, signed=False).run(raw.iter_records())
    except VerificationFailed as exc:
        raise GameFileError(f"{raw.path}: corrupt: {exc}", code="corrupt") from None
    except GameFileError as exc:
        raise type(exc)(f"{raw.path}: corrupt: {exc.reason}", code=exc.code) from None
    return game


def load_checked(path_or_raw) -> Game:
    """Read a game file to add to it: every record re-derived, as ``verify`` does (a game file
    received by mail with a forged deal is refused before anything is added to it)."""
    verdict = verify(path_or_raw)
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
    (``_rebuild``), each record made again and chained here; every copy that merges the same
    records computes the same log, whatever order the mail came in.  Anything else that forks
    (two moves of a sequential phase, one seat's two different choices) is refused, saying how
    to recover.  ``(records from the region on, records checked only in part)``.
    """
    decoder = BodyDecoder(game.codes.decoders, LIMITS, game.header)
    prev = game.records[at - 1].hash if at else game.header.game_id
    conflict = _conflict(game, move.path, at)
    incoming = []
    for item in theirs:
        body, hash_, openings = item[:3]
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
        incoming.append(
            (
                kind,
                actor,
                sealed,
                item[3] if len(item) > 3 else b"",
                item[4] if len(item) > 4 else (),
            )
        )
    start = game.region_start
    if at < start:  # (this copy has settled what the file is still collecting: all held?)
        held = {_content(r.kind, r.actor, r.sealed) for r in game.records[at:]}
        if all(_content(k, a, s_) in held for k, a, s_, _sig, _l in incoming):
            raise MoveRefused(
                f"stale: every record {move.path} holds is already in this game", code="stale"
            )
        raise conflict(f"{move.path} holds a choice other than the one this copy settled")
    mine = [(r.kind, r.actor, r.sealed, r.signature, r.letters) for r in game.records[start:]]
    before = [r.hash for r in game.records]
    keep, game.keep_canonical = game.keep_canonical, False  # (a rebuild is canonical)
    try:
        _rebuild(game, start, mine + incoming, conflict, where=move.path)
    finally:
        game.keep_canonical = keep
    if [r.hash for r in game.records] == before:
        raise MoveRefused(
            f"stale: every sealed choice {move.path} holds is already in this game", code="stale"
        )
    game.mark_shared(game.seq - 1)  # (whose record came first, the merged ones are not undone)
    return game.records[start:], []


def canonical_region(game: Game, start: int | None = None) -> None:
    """A peer copy keeps the records it has not settled with the others (from ``start``,
    default ``Game.region_start``) in canonical order (``_rebuild``), so that every copy that
    holds the same records holds the same log and hashes, whatever order they were made and
    mailed in.  Records of one player alone are in that player's order already."""
    start = game.region_start if start is None else start
    records = game.records[start:]
    if not game.header.peer or len({r.actor for r in records}) < 2:
        return
    pool = [(r.kind, r.actor, r.sealed, r.signature, r.letters) for r in records]
    keep, game.keep_canonical = game.keep_canonical, False
    try:
        _rebuild(game, start, pool, _conflict(game, "this copy", start), where="this copy")
    except MoveRefused:  # (this copy's own records, already checked: left in their order)
        pass
    finally:
        game.keep_canonical = keep


def _content(kind, seat, sealed) -> bytes:
    return pack([kind, seat, sealed])


def _conflict(game: Game, path: str, at: int):
    def conflict(why: str) -> MoveRefused:
        return MoveRefused(
            f"fork at record {at}: {why}; this copy and {path} cannot both stand. To "
            f"recover, drop {path} and take back this copy's unsent move ('boardstate undo "
            f"FILE --as PLAYER'), or keep the copy the others have received and re-export from "
            f"it ('boardstate export FILE --after {max(at - 1, 0)} -o NEW')",
            code="fork",
        )

    return conflict


def _rebuild(game: Game, start: int, pool, conflict, *, where: str) -> None:
    """Make the log again from record ``start`` with the commuting records of ``pool``
    (``(kind, seat, sealed, signature, letters)``, this copy's first: their openings are held
    here), in the canonical order: whenever joins or deals are due, the lowest seat's first;
    in a sealed round, commitments in seat order, then reveals as the round lists them (the
    last to commit first, then seat order).  A record held twice counts once; one seat's two
    different choices of a round are a conflict.  Refused (``MoveRefused``), the copy is left
    as it was."""
    queues: dict = {}  # (kind, seat) -> [(sealed, signature, letters), ...] in order, distinct
    seen: set = set()
    for kind, seat, sealed, signature, letters in pool:
        if kind not in (Kind.JOIN, Kind.DEAL, Kind.COMMIT, Kind.REVEAL):
            raise conflict(
                f"{where} holds a {Kind(kind).name.lower()} record, which does not commute"
            )
        content = _content(kind, seat, sealed)
        if content in seen:
            continue
        seen.add(content)
        queue = queues.setdefault((kind, seat), [])
        if kind in (Kind.COMMIT, Kind.REVEAL) and queue:
            raise conflict(f"{game.players[seat]} made two different sealed choices")
        queue.append((sealed, signature, letters))
    before = dict(game.__dict__)  # (truncate replaces these: a refusal puts them back)
    game.truncate(start)

    def take(kind, seat, check) -> None:
        queue = queues[(kind, seat)]
        sealed, signature, letters = queue.pop(0)
        if not queue:
            del queues[(kind, seat)]
        events, state = check(seat, sealed)
        record = game.remade(kind, seat, sealed, events, signature, letters)
        game.check_signature(record)
        game.append(record, state)

    try:
        while queues:
            due = game.due()
            if due:
                kind = Kind.JOIN if due == "join" else Kind.DEAL
                check = game.check_join if due == "join" else game.check_deal
                seat = next(
                    (
                        s
                        for s in game.waiting_for()
                        if queues.get((kind, s))
                        and (due == "join" or queues[(kind, s)][0][0][0] == due)
                    ),
                    None,
                )
                if seat is None:
                    raise conflict(
                        f"a record that is not due while the game is {game.waiting_text()}"
                    )
                take(kind, seat, check)
                continue
            phase = game.phase()
            if phase is None:
                raise conflict("the copies parted outside a round of sealed choices")
            if not phase.all_committed:
                seat = next(
                    (
                        s
                        for s in phase.seats
                        if s not in phase.commits and (Kind.COMMIT, s) in queues
                    ),
                    None,
                )
                if seat is None:
                    raise conflict("a reveal before every choice is committed")
                take(Kind.COMMIT, seat, game.commit_events)
                continue
            seat = next((s for s in game.to_act() if (Kind.REVEAL, s) in queues), None)
            if seat is None:
                raise conflict("a reveal that is not due once every choice is in")
            take(Kind.REVEAL, seat, game.check_reveal)
    except MoveRefused:
        game.__dict__.update(before)
        raise
    except BoardstateError as exc:
        game.__dict__.update(before)
        raise conflict(f"the merged choices do not stand ({exc.reason})") from None


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
    head = game.seq - 1
    base = header.base_seq
    if base > head:
        raise MoveRefused(
            f"{move.path} follows record {base} but this game ends at record {head}: "
            f"apply the move files in between first",
            code="gap",
        )
    local_base_hash = game.header.game_id if base < 0 else game.records[base].hash
    if header.base_hash != local_base_hash and game.header.peer and base >= game.region_start:
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
        if mine.hash != theirs[1]:
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
    game.mark_shared(game.seq - 1)  # (they came from another copy)
    if game.header.peer and game.keep_canonical:  # (in the order every copy keeps)
        canonical_region(game)
        return game.records[min(first, start) :], referee.partly_checked
    return game.records[start:], referee.partly_checked


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
        if [item[1] for item in theirs] != hashes[: len(theirs)]:
            failure = VerificationFailed(
                f"{raw.path}: the judge sent this player a log other than the one it published",
                code="bad-audit",
                seq=next(
                    (
                        i
                        for i, item in enumerate(theirs)
                        if i >= len(hashes) or item[1] != hashes[i]
                    ),
                    len(theirs),
                ),
            )
            break
        shown = [game.records[i]._replace(letters=item[4]) for i, item in enumerate(theirs)]
        failure = _letters_failure(game, [(raw.path, shown)])
        if failure is not None:
            break
    given = {raw.header.viewer for raw in copies}
    missing = tuple(p for s, p in enumerate(game.players) if s not in given)
    return Audit(verdict.records, 0, missing, failure)


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
            letters = copy_records[record.seq][4] if len(copy_records[record.seq]) > 4 else ()
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
