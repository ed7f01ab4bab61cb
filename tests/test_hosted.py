"""The hosted mode, in process: a judge's copy makes every record from players' signed requests.

Jedi Duel (one shared deck dealt into private hands, which only a dealer can serve) is played to
the end for 2 to 6 players: every player's copy re-checks what it can and holds only its own
cards; the judge's published log passes the audit.  A judge that cheats (deals from another
seed, changes a move, shows a card to the wrong player) is caught, each in its own test.
"""

from __future__ import annotations

import os
import random

import attrs
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate._audit import audit_hosted
from boardstate._fileformat import encode_game, encode_moves, encode_public, parse_raw
from boardstate._game import Game
from boardstate._hosted import decode_request, is_request
from boardstate._referee import referee_moves
from boardstate._secrets import Secret
from boardstate.trust import HostedTrust

CREATED = "2026-11-22T00:00:00+00:00"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class Hosted:
    """A judge's copy and every player's copy, requests and move files passed in memory."""

    def __init__(self, players: int, module="jedi-duel", seed: int = 0, options=None) -> None:
        self.judge_key = Ed25519PrivateKey.generate()
        names = NAMES[:players]
        self.judge = Game.new(
            bs.get_module(module),
            names,
            dict(options or {}),
            None,
            CREATED,
            trust="hosted",
            judge_key=_public(self.judge_key),
        )
        self.judge.signer = self.judge_key.sign
        invite = encode_public(self.judge)
        self.copies = []
        self.join(invite, players)
        self.random = random.Random(seed)

    def join(self, invite: bytes, players: int) -> None:
        """Everyone joins from the same invitation (their requests cross in the mail)."""
        joins = []
        for seat in range(players):
            copy = bs.load_game(parse_raw(invite, "invite"))
            copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=os.urandom(32))
            key = Ed25519PrivateKey.generate()
            copy.signer = key.sign
            self.copies.append(copy)
            joins.append(copy.join_request(seat, _public(key)))
        for request in joins:
            request = decode_request(request.encode(), "request")
            self.judge.judge(request)
        self.deliver(0)

    def ask(self, request) -> list:
        """The request travels as a file; the judge's answer goes to every player."""
        assert is_request(request.encode())  # (how the judge tells it from a move file)
        request = decode_request(request.encode(), "request")
        base = self.judge.seq - 1
        records = self.judge.judge(request)
        self.deliver(base)
        return records

    def deliver(self, base: int) -> None:
        for seat, copy in enumerate(self.copies):
            data = encode_moves(self.judge, base, reader=seat)
            referee_moves(copy, parse_raw(data, f"to {copy.players[seat]}"))

    def play(self, limit: int = 2000) -> int:
        moves = 0
        while self.judge.outcome() is None and moves < limit:
            seat = self.judge.to_act()[0]
            copy = self.copies[seat]
            self.ask(copy.request(seat, self.random.choice(copy.legal(seat))))
            moves += 1
        return moves

    def audit(self, log: bytes | None = None):
        log = encode_game(self.judge) if log is None else log
        copies = [parse_raw(encode_game(c), f"copy {i}") for i, c in enumerate(self.copies)]
        return audit_hosted(parse_raw(log, "judge"), copies)


@pytest.mark.parametrize(
    ("module", "players", "options"),
    [
        ("duel-of-the-forces", 2, {}),
        ("duel-of-the-forces", 4, {"edition": "parlett-original"}),
        ("epic-duels", 2, {}),
        ("epic-duels", 3, {"variant": "free-for-all"}),
    ],
)
def test_sealed_and_face_down_choices_are_played_through_the_judge(module, players, options):
    """The player's request carries the commitment, its opening for the judge alone and the
    signed reveal; the judge makes the reveal when it falls due."""
    table = Hosted(players, module=module, seed=players, options=options)
    moves = table.play(limit=4000)
    assert table.judge.outcome() is not None, moves
    kinds = {r.kind for r in table.judge.records}
    assert bs.Kind.COMMIT in kinds and bs.Kind.REVEAL in kinds
    for copy in table.copies:
        assert copy.head_hash == table.judge.head_hash
    report = table.audit()
    assert report.ok, report.failure


