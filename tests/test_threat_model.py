"""The threat model of docs/trust.md, one test per row of its table.

Each test performs the attack its row names and asserts the outcome the table claims, in the
open mode (the seed is in the file) and in the peer mode (no seed; every player joins with a
key and a chain of links).  The hosted mode's
attacks (a judge that cheats included) are in tests/test_hosted.py.

Peer games run on tests/peer_draw.py ("Draw and Roll": piles arranged by their owners, private
draws at random positions, public dice) through tests/test_peer.py's ``Table`` (one copy per
player, move files carried between them), and on the installed rock-paper-scissors (sealed
choices) and Duel of the Forces (a face-down stock) modules.  Three attacks these tests found
succeeding (a card never drawn, a stacked pile published without openings, a replayed signed
choice) are fixed; their tests assert the refusal.
"""

from __future__ import annotations

import os
import random
from types import SimpleNamespace

import attrs
import msgpack
import pytest
import test_peer
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from peer_draw import CARDS, Played, Rolled, Shown
from peer_draw import MODULE as DRAW
from test_peer import NAMES, Table, _public

import boardstate as bs
import boardstate._game as game_module
import boardstate._header as header_module
import boardstate.trust._signed as signed_plug
from boardstate._audit import audit
from boardstate._fileformat import encode_file, encode_game, encode_moves, encode_public, parse_raw
from boardstate._peer import (
    NeedsInput,
    PeerRng,
    Supplies,
    arrangement,
    chain_of,
    epoch_key,
    signed_message,
)
from boardstate._records import Kind, sealed_values
from boardstate._referee import referee_moves, verify
from boardstate._registry import registered
from boardstate._rng import Rng
from boardstate._secrets import UNKNOWN, Reveal, Secret, make_secret
from boardstate.cli import cli
from boardstate.keys import verifies
from boardstate.testing import append_forged, chain, forge, random_game, rechain

RPS = bs.get_module("rock-paper-scissors")
DOTF = bs.get_module("duel-of-the-forces")
CREATED = "2026-01-01T00:00:00+00:00"
SALT = b"\x05" * 16


@pytest.fixture(autouse=True)
def _setup(monkeypatch):
    """The test modules registered; every new game created at the same instant (a peer game's
    id is its header's hash, so games alike in their players' secrets are alike throughout)."""
    monkeypatch.setattr(header_module, "_now", lambda: CREATED)
    with registered(DRAW):
        yield


# ---------------------------------------------------------------------------------- helpers
def table(n: int, *, module=DRAW, secrets=None, rng_seed: int = 0, protocol=None) -> Table:
    """test_peer's ``Table`` (one copy per player, mail between them) for ``module``."""
    saved = test_peer.MODULE
    test_peer.MODULE = module
    try:
        return Table(n, secrets=secrets, rng_seed=rng_seed, protocol=protocol)
    finally:
        test_peer.MODULE = saved


def secrets(*tags: int) -> list[bytes]:
    return [bytes([t]) * 32 for t in tags]


def acting(t: Table) -> tuple[int, bs.Game]:
    (seat,) = t.copies[0].to_act()
    return seat, t.copies[seat]


def signed(game: bs.Game, record, key) -> bs.Record:
    """``record`` signed with ``key`` (its actor's, or an impostor's)."""
    return record._replace(signature=key.sign(signed_message(game.header.game_id, record)))


def mailed(game: bs.Game, base: int, records, name: str = "forged.msgpack") -> bs.RawFile:
    """A move file on ``game``'s record ``base`` holding ``records`` (made by hand)."""
    holder = SimpleNamespace(header=game.header, records=list(game.records[: base + 1]) + records)
    return parse_raw(encode_moves(holder, base), name)


def attempt(game: bs.Game, links=None):
    """Re-run the decision ``game`` waits for with everything this copy holds, and ``links``
    (seat -> link: what colluders pool): ``NeedsInput.what`` if it still cannot go on, else the
    events it gives."""
    pending = game.pending.copy()
    have = {**pending.links, **(links or {})}
    n = len(game.players)
    if pending.need[0] == "links" and len(have) == n:
        epoch = len(pending.supplies.keys)
        key = epoch_key(game.header.game_id, pending.seq, epoch, [have[s] for s in range(n)])
        pending.supplies.keys.append(key)
    rng = PeerRng(pending.supplies, pending.seq, game.trust.mine(game, pending.actor))
    try:
        if pending.moves is None:
            events, _ = game.decider.start(pending.base, rng)
        else:
            events, _ = game.decider.decide(pending.base, pending.moves, rng, pending.openings)
    except NeedsInput as exc:
        return exc.what
    return events


def deliver(t: Table, src: int, dst: int) -> None:
    """Mail what ``src`` holds beyond ``dst`` (the referee's checks only: ``dst`` does not
    deal or reveal in return, as ``Table.mail`` does)."""
    a, b = t.copies[src], t.copies[dst]
    referee_moves(b, mailed(a, b.seq - 1, a.records[b.seq :], f"from {NAMES[src]}"))


def next_link(game: bs.Game, seat: int, secret: bytes) -> bytes:
    return chain_of(secret)[game.links_given.get(seat, 0) + 1]


