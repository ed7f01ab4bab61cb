"""A game in play: header, log and live state, with the engine's checks in one place.

Every way a record enters the log goes through here: a local command (``play``), an incoming
record the referee has re-derived (``boardstate._referee.Referee``), or a record read back from
our own file (``load``).  The engine checks game over, whose turn, and the sealed and face-down
choices; the module checks its own rules (through ``Decider``).
"""

from __future__ import annotations

import os

import attrs

from ._decider import ENGINE_RULE, Decider
from ._errors import (
    BoardstateError,
    CorruptFile,
    GameFileError,
    IllegalCommand,
    InvalidCommand,
    SecretUnavailable,
)
from ._events import EventCodes
from ._header import Header
from ._hosted import (
    Request,
    hosted_key,
    judged_message,
    nonce_of,
    open_opening,
    seal_opening,
)
from ._module import HIDDEN, Choice
from ._peer import (
    LINK_BYTES,
    NeedsInput,
    PeerRng,
    Supplies,
    arrangement,
    chain_of,
    epoch_key,
    exchange_public,
    link_follows,
    read_letters,
    signed_message,
    write_letters,
)
from ._records import NO_ACTOR, Kind, Record, chain, make_record
from ._rng import Rng, SealedRng
from ._secrets import Reveal, Secret, make_secret, reveal
from ._talk import Talk, canonical

REVEAL_WORD = "reveal"


class SealedRound:
    """Simultaneous sealed choices: every seat commits; only then does anyone reveal.

    Once every choice is committed, every seat may reveal, in any order (two players by mail
    reveal at once, and the referee merges their files: ``merge_sealed``); ``acting`` lists the
    seats still to reveal, the last to commit first (it may reveal in the same move file), then
    the others in seat order, which is also the order a merge puts reveals in.  The last reveal
    resolves.  ``acting`` is kept up to date as records arrive: the referee asks it for every
    record of a long log.
    """

    __slots__ = (
        "seats",
        "size",
        "commits",
        "revealed",
        "parsed",
        "start",
        "acting",
        "all_committed",
    )

    def __init__(self, seats: tuple[int, ...], start: int) -> None:
        self.seats = seats
        self.start = start  # the sequence number of the round's first record
        self.size = len(seats)
        self.commits: dict[int, Secret] = {}
        self.revealed: dict[int, str] = {}
        self.parsed: dict[int, object] = {}  # seat -> the revealed command, parsed once
        self.acting = seats  # waiting to commit; then the next to reveal
        self.all_committed = False

    def commit(self, seat: int, secret: Secret) -> None:
        self.commits[seat] = secret
        self.all_committed = len(self.commits) == self.size
        if self.all_committed:  # the last to commit first, then the others in seat order
            self.acting = (seat,) + tuple([s for s in self.seats if s != seat])
        else:
            self.acting = tuple([s for s in self.seats if s not in self.commits])

    def reveal(self, seat: int, value: str) -> None:
        self.revealed[seat] = value
        self.acting = tuple([s for s in self.acting if s != seat])


class FaceDown:
    """A command committed face down: the commitment, and the state it was chosen in (the
    command is checked against that state when it is turned over)."""

    __slots__ = ("secret", "state")

    def __init__(self, secret: Secret, state) -> None:
        self.secret = secret
        self.state = state


class Pending:
    """A decision waiting for what the players supply (the peer mode; ``_peer``): the record
    that asked (``seq``), what to re-run (``moves``, None for the setup) on which state, and
    what it has been given so far."""

    __slots__ = (
        "seq",
        "moves",
        "base",
        "openings",
        "actor",
        "emitted",
        "supplies",
        "links",
        "need",
    )

    def __init__(self, seq, moves, base, openings, actor) -> None:
        self.seq = seq
        self.moves = moves
        self.base = base
        self.openings = openings
        self.actor = actor
        self.emitted = 0  # events given out so far (in the records from ``seq`` on)
        self.supplies = Supplies()
        self.links: dict[int, bytes] = {}  # the epoch being collected: seat -> link
        self.need: tuple | None = None

    def copy(self) -> Pending:
        out = Pending(self.seq, self.moves, self.base, self.openings, self.actor)
        out.emitted, out.need, out.links = self.emitted, self.need, dict(self.links)
        out.supplies.keys = list(self.supplies.keys)
        out.supplies.arrangements = {k: list(v) for k, v in self.supplies.arrangements.items()}
        return out