def test_a_sealed_choice_the_judge_cannot_open_or_reveal_otherwise_is_refused():
    table = Hosted(2, module="duel-of-the-forces", seed=11)
    seat = table.judge.to_act()[0]
    copy = table.copies[seat]
    choice = copy.legal(seat)[0]
    request = copy.request(seat, choice)
    assert request.kind == bs.Kind.COMMIT and request.opening and request.reveal
    assert choice not in request.encode().decode("latin-1")  # (sealed)
    garbled = attrs.evolve(request, opening=bytes(len(request.opening)))
    with pytest.raises(bs.IllegalCommand) as caught:
        table.judge.judge(garbled)
    assert caught.value.code == "bad-commit"
    unsigned = attrs.evolve(request, reveal=bytes(64))
    with pytest.raises(bs.IllegalCommand) as caught:
        table.judge.judge(unsigned)
    assert caught.value.code == "bad-signature"
    table.ask(request)
    assert table.judge.records[-1].kind == bs.Kind.COMMIT


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_jedi_duel_is_played_to_the_end_through_the_judge(players):
    table = Hosted(players, seed=players)
    assert table.judge.to_act() == table.copies[0].to_act() != ()
    moves = table.play()
    assert table.judge.outcome() is not None and moves > 10
    for copy in table.copies:
        assert copy.head_hash == table.judge.head_hash
        assert copy.outcome() == table.judge.outcome()
        assert copy.header.seed is None
    report = table.audit()
    assert report.ok, report.failure
    assert report.missing == ()


def test_each_copy_holds_its_own_cards_and_no_other():
    table = Hosted(3, seed=7)
    table.play(limit=12)
    for seat, copy in enumerate(table.copies):
        mine = sealed = 0
        for record in copy.records:
            for value in _secrets(record):
                if value.known:
                    assert value.owned_by(seat), f"{copy.players[seat]} holds another's card"
                    mine += 1
                else:
                    sealed += 1
        assert mine > 0 and sealed > 0
        data = encode_game(copy)
        assert copy.header.seed is None and table.judge.header.seed not in data
        for other in table.copies:  # (nobody else's secret is in this copy's file)
            assert other is copy or other.header.peer_secret not in data


def _secrets(record):
    from boardstate._records import sealed_values

    return [v for v in sealed_values(record) if type(v) is Secret]


def test_requests_are_checked_signed_once_and_fresh():
    table = Hosted(2, seed=1)
    seat = table.judge.to_act()[0]
    copy = table.copies[seat]
    choices = copy.legal(seat)
    request = copy.request(seat, choices[0])
    forged = attrs.evolve(request, command=choices[-1])
    with pytest.raises(bs.IllegalCommand) as caught:
        table.judge.judge(forged)
    assert caught.value.code == "bad-signature"
    table.ask(request)
    with pytest.raises(bs.IllegalCommand) as caught:  # the same mail again
        table.judge.judge(request)
    assert caught.value.code in ("replayed", "stale", "not-your-turn")
    other = table.copies[1 - seat]
    stolen = attrs.evolve(request, actor=1 - seat)  # signed by the other player's key
    with pytest.raises(bs.IllegalCommand):
        table.judge.judge(stolen)
    assert other.head_hash == table.judge.head_hash


def test_a_request_made_before_ones_own_last_record_is_stale():
    table = Hosted(2, seed=2)
    seat = table.judge.to_act()[0]
    copy = table.copies[seat]
    old = copy.seq
    table.ask(copy.request(seat, copy.legal(seat)[0]))
    while table.judge.to_act()[0] != seat:
        other = table.judge.to_act()[0]
        table.ask(table.copies[other].request(other, table.copies[other].legal(other)[0]))
    late = attrs.evolve(copy.request(seat, copy.legal(seat)[0]))
    stale = attrs.evolve(late, base=old - 1)
    stale = attrs.evolve(stale, signature=copy.signer(stale.message()))
    with pytest.raises(bs.IllegalCommand) as caught:
        table.judge.judge(stale)
    assert caught.value.code == "stale"