def random_events(game: bs.Game) -> list:
    """Every event the randomness decided (draw positions, dice, first player, villains)."""
    return [e for r in game.records for e in r.events if type(e).__name__ != "PilesArranged"]


def open_copy(game: bs.Game) -> bs.Game:
    """Another player's copy of an open game: the full file, as every player holds it."""
    return verify(parse_raw(encode_game(game), "their copy")).game


def villain_ahead(game: bs.Game, choices: random.Random) -> tuple[int, int]:
    """Play on with ``choices`` until a villain turns up: (record, card)."""
    while True:
        seat = game.to_act()[0]
        for record in game.play(seat, choices.choice(game.legal(seat))):
            for ev in record.events:
                if type(ev).__name__ == "VillainDrawn":
                    return record.seq, ev.card


def first_villain(game: bs.Game) -> int:
    return next(
        e.card for r in game.records for e in r.events if type(e).__name__ == "VillainDrawn"
    )


def rps(mode: str):
    """Two copies of a rock-paper-scissors game in ``mode``: (ann's, ben's, keys or None)."""
    if mode == "open":
        game = bs.Game.new(RPS, ["alice", "bob"], {}, seed=b"rps", seed_salt=SALT * 2)
        return game, open_copy(game), None
    t = table(2, module=RPS)
    t.settle()
    return t.copies[0], t.copies[1], t.keys


def open_draw(seed: bytes = b"draw") -> bs.Game:
    return bs.Game.new(DRAW, ["alice", "bob"], {}, seed=seed)


def outcome(game: bs.Game, raw: bs.RawFile) -> bs.BoardstateError | None:
    """What applying ``raw`` to ``game`` gives: the refusal, or None (accepted)."""
    try:
        referee_moves(game, raw)
    except bs.BoardstateError as exc:
        return exc
    return None


def refused(game: bs.Game, raw: bs.RawFile) -> bs.VerificationFailed:
    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(game, raw)
    assert "\n" not in str(info.value)
    return info.value


