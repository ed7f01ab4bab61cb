"""A game in play: header, log and live state, with the engine's checks in one place.

Every way a record enters the log goes through here: a local command (``play``), an incoming
record the referee re-derives (``accept``), or a record read back from our own file (``load``).
The engine checks game over, whose turn, and sealed choices; the module checks its own rules.
"""
from __future__ import annotations

import os

import attrs

from ._errors import (BoardstateError, IllegalCommand, InvalidCommand, SecretUnavailable,
                      VerificationFailed)
from ._events import EventTable
from ._header import Header
from ._records import NO_ACTOR, Kind, Record, chain, make_record, sealed_values
from ._rng import Rng, SealedRng
from ._secrets import Reveal, Secret, make_secret, reveal

ENGINE_RULE = "boardstate engine"


class SealedPhase:
    """Simultaneous sealed choices: every seat commits; only then does anyone reveal.

    Reveal order: the last seat to commit first (it may reveal in the same move file, since by
    then every choice is committed), then the others in seat order.  The last reveal resolves.
    """

    __slots__ = ("seats", "size", "commits", "revealed", "parsed", "start")

    def __init__(self, seats: tuple[int, ...], start: int) -> None:
        self.seats = seats
        self.start = start  # the sequence number of the phase's first record
        self.size = len(seats)
        self.commits: dict[int, Secret] = {}
        self.revealed: dict[int, str] = {}
        self.parsed: dict[int, object] = {}  # seat -> the revealed command, parsed once

    @property
    def all_committed(self) -> bool:
        return len(self.commits) == self.size

    def waiting(self) -> tuple[int, ...]:
        return tuple(s for s in self.seats if s not in self.commits)

    def next_revealer(self) -> int:
        last = next(reversed(self.commits))
        if last not in self.revealed:
            return last
        return next(s for s in self.seats if s not in self.revealed)