def test_the_audit_is_refused_before_the_end():
    table = Hosted(2, seed=3)
    table.play(limit=4)
    with pytest.raises(bs.GameFileError, match="not over"):
        table.audit()


# ------------------------------------------------------------------ a judge that cheats
def test_a_judge_that_deals_from_another_seed_is_caught_by_the_audit():
    table = Hosted.__new__(Hosted)
    table.judge_key = Ed25519PrivateKey.generate()
    judge = Game.new(
        bs.get_module("jedi-duel"),
        NAMES[:2],
        {},
        b"committed seed",
        CREATED,
        trust="hosted",
        judge_key=_public(table.judge_key),
    )
    committed = judge.header
    judge.header = attrs.evolve(judge.header, seed=b"another seed")  # deals from this one
    judge.signer = table.judge_key.sign
    table.judge = judge
    table.copies = []
    table.join(encode_public(judge), 2)
    table.random = random.Random(4)
    table.play()  # the players cannot tell during the game (they hold no seed)
    assert table.copies[0].head_hash == judge.head_hash
    # Published with the seed it dealt from: the seed does not open the commitment.
    with pytest.raises(bs.CorruptFile, match="seed does not match its commitment"):
        table.audit()
    # Published with the committed seed: the deal is not what that seed gives.
    judge.header = committed
    report = table.audit()
    assert not report.ok and report.failure.code == "not-derived"


def test_a_judge_that_changes_a_move_is_caught_by_the_players_and_the_audit(monkeypatch):
    table = Hosted(2, seed=5)
    seat = table.judge.to_act()[0]
    copy = table.copies[seat]
    legal = copy.legal(seat)
    asked = copy.request(seat, legal[0])
    changed = attrs.evolve(asked, command=legal[-1])  # the player's signature, another move
    assert changed.command != asked.command
    monkeypatch.setattr(HostedTrust, "check_request", lambda self, game, request, seq=None: None)
    base = table.judge.seq - 1
    table.judge.judge(changed)
    monkeypatch.undo()
    with pytest.raises(bs.VerificationFailed) as caught:
        referee_moves(copy, parse_raw(encode_moves(table.judge, base, reader=seat), "m"))
    assert caught.value.code == "bad-signature" and "request does not verify" in str(caught.value)
    verdict = bs.verify(parse_raw(encode_game(table.judge), "judge"))
    assert not verdict.ok and verdict.failure.code == "bad-signature"


def test_a_judge_that_shows_a_card_to_another_player_is_caught_by_the_audit(monkeypatch):
    import boardstate.trust.hosted as hosted_plug
    from boardstate import _peer

    def to_everyone(secret, publics, game_id, record, *, maker=-2):
        shown = []  # every value, to every player: the cheat
        real = _peer.write_letters(secret, publics, game_id, record, maker=maker)
        values = _secrets(record)
        for index, value in enumerate(values):
            for reader in publics:
                if value.known and not value.owned_by(reader):
                    plain = _peer.pack([value.salt, value.value])
                    nonce = _peer._nonce(game_id, record.seq, index, reader)
                    box = _peer._cipher(secret, publics[reader], game_id).encrypt(
                        nonce, plain, None
                    )
                    shown.append([index, reader, box])
        return real + shown

    table = Hosted(2, seed=6)
    monkeypatch.setattr(hosted_plug, "write_letters", to_everyone)
    table.play()
    monkeypatch.undo()
    report = table.audit()
    assert not report.ok and report.failure.code == "shown"
    assert "showed" in str(report.failure)