# ====================================================================== integrity of the log
@pytest.mark.parametrize("mode", ["open", "peer"])
def test_rewrite_a_past_record(mode):
    """Change a past record (chain recomputed), or drop one: verify names the record."""
    if mode == "open":
        game = random_game(DRAW, 3, players=2)
        header = game.header
        records = list(game.records)
    else:
        t = table(2, rng_seed=4)
        t.play_out()
        game = t.copies[0]  # alice rewrites the log she holds
        header = verify(parse_raw(encode_public(game), "public")).game.header
        records = list(game.records)
    shown = "all" if mode == "open" else None  # (a public copy holds no opening: may_open)
    rolled = [
        i for i, r in enumerate(records) if any(type(e) is Rolled and e.die for e in r.events)
    ]
    # the die of a past play changed (by its own player, who re-signs it in the peer mode)
    index = next(i for i in rolled if mode == "open" or records[i].actor == 0)
    events = tuple(
        Rolled(e.seat, 1 + e.die % 6) if type(e) is Rolled else e for e in records[index].events
    )
    forged = forge(game, index, events=events)
    if mode == "peer":
        forged = forged[:index] + [signed(game, forged[index], t.keys[0])] + forged[index + 1 :]
    verdict = verify(parse_raw(encode_file(header, forged, openings_for=shown), "rewritten"))
    assert (verdict.failure.seq, verdict.failure.code) == (index, "not-derived")
    assert (
        "event" in verdict.failure.reason
        and "differs from what the rules give" in verdict.failure.reason
    )
    if mode == "peer":  # another player's record cannot be re-signed
        theirs = next(i for i, r in enumerate(records) if r.actor == 1 and r.kind == Kind.MOVE)
        forged = forge(
            game, theirs, command="play 1" if records[theirs].command == "draw" else "draw"
        )
        forged[theirs] = forged[theirs]._replace(signature=records[theirs].signature)
        verdict = verify(parse_raw(encode_file(header, forged, openings_for=shown), "rewritten"))
        assert (verdict.failure.seq, verdict.failure.code) == (theirs, "bad-signature")
        assert "bob's signature does not verify" in str(verdict.failure)
    # a record dropped: everything after it is out of place
    dropped = rechain(game, records[:index] + records[index + 1 :], index)
    verdict = verify(parse_raw(encode_file(header, dropped, openings_for=shown), "dropped"))
    assert (verdict.failure.seq, verdict.failure.code) == (index + 1, "bad-seq")
    assert f"out of sequence: expected record {index}" in verdict.failure.reason


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_make_an_illegal_move(mode):
    """Play a card one does not hold ("play 5" with two cards): refused, the record named."""
    if mode == "open":
        game = open_draw()
        other = open_copy(game)
        (seat,) = game.to_act()
        base = game.seq - 1
        record = game._make(Kind.MOVE, seat, "play 5", None, ())
    else:
        t = table(2, rng_seed=1)
        t.settle()
        seat, game = acting(t)
        other = t.copies[1 - seat]
        base = game.seq - 1
        record = signed(game, game._make(Kind.MOVE, seat, "play 5", None, ()), t.keys[seat])
    with pytest.raises(bs.IllegalCommand) as info:  # the player's own copy refuses it
        game.play(seat, "play 5")
    assert info.value.code == "illegal"
    failure = refused(other, mailed(game, base, [record]))
    assert (failure.seq, failure.actor, failure.code) == (base + 1, NAMES[seat], "illegal")
    assert "'play 5' is not possible now" in str(failure)


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_reroll_after_seeing_the_result(mode):
    """Get another die after seeing one: open, a record with another die is not what the seed
    gives; peer, the last dealer sees the die and offers another link: bad-link."""
    if mode == "open":
        game = open_draw()
        other = open_copy(game)
        (seat,) = game.to_act()
        base = game.seq - 1
        (record,) = game.play(seat, "play 1")
        played, rolled = record.events
        better = (played, Rolled(seat, 1 + rolled.die % 6))
        other_base = other.seq
        failure = refused(other, mailed(game, base, [forge(game, record.seq, events=better)[-1]]))
        assert (failure.seq, failure.code) == (other_base, "not-derived")
        assert "rules give draw.rolled" in failure.reason
        return
    t = table(2, secrets=secrets(1, 2), rng_seed=2)
    t.settle()
    seat, mover = acting(t)
    cheat = 1 - seat
    mover.play(seat, "play 1")  # the die waits for both links; the mover's is in
    other = t.copies[cheat]
    referee_moves(other, mailed(mover, other.seq - 1, mover.records[other.seq :]))
    honest = attempt(other, {cheat: next_link(other, cheat, secrets(1, 2)[cheat])})
    assert type(honest[-1]) is Rolled  # the cheat knows the die before dealing
    base = other.seq - 1
    reroll = other._make(Kind.DEAL, cheat, "", ("link", os.urandom(32)), ())
    failure = refused(mover, mailed(other, base, [signed(other, reroll, t.keys[cheat])]))
    assert (failure.seq, failure.actor, failure.code) == (base + 1, NAMES[cheat], "bad-link")
    assert f"{NAMES[cheat]}'s link does not follow their chain" in failure.reason


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_see_a_sealed_bid_before_committing(mode):
    """What a bidder mails holds the commitment only: the other copy cannot read the bid."""
    ann, ben, _keys = rps(mode)
    base = ann.seq - 1
    ann.play(0, "rock")
    commit = ann.records[-1]
    assert commit.kind == Kind.COMMIT and commit.sealed.value == "rock"
    data = encode_moves(ann, base)
    assert commit.sealed.salt not in data
    assert [list(item[2]) for item in parse_raw(data, "ann.msgpack").records] == [[]]
    referee_moves(ben, parse_raw(data, "ann.msgpack"))
    held = ben.records[-1].sealed
    assert held.commitment == commit.sealed.commitment and held.value is UNKNOWN
    assert ben.pending_choice(0) is None
    ben.play(1, "paper")  # once both are in, ben cannot reveal alice's for her either
    assert ben.to_act() == (0,) and not ben.held_reveal(0)
    with pytest.raises(bs.SecretUnavailable) as info:
        ben.play(0, "reveal")
    assert info.value.code == "no-opening"


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_change_a_bid_after_seeing_another(mode):
    """Ann commits rock, sees Ben's paper, reveals scissors: the reveal does not open her
    commitment (bad-reveal)."""
    ann, ben, keys = rps(mode)
    ann_base = ann.seq - 1
    ann.play(0, "rock")
    referee_moves(ben, parse_raw(encode_moves(ann, ann_base), "ann.msgpack"))
    ben_base = ben.seq - 1
    ben.play(1, "paper")  # ben commits and reveals (the last to commit reveals first)
    referee_moves(ann, parse_raw(encode_moves(ben, ben_base), "ben.msgpack"))
    assert ann.records[-1].sealed.value == "paper" and ann.to_act() == (0,)
    mine = ann.pending_commitment(0)
    base = ann.seq - 1
    changed = ann._make(Kind.REVEAL, 0, "", Reveal(mine.commitment, mine.salt, "scissors"), ())
    if keys:
        changed = signed(ann, changed, keys[0])
    failure = refused(ben, mailed(ann, base, [changed]))
    assert (failure.seq, failure.actor, failure.code) == (base + 1, "alice", "bad-reveal")
    assert "does not open the player's commitment" in failure.reason


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_grind_the_seed_at_creation(mode):
    """The creator tries creations until the first villain of Duel of the Forces suits them."""
    wanted = 0  # the villain the creator wants to face first
    if mode == "open":
        for n in range(500):  # possible: every seed is tried before anyone else sees the game
            game = bs.Game.new(DOTF, ["alice", "bob"], {}, seed=b"%d" % n)
            if first_villain(game) == wanted:
                break
        assert first_villain(game) == wanted and first_villain(open_copy(game)) == wanted
        return
    # peer: no seed; the creator's own secret leaves the villain open until bob's link is in
    creator = bs.Game.new(
        DOTF, ["alice", "bob"], {}, trust="peer", seat=0, peer_secret=secrets(1)[0]
    )
    key = Ed25519PrivateKey.generate()
    creator.signer = key.sign
    creator.join(0, _public(key))
    assert creator.state.villain is None and creator.waiting_text() == "waiting for bob to join"
    firsts = set()
    for bob in range(2, 8):
        t = table(2, module=DOTF, secrets=secrets(1, bob))
        t.settle()
        firsts.add(first_villain(t.copies[0]))
    assert len(firsts) > 1  # the same creator's secret, several villains: bob's link decides too


