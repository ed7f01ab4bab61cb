"""The peer mode (issue 13): games by mail with no dealer and no seed, every record signed.

The engine is exercised through a small game that draws privately (tests/peer_draw.py): each
player's pile arranged by its owner, private draws at random positions, public dice.  Copies
exchange move files as mail would, in orders the players could not control.
"""

from __future__ import annotations

import hashlib
import os
import random

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from peer_draw import MODULE

import boardstate as bs
from boardstate._fileformat import encode_game, encode_moves, encode_public, parse_raw
from boardstate._peer import chain_of
from boardstate._records import Kind
from boardstate._referee import referee_moves, verify
from boardstate._registry import registered
from boardstate._secrets import UNKNOWN

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture(autouse=True)
def _module():
    with registered(MODULE):
        yield


def key_of(secret: bytes) -> Ed25519PrivateKey:
    """A player's signing key made from their secret: a game of fixed secrets is the same game
    on every run (from protocol 2 a reply's signature stands for a share of the randomness)."""
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"test key" + secret).digest())


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class Table:
    """One copy per player; ``mail`` carries move files between them."""

    def __init__(
        self, n: int, *, secrets=None, rng_seed: int = 0, created=None, protocol=None
    ) -> None:
        import attrs

        secrets = secrets or [os.urandom(32) for _ in range(n)]
        self.keys = [key_of(secret) for secret in secrets]
        first = bs.Game.new(
            MODULE,
            NAMES[:n],
            {},
            created=created or "2026-11-22T00:00:00+00:00",
            seed_salt=bytes([rng_seed % 256]) * 32,  # (a peer game's name: fixed in tests)
            trust="peer",
            seat=0,
            peer_secret=secrets[0],
            protocol=protocol,
        )
        first.signer = self.keys[0].sign
        first.join(0, _public(self.keys[0]))
        invite = encode_public(first)
        self.copies = [first]
        for seat in range(1, n):
            game = verify(parse_raw(invite, "invite")).game
            game.header = attrs.evolve(game.header, viewer=seat, peer_secret=secrets[seat])
            game.signer = self.keys[seat].sign
            self.copies.append(game)
        self.rng = random.Random(rng_seed)
        for seat in range(1, n):  # (everyone joins from the invitation: joins commute)
            self.copies[seat].join(seat, _public(self.keys[seat]))

    def mail(self, src: int, dst: int) -> None:
        """Send ``dst`` what ``src`` holds beyond their common records (a move file)."""
        a, b = self.copies[src], self.copies[dst]
        common = 0
        while common < min(a.seq, b.seq) and a.records[common].hash == b.records[common].hash:
            common += 1
        if common == a.seq:
            return
        data = encode_moves(a, common - 1)
        try:
            referee_moves(b, parse_raw(data, f"from {NAMES[src]}"))
        except bs.MoveRefused as exc:
            if exc.code != "stale":
                raise
        while b.reveal_held() + b.deal_held():
            pass

    def settle(self) -> None:
        """Deliver mail in a random order until every copy holds the same log."""
        n = len(self.copies)
        for _ in range(200):
            heads = {c.head_hash for c in self.copies}
            if len(heads) == 1:
                return
            src, dst = self.rng.sample(range(n), 2)
            self.mail(src, dst)
        raise AssertionError("the copies never agreed")

    def play_out(self, moves: int = 500) -> None:
        self.settle()
        lead = self.copies[0]
        for _ in range(moves):
            if lead.outcome() is not None:
                return
            (seat,) = lead.to_act()
            game = self.copies[seat]
            assert game.to_act() == (seat,), game.waiting_text()
            game.play(seat, self.rng.choice(game.legal(seat)))
            self.settle()
        raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_peer_game_by_mail_plays_to_the_end_and_every_copy_agrees(players):
    table = Table(players, rng_seed=players)
    table.play_out()
    hashes = {tuple(r.hash for r in c.records) for c in table.copies}
    assert len(hashes) == 1
    outcome = table.copies[0].outcome()
    assert outcome is not None and all(c.outcome() == outcome for c in table.copies)
    for seat, copy in enumerate(table.copies):
        verdict = verify(parse_raw(encode_game(copy, viewer=seat), "copy"))
        assert verdict.ok, verdict.failure
    kinds = [r.kind for r in table.copies[0].records]
    assert kinds.count(Kind.JOIN) == players and Kind.DEAL in kinds


