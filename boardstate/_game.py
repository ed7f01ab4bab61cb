"""A game in play: header, log and live state, with the engine's checks in one place.

Every way a record enters the log goes through here: a local command (``play``), an incoming
record the referee has re-derived (``boardstate._rederive.Referee``), or a record read back from
our own file (``load``).  The engine checks game over, whose turn, and the sealed and face-down
choices; the module checks its own rules (through ``Decider``).
"""

from __future__ import annotations

import os

import attrs

from ._canonical import canonical_region
from ._commitments import Commitments
from ._cuts import cut_to
from ._decider import ENGINE_RULE, Decider
from ._errors import (
    BoardstateError,
    CorruptFile,
    GameFileError,
    IllegalCommand,
    InvalidCommand,
    SecretUnavailable,
    VerificationFailed,
)
from ._events import EventCodes
from ._fileformat import _why
from ._header import Header
from ._kinds import COMMIT, DEAL, JOIN, MOVE, REVEAL, SETUP, Kind
from ._modes import ModeQuestions
from ._module import FACE_DOWN, OPEN
from ._records import NO_ACTOR, Record, chain, make_record
from ._rederive import Referee
from ._sealed import REVEAL_WORD, FaceDown, SealedChoices, SealedRound
from ._secrets import make_secret
from ._takeback import Takebacks, states_after
from ._talk import FORFEIT, Talk, canonical
from ._words import revision_note
from .trust import PLUGS, plug_for