# ======================================================================== seeing and predicting
@pytest.mark.parametrize("mode", ["open", "peer"])
def test_see_another_players_hand(mode):
    """Bob reads Alice's hand and pile from what he holds."""
    if mode == "open":  # possible: every copy holds the seed, which deals every card
        game = open_draw()
        bob = open_copy(game)
        assert [c.value for c in bob.state.hands[0]] == [c.value for c in game.state.hands[0]]
        assert all(c.value is not UNKNOWN for c in bob.state.piles[0])
        return
    t = table(2, secrets=secrets(1, 2), rng_seed=5)
    t.settle()
    for _ in range(4):
        seat, game = acting(t)
        game.play(seat, "draw")
        t.settle()
    alice, bob = t.copies
    # bob holds commitments ("shares") of alice's cards, never their values
    for card in bob.state.hands[0] + bob.state.piles[0]:
        assert type(card) is Secret and card.owners == 1 and card.value is UNKNOWN
    assert all(c.value is not UNKNOWN for c in alice.state.hands[0])
    # nothing alice mails holds an opening, her secret, or a salt of her cards
    for data in (encode_moves(alice, 0), encode_public(alice)):
        raw = parse_raw(data, "alice's mail")
        assert raw.header.peer_secret is None and raw.header.seed is None
        assert all(not item[2] for item in raw.records)
        assert secrets(1)[0] not in data
        assert not any(c.salt in data for c in alice.state.hands[0] + alice.state.piles[0])


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_predict_a_die_or_draw(mode):
    """Know the next die before it is rolled."""
    if mode == "open":  # possible: the seed gives every record's randomness in advance
        game = open_draw()
        seed = open_copy(game).header.seed
        (seat,) = game.to_act()
        predicted = 1 + Rng(seed, b"record:%d" % game.seq).randbelow(6)
        (record,) = game.play(seat, "play 1")
        assert record.events[-1] == Rolled(seat, predicted)
        return
    dice = []
    for tag in (2, 3):  # two games alike but for the last dealer's secret
        t = table(2, secrets=secrets(1, tag), rng_seed=2)
        t.settle()
        seat, mover = acting(t)
        last = 1 - seat  # (the mover deals at once; the other player deals last)
        move = mover.seq
        mover.play(seat, "play 1")
        deliver(t, seat, last)
        for copy in t.copies:  # before the last link, no copy can compute the die
            assert attempt(copy) == ("links", 0)
        t.copies[last].deal_held()
        t.settle()
        links = {r.actor: r.sealed[1] for r in mover.records[move + 1 :] if r.kind == Kind.DEAL}
        key = epoch_key(mover.header.game_id, move, 0, [links[0], links[1]])
        rolled = mover.records[-1].events[-1]
        supplies = Supplies()
        supplies.keys.append(key)  # the die is the epoch key's, and only the key's
        assert rolled == Rolled(seat, 1 + PeerRng(supplies, move).randbelow(6))
        dice.append((key, rolled))
    assert dice[0][0] != dice[1][0]  # the die's randomness changes with the last secret


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_see_the_order_of_the_face_down_stock(mode):
    """Know which villain of Duel of the Forces turns up next."""
    if mode == "open":  # possible: a copy of the file plays ahead with the seed
        game = bs.Game.new(DOTF, ["alice", "bob"], {}, seed=b"stock")
        predicted = villain_ahead(open_copy(game), random.Random(1))
        assert villain_ahead(game, random.Random(1)) == predicted
        return
    # peer: there is no order to see; the next villain is drawn when it turns up, from an
    # epoch that waits for every link
    t = table(2, module=DOTF, secrets=secrets(1, 2))
    alice, bob = t.copies
    assert alice.state.villain is None and alice.waiting_text() == "waiting for bob to join"
    assert bob.state.villain is None and bob.pending.need == ("links", 0)
    assert attempt(bob) == ("links", 0)
    t.settle()
    assert alice.state.villain is not None
    other = table(2, module=DOTF, secrets=secrets(1, 3))
    other.settle()
    assert first_villain(other.copies[0]) != first_villain(alice)