def test_no_copy_holds_the_seed_or_another_players_cards():
    table = Table(2, rng_seed=5)
    table.play_out()
    alice, bob = table.copies
    assert alice.header.seed is None and bob.header.seed is None
    saved = bs.load_game(parse_raw(encode_game(bob, viewer=1), "bob's copy"))
    for record in saved.records:  # bob's copy holds openings of his own cards only
        for value in bs._records.sealed_values(record):
            if type(value) is bs.Secret and value.known and record.actor != 1:
                assert value.owners == 1 << 1  # (and what bob showed alice, he knows)
    # alice's cards still in her hand at the end are unknown to bob's copy
    assert all(card.value is UNKNOWN for card in bob.state.hands[0])
    assert all(card.value is not UNKNOWN for card in alice.state.hands[0])


def test_what_others_see_does_not_depend_on_the_cards_a_player_holds(monkeypatch):
    """Two games alike in everything but alice's arrangement of her pile: bob's copy shows the
    same table at every step (only commitments differ), whatever alice drew."""
    import boardstate.trust._signed as signed_plug
    from boardstate._peer import arrangement as real

    secrets = [bytes([7]) * 32, bytes([9]) * 32]
    seen = []
    for flip in (False, True):

        def arranged(secret, game_id, seq, owner, index, items, flip=flip):
            pile = real(secret, game_id, seq, owner, index, items)
            return tuple(reversed(pile)) if flip and owner == 0 else pile

        monkeypatch.setattr(signed_plug, "arrangement", arranged)
        table = Table(2, secrets=secrets, rng_seed=11, created="2026-11-22T00:00:00+00:00")
        table.settle()
        shown = []
        bob = table.copies[1]
        for _ in range(6):  # bob only draws and alice only draws: nothing is revealed
            (seat,) = bob.to_act()
            table.copies[seat].play(seat, "draw")
            table.settle()
            shown.append(bob.decider.to_json(bob.state, 1))
        seen.append(shown)
        alice_hand = [c.value for c in table.copies[0].state.hands[0]]
        seen[-1].append(alice_hand)
    assert seen[0][:-1] == seen[1][:-1]
    assert seen[0][-1] != seen[1][-1]  # (alice's hands did differ)


def _two_copies():
    table = Table(2, rng_seed=3)
    table.settle()
    return table


def _forge(data: bytes, index: int, change) -> bytes:
    """A move file with record ``index``'s stored entry changed by ``change``."""
    import msgpack

    unpacker = msgpack.Unpacker(raw=False, use_list=True)
    unpacker.feed(data)
    items = list(unpacker)
    items[1 + index] = change(items[1 + index])
    return b"".join(msgpack.packb(i, use_bin_type=True) for i in items)


def test_a_changed_signature_is_refused_naming_whose_key_failed():
    table = _two_copies()
    alice, bob = table.copies
    (seat,) = alice.to_act()
    mover, other = table.copies[seat], table.copies[1 - seat]
    base = mover.seq - 1
    mover.play(seat, "draw")
    data = encode_moves(mover, base)

    def flip(item):
        item[3] = bytes([item[3][0] ^ 1]) + item[3][1:]
        return item

    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(other, parse_raw(_forge(data, 0, flip), "forged"))
    assert f"{NAMES[seat]}'s signature does not verify" in str(info.value)
    assert info.value.code == "bad-signature"

    def unsign(item):
        item[3] = b""
        return item

    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(other, parse_raw(_forge(data, 0, unsign), "unsigned"))
    assert info.value.code == "unsigned"


def test_a_record_signed_with_another_key_is_refused():
    table = _two_copies()
    (seat,) = table.copies[0].to_act()
    mover, other = table.copies[seat], table.copies[1 - seat]
    base = mover.seq - 1
    mover.signer = Ed25519PrivateKey.generate().sign  # someone else's key
    mover.play(seat, "draw")
    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(other, parse_raw(encode_moves(mover, base), "impostor"))
    assert info.value.code == "bad-signature"