class Game(SealedChoices, ModeQuestions):
    """One game: ``records`` (the log), ``state`` (the fold of its events) and ``header``."""

    def __init__(
        self, module, header: Header, *, codes: EventCodes | None = None, keep_records: bool = True
    ) -> None:
        self.module = module
        self.decider = decider = Decider(module)
        self.rules = module.rules
        self.header = header
        self.codes = codes if codes is not None else EventCodes(module.spec.events, header.events)
        self.keep_records = keep_records  # False: the referee streams, memory stays flat
        self.records: list[Record] = []
        self.state = decider.initial(header.options, header.players, header.revision)
        self.head_hash = header.game_id
        self.round: SealedRound | None = None
        self.face_down: dict[int, FaceDown] = {}
        self.talk = Talk()  # notes, resignations, draws, takebacks: the engine's own records
        self.takebacks = Takebacks()  # the state before each player's last turn
        self._count = 0
        self._facts_of = self._facts_cache = None
        # What the trust mode adds (joins, keys, waiting decisions, requests): its plug,
        # chosen once from the header (``boardstate.trust``).
        self.trust = plug_for(header)
        self.committed = Commitments()  # every commitment a commit or deal has made
        self.signer = None  # this copy's player's signing function (bytes -> signature)
        # The records from ``region_start`` on commute (joins, deals, a sealed round's commits
        # and reveals) and are not settled yet: a peer copy keeps them in canonical order
        # (``_canonical.canonical_region``), and its move files carry them from there.
        self.region_start = 0
        self.keep_canonical = False  # a peer copy adding records: each step put in canonical order
        self._last_cut: list | None = None  # [count, hash, copy] of the game ``truncate`` left

    # ------------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        module,
        players,
        raw_options,
        seed: bytes | None = None,
        created: str | None = None,
        *,
        seed_salt: bytes | None = None,
        trust: str = "open",
        seat: int | None = None,
        peer_secret: bytes | None = None,
        judge_key: bytes | None = None,
        protocol: int | None = None,
        deadline=None,
    ) -> Game:
        """A new game.  ``seed_salt`` (default: random) salts the seed's commitment, so that no
        copy without the seed can test a guess of it; give one only to make identical files.

        ``trust="peer"``: no seed; the file is the copy of ``seat`` (the creator), holding
        their private secret (``peer_secret``, default random); every player joins next.

        ``trust="hosted"``: the judge's copy (``judge_key``: the judge's Ed25519 public key;
        ``peer_secret``: the judge's own secret, for letters); every player joins next.

        ``protocol``: a peer game's protocol (default: the newest, ``_header.PEER_PROTOCOLS``).
        ``deadline``: a hosted game's time per move (``_deadline.Deadline``)."""
        plug = PLUGS.get(trust, PLUGS["open"])  # (an unknown mode: the header refuses it)
        peer_secret, judge = plug.creator_keys(peer_secret, judge_key)
        header = Header.for_new_game(
            module,
            players,
            raw_options,
            seed,
            created,
            seed_salt,
            trust=trust,
            judge=judge,
            protocol=protocol,
            deadline=deadline,
        )
        game = cls(module, plug.creators_copy(header, seat, peer_secret))
        events, state = game.start_events()
        game.append(game.make(SETUP, NO_ACTOR, "", None, events), state)
        return game

    @classmethod
    def of_file(cls, raw, *, keep_records: bool = True) -> Game:
        """An empty game for a file's header (a ``RawFile``), to fold or referee its records
        onto; a header whose options do not set up a game is a corrupt file."""
        codes = raw.codes()
        try:
            return cls(raw.module, raw.header, codes=codes, keep_records=keep_records)
        except BoardstateError as exc:
            raise CorruptFile(f"{raw.path}: corrupt header ({exc.reason})") from None
        except MemoryError:
            raise
        except Exception as exc:  # the module's ``initial`` on options it never made
            raise CorruptFile(
                f"{raw.path}: corrupt header (its options do not set up a "
                f"{raw.header.module} game: {_why(exc)})"
            ) from None

    @classmethod
    def rederived(cls, raw) -> Game:
        """A copy's own file read back by running the rules again (what waits for whom is
        known only so); its records were checked when they came in, so their signatures are
        not checked again.  A failure is one line."""
        game = cls.of_file(raw)
        try:
            Referee(game, signed=False).run(raw.iter_records())
        except VerificationFailed as exc:
            raise GameFileError(f"{raw.path}: corrupt: {exc}", code="corrupt") from None
        except GameFileError as exc:
            raise type(exc)(f"{raw.path}: corrupt: {exc.reason}", code=exc.code) from None
        return game

    def start_events(self) -> tuple:
        """The setup's ``(events, state after them)`` (in the peer mode, those the rules give
        before they need the players' randomness: the rest waits for every join)."""
        return self.trust.start(self)

    # ------------------------------------------------------------------ queries
    @property
    def players(self) -> tuple[str, ...]:
        return self.header.players

    @property
    def seq(self) -> int:
        """The number the next record will have (so also how many records there are)."""
        return self._count

    @property
    def last_seq(self) -> int:
        """The number of the last record (-1 before the setup): what a move file is based on,
        what another copy has received, what a status line says the game stands after."""
        return self._count - 1

    def seat(self, name: str) -> int:
        try:
            return self.header.players.index(name)
        except ValueError:
            raise InvalidCommand(
                f"no player {name!r} in this game (players: {', '.join(self.header.players)})",
                code="unknown-player",
            ) from None

    def facts(self) -> tuple:
        """``(outcome, module to_act, choice)`` of the current state, computed once."""
        state = self.state
        if self.talk.ended is not None:  # (a resignation or an agreed draw ends any game)
            return (self.talk.ended, (), OPEN)
        if self._facts_of is not state:
            decider = self.decider
            outcome = decider.outcome(state)
            if outcome is not None:
                self._facts_cache = (outcome, (), OPEN)
            else:
                self._facts_cache = (outcome, tuple(decider.to_act(state)), decider.choice(state))
            self._facts_of = state
        return self._facts_cache

    def outcome(self):
        return self.facts()[0]

    def to_act(self) -> tuple[int, ...]:
        trust = self.trust
        if not trust.adds_nothing and trust.waits(self):
            return trust.waiting_for(self)
        phase = self.round  # (a round under way means the game is on)
        return self.facts()[1] if phase is None else phase.acting

    # ------------------------------------------------------------------ what the mode adds
    def revision_note(self) -> str:
        """Which rules revision an older game is played under and what changed since."""
        return revision_note(self.module.spec, self.header.revision)

    def name_of(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    # ------------------------------------------------------------------ pictures (Jupyter)
    def position(self, index: int | None = None, seat: int | str | None = None):
        """The state after record ``index`` (default: the current state; negative counts from
        the end, as in a list) as ``seat`` sees it (a seat or a player's name; None: a
        spectator, who sees no secret): a ``boardstate.Position``, which a notebook displays
        as the module's picture."""
        from ._pictures import Position

        if index is None:
            index = self._count - 1
        elif type(index) is int and index < 0:
            index += self._count
        if type(seat) is str:
            seat = self.seat(seat)
        return Position(self, index, seat)

    def _repr_svg_(self) -> str | None:
        """The current position as this copy's player sees it (a full game: a spectator), as
        the module's SVG; None when the module draws none (IPython then shows the HTML)."""
        return self.position(seat=self.header.viewer).svg()

    def _repr_html_(self) -> str:
        """The game in a notebook: module, players, records, where it stands, the current
        position as this copy's player sees it (a full game: a spectator), the last moves."""
        from ._pictures import game_html

        return game_html(self)

    def legal(self, seat: int) -> list[str]:
        """The commands ``seat`` may give now, in notation (empty when it is not their turn)."""
        if seat not in self.to_act():
            return []
        if self.reveal_due():
            return [REVEAL_WORD]
        rules, state = self.rules, self.state
        try:
            return [rules.notation(state, seat, c) for c in rules.legal(state, seat)]
        except (BoardstateError, MemoryError):  # (out of memory is no fault of the file)
            raise
        except Exception as exc:  # (a state folded from a forged file, or a view's sealed cards)
            why = " ".join(f"{type(exc).__name__}: {exc}".split())[:120]
            raise CorruptFile(
                f"the rules cannot list {self.players[seat]}'s commands in the state this "
                f"file folds to ({why})"
            ) from None

    def is_legal(self, seat: int, text: str) -> bool:
        """Would ``text`` be accepted from ``seat`` now?  (Checks without deciding anything.)"""
        try:
            self.check_turn(seat)
            if self.reveal_due():
                return text.strip().lower() == REVEAL_WORD
            self.canonical(seat, text)
        except BoardstateError:
            return False
        return True

    # ------------------------------------------------------------------ local play
    def play(self, seat: int, text: str, *, entropy=os.urandom) -> list[Record]:
        """Check ``text`` as ``seat``'s command and append its records (with the reveals that
        fall due and whose openings this copy holds)."""
        self.check_writable()
        start = self._count
        said = canonical(text)
        if said is not None:  # a note, a resignation, a draw: any time, in turn or not
            self.check_talk(seat, said)
            self.append(self.make(MOVE, seat, said, None, ()))
            return self.records[start:]
        self.check_can_act(seat)
        if self.reveal_due():
            if text.strip().lower() != REVEAL_WORD:
                raise IllegalCommand(
                    f"{self.players[seat]} has committed a choice and must "
                    f"reveal it now (command 'reveal')",
                    code="must-reveal",
                    rule=ENGINE_RULE,
                )
            if not self.held_reveal(seat):
                raise SecretUnavailable(
                    f"this copy does not hold {self.players[seat]}'s sealed "
                    f"choice: reveal it from the copy it was made on",
                    code="no-opening",
                )
        elif not self.open_move_due():
            secret = make_secret(self.canonical(seat, text), entropy(16), 1 << seat)
            events, state = self.commit_events(seat, secret)
            self.append(self.make(COMMIT, seat, "", secret, events), state)
        else:
            command = self.checked(seat, text)
            notation = self.rules.notation(self.state, seat, command)
            events, state = self.decide(((seat, command),))
            self.append(self.make(MOVE, seat, notation, None, events), state)
        self.reveal_held()
        self.deal_held()
        return self.records[start:]

    def states(self) -> list:
        """The state after each record (a takeback's acceptance: the state before the turn it
        took back), to step through the game."""
        return states_after(self)

    def mark_shared(self, seq: int) -> None:
        """Records up to ``seq`` are in another copy (mailed, or received): ``undo`` leaves
        them alone."""
        if self.header.kind == "game" and (self.header.shared or -1) < seq:
            self.header = attrs.evolve(self.header, shared=seq)

    def undoable(self, seat: int) -> int:
        """How many trailing records ``seat`` may take back: its own, none of them shared."""
        shared = self.header.shared
        if shared is None:
            return 0
        n = self._count
        while n - 1 > shared and self.records[n - 1].actor == seat:
            n -= 1
        return self._count - n

    def truncate(self, count: int) -> None:
        """Keep only the first ``count`` records (the live state folded again from them): a
        merge of sealed choices rebuilds the log from the record where two copies parted
        (``_cuts``)."""
        cut_to(self, count)

    # ------------------------------------------------------------------ the engine's checks
    def check_can_act(self, seat: int) -> None:
        """``seat`` may act now: it is their turn, and the game waits for nobody's join or
        share of the randomness."""
        self.check_turn(seat)
        if self.due():
            raise IllegalCommand(
                f"the game is {self.waiting_text()}: nothing else can happen first",
                code="waiting",
                rule=ENGINE_RULE,
            )

    def check_talk(self, seat: int, command: str) -> None:
        """An engine-word command from ``seat``: a player of the game, and sayable now."""
        if not 0 <= seat < len(self.players):
            raise IllegalCommand("no such player", code="unknown-player", rule=ENGINE_RULE)
        self.talk.check(self.players, seat, command, self.outcome() is not None)
        if command == FORFEIT:  # (the judge's deadline record only: the plug says when)
            self.trust.check_forfeit(self, seat)
        self.takebacks.check(self, seat, command)

    def check_writable(self) -> None:
        """Refuse to append to a file whose events are written under an older schema."""
        if self.codes.stale:
            raise _needs_migration(f"older event schemas ({', '.join(self.codes.stale)})")

    def check_turn(self, seat: int) -> None:
        acting = self.to_act()
        if seat in acting:
            return
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalCommand(
                f"the game is over ({outcome.reason})", code="game-over", rule=ENGINE_RULE
            )
        if not 0 <= seat < len(self.players):
            raise IllegalCommand("no such seat", code="unknown-player", rule=ENGINE_RULE)
        phase = self.round
        if phase is not None and seat in phase.commits and not phase.all_committed:
            why = f"{self.players[seat]} has already committed a choice this round"
        else:
            names = ", ".join(self.players[s] for s in acting) or "nobody"
            why = f"it is not {self.players[seat]}'s turn (to act: {names})"
        raise IllegalCommand(why, code="not-your-turn", rule=ENGINE_RULE)

    def checked(self, seat: int, text: str):
        """``text`` parsed for ``seat`` and held to the module's rules: the command."""
        command = self.rules.parse(self.state, seat, text)
        self.decider.validate(self.state, seat, command)
        return command

    def canonical(self, seat: int, text: str) -> str:
        """The canonical notation of ``text`` as a legal command of ``seat``."""
        return self.rules.notation(self.state, seat, self.checked(seat, text))

    # ------------------------------------------------------------------ loading our own file
    def load(self, fields: tuple, body: bytes, hash_: bytes, decoder) -> Record:
        """Append a record read from our own file: chain checked, events folded, no re-run."""
        seq, kind, actor, command, sealed, raw_events = fields
        if chain(self.head_hash, body) != hash_ or seq != self._count:
            raise CorruptFile(f"record {seq}: hash chain broken")
        if not (kind == SETUP) == (seq == 0) or not -1 <= actor < len(self.players):
            raise CorruptFile(f"record {seq}: malformed")
        record = Record(seq, kind, actor, command, sealed, decoder.events(raw_events), body, hash_)
        if kind != SETUP:
            if kind == MOVE and canonical(command) == command:
                ok = self.outcome() is None
            elif kind == MOVE:
                ok = self.open_move_due()
            elif kind == COMMIT:
                ok = self.round is not None or self.facts()[2] == FACE_DOWN
            else:
                ok = self.reveal_due() and self.pending_commitment(actor) is not None
            if not ok:
                raise CorruptFile(f"record {seq}: a {Kind(kind).name.lower()} record out of place")
        self.append(record)
        return record

    # ------------------------------------------------------------------ internals
    def rng(self, seq: int):
        return self.trust.rng(self, seq)

    def decide(self, moves, openings=None) -> tuple:
        """The module's ``(events, state after them)`` for ``moves``, in the next record (in
        the peer mode, those it gives before it needs what the players have to supply)."""
        return self.trust.decide(self, moves, openings)

    def make(self, kind, actor, command, sealed, events, hash_: bytes | None = None) -> Record:
        """The next record, with what the trust mode adds (a signature, letters, a request)."""
        record = self._make(kind, actor, command, sealed, events, hash_)
        trust = self.trust
        return record if trust.adds_nothing else trust.seal(self, record)

    def remade(self, kind, actor, sealed, events, signature: bytes, letters=()) -> Record:
        """A commit, reveal, join or deal made again at the next place by a merge of sealed
        choices (``merge_sealed``): it keeps what its actor signed."""
        record = self._make(kind, actor, "", sealed, events)
        record = record._replace(signature=signature, letters=tuple(letters))
        return self.trust.remade(self, record)

    def open_letters(self, actor: int, seq: int, letters, openings: tuple) -> tuple:
        """``openings`` with those of the letters addressed to this copy's player added."""
        return self.trust.open_letters(self, actor, seq, letters, openings)

    def _make(self, kind, actor, command, sealed, events, hash_: bytes | None = None) -> Record:
        try:
            return make_record(
                self.codes,
                self.head_hash,
                self._count,
                kind,
                actor,
                command,
                sealed,
                tuple(events),
                hash_,
            )
        except KeyError as exc:  # an event the file's table holds under no installed schema
            name = getattr(exc.args[0], "__event_name__", exc.args[0])
            raise _needs_migration(f"no code for the event {name!r} as installed") from None

    def append(self, record: Record, state=None) -> None:
        """Add ``record`` to the log.  ``state``: the state after its events, when the caller has
        it from ``decide`` (else the events are folded here)."""
        kind = record.kind
        commuting = kind in (JOIN, DEAL) or (kind in (COMMIT, REVEAL) and self.round is not None)
        trust = self.trust
        quiet = trust.adds_nothing  # (the open mode: nothing of it asked)
        if not quiet:
            trust.on_request(self, record)
        if kind == MOVE and not record.events and canonical(record.command) == record.command:
            self.takebacks.said(self, record)  # (a takeback accepted: the turn is taken back)
            self._facts_of = None
            if self.keep_records:
                self.records.append(record)
            self._count += 1
            self.head_hash = record.hash
            self.region_start = self._count  # (the engine's words do not commute)
            return
        if kind != SETUP and record.actor >= 0:
            if kind in (MOVE, COMMIT):
                self.takebacks.moving(self, record)
            self.talk.moved(record.actor)
        if not quiet:
            trust.on_append(self, record)
        self.note_sealed(record)
        if state is None:
            evolve = self.decider.evolve
            state = self.state
            for ev in record.events:
                state = evolve(state, ev)
        self.state = state
        if self.keep_records:
            self.records.append(record)
        self._count += 1
        self.head_hash = record.hash
        joined = quiet or trust.joined(self)
        # (the plug's ``pending`` read directly: ``Game.pending`` is a property)
        if self.round is None and trust.pending is None and joined:
            self.open_round()
        if not commuting:
            self.region_start = self._count
        elif trust.pending is None and joined and (self.round is None or not self.round.commits):
            # A step is complete (every join, every share of the randomness asked for, every
            # choice of a round): its records go in canonical order before anything is built
            # on them, so every copy that holds them holds the same log from here on.
            start, self.region_start = self.region_start, self._count
            if self.keep_canonical and len({r.actor for r in self.records[start:]}) > 1:
                canonical_region(self, start)


def _needs_migration(why: str) -> GameFileError:
    return GameFileError(
        f"this game file has {why}: run 'boardstate migrate FILE -o NEW' to "
        f"rewrite it under the installed event schemas before adding moves",
        code="needs-migration",
    )