# ============================================================================ the peer mode's own
def test_the_last_dealer_knows_the_result_when_dealing_and_can_only_stall():
    """The last player to deal an epoch computes its result first; they can send their link
    or not (a stall), never another one."""
    alice_secret, bob_secret = secrets(1, 2)
    t = table(2, module=DOTF, secrets=[alice_secret, bob_secret])
    alice, bob = t.copies
    deliver(t, 1, 0)  # bob's join and link reach alice: she deals last
    assert alice.waiting_for() == (0,) and alice.pending.need == ("links", 0)
    seen = attempt(alice, {0: next_link(alice, 0, alice_secret)})
    predicted = next(e.card for e in seen if type(e).__name__ == "VillainDrawn")
    assert attempt(bob) == ("links", 0)  # bob cannot yet
    base = alice.seq - 1
    other = alice._make(Kind.DEAL, 0, "", ("link", chain_of(secrets(9)[0])[1]), ())
    failure = refused(bob, mailed(alice, base, [signed(alice, other, t.keys[0])]))
    assert (failure.seq, failure.code) == (base + 1, "bad-link")
    assert bob.waiting_text().startswith("waiting for alice to add their share")
    alice.deal_held()
    assert alice.state.villain == predicted


def test_bias_by_changing_ones_secret_after_joining():
    """Bob joins, then swaps his private secret for one that gives better dice: none of its
    links follows the tip he joined with."""
    t = table(2, secrets=secrets(1, 2), rng_seed=2)
    t.settle()
    seat, mover = acting(t)
    cheat = 1 - seat
    mover.play(seat, "draw")
    other = t.copies[cheat]
    referee_moves(other, mailed(mover, other.seq - 1, mover.records[other.seq :]))
    other.header = attrs.evolve(other.header, peer_secret=secrets(7)[0])
    with pytest.raises(bs.IllegalCommand) as info:  # his own copy refuses to deal it
        other.deal_held()
    assert info.value.code == "bad-link"
    base = other.seq - 1
    deal = other._make(Kind.DEAL, cheat, "", ("link", chain_of(secrets(7)[0])[1]), ())
    failure = refused(mover, mailed(other, base, [signed(other, deal, t.keys[cheat])]))
    assert (failure.actor, failure.code) == (NAMES[cheat], "bad-link")


def test_steer_ones_own_draws_by_arranging_ones_pile(monkeypatch):
    """Alice arranges her pile as she likes (here: reversed); the positions drawn from it come
    from links asked for after her arrangement is in, and do not depend on it."""
    positions, hands = [], []
    for flip in (False, True):

        def arranged(secret, game_id, seq, owner, index, items, flip=flip):
            pile = arrangement(secret, game_id, seq, owner, index, items)
            return tuple(reversed(pile)) if flip and owner == 0 else pile

        monkeypatch.setattr(signed_plug, "arrangement", arranged)
        t = table(2, secrets=secrets(1, 2))
        t.settle()
        records = t.copies[0].records
        kinds = [(r.kind, r.sealed[0] if r.kind == Kind.DEAL else None) for r in records]
        arranges = [i for i, k in enumerate(kinds) if k == (Kind.DEAL, "arrange")]
        links = [i for i, k in enumerate(kinds) if k == (Kind.DEAL, "link")]
        assert max(arranges) < min(links)  # every pile is in before the first link is asked for
        positions.append(
            [(e.seat, e.position) for r in records for e in r.events if type(e).__name__ == "Drawn"]
        )
        hands.append([c.value for c in t.copies[0].state.hands[0]])
    assert positions[0] == positions[1] and hands[0] != hands[1]


class _Nine(int):
    """A cheat's card: commits to 9, and passes its own copy's check as the card it stands for."""

    def __new__(cls, shown):
        card = int.__new__(cls, 9)
        card.shown = shown
        return card

    def __repr__(self) -> str:
        return repr(self.shown)


def _stacked(monkeypatch):
    """Alice's (patched) copy arranges a pile of nine 9s instead of the cards 1-9."""

    honest = game_module.Game.supply

    def stacked(self, seat):
        supplied = honest(self, seat)
        if supplied[0] != "arrange" or seat != 0:
            return supplied
        return (
            "arrange",
            tuple(make_secret(_Nine(c.value), c.salt, c.owners) for c in supplied[1]),
        )

    monkeypatch.setattr(game_module.Game, "supply", stacked)
    t = table(2, secrets=secrets(1, 2), rng_seed=4)
    t.play_out()
    alice, bob = t.copies
    deal = next(r for r in alice.records if r.kind == Kind.DEAL and r.actor == 0)
    assert deal.sealed[0] == "arrange"
    return t, deal


def test_stack_ones_pile_with_other_cards(monkeypatch):
    """Unseen during the game (bob holds commitments only); the audit opens the pile."""
    t, deal = _stacked(monkeypatch)
    alice, bob = t.copies
    assert verify(parse_raw(encode_game(bob, viewer=1), "bob")).ok  # bob saw nothing wrong
    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate(t.copies)]
    report = audit(copies)
    assert (report.failure.seq, report.failure.actor, report.failure.code) == (
        deal.seq,
        "alice",
        "bad-deal",
    )
    assert "the arranged pile is not the cards asked for" in str(report.failure)


def test_stack_ones_pile_and_publish_a_copy_without_its_openings(monkeypatch):
    t, deal = _stacked(monkeypatch)
    alice, bob = t.copies
    header = parse_raw(encode_game(alice, viewer=0), "alice").header
    stripped = parse_raw(encode_file(header, alice.records, openings_for=None), "alice")
    report = audit([stripped, parse_raw(encode_game(bob, viewer=1), "bob")])
    assert not report.ok and report.failure.seq == deal.seq