class Game:
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
        self.talk = Talk()  # notes, resignations, draws: the engine's own records
        self._count = 0
        self._facts_of = self._facts_cache = None
        # The peer mode (docs/trust.md): who joined with which key, their chains' last links.
        self.pending: Pending | None = None
        self._next_pending = None  # (seq, Pending | None): what the record being made leaves
        self.keys: dict[int, bytes] = {}  # seat -> Ed25519 public key
        self.committed: set[bytes] = set()  # every commitment a commit or deal has made
        self.exchange: dict[int, bytes] = {}  # seat -> X25519 public key (for letters)
        self.last_link: dict[int, bytes] = {}
        self.links_given: dict[int, int] = {}
        self.signer = None  # this copy's player's signing function (bytes -> signature)
        self.audit_secrets: dict[int, bytes] = {}  # the end-of-game audit: published secrets
        self.unmade = False  # the last decision ran with secrets another copy made
        # The hosted mode: the key of the randomness (the judge's copy, once all have joined),
        # the requests used so far, and the last record each seat acted in.
        self.hosted_key: bytes | None = None
        self.requests: set[bytes] = set()
        self.last_acted: dict[int, int] = {}
        self._request = None  # the judge: the request the record being made answers
        self.reveal_requests: dict[bytes, tuple] = {}  # commitment -> (base, reveal signature)
        # The records from ``region_start`` on commute (joins, deals, a sealed round's commits
        # and reveals) and are not settled yet: a peer copy keeps them in canonical order
        # (``_referee.canonical_region``), and its move files carry them from there.
        self.region_start = 0
        self.keep_canonical = False  # a peer copy adding records: each step put in canonical order

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
    ) -> Game:
        """A new game.  ``seed_salt`` (default: random) salts the seed's commitment, so that no
        copy without the seed can test a guess of it; give one only to make identical files.

        ``trust="peer"``: no seed; the file is the copy of ``seat`` (the creator), holding
        their private secret (``peer_secret``, default random); every player joins next.

        ``trust="hosted"``: the judge's copy (``judge_key``: the judge's Ed25519 public key;
        ``peer_secret``: the judge's own secret, for letters); every player joins next."""
        judge = None
        if trust == "hosted":
            from ._peer import exchange_public

            peer_secret = peer_secret or os.urandom(LINK_BYTES)
            judge = (judge_key or b"") + exchange_public(peer_secret)
        header = Header.for_new_game(
            module, players, raw_options, seed, created, seed_salt, trust=trust, judge=judge
        )
        if header.hosted:
            header = attrs.evolve(header, peer_secret=peer_secret)
        if header.peer:
            if seat is None or not 0 <= seat < len(header.players):
                raise InvalidCommand(
                    "a peer game is made by one of its players (--as)", code="unknown-player"
                )
            header = attrs.evolve(
                header, viewer=seat, peer_secret=peer_secret or os.urandom(LINK_BYTES)
            )
        game = cls(module, header)
        events, state = game.start_events()
        game.append(game.make(Kind.SETUP, NO_ACTOR, "", None, events), state)
        return game

    def start_events(self) -> tuple:
        """The setup's ``(events, state after them)`` (in the peer mode, those the rules give
        before they need the players' randomness: the rest waits for every join)."""
        if self.header.signed:
            return self._advance(Pending(0, None, self.state, None, NO_ACTOR))
        return self.decider.start(self.state, self.rng(0))

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
            raise InvalidCommand(
                f"no player {name!r} in this game (players: {', '.join(self.header.players)})",
                code="unknown-player",
            ) from None

    def facts(self) -> tuple:
        """``(outcome, module to_act, choice)`` of the current state, computed once."""
        state = self.state
        if self.talk.ended is not None:  # (a resignation or an agreed draw ends any game)
            return (self.talk.ended, (), Choice.OPEN)
        if self._facts_of is not state:
            decider = self.decider
            outcome = decider.outcome(state)
            if outcome is not None:
                self._facts_cache = (outcome, (), Choice.OPEN)
            else:
                self._facts_cache = (outcome, tuple(decider.to_act(state)), decider.choice(state))
            self._facts_of = state
        return self._facts_cache

    def outcome(self):
        return self.facts()[0]

    def phase(self) -> SealedRound | None:
        """The sealed round under way, if the acting seats choose at once and sealed."""
        return self.round

    def to_act(self) -> tuple[int, ...]:
        if self.header.signed and (self.pending is not None or len(self.keys) < len(self.players)):
            return self.waiting_for()
        phase = self.round  # (a round under way means the game is on)
        return self.facts()[1] if phase is None else phase.acting

    # ------------------------------------------------------------------ the peer mode
    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits for to join, or to supply the waiting decision."""
        unjoined = tuple(s for s in range(len(self.players)) if s not in self.keys)
        if unjoined:
            return unjoined
        pending = self.pending
        if pending is None:
            return ()
        need = pending.need
        if need[0] == "arrange":
            return (need[1],)
        return tuple(s for s in range(len(self.players)) if s not in pending.links)

    def due(self) -> str:
        """What the next record of a peer or hosted game must be: "join", "link", "arrange"
        or ""."""
        if not self.header.signed:
            return ""
        if len(self.keys) < len(self.players):
            return "join"
        if self.pending is None:
            return ""
        return "link" if self.pending.need[0] == "links" else "arrange"

    def waiting_text(self) -> str:
        """In words, whom a peer game waits for (empty: nobody, play on)."""
        due = self.due()
        if not due:
            return ""
        names = ", ".join(self.players[s] for s in self.waiting_for())
        what = {
            "join": "to join",
            "link": "to add their share of the randomness (a deal record)",
            "arrange": "to arrange their face-down pile (a deal record)",
        }[due]
        return f"waiting for {names} {what}"

    def _mine(self, actor: int):
        """This copy's player and private secret, if this copy makes ``actor``'s records."""
        header = self.header
        if header.peer_secret is not None and header.viewer == actor:
            return (actor, header.peer_secret)
        if actor in self.audit_secrets:
            return (actor, self.audit_secrets[actor])
        return None

    def _advance(self, pending: Pending, rng=None) -> tuple:
        """Run a waiting decision with what it has been given: ``(events it gives now, state
        after them)``; what it still needs goes with the record being made."""
        rng = self._waiting_rng(pending) if rng is None else rng
        self.unmade = False
        decider = self.decider
        try:
            if pending.moves is None:
                events, state = decider.start(pending.base, rng)
            else:
                events, state = decider.decide(pending.base, pending.moves, rng, pending.openings)
            pending.need = None
        except NeedsInput as exc:
            events, state, pending.need = exc.partial, exc.state, exc.what
        self.unmade = getattr(rng, "unmade", False)  # (the referee takes those from the record)
        fresh = events[pending.emitted :]
        pending.emitted = len(events)
        self._next_pending = (self._count, pending if pending.need is not None else None)
        return fresh, state

    def _waiting_rng(self, pending: Pending):
        if self.header.peer:
            return PeerRng(pending.supplies, pending.seq, self._mine(pending.actor))
        return _JoinsFirst()  # (hosted: nothing is random before every nonce is in)

    def check_join(self, seat: int, sealed) -> tuple:
        """A join: a peer or hosted game's player, not joined yet, with a public key and a
        chain tip (hosted: a nonce).  The last join of a hosted game holds what the setup gave
        once the randomness could be keyed."""
        if not self.header.signed:
            raise IllegalCommand(
                "a join in a game where nobody joins (the open mode)",
                code="bad-join",
                rule=ENGINE_RULE,
            )
        if not 0 <= seat < len(self.players) or seat in self.keys:
            raise IllegalCommand(
                f"{self._name(seat)} has already joined", code="bad-join", rule=ENGINE_RULE
            )
        if (
            type(sealed) is not tuple
            or len(sealed) != 3
            or not all(type(v) is bytes and len(v) == LINK_BYTES for v in sealed)
        ):
            raise IllegalCommand(
                "malformed join (not [public key, chain tip, exchange key])",
                code="bad-join",
                rule=ENGINE_RULE,
            )
        if (
            self.header.hosted
            and self.pending is not None
            and len(self.keys) + 1 == len(self.players)
        ):
            nonces = dict(self.last_link)
            nonces[seat] = sealed[1]
            key = self._key_of(nonces)
            if key is None:
                raise SecretUnavailable("only the judge's copy holds the seed", code="no-seed")
            pending = self.pending.copy()
            return self._advance(pending, Rng(key, b"record:%d" % pending.seq))
        return (), self.state

    def _key_of(self, nonces: dict) -> bytes | None:
        """A hosted game's key, once every nonce is in (the judge's copy: it holds the seed)."""
        seed = self.header.seed
        if seed is None or len(nonces) < len(self.players):
            return None
        return hosted_key(seed, [nonces[s] for s in range(len(self.players))])

    def check_deal(self, seat: int, sealed) -> tuple:
        """A deal: the supply the waiting decision needs from ``seat``; ``(events, state)``:
        the rules' events once the supply lets the decision go on."""
        due = self.due()
        if due not in ("link", "arrange") or seat not in self.waiting_for():
            raise IllegalCommand(
                f"no deal is due from {self._name(seat)} now", code="early-deal", rule=ENGINE_RULE
            )
        pending = self.pending.copy()
        if type(sealed) is not tuple or len(sealed) != 2 or sealed[0] != due:
            raise IllegalCommand(
                f"malformed deal (a {due} is due)", code="bad-deal", rule=ENGINE_RULE
            )
        if due == "link":
            if not link_follows(sealed[1], self.last_link[seat]):
                raise IllegalCommand(
                    f"{self.players[seat]}'s link does not follow their chain (a share of "
                    f"the randomness other than the one committed at the join)",
                    code="bad-link",
                    rule=ENGINE_RULE,
                )
            pending.links[seat] = sealed[1]
            if len(pending.links) < len(self.players):
                self._next_pending = (self._count, pending)
                return (), self.state
            links = [pending.links[s] for s in range(len(self.players))]
            epoch = len(pending.supplies.keys)
            pending.supplies.keys.append(epoch_key(self.header.game_id, pending.seq, epoch, links))
            pending.links = {}
            return self._advance(pending)
        _, owner, _index, items = pending.need
        pile = sealed[1]
        if (
            type(pile) is not tuple
            or len(pile) != len(items)
            or not all(type(c) is Secret and c.owners == 1 << owner for c in pile)
        ):
            raise IllegalCommand(
                f"malformed deal: not {len(items)} cards owned by {self.players[owner]}",
                code="bad-deal",
                rule=ENGINE_RULE,
            )
        if any(c.known for c in pile) and sorted(map(repr, (c.value for c in pile))) != sorted(
            map(repr, items)
        ):
            raise IllegalCommand(
                "the arranged pile is not the cards asked for", code="bad-deal", rule=ENGINE_RULE
            )
        published = self.audit_secrets.get(owner)
        if published is not None:  # (the audit: a pile is made from its owner's secret)
            _, _, index, _ = pending.need
            made = arrangement(published, self.header.game_id, pending.seq, owner, index, items)
            if [c.commitment for c in made] != [c.commitment for c in pile]:
                raise IllegalCommand(
                    f"{self.players[owner]}'s pile was not arranged from their secret (a "
                    f"stacked pile)",
                    code="bad-deal",
                    rule=ENGINE_RULE,
                )
        if any(c.commitment in self.committed for c in pile):
            raise IllegalCommand(
                "a pile arranged before in this game (a signed deal replayed)",
                code="replayed",
                rule=ENGINE_RULE,
            )
        pending.supplies.arrangements.setdefault(owner, []).append(pile)
        return self._advance(pending)

    def supply(self, seat: int):
        """What this copy supplies as ``seat``'s next deal (it holds their private secret)."""
        secret = self.header.peer_secret
        if secret is None or self.header.viewer != seat:
            raise SecretUnavailable(
                f"this copy does not hold {self.players[seat]}'s secret: deal from their copy",
                code="no-opening",
            )
        if self.due() == "link":
            return ("link", chain_of(secret)[self.links_given.get(seat, 0) + 1])
        _, owner, index, items = self.pending.need
        return (
            "arrange",
            arrangement(secret, self.header.game_id, self.pending.seq, owner, index, items),
        )

    def join(self, seat: int, public_key: bytes) -> list[Record]:
        """This copy's player joins (``public_key``: theirs, to check their signatures), then
        deals what is due from them."""
        start = self._count
        secret = self.header.peer_secret
        sealed = (public_key, chain_of(secret)[0], exchange_public(secret))
        events, state = self.check_join(seat, sealed)
        self.append(self.make(Kind.JOIN, seat, "", sealed, events), state)
        self.deal_held()
        return self.records[start:]

    def deal_held(self) -> list[Record]:
        """Append the deals due from this copy's player (a peer game's copy supplies its
        share as soon as it is asked for; nothing in it is a choice)."""
        start = self._count
        me = self.header.viewer
        while (
            self.header.peer_secret is not None
            and self.due() in ("link", "arrange")
            and me in self.waiting_for()
        ):
            sealed = self.supply(me)
            events, state = self.check_deal(me, sealed)
            self.append(self.make(Kind.DEAL, me, "", sealed, events), state)
        return self.records[start:]

    def check_signature(self, record: Record) -> None:
        """A peer game's record carries its actor's valid signature; a hosted game's, the
        judge's and its player's request (``IllegalCommand``)."""
        if not self.header.signed or record.kind == Kind.SETUP:
            return
        from .keys import verifies as verify_signature

        if self.header.hosted:
            judge = self.header.judge[:32]
            message = judged_message(self.header.game_id, record.body)
            if not record.signature or not verify_signature(judge, record.signature, message):
                raise IllegalCommand(
                    f"the judge's signature does not verify (key {judge.hex()[:16]}): the "
                    f"record was changed, or made by someone else",
                    code="bad-signature",
                    rule=ENGINE_RULE,
                )
            if len(record.request) != (3 if record.kind == Kind.COMMIT else 2):
                raise IllegalCommand(
                    f"the record carries no request from {self._name(record.actor)}",
                    code="unsigned",
                    rule=ENGINE_RULE,
                )
            base, signature = record.request[:2]
            self.check_request(
                Request(
                    self.header.game_id,
                    self.header.module,
                    base,
                    record.actor,
                    record.kind,
                    record.command,
                    record.sealed,
                    signature,
                ),
                record.seq,
            )
            return

        seat = record.actor
        key = record.sealed[0] if record.kind == Kind.JOIN else self.keys.get(seat)
        name = self._name(seat)
        if key is None:
            raise IllegalCommand(f"{name} acts before joining", code="not-joined", rule=ENGINE_RULE)
        if not record.signature:
            raise IllegalCommand(
                f"the record is not signed by {name}", code="unsigned", rule=ENGINE_RULE
            )
        if not verify_signature(key, record.signature, self._signed(record)):
            raise IllegalCommand(
                f"{name}'s signature does not verify (key {key.hex()[:16]}): the record was "
                f"changed, or made by someone else",
                code="bad-signature",
                rule=ENGINE_RULE,
            )

    def check_request(self, request: Request, seq: int | None = None) -> None:
        """A player's request, to be used as record ``seq`` (default: the next): signed by the
        player's key (a join: by the key it binds), used once, and made on a record after the
        player's own last one (``IllegalCommand``)."""
        from .keys import verifies as verify_signature

        seq = self._count if seq is None else seq
        seat = request.actor
        name = self._name(seat)
        if not 0 <= seat < len(self.players):
            raise IllegalCommand(f"no seat {seat} in this game", code="bad-request")
        key = request.sealed[0] if request.kind == Kind.JOIN else self.keys.get(seat)
        if key is None:
            raise IllegalCommand(f"{name} acts before joining", code="not-joined", rule=ENGINE_RULE)
        if type(request.signature) is not bytes or not verify_signature(
            key, request.signature, request.message()
        ):
            raise IllegalCommand(
                f"{name}'s request does not verify (key {key.hex()[:16]}): the move was changed "
                f"(by the judge?), or made by someone else",
                code="bad-signature",
                rule=ENGINE_RULE,
            )
        if request.signature in self.requests:
            raise IllegalCommand(
                f"{name}'s request was used before (a duplicate, or replayed)",
                code="replayed",
                rule=ENGINE_RULE,
            )
        if (
            type(request.base) is not int
            or not 0 <= request.base < seq
            or (request.kind != Kind.REVEAL and request.base < self.last_acted.get(seat, -1))
        ):  # (a reveal was signed with its choice: what it opens is fixed, it cannot be stale)
            raise IllegalCommand(
                f"{name}'s request was made on record {request.base}, before their own last "
                f"record or after this one (stale: send it again from the current game)",
                code="stale",
                rule=ENGINE_RULE,
            )

    def request(self, seat: int, text: str) -> Request:
        """A hosted game's player asks the judge for a move: ``text`` checked as far as this
        copy can (its own cards; not the deck), put in canonical form and signed.  Nothing is
        added here: the judge's record comes back by mail."""
        said = canonical(text)
        if said is not None:
            self.check_talk(seat, said)
            command = said
        else:
            self.check_can_act(seat)
            if self.reveal_due():
                raise IllegalCommand(
                    "a choice is due to be turned over: the judge reveals it (from the reveal "
                    "signed with the choice)",
                    code="must-reveal",
                    rule=ENGINE_RULE,
                )
            try:
                command = self.canonical(seat, text)
            except SecretUnavailable:  # (legal or not depends on what only the judge holds)
                parsed = self.rules.parse(self.state, seat, text)
                command = self.rules.notation(self.state, seat, parsed)
            if not self.open_move_due():
                return self._sealed_request(seat, command)
        return self._signed_request(Kind.MOVE, seat, command, None)

    def _sealed_request(self, seat: int, command: str) -> Request:
        """A sealed or face-down choice: the commitment, signed; its opening for the judge only;
        and the reveal, signed now, which the judge makes when the choice is due (so no second
        round trip, and the judge cannot reveal anything else: the reveal opens the commitment)."""
        header = self.header
        secret = make_secret(command, os.urandom(16), 1 << seat)
        base = self._count - 1
        shown = Request(
            header.game_id, header.module, base, seat, Kind.REVEAL, "", reveal(secret), b""
        )
        box = seal_opening(
            header.peer_secret,
            header.judge[32:],
            header.game_id,
            secret.commitment,
            secret.salt,
            secret.value,
        )
        request = self._signed_request(Kind.COMMIT, seat, "", secret.sealed())
        return attrs.evolve(request, opening=box, reveal=self.signer(shown.message()))

    def join_request(self, seat: int, public_key: bytes) -> Request:
        """A hosted game's player joins: their key, their nonce for the randomness, their key
        for letters (from this copy's private secret)."""
        secret = self.header.peer_secret
        sealed = (public_key, nonce_of(secret), exchange_public(secret))
        if seat in self.keys:
            raise IllegalCommand(
                f"{self._name(seat)} has already joined", code="bad-join", rule=ENGINE_RULE
            )
        return self._signed_request(Kind.JOIN, seat, "", sealed)

    def _signed_request(self, kind: int, seat: int, command: str, sealed) -> Request:
        if self.signer is None:
            raise GameFileError(
                f"{self.players[seat]}'s requests are signed: no key to sign with (make one "
                f"with 'boardstate key new NAME', or give --key NAME)",
                code="no-key",
            )
        header = self.header
        unsigned = Request(
            header.game_id, header.module, self._count - 1, seat, kind, command, sealed, b""
        )
        return attrs.evolve(unsigned, signature=self.signer(unsigned.message()))

    def judge(self, request: Request) -> list[Record]:
        """The judge's copy makes the records ``request`` asks for (``IllegalCommand`` and the
        rest of the rules' errors otherwise): checked, decided, signed, letters written."""
        if not self.header.hosted or self.header.seed is None:
            raise GameFileError("only the judge's copy of a hosted game judges requests")
        self.check_request(request)
        start = self._count
        seat = request.actor
        if request.kind == Kind.JOIN:
            events, state = self.check_join(seat, request.sealed)
            self._request = (request.base, request.signature)
            try:
                self.append(self.make(Kind.JOIN, seat, "", request.sealed, events), state)
            finally:
                self._request = None
            return self.records[start:]
        if request.kind == Kind.COMMIT:
            return self._judge_sealed(request)
        said = canonical(request.command)
        if said is None:
            self.check_can_act(seat)
            if not self.open_move_due():
                raise IllegalCommand(
                    "a sealed or face-down choice is due: send it sealed (boardstate move "
                    "makes the request)",
                    code="not-sealed",
                    rule=ENGINE_RULE,
                )
            if self.canonical(seat, request.command) != request.command:
                raise InvalidCommand(
                    f"{request.command!r} is not the command's canonical form (requests name "
                    f"moves as the rules print them)",
                    code="not-canonical",
                )
        elif said != request.command:
            raise InvalidCommand(f"{request.command!r}: say it as {said!r}", code="not-canonical")
        self._request = (request.base, request.signature)
        try:
            self.play(seat, request.command)
        finally:
            self._request = None
        return self.records[start:]

    def revision_note(self) -> str:
        """Which rules revision an older game is played under and what changed since ("played
        under ... rules revision N (newest: M; changed since: ...)"); empty for the newest."""
        spec, revision = self.module.spec, self.header.revision
        if revision == spec.revision:
            return ""
        changes = "; ".join(spec.changes_since(revision))
        return (
            f"played under {spec.id} rules revision {revision} (newest: {spec.revision}; "
            f"changed since: {changes})"
        )

    def _judge_sealed(self, request: Request) -> list[Record]:
        """The judge takes a sealed or face-down choice: its opening (for the judge only) must
        open the commitment, hold the canonical form of a legal command, and come with the
        player's signed reveal; the reveal is made when it falls due."""
        start, seat = self._count, request.actor
        self.check_can_act(seat)
        header = self.header
        opened = open_opening(
            header.peer_secret,
            self.exchange[seat],
            header.game_id,
            request.sealed.commitment,
            request.opening,
        )
        secret = None if opened is None else make_secret(opened[1], opened[0], 1 << seat)
        if secret is None or secret.commitment != request.sealed.commitment:
            raise IllegalCommand(
                "the sealed choice's opening does not open its commitment",
                code="bad-commit",
                rule=ENGINE_RULE,
            )
        shown = attrs.evolve(
            request, kind=Kind.REVEAL, sealed=reveal(secret), signature=request.reveal
        )
        self.check_request(attrs.evolve(shown, opening=b"", reveal=b""))
        if type(secret.value) is not str or self.canonical(seat, secret.value) != secret.value:
            raise InvalidCommand(
                "the sealed choice is not a command in canonical form", code="not-canonical"
            )
        events, state = self.commit_events(seat, secret)
        self._request = (request.base, request.signature, request.reveal)
        try:
            self.append(self.make(Kind.COMMIT, seat, "", secret, events), state)
        finally:
            self._request = None
        self.reveal_held()
        return self.records[start:]

    def _name(self, seat: int) -> str:
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

    def open_move_due(self) -> bool:
        """Is the next record an open move?  (A sealed choice with one seat left to choose is
        made in the open: there is nobody to hide it from until it is played.)"""
        return self.round is None and self.facts()[2] in (Choice.OPEN, Choice.SEALED)

    def reveal_due(self) -> bool:
        """Is the next record a reveal (of a sealed round, or of a face-down choice)?"""
        phase = self.phase()
        if phase is not None:
            return phase.all_committed
        return self.facts()[2] == Choice.TURN_OVER

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

    def settled(self) -> int:
        """How many records hold no unrevealed sealed choice of a round still collecting."""
        phase = self.round
        return self._count if phase is None or not phase.commits else phase.start

    def pending_choice(self, seat: int) -> str | None:
        """The sealed or face-down choice ``seat`` has committed and this copy holds, if any."""
        phase = self.round
        if phase is not None and seat in phase.commits:
            secret = phase.commits[seat]
        elif seat in self.face_down:
            secret = self.face_down[seat].secret
        else:
            return None
        return secret.value if secret.known else None

    # ------------------------------------------------------------------ local play
    def play(self, seat: int, text: str, *, entropy=os.urandom) -> list[Record]:
        """Check ``text`` as ``seat``'s command and append its records (with the reveals that
        fall due and whose openings this copy holds)."""
        self.check_writable()
        start = self._count
        said = canonical(text)
        if said is not None:  # a note, a resignation, a draw: any time, in turn or not
            self.check_talk(seat, said)
            self.append(self.make(Kind.MOVE, seat, said, None, ()))
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
            self.append(self.make(Kind.COMMIT, seat, "", secret, events), state)
        else:
            command = self.checked(seat, text)
            notation = self.rules.notation(self.state, seat, command)
            events, state = self.decide(((seat, command),))
            self.append(self.make(Kind.MOVE, seat, notation, None, events), state)
        self.reveal_held()
        self.deal_held()
        return self.records[start:]

    def held_reveal(self, seat: int) -> bool:
        """Does this copy hold the opening ``seat`` must reveal now?"""
        pending = self.pending_commitment(seat)
        return pending is not None and pending.known

    def reveal_held(self) -> list[Record]:
        """Append the reveals that are due and whose openings this copy holds."""
        start = self._count
        while self.outcome() is None and not self.due() and self.reveal_due():
            held = [s for s in self.to_act() if self.held_reveal(s)]
            if not held:
                break
            seat = held[0]
            opening = reveal(self.pending_commitment(seat))
            events, state = self.check_reveal(seat, opening)
            if self.header.hosted:  # (the judge: the reveal the player signed with the choice)
                self._request = self.reveal_requests.get(opening.commitment)
                if self._request is None:
                    break
            self.append(self.make(Kind.REVEAL, seat, "", opening, events), state)
        return self.records[start:]

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
        merge of sealed choices rebuilds the log from the record where two copies parted."""
        if self.header.peer:  # (what waits for whom is known by re-running the rules only)
            from ._fileformat import encode_file, parse_raw
            from ._referee import load_peer

            shared = self.header.shared  # (a rebuild makes the records again: kept as it was)
            header = self.header
            if shared is not None and shared >= count:
                header = attrs.evolve(header, shared=count - 1 if count else None)
            raw = parse_raw(encode_file(header, self.records[:count]), "this copy")
            fresh = load_peer(raw, signed=False)  # (checked when they came in)
            fresh.header = attrs.evolve(fresh.header, shared=shared)
        else:
            fresh = Game(self.module, self.header, codes=self.codes)
            for record in self.records[:count]:
                fresh.append(record)
        signer, audit, keep = self.signer, self.audit_secrets, self.keep_canonical
        self.__dict__.update(fresh.__dict__)
        self.signer, self.audit_secrets, self.keep_canonical = signer, audit, keep

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

    def check_commit(self, seat: int, sealed) -> None:
        """A commitment from ``seat`` (whose turn it is): well formed, and due."""
        if type(sealed) is not Secret or sealed.owners != 1 << seat:
            raise IllegalCommand(
                "malformed commitment (not a secret owned by its maker alone)",
                code="bad-commit",
                rule=ENGINE_RULE,
            )
        if sealed.commitment in self.committed:
            raise IllegalCommand(
                "a commitment made before in this game (a signed choice replayed)",
                code="replayed",
                rule=ENGINE_RULE,
            )
        phase = self.round
        if phase is not None:
            if phase.all_committed:
                raise IllegalCommand(
                    "a commitment after every choice is committed",
                    code="bad-commit",
                    rule=ENGINE_RULE,
                )
            return
        if self.facts()[2] != Choice.FACE_DOWN:
            raise IllegalCommand(
                "a commitment where no choice is made face down",
                code="not-sealed",
                rule=ENGINE_RULE,
            )
        if seat in self.face_down:
            raise IllegalCommand(
                f"{self.players[seat]} already has a choice face down",
                code="bad-commit",
                rule=ENGINE_RULE,
            )

    def commit_events(self, seat: int, sealed, openings=None) -> tuple:
        """Check a commitment from ``seat``; ``(events, state after them)``: none in a sealed
        round, and what the rules make of a face-down choice (``decide`` on ``HIDDEN``)."""
        self.check_commit(seat, sealed)
        if self.round is not None:
            return (), self.state
        return self.decide(((seat, HIDDEN),), openings)

    def pending_commitment(self, seat: int) -> Secret | None:
        """The commitment ``seat`` must open now (None: no reveal is due from ``seat``)."""
        phase = self.round
        if phase is not None:
            if phase.all_committed and seat in phase.acting:
                return phase.commits[seat]
            return None
        if self.facts()[2] == Choice.TURN_OVER and seat in self.face_down:
            return self.face_down[seat].secret
        return None

    def check_reveal(self, seat: int, sealed, *, rehash: bool = True, openings=None) -> tuple:
        """Check a reveal from ``seat``: it opens the due commitment and holds a legal command.

        Returns ``(events, state after them)``: a reveal that completes a sealed round resolves
        it, one that turns a face-down choice over plays it; other reveals cause nothing.
        ``rehash=False`` (the referee's fast path) skips the hash of an opening this copy
        already checked when the commitment was made or read.
        """
        committed = self.pending_commitment(seat)
        if committed is None:
            self.check_turn(seat)  # (says why, if it is not this seat's turn at all)
            raise IllegalCommand(
                f"no reveal is due from {self.players[seat]} now",
                code="early-reveal",
                rule=ENGINE_RULE,
            )
        if type(sealed) is not Reveal or sealed.commitment != committed.commitment:
            raise IllegalCommand(
                "the reveal does not open the player's commitment",
                code="bad-reveal",
                rule=ENGINE_RULE,
            )
        same = (
            not rehash
            and committed.known
            and committed.salt == sealed.salt
            and committed.value == sealed.value
        )
        if not (same or sealed.checks()):
            raise IllegalCommand(
                "the reveal does not open the player's commitment",
                code="bad-reveal",
                rule=ENGINE_RULE,
            )
        if type(sealed.value) is not str:
            raise IllegalCommand(
                "the revealed choice is not a command", code="bad-reveal", rule=ENGINE_RULE
            )
        phase = self.round
        if phase is None:  # a face-down choice: legal where it was chosen, played now
            chosen = self.face_down[seat].state
            command = self.decider.rules.parse(chosen, seat, sealed.value)
            try:
                self.decider.validate(chosen, seat, command)
            except SecretUnavailable:  # (legal or not depends on cards this copy lacks:
                events, _ = self.decide(((seat, command),), openings)  # the rest is checked)
                unjudged = SecretUnavailable("this copy cannot judge whether the choice is legal")
                unjudged.partial = events
                raise unjudged from None
            return self.decide(((seat, command),), openings)
        phase.parsed[seat] = self.checked(seat, sealed.value)
        if len(phase.revealed) + 1 < phase.size:
            return (), self.state
        rules, state = self.rules, self.state
        for s, chosen in phase.revealed.items():  # (a copy read from file parses them here)
            if s not in phase.parsed:
                phase.parsed[s] = rules.parse(state, s, chosen)
        return self.decide(tuple((s, phase.parsed[s]) for s in phase.seats), openings)

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
        if not (kind == Kind.SETUP) == (seq == 0) or not -1 <= actor < len(self.players):
            raise CorruptFile(f"record {seq}: malformed")
        record = Record(seq, kind, actor, command, sealed, decoder.events(raw_events), body, hash_)
        if kind != Kind.SETUP:
            if kind == Kind.MOVE and canonical(command) == command:
                ok = self.outcome() is None
            elif kind == Kind.MOVE:
                ok = self.open_move_due()
            elif kind == Kind.COMMIT:
                ok = self.round is not None or self.facts()[2] == Choice.FACE_DOWN
            else:
                ok = self.reveal_due() and self.pending_commitment(actor) is not None
            if not ok:
                raise CorruptFile(f"record {seq}: a {Kind(kind).name.lower()} record out of place")
        self.append(record)
        return record

    # ------------------------------------------------------------------ internals
    def rng(self, seq: int):
        seed = self.hosted_key if self.header.hosted else self.header.seed
        return Rng(seed, b"record:%d" % seq) if seed is not None else SealedRng()

    def decide(self, moves, openings=None) -> tuple:
        """The module's ``(events, state after them)`` for ``moves``, in the next record (in
        the peer mode, those it gives before it needs what the players have to supply)."""
        if self.header.peer:
            actor = moves[0][0] if len(moves) == 1 else NO_ACTOR
            return self._advance(Pending(self._count, tuple(moves), self.state, openings, actor))
        return self.decider.decide(self.state, moves, self.rng(self._count), openings)

    def make(self, kind, actor, command, sealed, events, hash_: bytes | None = None) -> Record:
        record = self._make(kind, actor, command, sealed, events, hash_)
        if self.header.hosted:
            return self._judged(record)
        if self.header.peer and kind != Kind.SETUP and self.header.viewer == actor:
            if self.signer is None:
                raise GameFileError(
                    f"{self.players[actor]}'s records are signed: no key to sign with (make one "
                    f"with 'boardstate key new NAME', or give --key NAME)",
                    code="no-key",
                )
            letters = write_letters(
                self.header.peer_secret, self.exchange, self.header.game_id, record
            )
            record = record._replace(
                signature=self.signer(self._signed(record)),
                letters=tuple(tuple(letter) for letter in letters),
            )
        return record

    def remade(self, kind, actor, sealed, events, signature: bytes, letters=()) -> Record:
        """A commit, reveal, join or deal made again at the next place by a merge of sealed
        choices (``merge_sealed``): what its actor signed holds no record number, so it keeps
        ``signature``; this copy's own records get their letters written for their new
        number (letters need the copy's private secret, not its player's key)."""
        record = self._make(kind, actor, "", sealed, events)
        record = record._replace(signature=signature, letters=tuple(letters))
        header = self.header
        if header.peer and header.peer_secret is not None and header.viewer == actor:
            letters = write_letters(header.peer_secret, self.exchange, header.game_id, record)
            record = record._replace(letters=tuple(tuple(letter) for letter in letters))
        return record

    def _judged(self, record: Record) -> Record:
        """The judge's copy signs what it makes and writes each owner's letters (every owner:
        a player's copy holds no seed, so even the mover learns their cards from a letter)."""
        request, self._request = self._request, None
        if request is None or record.kind == Kind.SETUP:
            return record
        if self.signer is None:
            raise GameFileError("the judge's records are signed: no judge key", code="no-key")
        header = self.header
        readers = self.exchange
        if record.kind == Kind.JOIN:  # (the last join deals: its player reads too)
            readers = {**readers, record.actor: record.sealed[2]}
        letters = write_letters(header.peer_secret, readers, header.game_id, record, maker=None)
        return record._replace(
            signature=self.signer(judged_message(header.game_id, record.body)),
            letters=tuple(tuple(letter) for letter in letters),
            request=request,
        )

    def _signed(self, record: Record) -> bytes:
        return signed_message(self.header.game_id, record)

    def open_letters(self, actor: int, seq: int, letters, openings: tuple) -> tuple:
        """``openings`` with those of the letters addressed to this copy's player added."""
        header = self.header
        writer = header.judge[32:] if header.hosted else self.exchange.get(actor)
        if not letters or header.peer_secret is None or header.viewer is None or writer is None:
            return openings
        found = read_letters(
            header.peer_secret, header.viewer, writer, header.game_id, seq, letters
        )
        if not found:
            return openings
        out = list(openings)
        for index, opening in found.items():
            while len(out) <= index:
                out.append(None)
            if out[index] is None:
                out[index] = opening
        return tuple(out)

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
        commuting = kind in (Kind.JOIN, Kind.DEAL) or (
            kind in (Kind.COMMIT, Kind.REVEAL) and self.round is not None
        )
        if record.request:  # (the hosted mode: each request is used once, and never stale)
            self.requests.add(record.request[1])
            self.last_acted[record.actor] = record.seq
            if kind == Kind.COMMIT:  # (its reveal, signed with it, for the judge to make)
                self.reveal_requests[record.sealed.commitment] = (
                    record.request[0],
                    record.request[2],
                )
        if kind == Kind.MOVE and not record.events and canonical(record.command) == record.command:
            self.talk.said(self.players, record.actor, record.command)
            self._facts_of = None
            if self.keep_records:
                self.records.append(record)
            self._count += 1
            self.head_hash = record.hash
            self.region_start = self._count  # (the engine's words do not commute)
            return
        if kind != Kind.SETUP and record.actor >= 0:
            self.talk.moved(record.actor)
        next_pending = self._next_pending
        if next_pending is not None:
            self._next_pending = None
            if next_pending[0] == record.seq:
                self.pending = next_pending[1]
        if kind == Kind.JOIN:
            self.keys[record.actor] = record.sealed[0]
            self.last_link[record.actor] = record.sealed[1]
            self.exchange[record.actor] = record.sealed[2]
            if self.header.hosted and len(self.keys) == len(self.players):
                self.hosted_key = self._key_of(self.last_link)
                self.pending = None  # (the last join holds the rest of the setup)
        elif kind == Kind.DEAL:
            if record.sealed[0] == "arrange":
                self.committed.update(c.commitment for c in record.sealed[1])
            if record.sealed[0] == "link":
                self.last_link[record.actor] = record.sealed[1]
                self.links_given[record.actor] = self.links_given.get(record.actor, 0) + 1
        elif kind == Kind.COMMIT:
            self.committed.add(record.sealed.commitment)
            phase = self.round
            if phase is not None:
                phase.commit(record.actor, record.sealed)
            else:
                self.face_down[record.actor] = FaceDown(record.sealed, self.state)
        elif kind == Kind.REVEAL:
            phase = self.round
            if phase is not None:
                phase.reveal(record.actor, record.sealed.value)
                if len(phase.revealed) == phase.size:
                    self.round = None
            else:
                del self.face_down[record.actor]
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
        joined = not (self.header.signed and len(self.keys) < len(self.players))
        if self.round is None and self.pending is None and joined:
            # a new sealed round opens when the rules ask for one
            outcome, acting, choice = self.facts()
            if choice == Choice.SEALED and len(acting) >= 2:
                self.round = SealedRound(acting, self._count)
        if not commuting:
            self.region_start = self._count
        elif self.pending is None and joined and (self.round is None or not self.round.commits):
            # A step is complete (every join, every share of the randomness asked for, every
            # choice of a round): its records go in canonical order before anything is built
            # on them, so every copy that holds them holds the same log from here on.
            start, self.region_start = self.region_start, self._count
            if self.keep_canonical and len({r.actor for r in self.records[start:]}) > 1:
                from ._referee import canonical_region

                canonical_region(self, start)


class _JoinsFirst(Rng):
    """A hosted game's randomness before every player's nonce is in: any draw waits."""

    def __init__(self) -> None:
        super().__init__(b"", b"")

    def block(self) -> bytes:
        raise NeedsInput(("joins",))


def _needs_migration(why: str) -> GameFileError:
    return GameFileError(
        f"this game file has {why}: run 'boardstate migrate FILE -o NEW' to "
        f"rewrite it under the installed event schemas before adding moves",
        code="needs-migration",
    )


def describe(game: Game, record, viewer: int | None = None) -> str:
    """A record in words as ``viewer`` sees it (None: a spectator), e.g. ``alice: play luke 5``
    or ``bob commits a sealed choice`` (its owner also sees the choice)."""
    if record.kind == Kind.SETUP:
        return "setup"
    who = game.players[record.actor]
    if record.kind == Kind.COMMIT:
        mine = viewer is not None and viewer == record.actor
        held = f" ({record.sealed.value})" if record.sealed.known and mine else ""
        if record.events:
            return f"{who} lays a choice face down{held}"
        return f"{who} commits a sealed choice{held}"
    if record.kind == Kind.REVEAL:
        return f"{who} reveals: {record.sealed.value}"
    if record.kind == Kind.JOIN:
        from .keys import fingerprint

        return f"{who} joins (key {fingerprint(record.sealed[0])})"
    if record.kind == Kind.DEAL:
        if record.sealed[0] == "link":
            return f"{who} adds a share of the randomness"
        return f"{who} arranges a face-down pile of {len(record.sealed[1])} cards"
    return f"{who}: {record.command}"
