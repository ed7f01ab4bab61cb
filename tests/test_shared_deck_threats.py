"""The shared-deck mode's threat model (docs/trust.md, "Shared-deck mode"): each test performs
one attack on real copies and shows what comes of it."""

from __future__ import annotations

import pytest
from shared_deck_table import Table, fast_proofs

import boardstate as bs
from boardstate import _mental as mental
from boardstate._audit import audit
from boardstate._fileformat import encode_game, parse_raw
from boardstate.trust._dealer import DeckDealer


@pytest.fixture(autouse=True)
def _fast(monkeypatch):
    fast_proofs(monkeypatch)


def _cheat(monkeypatch, name: str, cheater: int, make):
    """``DeckDealer.name`` for the cheater's copy becomes ``make(honest, self, game, me)``."""
    honest = getattr(DeckDealer, name)

    def method(self, game, me, *rest):
        if me == cheater:
            return make(honest, self, game, me, *rest)
        return honest(self, game, me, *rest)

    monkeypatch.setattr(DeckDealer, name, method)


def _refused(code: str):
    return pytest.raises(bs.VerificationFailed, match=rf"\[{code}\]")


def test_a_forged_shuffle_is_refused(monkeypatch):
    """Ben shuffles and swaps one card for a second copy of another (two of a card, one card
    gone); his proof, made as an honest one is, does not check: Ann's copy refuses the record."""

    def forged(honest, self, game, me):
        tag, deck, proof = honest(self, game, me)
        twice = list(deck)
        twice[0] = mental.remask(deck[1], mental.derived_scalar(b"k" * 32, b"x"), self.joint)
        return (tag, tuple(twice), proof)

    _cheat(monkeypatch, "my_shuffle", 1, forged)
    with _refused("bad-shuffle"):
        Table(2, seed=11)


def _until(table: Table, done, moves: int = 400) -> None:
    for _ in range(moves):
        if done():
            return
        table.act()
    raise AssertionError("never happened")


def test_a_wrong_decryption_share_is_refused(monkeypatch):
    """Ben gives, for a card Ann drew, the share of another key (with a proof that holds for
    that key): Ann's copy refuses it, naming Ben's share."""

    def wrong(honest, self, game, me):
        out = []
        other_x, other_public = mental.key_share(b"not ben" * 5, game.header.game_id)
        for index, _share, _proof in honest(self, game, me):
            card = self.cards[index]
            context = self.share_context(game, card, me)
            out.append((index, *mental.prove_share(other_x, other_public, card.cipher, context)))
        return out

    table = Table(2, seed=12)
    _cheat(monkeypatch, "my_shares", 1, wrong)
    with _refused("bad-share"):
        _until(table, lambda: False)


def test_a_replayed_decryption_share_is_refused():
    """Ben sends again a share he gave before: for the same card (refused: a share is given
    once), or moved to another card with its proof (refused: the proof names the card)."""
    table = Table(2, seed=13)
    ann = table.copies[0]
    x, y = [c for c in ann.trust.cards if 1 in c.shares and c.revealed is None][:2]
    with pytest.raises(bs.IllegalCommand) as info:
        ann.check_deal(1, ("shares", ((x.index, *x.shares[1]),)))
    assert info.value.code == "replayed"
    saved = x.shares.pop(1)  # (as Ann's copy stood before Ben's share of x came in)
    try:
        with pytest.raises(bs.IllegalCommand) as info:
            ann.trust.check_shares(ann, 1, ((x.index, *y.shares[1]),), proofs=True)
        assert info.value.code == "bad-share"
        ann.trust.check_shares(ann, 1, ((x.index, *saved),), proofs=True)  # (the true one)
    finally:
        x.shares[1] = saved


def test_a_card_claimed_as_another_is_caught_when_played(monkeypatch):
    """Ben reads his cards and claims one as a card he does not hold (an ace he would like):
    the claim is a commitment nobody else can open yet; when he plays it, the proof that must
    follow does not decrypt the card drawn to it, and Ann's copy refuses it."""

    def lie(honest, self, game, card, me):
        value = honest(self, game, card, me)
        return None if value is None else (value + 1) % 54

    honest_read = DeckDealer.read

    def read(self, game, card, me):
        if me == 1:
            return lie(honest_read, self, game, card, me)
        return honest_read(self, game, card, me)

    monkeypatch.setattr(DeckDealer, "read", read)
    with _refused("bad-reveal"):
        table = Table(2, seed=14)
        _until(table, lambda: False)


