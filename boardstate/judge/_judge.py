"""The judge: hosted games referee'd from mail, one store transaction per accepted request.

``Judge.handle(mail)`` is the whole cycle for one message: every request in it is checked
(signature first: the From header authenticates nothing) and judged under the rules on the
judge's copy; the new records, the mail to the players who must hear of them now (``_digest``:
each a move file carrying only that player's letters) and the last record each was sent go to
the store in **one transaction** with the message marked answered.  Only then is
the message marked done in its inbox and the queued mail sent (a digest's picture is drawn as
its mail is sent, off the request's path: ``_digest.drawn``).  A judge killed between any two
of those steps loses nothing and does nothing twice: a message already answered is skipped; mail
queued and not sent goes out at the next start.  Several judges may share a store and an inbox:
each claims a game while it judges it and a queued mail while it sends it (``Store.claim``).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter, OrderedDict

import msgpack

from .._errors import BoardstateError, GameFileError
from .._fileformat import encode_game, encode_moves, encode_row, parse_raw
from .._game import Game
from .._hosted import decode_request, is_request
from .._registry import get_module
from .._words import table_text
from ._deadlines import keep_deadlines
from ._digest import TAG, Names, answers, check_pictures, drawn, invitations
from ._store import StoreConflict, StoreError
from ._types import Mail, Outgoing


class Judge:
    """Many hosted games, one signing key, one store (SQLite or PostgreSQL)."""

    def __init__(self, store, signing_key, *, cache: int = 2048, clock=time.time) -> None:
        """``clock``: the judge's time (Unix seconds), which its records in a game with a
        deadline carry and its deadlines are kept by (tests give one they control)."""
        from cryptography.hazmat.primitives import serialization

        self.store = store
        self.clock = clock
        self.key = signing_key
        self.public = signing_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        self._games: OrderedDict[bytes, Game] = OrderedDict()
        self._cache = cache
        check_pictures()

    # ------------------------------------------------------------------ games
    def create(
        self,
        module_id: str,
        players,
        options=None,
        *,
        mail: str = "digest",
        created=None,
        seed=None,
        secret=None,
        deadline=None,
    ) -> bytes:
        """A new hosted game for ``players`` (``(name, address)`` pairs, in seat order); each
        player is mailed the invitation to join from.  Returns the game id.  ``mail``: when
        the players are mailed (``digest``: when the game needs them, and at the end;
        ``every-record``: every record, as it is made; the store refuses any other).
        ``seed``, ``created`` and ``secret`` (the judge's secret for letters) are random and
        now unless given: give them only to make identical games (tests, benchmarks).
        ``deadline``: a time per move and what happens at its end (``_deadline.Deadline``), in
        the game's header for every copy to check."""
        module = get_module(module_id)
        names = [name for name, _ in players]
        game = Game.new(
            module,
            names,
            dict(options or {}),
            seed,
            created,
            seed_salt=None if seed is None else bytes(32),
            trust="hosted",
            judge_key=self.public,
            peer_secret=secret,
            deadline=deadline,
        )
        game.signer = self.key.sign
        game.trust.now = self.clock
        game_id = game.header.game_id
        self.store.add_game(
            game_id,
            msgpack.packb(game.header.to_map(), use_bin_type=True),
            [encode_row(game.header, r) for r in game.records],
            list(players),
            invitations(game, players),
            mail=mail,
        )
        self._keep(game_id, game)
        return game_id

    def game(self, game_id: bytes, *, fresh: bool = False) -> Game:
        """The judge's copy of a game (re-derived from the store once, then kept).  ``fresh``:
        the kept copy is used only if it has as many records as the store has now (another
        judge on the store may have added some), else the game is read again."""
        game = self._games.get(game_id)
        if game is not None and (not fresh or game.seq == self.store.head(game_id)):
            self._games.move_to_end(game_id)
            return game
        header, rows = self.store.load(game_id)
        game = read_game(header, rows, game_id)
        game.signer = self.key.sign
        game.trust.now = self.clock
        self._keep(game_id, game)
        return game

    def forget(self, game_id: bytes) -> None:
        """Drop the kept copy of a game (it may hold a part of what failed): read it again."""
        self._games.pop(game_id, None)

    @staticmethod
    def rows(game: Game, start: int) -> list[bytes]:
        """The game's records from ``start`` on, as the store keeps them."""
        return [encode_row(game.header, r) for r in game.records[start:]]

    def published(self, game_id: bytes) -> bytes:
        """The full log (seed, judge's secret, every opening) for the audit: at the end only."""
        game = self.game(game_id, fresh=True)
        if game.outcome() is None:
            raise GameFileError(
                "the game is not over: its log and seed are published at the end",
                code="not-over",
            )
        return encode_game(game)

    def _keep(self, game_id: bytes, game: Game) -> None:
        self._games[game_id] = game
        while len(self._games) > self._cache:
            self._games.popitem(last=False)

    # ------------------------------------------------------------------ mail
    def handle(self, mail: Mail, busy: set | None = None) -> str:
        """Judge one message: ``"accepted"``, ``"refused"``, ``"duplicate"`` (already
        answered: nothing is done again) or ``"busy"`` (another judge on this store holds its
        game now: nothing was done, the message is for a later pass).

        Several judges may share the store and the inbox.  A judge claims the game a message
        names (``Store.claim``) before it judges it, and reads the game's head from the store
        under that claim, so it never judges on a copy older than the store; the message's
        digest is checked again under the claim, so a message is answered once.  A game found
        claimed goes into ``busy``: the caller's later messages of that game wait with it, and
        each game's messages are judged in the inbox's order, as by one judge."""
        if self.store.answered(mail.digest):
            return "duplicate"
        try:
            game_id, requests = self._requests(mail)
        except _Refused as refusal:
            return self._refuse(mail, refusal)
        except StoreError:  # (the store is down: the message stays in the inbox for later)
            raise
        except Exception as exc:  # a bug: this message is answered, the judge goes on
            return self._refuse(mail, _internal(exc))
        if busy is not None and game_id in busy:
            return "busy"
        claim = b"game " + game_id
        if not self.store.claim(claim):
            if busy is not None:
                busy.add(game_id)
            return "busy"
        try:
            if self.store.answered(mail.digest):  # (another judge answered it meanwhile)
                return "duplicate"
            try:
                new, mails = self._judge(game_id, requests)
            except _Refused as refusal:
                return self._refuse(mail, refusal)
            except StoreError:
                raise
            except Exception as exc:
                self._games.clear()  # (a cached game may hold a part of what failed)
                return self._refuse(mail, _internal(exc))
            try:
                self.store.accept(game_id, new[0], new[1], mail.digest, mails, new[2])
            except StoreConflict:  # (a writer that claims nothing: judge it again later)
                self._games.pop(game_id, None)
                return "duplicate" if self.store.answered(mail.digest) else "busy"
            return "accepted"
        finally:
            self.store.release(claim)

    def _refuse(self, mail: Mail, refusal: _Refused) -> str:
        """Answer a refused message once; its reason goes back only to a player's address (a
        stranger's mail, or one with a forged sender, gets no answer from the judge)."""
        to = mail.sender if mail.sender and self.store.is_player(mail.sender) else ""
        try:
            self.store.answer(mail.digest, refusal.mails(to))
        except StoreConflict:  # (another judge answered it first)
            return "duplicate"
        return "refused"

    def _requests(self, mail: Mail):
        """The game a message names and its requests, checked on their own (no game needed)."""
        if mail.refused:
            raise _Refused(mail.refused)
        if not mail.moves:
            raise _Refused("the mail holds no request (attach one, or paste its armored text)")
        requests = []
        for i, data in enumerate(mail.moves):
            name = f"request {i + 1}"
            try:
                data = _dearmored(data, name)
                if not is_request(data):
                    raise _Refused(
                        f"{name} is not a request: in a hosted game 'boardstate move' and "
                        f"'boardstate join' write requests for the judge"
                    )
                requests.append(decode_request(data, name))
            except BoardstateError as exc:
                raise _Refused(exc.reason) from None
        game_id = requests[0].game_id
        if any(r.game_id != game_id for r in requests):
            raise _Refused("one game per mail (the requests name several)")
        return game_id, requests

    def _judge(self, game_id: bytes, requests):
        try:
            game = self.game(game_id, fresh=True)
        except StoreError as exc:
            if exc.code != "unknown-game":
                raise
            raise _Refused(f"no game {game_id.hex()[:12]} here") from None
        except BoardstateError:
            raise _Refused(f"no game {game_id.hex()[:12]} here") from None
        start = game.seq
        before = set(game.to_act())
        try:
            for request in requests:
                game.judge(request)
        except BoardstateError as exc:
            self._games.pop(game_id, None)  # (the cached copy may hold a part: read it again)
            seat, base = requests[0].actor, requests[0].base
            catch_up, shown = None, game
            # (records base+1 .. start-1 are what the sender lacks: sent for a stale request
            # only, which was signed by the seat's key; a forged one learns nothing; none for
            # a request from ahead of the game, which was made on records it does not hold)
            if exc.code == "stale" and 0 <= seat < len(game.players) and base < start - 1:
                shown = self.game(game_id)  # (as the store holds it: without this mail's part)
                catch_up = (seat, base, encode_moves(shown, base, reader=seat))
            raise _Refused(str(exc), game=shown, catch_up=catch_up) from None
        rows = self.rows(game, start)
        mails, mailed = answers(
            game,
            before,
            {r.actor for r in requests},
            self.store.players(game_id),
            self.store.mailed(game_id),
            self.store.settings(game_id)["mail"],
        )
        return (start, rows, mailed), mails


class _Refused(Exception):
    """A message that changes nothing: a one-line reason (and what the sender lacks)."""

    def __init__(self, reason: str, *, game: Game | None = None, catch_up=None) -> None:
        super().__init__(reason)
        self.reason = " ".join(reason.split())
        self.game = game
        self.catch_up = catch_up

    def mails(self, sender: str) -> list:
        if not sender:
            return []
        attachments = ()
        text = f"refused: {self.reason}\nNothing was changed.\n"
        if self.catch_up is not None:
            seat, base, data = self.catch_up
            game = self.game
            names = Names.of(game.header.module, game.header.game_id)
            name = game.players[seat]
            moves = names.moves(name, base + 1, game.last_seq)
            attachments = ((moves, data),)
            text += (
                "\nThe attached move file holds the records since your request was made: "
                f"apply it, then ask again:\n\n    boardstate apply {names.copy(name)} {moves}\n\n"
                + table_text(game, seat)
            )
        subject = f"{TAG} refused: {self.reason[:60]}"
        return [Outgoing(sender, subject, text, attachments, "refusal")]


def _internal(exc: Exception) -> _Refused:
    why = " ".join(f"{type(exc).__name__}: {exc}".split())[:200]
    return _Refused(f"the judge failed on this mail (internal error, {why}; please report it)")


def _dearmored(data: bytes, name: str) -> bytes:
    from .._armor import dearmor, is_armored

    return dearmor(data, name) if is_armored(data[:4096]) else data


def read_game(header: bytes, rows, game_id: bytes) -> Game:
    """The judge's copy of a game from its stored header and rows (re-derived)."""
    from .._loading import load_game

    game = load_game(parse_raw(header + b"".join(rows), f"game {game_id.hex()[:12]}"))
    if game.header.game_id != game_id:
        raise GameFileError(f"the store's game {game_id.hex()[:12]} is another game's log")
    return game


def send_queued(store, outbox) -> Counter:
    """Send the mail the store has queued (mail queued before a crash goes out now); how many
    of each kind were sent (``Outgoing.kind``).  A digest's picture is drawn here, as it is
    sent (``drawn``): the queue holds its SVG, and the key of a mail is that of what is queued.

    Each mail is claimed in the store while it is sent and noted sent before its claim is
    released, so judges sharing a store send it once; a judge that finds it claimed leaves it
    to the claimer.  An outbox that writes many mails with one sync (``send_all``: the
    folder outbox) is given every mail claimed at once, under a key of its own, then they are
    noted sent in one transaction that waits for no disk of its own (``sent_together``): a
    crash before that note reaches the disk sends them again, and the outbox writes each over
    itself.  Any other outbox (SMTP) sends one mail at a time and each is noted sent on disk
    before the next: a judge killed between sending one and noting it sends it again at its
    next start (at least once: a mail server cannot be asked what it got)."""
    queue = store.outbox()
    send_all = getattr(outbox, "send_all", None)
    if send_all is None:
        return _send_each(store, outbox, queue)
    count: Counter = Counter()
    for start in range(0, len(queue), _BATCH):
        count += _send_batch(store, send_all, queue[start : start + _BATCH])
    return count


_BATCH = 500  # mails written with one sync at most (a long queue after an outage, say)


def _send_batch(store, send_all, queue) -> Counter:
    claimed = [(mail_id, mail) for mail_id, mail in queue if store.claim(b"outbox %d" % mail_id)]
    try:
        left = store.still_unsent([mail_id for mail_id, _ in claimed])
        batch = [(mail_id, mail) for mail_id, mail in claimed if mail_id in left]
        if not batch:
            return Counter()
        send_all([(_mail_key(mail_id, mail), drawn(mail)) for mail_id, mail in batch])
        store.sent_together([mail_id for mail_id, _ in batch], durable=False)
        return Counter(mail.kind or "mail" for _, mail in batch)
    finally:
        for mail_id, _ in claimed:
            store.release(b"outbox %d" % mail_id)


def _send_each(store, outbox, queue) -> Counter:
    count: Counter = Counter()
    for mail_id, mail in queue:
        claim = b"outbox %d" % mail_id
        if not store.claim(claim):
            continue
        try:
            if store.unsent(mail_id):  # (not sent by another judge since the list was read)
                outbox.send(drawn(mail))
                store.sent(mail_id)
                count[mail.kind or "mail"] += 1
        finally:
            store.release(claim)
    return count


def _mail_key(mail_id: int, mail: Outgoing) -> str:
    """A queued mail's name for the outbox: its number in the store and a digest of what it
    says (so another store's mail of the same number, in the same folder, is another mail)."""
    fields = [mail.to, mail.subject, mail.text, [[n, bytes(d)] for n, d in mail.attachments]]
    digest = hashlib.blake2b(msgpack.packb(fields, use_bin_type=True), digest_size=12)
    return f"{mail_id}-{digest.hexdigest()}"


class Pass(dict):
    """What one pass did: how many messages were ``accepted``, ``refused``, ``duplicate`` (and
    ``busy``, left for a later pass), as a dict; ``sent``: the mails sent, by kind."""

    def __init__(self, counts: dict, sent: Counter, kept: Counter | None = None) -> None:
        super().__init__(counts)
        self.sent = sent
        self.kept = kept or Counter()  # deadlines kept: reminders, forfeits, bot moves

    def line(self) -> str:
        """One line of what the pass did ('' if nothing): ``2 requests judged (1 accepted, 1
        refused); 3 mails sent (2 digests, 1 refusal)``."""
        said = []
        judged = {what: n for what, n in self.items() if n}
        if judged:
            total = sum(judged.values())
            parts = ", ".join(f"{n} {what}" for what, n in judged.items())
            said.append(f"{total} message{'s' if total != 1 else ''} judged ({parts})")
        if self.kept:
            parts = ", ".join(
                f"{n} {what}{'s' if n != 1 and what != 'time up' else ''}"
                for what, n in sorted(self.kept.items())
            )
            said.append(f"deadlines: {parts}")
        if self.sent:
            total = sum(self.sent.values())
            parts = ", ".join(
                f"{n} {_KINDS.get(kind, kind)}{'s' if n != 1 else ''}"
                for kind, n in sorted(self.sent.items())
            )
            said.append(f"{total} mail{'s' if total != 1 else ''} sent ({parts})")
        return "; ".join(said)


_KINDS = {"moves": "move mail", "mail": "other mail", "reminder": "deadline mail"}


def serve_once(judge: Judge, inbox, outbox) -> Pass:
    """One pass: queued mail out, every new message judged (then marked done), the deadlines
    kept (``_deadlines``: after the mail, so a move that came in time is taken), replies out.
    Returns how many messages were accepted, refused and duplicates, and how many were left
    for a later pass (``busy``: another judge on the store held their game), if any;
    (``Pass.sent``) the mails sent, by kind; and (``Pass.kept``) what the deadlines caused.

    The inbox is read one message at a time (``inbox.mails()``)."""
    counts = {"accepted": 0, "refused": 0, "duplicate": 0}
    busy: set[bytes] = set()
    sent = send_queued(judge.store, outbox)
    for mail in inbox.mails():
        said = judge.handle(mail, busy)
        counts[said] = counts.get(said, 0) + 1
        if said != "busy":
            inbox.done(mail)
        sent += send_queued(judge.store, outbox)
    kept = keep_deadlines(judge)
    if kept:
        sent += send_queued(judge.store, outbox)
    return Pass(counts, sent, kept)