# ------------------------------------------------------------------ the judge, with its store
def test_the_judge_mails_everyone_the_log_and_seed_at_the_end(tmp_path):
    import hashlib

    from boardstate.judge import Judge, Mail, open_store

    judge = Judge(open_store(str(tmp_path / "judge.sqlite")), Ed25519PrivateKey.generate())
    game_id = judge.create("jedi-duel", [("ann", "ann@x"), ("ben", "ben@x")], created=CREATED)
    invite = [m for _, m in judge.store.outbox()][0].attachments[0][1]
    copies, keys = [], []
    for seat in range(2):
        copy = bs.load_game(parse_raw(invite, "invite"))
        copy.header = attrs.evolve(copy.header, viewer=seat, peer_secret=os.urandom(32))
        keys.append(Ed25519PrivateKey.generate())
        copy.signer = keys[seat].sign
        copies.append(copy)
    sent = [0]

    def mail(request) -> str:
        data = request.encode()
        sent[0] += 1
        digest = hashlib.sha256(data + bytes([sent[0] % 256])).digest()
        return judge.handle(Mail(str(sent[0]), digest, "x@x", "", "", (data,)))

    def deliver() -> list:
        answers = [m for i, m in judge.store.outbox()]
        for i, _ in judge.store.outbox():
            judge.store.sent(i)
        for out in answers:
            seat = ["ann@x", "ben@x"].index(out.to)
            if out.kind == "digest":  # (its move file first; at the end the log too)
                name, data = out.attachments[0]
                referee_moves(copies[seat], parse_raw(data, name))
        return answers

    deliver()
    for seat in range(2):
        assert mail(copies[seat].join_request(seat, _public(keys[seat]))) == "accepted"
    deliver()
    chooser = random.Random(9)
    answers = []
    while judge.game(game_id).outcome() is None:
        seat = judge.game(game_id).to_act()[0]  # (mailed when it is their turn: up to date)
        assert mail(copies[seat].request(seat, chooser.choice(copies[seat].legal(seat))))
        answers = deliver()
    logs = [d for out in answers for name, d in out.attachments if name.endswith("-log.msgpack")]
    assert len(logs) == 2 and logs[0] == judge.published(game_id)
    report = audit_hosted(
        parse_raw(logs[0], "log"), [parse_raw(encode_game(c), "copy") for c in copies]
    )
    assert report.ok, report.failure
    # A player's mail that is not a request changes nothing and is answered with a reason.
    before = judge.game(game_id).seq
    assert judge.handle(Mail("junk", b"j" * 32, "ann@x", "", "", (b"junk",))) == "refused"
    assert judge.handle(Mail("junk", b"j" * 32, "ann@x", "", "", (b"junk",))) == "duplicate"
    refusal = [m for _, m in judge.store.outbox()]
    assert len(refusal) == 1 and refusal[0].text.startswith("refused: ")
    assert judge.game(game_id).seq == before


def test_a_signed_note_or_draw_offer_is_not_replayed():
    table = Hosted(2, seed=8)
    ben = table.copies[1]
    offer = ben.request(1, "offer draw")
    table.ask(offer)
    table.ask(ben.request(1, "withdraw draw"))
    with pytest.raises(bs.IllegalCommand) as caught:  # the same signed offer, again
        table.judge.judge(offer)
    assert caught.value.code in ("replayed", "stale")


def test_a_mail_the_judge_fails_on_is_answered_and_the_judge_goes_on(tmp_path, monkeypatch):
    from boardstate.judge import Judge, Mail, open_store

    judge = Judge(open_store(str(tmp_path / "judge.sqlite")), Ed25519PrivateKey.generate())
    judge.create("jedi-duel", [("ann", "ann@x"), ("ben", "ben@x")], created=CREATED)
    for mail_id, _ in judge.store.outbox():
        judge.store.sent(mail_id)
    table = Hosted(2)  # (a request of another game will do: the bug is hit before the lookup)

    def broken(*args, **kwargs):
        raise IndexError("list index out of range")

    monkeypatch.setattr("boardstate.judge._judge.decode_request", broken)
    request = table.copies[0].request(0, "note hello").encode()
    assert judge.handle(Mail("1", b"1" * 32, "ann@x", "", "", (request,))) == "refused"
    (answer,) = [m for _, m in judge.store.outbox()]
    assert answer.text.startswith("refused: the judge failed on this mail (internal error")
    assert judge.handle(Mail("1", b"1" * 32, "ann@x", "", "", (request,))) == "duplicate"