@pytest.mark.parametrize(
    "mode",
    [
        "open",
        "peer",
    ],
)
def test_play_a_card_one_never_drew(mode):
    """Alice plays a 9 she never drew: a reveal of a fresh commitment instead of her slot's."""
    if mode == "open":
        game = open_draw(b"x")
        other = open_copy(game)
        seat = game.to_act()[0]
        fake = make_secret(9, b"\x01" * 16, 1 << seat)
        events = (Played(seat, 0, Reveal(fake.commitment, fake.salt, 9)), Rolled(seat, 1))
        record = append_forged(game, Kind.MOVE, seat, command="play 1", events=events)[-1]
        failure = refused(other, mailed(game, game.seq - 1, [record]))
        assert (failure.seq, failure.code) == (game.seq, "not-derived")
        return
    t = table(2, rng_seed=3)
    t.settle()
    seat, mover = acting(t)
    other = t.copies[1 - seat]
    base = mover.seq - 1
    fake = make_secret(9, b"\x01" * 16, 1 << seat)
    card = Reveal(fake.commitment, fake.salt, 9)
    record = mover._make(Kind.MOVE, seat, "play 1", None, (Played(seat, 0, card),))
    failure = outcome(other, mailed(mover, base, [signed(mover, record, t.keys[seat])]))
    assert failure is not None, f"accepted; checked only in part: {other.records[-1].seq}"
    assert (failure.seq, failure.code) == (base + 1, "bad-reveal")


# ================================================================== signatures: forge, repudiate
def _flip(raw_item: list, index: int) -> list:
    data = bytearray(raw_item[index])
    data[-1] ^= 1
    raw_item[index] = bytes(data)
    return raw_item


def _edited(data: bytes, change) -> bs.RawFile:
    """A move file whose first record's stored entry ``[body, hash, openings, signature]`` is
    changed by ``change``."""
    unpacker = msgpack.Unpacker(raw=False, use_list=True)
    unpacker.feed(data)
    items = list(unpacker)
    items[1] = change(items[1])
    return parse_raw(b"".join(msgpack.packb(i, use_bin_type=True) for i in items), "forged")


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_forge_a_record(mode):
    """Bob makes a record in Alice's name, or changes a byte of hers."""
    if mode == "open":  # possible: records are not signed; any copy can act for any seat
        alice = bs.Game.new(RPS, ["alice", "bob"], {"mode": "face-down"}, seed=b"rps")
        bob = open_copy(alice)
        base = bob.seq - 1
        bob.play(0, "rock")  # alice's face-down choice, made on bob's copy
        records = referee_moves(alice, parse_raw(encode_moves(bob, base), "bob"))[0]
        assert [r.actor for r in records] == [0] and alice.records[-1].sealed.value is UNKNOWN
        return
    t = table(2, rng_seed=3)
    t.settle()
    seat, mover = acting(t)
    other = t.copies[1 - seat]
    name = NAMES[seat]
    base = mover.seq - 1
    mover.play(seat, "draw")
    data = encode_moves(mover, base)

    def body_changed(item):  # "draw" -> "drax", the hash recomputed to match
        item[0] = item[0].replace(b"draw", b"drax")
        item[1] = chain(mover.records[base].hash, item[0])
        return item

    for change in (body_changed, lambda item: _flip(item, 3)):
        failure = refused(other, _edited(data, change))
        assert (failure.seq, failure.actor, failure.code) == (base + 1, name, "bad-signature")
        assert f"record {base + 1} by {name}" in str(failure)
        assert (
            f"{name}'s signature does not verify (key {t.copies[0].keys[seat].hex()[:16]})"
            in str(failure)
        )
    # a record in alice's name signed with another key (bob's own)
    impostor = signed(mover, mover.records[base + 1], t.keys[1 - seat])
    failure = refused(other, mailed(mover, base, [impostor]))
    assert (failure.actor, failure.code) == (name, "bad-signature")


def test_replay_a_players_signed_sealed_choice():
    """Round 1: alice rock, bob paper.  Round 2: alice commits scissors, and, holding bob's
    signed records of round 1, makes him commit and reveal paper again."""
    alice, bob, keys = rps("peer")
    for game, seat, shape in ((alice, 0, "rock"), (bob, 1, "paper")):
        game.play(seat, shape)
    t = SimpleNamespace(copies=[alice, bob])
    for src, dst in ((0, 1), (1, 0), (0, 1)):  # (the commitments cross in the mail)
        Table.mail(t, src, dst)
    assert alice.state.wins == bob.state.wins == (0, 1)
    commit = next(r for r in alice.records if r.kind == Kind.COMMIT and r.actor == 1)
    base = alice.seq - 1
    alice.play(0, "scissors")
    with pytest.raises(bs.IllegalCommand) as info:  # her own copy will not make it
        alice.commit_events(1, commit.sealed)
    assert info.value.code == "replayed"
    # forged by hand (no check), the replayed records are refused by bob's copy
    forged = [
        alice._make(Kind.COMMIT, 1, "", commit.sealed, ())._replace(signature=commit.signature)
    ]
    failure = outcome(bob, mailed(alice, base, [alice.records[base + 1]] + forged))
    assert failure is not None, f"bob's copy took it: wins {bob.state.wins}"
    assert (failure.seq, failure.actor, failure.code) == (base + 2, "bob", "replayed")


