"""The hosted mode: a judge's copy holds the seed and makes every record from a player's signed
request; every copy checks both signatures.  The randomness is keyed by the seed and every
player's nonce, so nothing is random before the last join (docs/trust.md, "hosted")."""

from __future__ import annotations

import os

import attrs

from .. import keys
from .._deadline import DeadlineClock
from .._decider import ENGINE_RULE
from .._errors import GameFileError, IllegalCommand, InvalidCommand
from .._hosted import Request, hosted_key, judged_message, nonce_of, open_opening, seal_opening
from .._peer import LINK_BYTES, exchange_public, write_letters
from .._records import Kind
from .._rng import Rng
from .._secrets import make_secret, reveal
from .._talk import FORFEIT, canonical
from .._words import asked_words
from ._deadlines import DeadlineKeeping
from ._signed import JoinsFirst, Pending, SignedTrust


@attrs.frozen
class Sent:
    """A request this copy's player made and the judge has not answered yet: the record it
    was made on (``base``), its kind and its command (a sealed choice's choice; '' a join)."""

    base: int
    kind: int
    command: str


class HostedTrust(DeadlineKeeping, SignedTrust):
    """The judge's requests and judgements; a player's copy checks what the judge made."""

    joins_by_request = True  # the judge makes the join record from the player's request
    moves_by_request = True  # and every record from a player's request
    checked_in_part = (
        "checked in part: they hold what only the judge's seed gives; after the end, "
        "'verify LOG --with THIS-COPY' audits the judge's published log"
    )

    def __init__(self) -> None:
        super().__init__()
        self.hosted_key: bytes | None = None  # the key of the randomness, once all have joined
        self.requests: set[bytes] = set()  # the requests used so far
        self.last_acted: dict[int, int] = {}  # seat -> the last record it acted in
        self.answering = None  # the judge: the request the record being made answers
        self.reveal_requests: dict[bytes, tuple] = {}  # commitment -> (base, reveal signature)
        self.unanswered: Sent | None = None  # a player's copy: its request not answered yet
        self.clock: DeadlineClock | None = None  # a game with a deadline: the judge's times
        self.now = None  # the judge's copy: its clock (Unix seconds; tests give their own)
        self.pinned: int | None = None  # the judge's time of the deadline record being made

    # -------------------------------------------------------------------- a new game
    @staticmethod
    def creator_keys(peer_secret: bytes | None, judge_key: bytes | None) -> tuple:
        """The judge's copy: the judge's own secret (for letters) and public keys (Ed25519 for
        signing, X25519 for letters), which go into the header and so into the game id."""
        peer_secret = peer_secret or os.urandom(LINK_BYTES)
        return peer_secret, (judge_key or b"") + exchange_public(peer_secret)

    @staticmethod
    def creators_copy(header, seat: int | None, peer_secret: bytes | None):
        return attrs.evolve(header, peer_secret=peer_secret)

    # -------------------------------------------------------------------- randomness
    def seed(self, game) -> bytes | None:
        return self.hosted_key

    def waiting_rng(self, game, pending: Pending):
        return JoinsFirst()  # (nothing is random before every nonce is in)

    def key_of(self, game, nonces: dict) -> bytes | None:
        """The game's key, once every nonce is in (the judge's copy: it holds the seed)."""
        seed = game.header.seed
        if seed is None or len(nonces) < len(game.players):
            return None
        return hosted_key(seed, [nonces[s] for s in range(len(game.players))])

    def last_join(self, game, seat: int, sealed) -> tuple:
        """The last join holds what the setup gave once the randomness could be keyed."""
        if self.pending is None or len(self.keys) + 1 != len(game.players):
            return (), game.state
        nonces = dict(self.last_link)
        nonces[seat] = sealed[1]
        key = self.key_of(game, nonces)
        if key is None:
            from .._errors import SecretUnavailable

            raise SecretUnavailable("only the judge's copy holds the seed", code="no-seed")
        pending = self.pending.copy()
        return self.advance(game, pending, Rng(key, b"record:%d" % pending.seq))

    # -------------------------------------------------------------------- records
    def on_request(self, game, record) -> None:
        """Each request is used once and never stale; a commit's reveal, signed with it, is
        kept for the judge to make when it falls due.  (A game with a deadline: the judge's
        time of the record, and whom the game waited for before it.)"""
        asked, stamp = self.asked(game, record)
        if stamp is not None:
            self.observed_clock(game).last = stamp
        if not asked:
            return
        self.requests.add(asked[1])
        self.last_acted[record.actor] = record.seq
        if record.kind == Kind.COMMIT:
            self.reveal_requests[record.sealed.commitment] = (asked[0], asked[2])

    def on_append(self, game, record) -> None:
        super().on_append(game, record)
        if record.kind == Kind.JOIN and self.joined(game):
            self.hosted_key = self.key_of(game, self.last_link)
            self.pending = None  # (the last join holds the rest of the setup)

    def seal(self, game, record):
        """The judge's copy signs what it makes and writes each owner's letters (every owner:
        a player's copy holds no seed, so even the mover learns their cards from a letter)."""
        request, self.answering = self.answering, None
        if request is None or record.kind == Kind.SETUP:
            return record
        if game.signer is None:
            raise GameFileError("the judge's records are signed: no judge key", code="no-key")
        header = game.header
        readers = self.exchange
        if record.kind == Kind.JOIN:  # (the last join deals: its player reads too)
            readers = {**readers, record.actor: record.sealed[2]}
        letters = write_letters(header.peer_secret, readers, header.game_id, record, maker=None)
        stamp = None
        if header.deadline is not None:  # (the judge's time, signed with the record)
            stamp = self.time_now(game) if self.pinned is None else self.pinned
            request = (*request, stamp)
        return record._replace(
            signature=game.signer(judged_message(header.game_id, record.body, stamp)),
            letters=tuple(tuple(letter) for letter in letters),
            request=request,
        )

    def maker_of(self, game, actor: int) -> str:
        return "the judge"

    def letter_writer(self, game, actor: int) -> bytes | None:
        return game.header.judge[32:]

    def reveal_request(self, game, commitment) -> tuple | None:
        """The judge makes a reveal only with the one the player signed with the choice."""
        self.answering = self.reveal_requests.get(commitment)
        return self.answering

    # -------------------------------------------------------------------- a request sent
    def sent(self, game) -> Sent | None:
        """The request this copy's player sent and the judge has not answered, while the copy
        stands where it was made (None: nothing is waited for)."""
        sent = self.unanswered
        return sent if sent is not None and sent.base == game.last_seq else None

    def waits(self, game) -> bool:
        return self.sent(game) is not None or super().waits(game)

    def waiting_for(self, game) -> tuple[int, ...]:
        """Nobody, while the copy waits for the judge's answer to its player's request."""
        return () if self.sent(game) is not None else super().waiting_for(game)

    def due(self, game) -> str:
        """``judge`` while the copy waits for the answer to its player's request."""
        return "judge" if self.sent(game) is not None else super().due(game)

    def sent_words(self, game) -> str:
        sent = self.sent(game)
        return "" if sent is None else asked_words(sent.kind, sent.command, sent.base)

    def check_not_waiting(self, game) -> None:
        """A second request before the judge has answered the first is refused here: the
        judge would refuse it (stale), or take both."""
        if self.sent(game) is not None:
            raise IllegalCommand(
                f"{self.sent_words(game)}: nothing else can be asked first (apply the "
                f"judge's answer when it comes)",
                code="waiting",
                rule=ENGINE_RULE,
            )

    def check_signature(self, game, record) -> None:
        """The judge's signature, and the player's request beside it.  (A record from the
        judge reaching this copy is the judge's word since its player's request: the copy
        waits no longer.)"""
        if record.kind == Kind.SETUP:
            return
        self.unanswered = None
        header = game.header
        game_id = self.game_id(game)
        judge = header.judge[:32]
        asked, stamp = self.asked(game, record)
        message = judged_message(game_id, record.body, stamp)
        if not record.signature or not keys.verifies(judge, record.signature, message):
            raise IllegalCommand(
                f"the judge's signature does not verify (key {judge.hex()[:16]}): the "
                f"record was changed, or made by someone else",
                code="bad-signature",
                rule=ENGINE_RULE,
            )
        if header.deadline is not None:
            self.observed_clock(game).check_time(stamp)
            if not asked:
                return self.check_deadline(game, record.kind, record.actor, record.command, stamp)
        if record.kind == Kind.MOVE and record.command == FORFEIT:
            raise IllegalCommand(
                f"a forfeit is the judge's deadline record: no request of "
                f"{game.name_of(record.actor)}'s makes one",
                code="bad-deadline",
                rule=ENGINE_RULE,
            )
        if len(asked) != (3 if record.kind == Kind.COMMIT else 2):
            raise IllegalCommand(
                f"the record carries no request from {game.name_of(record.actor)}",
                code="unsigned",
                rule=ENGINE_RULE,
            )
        base, signature = asked[:2]
        self.check_request(
            game,
            Request(
                game_id,
                header.module,
                base,
                record.actor,
                record.kind,
                record.command,
                record.sealed,
                signature,
            ),
            record.seq,
        )

    # -------------------------------------------------------------------- requests
    def check_request(self, game, request: Request, seq: int | None = None) -> None:
        """A player's request, to be used as record ``seq`` (default: the next): signed by the
        player's key (a join: by the key it binds), used once, and made on a record after the
        player's own last one (``IllegalCommand``)."""
        seq = game.seq if seq is None else seq
        seat = request.actor
        name = game.name_of(seat)
        if not 0 <= seat < len(game.players):
            raise IllegalCommand(f"no seat {seat} in this game", code="bad-request")
        key = request.sealed[0] if request.kind == Kind.JOIN else self.keys.get(seat)
        if key is None:
            raise IllegalCommand(f"{name} acts before joining", code="not-joined", rule=ENGINE_RULE)
        if type(request.signature) is not bytes or not keys.verifies(
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

    def request(self, game, seat: int, text: str) -> Request:
        """A player asks the judge for a move: ``text`` checked as far as this copy can (its
        own cards; not the deck), put in canonical form and signed.  Nothing is added here:
        the judge's record comes back by mail."""
        from .._errors import SecretUnavailable

        said = canonical(text)
        if said == FORFEIT:
            raise _forfeit_asked()
        if said is not None:  # (the engine's words are said in or out of turn, waiting or
            game.check_talk(seat, said)  # not: a judge ahead of this copy sends a catch-up)
            command = said
        else:
            self.check_not_waiting(game)
            game.check_can_act(seat)
            if game.reveal_due():
                raise IllegalCommand(
                    "a choice is due to be turned over: the judge reveals it (from the reveal "
                    "signed with the choice)",
                    code="must-reveal",
                    rule=ENGINE_RULE,
                )
            try:
                command = game.canonical(seat, text)
            except SecretUnavailable:  # (legal or not depends on what only the judge holds)
                parsed = game.rules.parse(game.state, seat, text)
                command = game.rules.notation(game.state, seat, parsed)
            if not game.open_move_due():
                return self.sealed_request(game, seat, command)
        return self.signed_request(game, Kind.MOVE, seat, command, None)

    def sealed_request(self, game, seat: int, command: str) -> Request:
        """A sealed or face-down choice: the commitment, signed; its opening for the judge only;
        and the reveal, signed now, which the judge makes when the choice is due (so no second
        round trip, and the judge cannot reveal anything else: the reveal opens the
        commitment)."""
        header = game.header
        secret = make_secret(command, os.urandom(16), 1 << seat)
        base = game.last_seq
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
        request = self.signed_request(game, Kind.COMMIT, seat, "", secret.sealed())
        self.unanswered = Sent(base, Kind.COMMIT, command)  # (the player's own choice)
        return attrs.evolve(request, opening=box, reveal=game.signer(shown.message()))

    def join_request(self, game, seat: int, public_key: bytes) -> Request:
        """A player joins: their key, their nonce for the randomness, their key for letters
        (from this copy's private secret)."""
        self.check_not_waiting(game)
        secret = game.header.peer_secret
        sealed = (public_key, nonce_of(secret), exchange_public(secret))
        if seat in self.keys:
            raise IllegalCommand(
                f"{game.name_of(seat)} has already joined", code="bad-join", rule=ENGINE_RULE
            )
        return self.signed_request(game, Kind.JOIN, seat, "", sealed)

    def signed_request(self, game, kind: int, seat: int, command: str, sealed) -> Request:
        if game.signer is None:
            raise GameFileError(
                f"{game.players[seat]}'s requests are signed: no key to sign with (make one "
                f"with 'boardstate key new NAME', or give --key NAME)",
                code="no-key",
            )
        header = game.header
        unsigned = Request(
            header.game_id, header.module, game.last_seq, seat, kind, command, sealed, b""
        )
        signed = attrs.evolve(unsigned, signature=game.signer(unsigned.message()))
        self.unanswered = Sent(game.last_seq, kind, command)  # (until the judge's answer)
        return signed

    # -------------------------------------------------------------------- judging
    def judge(self, game, request: Request) -> list:
        """The judge's copy makes the records ``request`` asks for (``IllegalCommand`` and the
        rest of the rules' errors otherwise): checked, decided, signed, letters written."""
        if game.header.seed is None:
            raise GameFileError("only the judge's copy of a hosted game judges requests")
        self.check_request(game, request)
        start = game.seq
        seat = request.actor
        if request.kind == Kind.JOIN:
            events, state = self.check_join(game, seat, request.sealed)
            self.answering = (request.base, request.signature)
            try:
                game.append(game.make(Kind.JOIN, seat, "", request.sealed, events), state)
            finally:
                self.answering = None
            return game.records[start:]
        if request.kind == Kind.COMMIT:
            return self.judge_sealed(game, request)
        said = canonical(request.command)
        if said == FORFEIT:
            raise _forfeit_asked()
        if said is None:
            game.check_can_act(seat)
            if not game.open_move_due():
                raise IllegalCommand(
                    "a sealed or face-down choice is due: send it sealed (boardstate move "
                    "makes the request)",
                    code="not-sealed",
                    rule=ENGINE_RULE,
                )
            if game.canonical(seat, request.command) != request.command:
                raise InvalidCommand(
                    f"{request.command!r} is not the command's canonical form (requests name "
                    f"moves as the rules print them)",
                    code="not-canonical",
                )
        elif said != request.command:
            raise InvalidCommand(f"{request.command!r}: say it as {said!r}", code="not-canonical")
        self.answering = (request.base, request.signature)
        try:
            game.play(seat, request.command)
        finally:
            self.answering = None
        return game.records[start:]

    def judge_sealed(self, game, request: Request) -> list:
        """The judge takes a sealed or face-down choice: its opening (for the judge only) must
        open the commitment, hold the canonical form of a legal command, and come with the
        player's signed reveal; the reveal is made when it falls due."""
        start, seat = game.seq, request.actor
        game.check_can_act(seat)
        header = game.header
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
        self.check_request(game, attrs.evolve(shown, opening=b"", reveal=b""))
        if type(secret.value) is not str or game.canonical(seat, secret.value) != secret.value:
            raise InvalidCommand(
                "the sealed choice is not a command in canonical form", code="not-canonical"
            )
        events, state = game.commit_events(seat, secret)
        self.answering = (request.base, request.signature, request.reveal)
        try:
            game.append(game.make(Kind.COMMIT, seat, "", secret, events), state)
        finally:
            self.answering = None
        game.reveal_held()
        return game.records[start:]


def _forfeit_asked() -> IllegalCommand:
    return IllegalCommand(
        "a forfeit is the judge's, at a deadline: no player asks for one (to give up: resign)",
        code="bad-deadline",
        rule=ENGINE_RULE,
    )