def test_a_share_of_randomness_other_than_the_committed_one_is_refused():
    """Nobody can reroll: a deal must reveal the next link of the chain fixed at the join."""
    table = _two_copies()
    (seat,) = table.copies[0].to_act()
    mover, other = table.copies[seat], table.copies[1 - seat]
    mover.play(seat, "draw")  # asks for randomness: the mover deals, the other must too
    table.mail(seat, 1 - seat)
    assert other.seq > mover.seq  # (the other copy dealt on receipt)
    base = mover.seq - 1
    deal = other.records[-1]
    assert deal.kind == Kind.DEAL and deal.sealed[0] == "link"
    import boardstate._game as game_module

    honest = chain_of(other.header.peer_secret)
    # a cheating copy offers a different link (e.g. to get a better die)
    other.truncate(mover.seq)
    other.supply = lambda s: ("link", os.urandom(32))
    with pytest.raises(bs.IllegalCommand) as info:
        other.deal_held()
    assert info.value.code == "bad-link"
    assert honest and game_module  # (the honest chain is the only one that follows)
    del other.supply
    assert other.deal_held() and other.records[-1].sealed[1] in honest
    assert base >= 0


def test_the_file_shows_whom_a_stalled_game_waits_for():
    table = _two_copies()
    (seat,) = table.copies[0].to_act()
    mover = table.copies[seat]
    mover.play(seat, "draw")
    other = NAMES[1 - seat]
    assert mover.waiting_text().startswith(f"waiting for {other} to add their share")
    assert mover.to_act() == (1 - seat,)
    with pytest.raises(bs.IllegalCommand) as info:
        mover.play(seat, "draw")
    assert info.value.code in ("waiting", "not-your-turn")


def test_the_end_of_game_audit_re_derives_everything_from_the_published_copies():
    table = Table(2, rng_seed=8)
    table.play_out()
    from boardstate._audit import audit

    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate(table.copies)]
    report = audit(copies)
    assert report.ok, report.failure
    assert report.partly == 0 and report.records == table.copies[0].seq


def test_jedi_duel_is_refused_in_the_peer_mode_naming_the_mode_that_serves_it():
    jedi = bs.get_module("jedi-duel")
    with pytest.raises(bs.OptionError) as info:
        bs.Game.new(jedi, ["alice", "bob"], {}, trust="peer", seat=0)
    assert "hosted" in str(info.value) and "\n" not in str(info.value)


def test_a_card_shown_to_one_player_reaches_that_player_only():
    """Letters: the opening travels encrypted to the reader; the third player's copy, and
    a copy pooling the third player's published secret with nothing else, cannot open it."""
    table = Table(3, rng_seed=4)
    table.settle()
    (seat,) = table.copies[0].to_act()
    reader = (seat + 2) % 3
    third = (seat + 1) % 3
    shower = table.copies[seat]
    card = shower.state.hands[seat][0].value
    shower.play(seat, f"show {NAMES[reader]}")
    table.settle()
    ((_, to, secret),) = [x for x in table.copies[reader].state.shown]
    assert to == reader and secret.value == card
    assert table.copies[third].state.shown[0][2].value is UNKNOWN
    record = table.copies[third].records[-1]
    assert record.letters and all(letter[1] == reader for letter in record.letters)


def test_epic_duels_for_three_in_the_peer_mode_mail_in_any_order(monkeypatch):
    """A free-for-all of three: piles arranged by their owners, cards shown by letters, shares
    and joins crossing in the mail; every copy ends alike, and the audit checks everything."""
    import test_peer

    from boardstate._audit import audit

    monkeypatch.setattr(test_peer, "MODULE", bs.get_module("epic-duels"))
    table = Table(3, rng_seed=0)
    table.play_out(moves=3000)
    assert len({c.head_hash for c in table.copies}) == 1
    assert table.copies[0].outcome() is not None
    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate(table.copies)]
    report = audit(copies)
    assert report.ok, report.failure
    assert report.partly == 0