def test_a_card_claimed_as_another_and_never_played_is_caught_by_the_audit(monkeypatch):
    """The same lie, once, and Ben resigns before he plays the card: the audit, with every copy
    published, reads every card with every key share and names the claim."""
    table = Table(2, seed=15)
    for _ in range(6):
        table.act()
    lied = []
    honest = DeckDealer.my_claims

    def my_claims(self, game, me):
        claims = honest(self, game, me)
        if me != 1 or lied or not claims:
            return claims
        placeholder, _ = claims[0]
        value = self.read(game, self.cards[self.unclaimed[placeholder][0]], me)
        lie = self.claim_secret(game, placeholder, (value + 1) % 54, me).commitment
        lied.append(lie)
        return [(placeholder, lie), *claims[1:]]

    monkeypatch.setattr(DeckDealer, "my_claims", my_claims)
    for _ in range(200):
        if lied:
            break
        table.act()
    ben = table.copies[1]
    ben.play(1, "resign")
    table.settle()
    copies = [parse_raw(encode_game(c), f"copy {i}") for i, c in enumerate(table.copies)]
    verdict = audit(copies)
    assert verdict.failure is not None and verdict.failure.code == "bad-claim", verdict


def test_no_player_reads_another_players_card():
    """Everything Ben's copy holds (every public share, and his own key) reads none of Ann's
    cards: the share of the card's first drawer is missing."""
    table = Table(2, seed=16)
    for _ in range(10):
        table.act()
    ann, ben = table.copies
    x_ben = mental.key_share(table.secrets[1], ben.header.game_id)[0]
    tried = 0
    for card in ben.trust.cards:
        if card.first != 0 or card.revealed is not None:
            continue
        shares = [card.shares[s][0] for s in card.shares] + [
            mental.decryption_share(x_ben, card.cipher)
        ]
        with pytest.raises(mental.BadProof):
            mental.card_of(mental.decrypt(card.cipher, shares), card.values)
        tried += 1
    assert tried >= 3


def test_two_players_pooling_their_keys_do_not_read_the_thirds_cards():
    """Ann and Ben (3 players) put both their secrets together: they read each other's cards,
    not Cat's."""
    table = Table(3, seed=17)
    for _ in range(8):
        table.act()
    game = table.copies[0]
    gid = game.header.game_id
    keys = [mental.key_share(table.secrets[s], gid)[0] for s in (0, 1)]
    read = {0: 0, 1: 0, 2: 0}
    for card in game.trust.cards:
        if card.first is None or card.revealed is not None or len(card.shares) != 2:
            continue
        shares = [card.shares[s][0] for s in card.shares if s not in (0, 1)]
        shares += [mental.decryption_share(x, card.cipher) for x in keys]
        try:
            mental.card_of(mental.decrypt(card.cipher, shares), card.values)
            read[card.first] += 1
        except mental.BadProof:
            assert card.first == 2
            read[2] -= 1
    assert read[2] < 0 and read[0] > 0 and read[1] > 0


def test_a_player_who_stops_answering_freezes_the_deck_and_the_file_says_who():
    """Ben defends with a card and draws its replacement; he needs Ann's share of it to play
    on, and Ann does not answer: nothing can happen, and every copy says it waits for Ann."""
    table = Table(2, seed=18)
    ben = table.copies[1]

    def stalled() -> bool:
        return ben.due() == "shares" and ben.waiting_for() == (0,)

    for _ in range(400):
        lead = table.copies[0]
        (seat,) = lead.to_act()
        game = table.copies[seat]
        game.play(seat, table.rng.choice(game.legal(seat)))
        if seat == 1:
            table.mail(1)  # (Ben's mail reaches Ann, who does not answer)
            if stalled():
                break
        table.settle()
    else:
        raise AssertionError("never stalled")
    assert ben.waiting_text().startswith("waiting for ann to add their shares")
    assert ben.legal(1) == []
    with pytest.raises(bs.IllegalCommand, match="to act: ann"):
        ben.play(1, "take")


def test_a_card_shown_as_another_is_refused_by_its_reader(monkeypatch):
    """Force Sense: Ben shows Ann his hand and lies about one card.  His letter opens to the
    value he wrote, but the first share he must send with it decrypts the card he holds: Ann's
    copy refuses the record, naming the lie."""
    from boardstate.trust._deck import DeckRng

    honest = DeckRng.passed

    def passed(self, card, owners):
        index = self._deck.card_at(card.commitment)
        if (
            self._mine is not None
            and self._mine[0] == 1
            and owners == 1
            and card.known
            and index is not None
            and self._deck.cards[index].first == 1
        ):  # (a card Ben drew, shown to Ann as another)
            out = self.secret((card.value + 1) % 54, owners)
            self.made[out.commitment] = (index, -1)
            return out
        return honest(self, card, owners)

    monkeypatch.setattr(DeckRng, "passed", passed)
    table = Table(2, seed=19)
    with pytest.raises(bs.VerificationFailed, match=r"ben showed ann .*\[bad-share\]"):
        _until(table, lambda: False, moves=2000)