@pytest.mark.parametrize("mode", ["open", "peer"])
def test_repudiate_a_record(mode):
    """A player denies a record: can a referee holding only the file show who made it?"""
    if mode == "open":  # no: a record made on either copy is the same bytes, unsigned
        game = bs.Game.new(RPS, ["alice", "bob"], {"mode": "face-down"}, seed=b"r")
        made = []
        for copy in (open_copy(game), game):  # bob's copy, then alice's own
            (record,) = copy.play(0, "rock", entropy=lambda n: SALT)
            made.append(record)
        assert made[0].body == made[1].body and made[0].hash == made[1].hash
        assert made[0].signature == b"" == made[1].signature
        unpacker = msgpack.Unpacker(raw=False)
        unpacker.feed(encode_game(game))
        items = list(unpacker)[1:]  # (after the header)
        assert all(len(item) == 3 for item in items)  # body, hash, openings: nothing signed
        return
    t = table(3, rng_seed=6)
    t.play_out()
    raw = parse_raw(encode_public(t.copies[2]), "the file")
    game = verify(raw).game
    joined = {r.actor: r.sealed[0] for r in game.records if r.kind == Kind.JOIN}
    assert joined == game.keys and len(joined) == 3
    checked = 0
    for record in game.records[1:]:
        message = signed_message(game.header.game_id, record)
        assert verifies(joined[record.actor], record.signature, message)
        assert not any(
            verifies(k, record.signature, message) for s, k in joined.items() if s != record.actor
        )
        checked += 1
    assert checked == game.seq - 1 and {r.actor for r in game.records[1:]} == {0, 1, 2}


# ======================================================================================= stalls
@pytest.mark.parametrize("mode", ["open", "peer"])
def test_stall(mode, tmp_path):
    """A player stops answering: the game waits, the file says for whom, nobody acts for them."""
    if mode == "open":
        ann, ben, _ = rps("open")
        ann.play(0, "rock")
        held = verify(parse_raw(encode_game(ann), "file")).game
        assert held.to_act() == (1,)
        with pytest.raises(bs.IllegalCommand) as info:
            ann.play(0, "paper")
        assert info.value.code == "not-your-turn" and "already committed" in info.value.reason
        return
    t = table(3, rng_seed=7)
    t.settle()
    mover_seat, mover = acting(t)
    staller, third = (mover_seat + 1) % 3, (mover_seat + 2) % 3
    mover.play(mover_seat, "draw")
    t.mail(mover_seat, third)  # the third player deals; the staller never does
    t.mail(third, mover_seat)
    wait = f"waiting for {NAMES[staller]} to add their share of the randomness (a deal record)"
    for seat in (mover_seat, third):
        copy = t.copies[seat]
        assert copy.waiting_text() == wait and copy.to_act() == (staller,)
        with pytest.raises(bs.IllegalCommand) as info:
            copy.play(seat, "draw")
        assert info.value.code == "not-your-turn"
    with pytest.raises(bs.SecretUnavailable) as info:  # the third cannot deal for them
        t.copies[third].supply(staller)
    assert info.value.code == "no-opening"
    base = t.copies[third].seq - 1
    forged = t.copies[third]._make(Kind.DEAL, staller, "", ("link", os.urandom(32)), ())
    failure = refused(mover, mailed(t.copies[third], base, [signed(mover, forged, t.keys[third])]))
    assert (failure.actor, failure.code) == (NAMES[staller], "bad-signature")
    path = tmp_path / "game.msgpack"
    bs.save_game(mover, path, viewer=mover_seat)
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 0 and wait in result.output


# ===================================================================================== collusion
def test_collude_to_see_a_third_players_cards():
    """Alice and Bob pool everything they hold, their private secrets too: Carol's cards stay
    commitments they cannot open."""
    pooled = secrets(1, 2)
    t = table(3, secrets=pooled + secrets(3), rng_seed=9)
    t.play_out()
    alice, bob, carol = t.copies
    for copy in (alice, bob):
        for record in copy.records:
            if any(type(e) is Shown for e in record.events) and record.actor in (0, 1):
                continue  # (a card of their own they showed carol)
            for value in sealed_values(record):
                if type(value) is Secret and value.owners == 1 << 2:
                    assert value.value is UNKNOWN
        assert all(c.value is UNKNOWN for c in copy.state.hands[2] + copy.state.piles[2])
    # their secrets do not make carol's pile: her commitments are hers alone
    deal = next(
        r
        for r in carol.records
        if r.kind == Kind.DEAL and r.sealed[0] == "arrange" and r.actor == 2
    )
    piles = {c.commitment for c in deal.sealed[1]}

    def made_with(secret):
        return {c.commitment for c in arrangement(secret, carol.header.game_id, 0, 2, 0, CARDS)}

    assert made_with(secrets(3)[0]) == piles  # (carol's own secret makes them)
    assert not any(made_with(secret) & piles for secret in pooled)
    # their own copies, audited together: every record checks; carol's cards are not audited
    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate((alice, bob))]
    report = audit(copies)
    assert report.ok and report.missing == ("carol",)
    assert all(c.value is UNKNOWN for c in carol.state.hands[0])