class Game:
    """One game: ``records`` (the log), ``state`` (the fold of its events) and ``header``."""

    def __init__(self, module, header: Header, *, keep_records: bool = True) -> None:
        self.module = module
        self.keep_records = keep_records  # False: the referee streams, memory stays flat
        self.rules = module.rules
        self.header = header
        self.table = EventTable(module.spec.events)
        self.records: list[Record] = []
        self.state = self.rules.initial(header.options, header.players)
        self.head_hash = header.game_id
        self._phase: SealedPhase | None = None
        self.rederived = 0  # records the referee re-derived in full (vs. checked on the chain)
        self._count = 0
        self._incoming_hash: bytes | None = None
        self._folded: tuple | None = None  # (events, state after them) from decide_evolve
        self._decide_evolve = getattr(self.rules, "decide_evolve", None)
        self._facts_of = self._facts_cache = None

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(cls, module, players, raw_options, seed: bytes | None = None,
            created: str | None = None) -> "Game":
        header = Header.for_new_game(module, players, raw_options, seed, created)
        game = cls(module, header)
        events = game.rules.start(game.state, game._rng(0))
        game._append(make_record(game.table, game.head_hash, 0, Kind.SETUP, NO_ACTOR, "", None,
                                 tuple(events)))
        return game

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def seq(self) -> int:
        """Sequence number of the next record."""
        return self._count

    def seat(self, name: str) -> int:
        try:
            return self.header.players.index(name)
        except ValueError:
            raise InvalidCommand(f"no player {name!r} in this game (players: "
                                 f"{', '.join(self.header.players)})", code="unknown-player") from None

    def _facts(self) -> tuple:
        """``(outcome, module to_act, simultaneous)`` of the current state, computed once."""
        state = self.state
        if self._facts_of is not state:
            rules = self.rules
            outcome = rules.outcome(state)
            acting = () if outcome is not None else tuple(rules.to_act(state))
            self._facts_cache = (outcome, acting,
                                 outcome is None and rules.simultaneous(state))
            self._facts_of = state
        return self._facts_cache

    def outcome(self):
        return self._facts()[0]

    def phase(self) -> SealedPhase | None:
        if self._phase is None:
            outcome, acting, simultaneous = self._facts()
            if simultaneous and len(acting) >= 2:
                self._phase = SealedPhase(acting, self._count)
        return self._phase

    def to_act(self) -> tuple[int, ...]:
        outcome, acting, _ = self._facts()
        if outcome is not None:
            return ()
        phase = self.phase()
        if phase is None:
            return acting
        if not phase.all_committed:
            return phase.waiting()
        return (phase.next_revealer(),)

    def legal(self, seat: int) -> list[str]:
        """The commands ``seat`` may give now, in notation (empty when it is not their turn)."""
        if seat not in self.to_act():
            return []
        phase = self.phase()
        if phase is not None and phase.all_committed:
            return ["reveal"]
        rules, state = self.rules, self.state
        return [rules.notation(state, seat, c) for c in rules.legal(state, seat)]

    def is_legal(self, seat: int, text: str) -> bool:
        """Would ``text`` be accepted from ``seat`` now?  (Checks without deciding anything.)"""
        try:
            self._check_turn(seat)
            phase = self.phase()
            if phase is not None and phase.all_committed:
                return text.strip().lower() == "reveal"
            self._canonical(seat, text)
        except BoardstateError:
            return False
        return True

    def settled(self) -> int:
        """How many records hold no unrevealed sealed choice (all of them outside a phase)."""
        phase = self._phase
        return self._count if phase is None or not phase.commits else phase.start

    def pending_choice(self, seat: int) -> str | None:
        """The sealed choice ``seat`` has committed and this copy holds, if any."""
        phase = self._phase
        if phase is None or seat not in phase.commits:
            return None
        secret = phase.commits[seat]
        return secret.value if secret.known else None

    # ------------------------------------------------------------------ local play
    def play(self, seat: int, text: str, *, entropy=os.urandom) -> list[Record]:
        """Check ``text`` as ``seat``'s command and append its records (with automatic reveals)."""
        self._check_turn(seat)
        start = self._count
        phase = self.phase()
        if phase is None:
            command, events = self._decide_single(seat, text)
            self._append(self._make(Kind.MOVE, seat, command, None, events))
        elif not phase.all_committed:
            command = self._canonical(seat, text)
            salt = entropy(16)
            secret = make_secret(command, salt, 1 << seat)
            self._append(self._make(Kind.COMMIT, seat, "", secret, ()))
        elif text.strip().lower() != "reveal":
            raise IllegalCommand(f"{self.players[seat]} has committed a choice and must reveal it "
                                 f"now (command 'reveal')", code="must-reveal", rule=ENGINE_RULE)
        elif not phase.commits[seat].known:
            raise SecretUnavailable(f"this copy does not hold {self.players[seat]}'s sealed choice: "
                                    f"reveal it from the copy it was made on", code="no-opening")
        self.reveal_held()
        return self.records[start:]

    def reveal_held(self) -> list[Record]:
        """Append the reveals that are due and whose openings this copy holds."""
        start = self._count
        while True:
            phase = self._phase
            if phase is None or not phase.all_committed or self.outcome() is not None:
                break
            seat = phase.next_revealer()
            secret = phase.commits[seat]
            if not secret.known:
                break
            opening = reveal(secret)
            self._append(self._make(Kind.REVEAL, seat, "", opening,
                                    self._resolve_if_last(seat, opening.value)))
        return self.records[start:]

    # ------------------------------------------------------------------ the referee
    def accept(self, fields: tuple, body: bytes, hash_: bytes, decoder) -> Record:
        """Re-derive one incoming record; append it if it is exactly what the rules give."""
        seq, kind, actor, command, sealed, raw_events = fields
        if chain(self.head_hash, body) != hash_:
            raise self._failure(fields, "hash chain broken: the record's hash does not match its content and the "
                       "record before it", "bad-hash")
        if seq != self._count:
            raise self._failure(fields, f"out of sequence: expected record {self._count}", "bad-seq")
        if (kind == Kind.SETUP) != (seq == 0):
            raise self._failure(fields, "the first record, and only the first, is the setup",
                                "bad-kind")
        if kind == Kind.COMMIT and self._plain_commit(actor, command, sealed, raw_events):
            # The commonest record has nothing to re-run: a well-formed commitment by a seat
            # that still has to choose.  Every field is checked; the hash covers the bytes.
            record = Record(seq, kind, actor, "", sealed, (), body, hash_)
            self.rederived += 1
            self._append(record)
            return record
        self._incoming_hash = hash_  # if the rules give this very body, this is its hash
        try:
            record = None
            if kind == Kind.REVEAL and seq:
                events = self._due_reveal(actor, command, sealed)
                if events == () and not raw_events:  # every field checked, nothing to re-encode
                    record = Record(seq, kind, actor, "", sealed, (), body, hash_)
                elif events is not None:
                    record = self._make(Kind.REVEAL, actor, "", sealed, events)
            if record is None:
                record = self._rederive(seq, kind, actor, command, sealed)
            rederived = True
        except SecretUnavailable:
            record = self._trust_chain(seq, kind, actor, command, sealed, raw_events, body,
                                       hash_, decoder,
                                       lambda reason, code: self._failure(fields, reason, code))
            rederived = False
        except BoardstateError as exc:
            raise self._failure(fields, exc.reason, exc.code, exc.rule) from None
        finally:
            self._incoming_hash = None
        if not rederived:
            self._folded = None
        if rederived:
            if record.body != body:
                raise self._failure(fields, _difference(record, body, decoder), "not-derived")
            self.rederived += 1  # same body on the same chain: the hash checked above is its hash
        self._append(record)
        return record

    def _failure(self, fields, reason, code, rule=ENGINE_RULE) -> VerificationFailed:
        seq, kind, actor, command, sealed, raw_events = fields
        label = self.players[actor] if 0 <= actor < len(self.players) else ""
        shown = command or (sealed.value if isinstance(sealed, Reveal) else "")
        return VerificationFailed(reason, code=code, rule=rule, seq=seq, actor=label,
                                  command=shown if isinstance(shown, str) else repr(shown))

    def _due_reveal(self, actor, command, sealed) -> tuple | None:
        """For the reveal that is due from ``actor``: its events (the resolution if it is the
        last one, else none).  None if no reveal is due from ``actor`` (the caller says why)."""
        phase = self.phase()
        if phase is None or not phase.all_committed or actor != phase.next_revealer():
            return None
        if type(sealed) is not Reveal or command:
            raise IllegalCommand("malformed reveal", code="bad-reveal", rule=ENGINE_RULE)
        committed = phase.commits[actor]
        # A commitment whose opening this copy holds was checked when it was made or read: a
        # reveal that repeats that opening needs no second hash.
        same = committed.known and committed.salt == sealed.salt and committed.value == sealed.value
        if sealed.commitment != committed.commitment or not (same or sealed.checks()):
            raise IllegalCommand("the reveal does not open the player's commitment",
                                 code="bad-reveal", rule=ENGINE_RULE)
        if type(sealed.value) is not str:
            raise IllegalCommand("the revealed choice is not a command", code="bad-reveal",
                                 rule=ENGINE_RULE)
        return self._resolve_if_last(actor, sealed.value)

    def _plain_commit(self, actor, command, sealed, raw_events) -> bool:
        phase = self.phase()
        return (phase is not None and not phase.all_committed and actor not in phase.commits
                and actor in phase.seats and type(sealed) is Secret and sealed.owners == 1 << actor
                and not command and not raw_events)

    def _rederive(self, seq, kind, actor, command, sealed) -> Record:
        if kind == Kind.SETUP:  # (accept has checked that this is record 0)
            return self._make(Kind.SETUP, NO_ACTOR, "", None,
                              tuple(self.rules.start(self.state, self._rng(seq))))
        phase = self.phase()
        self._check_turn(actor)
        if kind == Kind.MOVE:
            if phase is not None:
                raise IllegalCommand("an open move during sealed choices", code="not-sealed",
                                     rule=ENGINE_RULE)
            command, events = self._decide_single(actor, command)
            return self._make(Kind.MOVE, actor, command, None, events)
        if phase is None:
            raise IllegalCommand("a sealed record outside sealed choices", code="not-sealed",
                                 rule=ENGINE_RULE)
        if kind == Kind.COMMIT and not phase.all_committed and isinstance(sealed, Secret) \
                and sealed.owners == 1 << actor and not command:
            return self._make(Kind.COMMIT, actor, "", sealed, ())
        if kind == Kind.COMMIT:
            raise IllegalCommand("malformed commitment", code="bad-commit", rule=ENGINE_RULE)
        raise IllegalCommand("a reveal before every choice is committed", code="early-reveal",
                             rule=ENGINE_RULE)

    def _trust_chain(self, seq, kind, actor, command, sealed, raw_events, body, hash_, decoder,
                     fail) -> Record:
        """A copy without the seed cannot re-run the dice: check what it can, keep the record."""
        try:
            events = decoder.events(raw_events)
        except (ValueError, TypeError) as exc:
            raise fail(f"undecodable events ({exc})", "corrupt") from None
        record = Record(seq, kind, actor, command, sealed, events, body, hash_)
        for value in sealed_values(record):
            if type(value) is Reveal and not value.checks():
                raise fail("a revealed value does not match its commitment", "bad-reveal")
        return record

    # ------------------------------------------------------------------ loading our own file
    def load(self, fields: tuple, body: bytes, hash_: bytes, decoder) -> Record:
        """Append a record read from our own file: chain checked, events folded, no re-run."""
        seq, kind, actor, command, sealed, raw_events = fields
        if chain(self.head_hash, body) != hash_ or seq != self._count:
            raise ValueError(f"record {seq}: hash chain broken")
        if not (kind == Kind.SETUP) == (seq == 0) or not -1 <= actor < len(self.players):
            raise ValueError(f"record {seq}: malformed")
        record = Record(seq, kind, actor, command, sealed, decoder.events(raw_events), body, hash_)
        if kind != Kind.SETUP:
            phase = self.phase()
            if (kind in (Kind.COMMIT, Kind.REVEAL)) != (phase is not None):
                raise ValueError(f"record {seq}: sealed choice out of place")
        self._append(record)
        return record

    # ------------------------------------------------------------------ internals
    def _rng(self, seq: int):
        seed = self.header.seed
        return Rng(seed, b"record:%d" % seq) if seed is not None else SealedRng()

    def _make(self, kind, actor, command, sealed, events) -> Record:
        return make_record(self.table, self.head_hash, self._count, kind, actor, command,
                           sealed, tuple(events), self._incoming_hash)

    def _check_turn(self, seat: int) -> None:
        acting = self.to_act()
        if seat in acting:
            return
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalCommand(f"the game is over ({outcome.reason})", code="game-over",
                                 rule=ENGINE_RULE)
        if not 0 <= seat < len(self.players):
            raise IllegalCommand("no such seat", code="unknown-player", rule=ENGINE_RULE)
        phase = self._phase
        if phase is not None and seat in phase.commits and not phase.all_committed:
            why = f"{self.players[seat]} has already committed a choice this round"
        else:
            names = ", ".join(self.players[s] for s in acting) or "nobody"
            why = f"it is not {self.players[seat]}'s turn (to act: {names})"
        raise IllegalCommand(why, code="not-your-turn", rule=ENGINE_RULE)

    def _checked(self, seat: int, text: str):
        """``text`` parsed for ``seat`` and held to the module's rules: the command."""
        command = self.rules.parse(self.state, seat, text)
        self.rules.validate(self.state, seat, command)
        return command

    def _canonical(self, seat: int, text: str) -> str:
        """The canonical notation of ``text`` as a legal command of ``seat``."""
        return self.rules.notation(self.state, seat, self._checked(seat, text))

    def _decide_single(self, seat: int, text: str):
        command = self._checked(seat, text)
        notation = self.rules.notation(self.state, seat, command)
        return notation, self._decide(((seat, command),))

    def _resolve_if_last(self, seat: int, text: str) -> tuple:
        phase = self._phase
        rules, state = self.rules, self.state
        phase.parsed[seat] = self._checked(seat, text)
        if len(phase.revealed) + 1 < phase.size:
            return ()
        for s, chosen in phase.revealed.items():  # (a copy read from file parses them here)
            if s not in phase.parsed:
                phase.parsed[s] = rules.parse(state, s, chosen)
        moves = tuple((s, phase.parsed[s]) for s in phase.seats)
        return self._decide(moves)

    def _decide(self, moves) -> tuple:
        """The module's events for ``moves``.  A module that offers ``decide_evolve`` also gives
        the state after them; ``_append`` then uses it instead of folding the same events again
        (the conformance suite holds the two equal)."""
        rng = self._rng(self._count)
        decide_evolve = self._decide_evolve
        if decide_evolve is None:
            return tuple(self.rules.decide(self.state, moves, rng))
        events, state = decide_evolve(self.state, moves, rng)
        events = tuple(events)
        self._folded = (events, state)
        return events

    def _append(self, record: Record) -> None:
        kind = record.kind
        if kind == Kind.COMMIT:
            self.phase().commits[record.actor] = record.sealed
        elif kind == Kind.REVEAL:
            phase = self._phase
            phase.revealed[record.actor] = record.sealed.value
            if len(phase.revealed) == phase.size:
                self._phase = None
        folded, self._folded = self._folded, None
        if folded is not None and folded[0] is record.events:
            self.state = folded[1]
        else:
            evolve = self.rules.evolve
            state = self.state
            for ev in record.events:
                state = evolve(state, ev)
            self.state = state
        if self.keep_records:
            self.records.append(record)
        self._count += 1
        self.head_hash = record.hash


