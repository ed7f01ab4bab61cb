"""The referee's engine: re-derive every incoming record under the rules, in one place.

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
    SecretUnavailable,
    VerificationFailed,
)
from ._fileformat import LIMITS, no_cyclic_gc
from ._kinds import COMMIT, DEAL, JOIN, MOVE, REVEAL, SETUP
from ._records import NO_ACTOR, UNSIGNED, BodyDecoder, Record, chain, sealed_values
from ._secrets import Reveal, Secret, committed_form
from ._talk import canonical

_new = tuple.__new__  # (a record made directly: ``make_record`` says why)


class Referee:
    """Re-derives records onto ``game`` (which holds the log and the state so far)."""

    def __init__(
        self,
        game,
        *,
        fast: bool = True,
        signed: bool = True,
        owed: bool = False,
        checked_through: int = -1,
    ) -> None:
        self.game = game
        self.fast = fast
        self.signed = signed  # False: records this copy already checked (a merge's rebuild)
        self.checked_through = checked_through  # records up to this one: their signatures
        # were checked before (``_checked``, the memory of a copy's records)
        self.owed = owed  # a player's copy taking mail: every value shown to it must open
        self.decoder = BodyDecoder(game.codes.decoders, LIMITS, game.header)
        self.rederived = 0  # records re-derived in full
        self.partly_checked: list[int] = []  # records this copy could not re-derive in full

    def run(self, records) -> None:
        """Referee stored records (``Row``) in order; raises VerificationFailed."""
        with no_cyclic_gc():
            decoder, game = self.decoder, self.game
            for body, hash_, openings, signature, letters, request in records:
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
        if (
            self.signed
            and game.trust.signed
            and fields[1] != SETUP
            and game.seq > self.checked_through
        ):
            try:
                game.check_signature(  # (the record as stored, its events not decoded)
                    Record._make(fields[:5] + ((), body, hash_, signature, letters, request))
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
        if (kind == SETUP) != (seq == 0):
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
            record = self._trust_chain(fields, body, hash_, exc.partial)
            self.partly_checked.append(seq)
            game.append(_signed(record, signature, letters, request))
            return record
        except BoardstateError as exc:
            raise self._failure(fields, exc.reason, exc.code, exc.rule) from None
        command, events, state = expected
        if game.trust.unmade and events:  # (secrets the actor's copy made: their commitments are
            return self._take_unmade(fields, body, hash_, command, events, signature, letters)
        if self.fast and not events:
            # Nothing to encode: every field is either checked above or must be empty.
            if fields[3] != command or raw_events:
                raise self._failure(fields, self._difference(command, events, body), "not-derived")
            record = _new(Record, (seq, kind, actor, command, sealed, (), body, hash_) + UNSIGNED)
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
            record = _signed(record, signature, letters, request)
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
                maker = game.trust.maker_of(game, record.actor)
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
        if kind == SETUP:
            if actor != NO_ACTOR or sealed is not None:
                raise IllegalCommand("malformed setup record", code="bad-kind", rule=ENGINE_RULE)
            return ("",) + game.start_events()
        if kind == JOIN:
            return ("",) + game.check_join(actor, sealed)
        if kind == DEAL:
            return ("",) + game.check_deal(actor, sealed)
        trust = game.trust
        if not trust.adds_nothing and trust.due(game):
            raise IllegalCommand(
                f"the game is {game.waiting_text()}", code="waiting", rule=ENGINE_RULE
            )
        if kind == REVEAL:  # (whose reveal is due is the reveal's own turn rule)
            return ("",) + game.check_reveal(actor, sealed, rehash=not self.fast, openings=openings)
        said = canonical(command) if kind == MOVE else None
        if said is not None:  # a note, a resignation, a draw: the engine's, any time
            if sealed is not None:
                raise IllegalCommand(
                    "an open move carries no sealed value", code="bad-kind", rule=ENGINE_RULE
                )
            game.check_talk(actor, said)
            return said, (), game.state
        game.check_turn(actor)
        if kind == COMMIT:
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
            raise SecretUnavailable(  # (every event is still compared)
                "this copy cannot judge whether the command is legal", partial=events
            )
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
            if type(value) is Reveal and self.game.trust.reveals_are_checked_against_the_game:
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


def _signed(record: Record, signature: bytes, letters, request) -> Record:
    """``record`` with what a signed mode stores beside its body (``Record._replace``, without
    its keyword machinery: once a record of every signed copy)."""
    return Record._make(record[:8] + (signature, letters, request))


def _same_unmade(want, have) -> bool:
    """One event as the rules give it and as recorded, a secret the actor's copy made standing
    for any secret with the same owners (``_peer.same_but_unmade``: a signed copy's, imported
    then)."""
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