def test_collude_to_predict_or_bias_a_draw():
    """Alice and Bob pool their chains against Carol: before Carol's link they cannot compute
    the draw; once it is in, they learn the draw before the last of them deals (earlier than
    Carol), but cannot change it; and the draw changes with Carol's secret."""
    pooled = secrets(1, 2)
    outcomes = []
    for carol in (3, 4):
        t = table(3, secrets=pooled + secrets(carol), rng_seed=10)
        t.settle()
        outcomes.append(random_events(t.copies[0]))
        seat, mover = acting(t)
        while seat == 2:  # (a draw that a colluder starts)
            mover.play(seat, "draw")
            t.settle()
            seat, mover = acting(t)
        partner = 1 - seat
        other = t.copies[partner]
        mover.play(seat, "draw")
        theirs = {partner: next_link(mover, partner, pooled[partner])}  # given by the partner
        assert attempt(mover, theirs) == ("links", 0)  # carol's link is missing
        deliver(t, seat, 2)
        t.copies[2].deal_held()
        deliver(t, 2, seat)
        deliver(t, seat, partner)
        assert mover.waiting_for() == (partner,) and attempt(t.copies[2]) == ("links", 0)
        predicted = attempt(mover, theirs)  # the colluders know the draw; carol does not yet
        assert [type(e).__name__ for e in predicted] == ["Drawn", "Rolled"]
        for link in (mover.pending.links[seat], chain_of(secrets(9)[0])[1]):
            swap = other._make(Kind.DEAL, partner, "", ("link", link), ())
            raw = mailed(other, other.seq - 1, [signed(other, swap, t.keys[partner])])
            assert refused(t.copies[2], raw).code == "bad-link"  # no other link is theirs
        other.deal_held()
        assert other.records[-1].events == tuple(predicted)
    assert outcomes[0] != outcomes[1]  # alice and bob alike, carol's secret differs


# ================================================================== a value for one other player
def test_see_a_card_shown_to_another_player():
    """Three players: Alice shows Bob her first card.  Its opening travels to Bob only, in a
    letter encrypted for him; Carol, who holds the same move files, cannot open it."""
    t = table(3, secrets=secrets(1, 2, 3), rng_seed=11)
    t.settle()
    seat, shower = acting(t)
    reader, third = (seat + 1) % 3, (seat + 2) % 3
    value = shower.state.hands[seat][0].value
    base = shower.seq - 1
    shower.play(seat, f"show {NAMES[reader]}")
    items = parse_raw(encode_moves(shower, base), "mail").records
    assert [list(item[2]) for item in items] == [[]]  # no opening in the clear
    assert [letter[1] for letter in items[0][4]] == [reader]  # one letter, for the reader
    t.settle()
    for copy, seen in ((shower, value), (t.copies[reader], value), (t.copies[third], UNKNOWN)):
        (shown,) = copy.state.shown
        assert shown[:2] == (seat, reader) and shown[2].owners == 1 << reader
        assert shown[2].value == seen or shown[2].value is seen
    # the third player cannot open the letter, even as the reader (her key is not his)
    third = t.copies[third]
    posing = attrs.evolve(third.header, viewer=reader)
    third.header = posing
    record = third.records[base + 1]
    assert third.open_letters(seat, record.seq, record.letters, ()) == ()


def test_show_a_player_a_card_one_does_not_hold(monkeypatch):
    """Alice's (patched) copy shows Bob a 0 instead of her card: Bob cannot tell during the
    game (the commitment is Alice's); the end-of-game audit re-makes the shown value from her
    published copy and names the record."""
    t = table(3, secrets=secrets(1, 2, 3), rng_seed=11)
    t.settle()
    seat, shower = acting(t)
    reader = (seat + 1) % 3
    value = shower.state.hands[seat][0].value
    honest = PeerRng.secret
    lying = shower.seq  # the cheat's copy lies whenever it makes this record's secret

    def secret(self, value, owners=0):
        return honest(self, 0 if self._seq == lying else value, owners)

    monkeypatch.setattr(PeerRng, "secret", secret)
    shower.play(seat, f"show {NAMES[reader]}")
    t.play_out()
    shown = next(s for s in t.copies[reader].state.shown if s[:2] == (seat, reader))
    assert shown[2].value == 0 != value  # bob was shown a card alice does not hold
    monkeypatch.setattr(PeerRng, "secret", honest)  # (the audit runs honest software)
    copies = [parse_raw(encode_game(c, viewer=i), f"copy {i}") for i, c in enumerate(t.copies)]
    report = audit(copies)
    assert (report.failure.seq, report.failure.actor) == (lying, NAMES[seat])
    assert report.failure.code == "not-derived" and "draw.shown" in report.failure.reason