def _difference(record: Record, body: bytes, decoder) -> str:
    """Say what differs between the recorded body and the one the rules give."""
    try:
        recorded = decoder.fields(body)
    except ValueError:
        return "the record does not decode"
    if recorded[3] != record.command:
        return f"the recorded command text differs from its canonical form {record.command!r}"
    try:
        events = decoder.events(recorded[5])
    except (ValueError, TypeError):
        return "the recorded events do not decode"
    for i, (want, got) in enumerate(zip(record.events, events)):
        if want != got and not _same_committed(want, got):
            return (f"event {i + 1} differs from what the rules give: recorded "
                    f"{_show(got)}, rules give {_show(want)}")
    if len(record.events) != len(events):
        return (f"the record holds {len(events)} events, the rules give "
                f"{len(record.events)}")
    return "the record differs from what the rules give"


def _same_committed(a, b) -> bool:
    return type(a) is type(b) and all(
        _committed(x) == _committed(y)
        for x, y in zip(type(a).__event_fields__(a), type(b).__event_fields__(b)))


def _committed(value):
    if isinstance(value, Secret):
        return ("secret", value.commitment, value.owners)
    if isinstance(value, tuple):
        return tuple(_committed(v) for v in value)
    return value


def _show(ev) -> str:
    name = type(ev).__event_name__
    parts = []
    for f, v in zip(attrs.fields(type(ev)), type(ev).__event_fields__(ev)):
        parts.append(f"{f.name}={_committed(v)!r}"[:60])
    return f"{name}({', '.join(parts)})"
