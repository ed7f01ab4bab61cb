"""Shares of the randomness that ride on mails sent anyway (issue 26, item 3): the peer mode's
protocol 2, and the attacks on each case (docs/trust.md, "Shares that ride on mails sent
anyway").

Three cases, each for new games only (an older game plays protocol 1 to its end):

1. the copy that asked for the links deals first, and the links of an epoch are kept in the
   order they were dealt (the first dealer's first), so the deal that completes them rides on
   its player's next move file instead of a reply of its own;
2. with two players, the creator's pile rides on the invitation (and the joiner's on the
   join), while the links that draw from them still wait for every join;
3. with two players, a reveal is forced on its player: when it asks for randomness at once,
   a signature already made stands for one player's share (the reply that forced a choice
   turned over; in a sealed round, whose reveals commute, the reveal every copy's order puts
   first), and the other player's link completes it.

The games run on tests/test_peer.py's ``Table`` (one copy per player, move files between
them) through tests/test_threat_model.py's helpers, on Duel of the Forces (sealed bids, a
villain turned up after each round) and Draw and Roll (tests/peer_draw.py: piles arranged by
their owners).
"""

from __future__ import annotations

import random

import msgpack
import pytest
from test_threat_model import (
    DOTF,
    _setup,  # noqa: F401 (the modules registered, every game created at one instant)
    attempt,
    deliver,
    mailed,
    next_link,
    refused,
    secrets,
    signed,
    table,
)

import boardstate as bs
from boardstate._canonical import canonical_region
from boardstate._fileformat import encode_game, encode_moves, encode_public, parse_raw
from boardstate._header import PEER_PROTOCOLS, Header
from boardstate._peer import REPLY_EPOCH, PeerRng, Supplies, chain_of, epoch_key, share_of
from boardstate._records import Kind
from boardstate._referee import referee_moves, verify

ORDER = 0x1000000000000000000000000000000014DEF9DEA2F79CD65812631A5CF5D3ED  # Ed25519's group


def deals(game: bs.Game, start: int = 0) -> list[tuple[int, str]]:
    """``(seat, "link" or "arrange")`` of every deal from record ``start`` on, in log order."""
    return [(r.actor, r.sealed[0]) for r in game.records[start:] if r.kind == Kind.DEAL]


def clone(game: bs.Game, key) -> bs.Game:
    """Another copy of a player's own file (their secret and openings), to try a step on."""
    out = verify(parse_raw(encode_game(game), "clone")).game
    out.signer = key.sign
    return out


def villains(records) -> list[int]:
    return [e.card for r in records for e in r.events if type(e).__name__ == "VillainDrawn"]


def at_a_forced_reveal(protocol=None, seed: int = 5, first: int = 0):
    """A two-player Duel of the Forces played round by round, ``first`` bidding first, until
    the reveal that resolves a round would turn up the next villain at once: the table as it
    stands when the revealer's copy holds the other player's reply (their bid and its reveal:
    they committed last) and must reveal.  ``(table, revealer, replier)``."""
    t = table(2, module=DOTF, secrets=secrets(1, 2), protocol=protocol)
    t.settle()
    choices = random.Random(seed)
    salts = choices.randbytes  # (a bid's salt: it is in the reply its signature covers)
    for _ in range(200):
        lead = t.copies[0]
        assert lead.outcome() is None, "no round turned up a villain at once"
        if lead.round is None:  # (an open choice: who wins a card keeps or discards it)
            (seat,) = lead.to_act()
            t.copies[seat].play(seat, choices.choice(t.copies[seat].legal(seat)), entropy=salts)
            t.settle()
            continue
        last = 1 - first
        t.copies[first].play(first, choices.choice(t.copies[first].legal(first)), entropy=salts)
        deliver(t, first, last)
        t.copies[last].play(last, choices.choice(t.copies[last].legal(last)), entropy=salts)
        deliver(t, last, first)
        probe = clone(t.copies[first], t.keys[first])
        probe.reveal_held()
        if probe.pending is not None and probe.pending.need[0] == "links":
            return t, first, last
        t.settle()
    raise AssertionError("no round turned up a villain at once")


# ---------------------------------------------------------------------------------- the header
def test_a_new_peer_game_plays_the_newest_protocol_and_an_older_one_is_still_made_and_read():
    newest = table(2, module=DOTF, secrets=secrets(1, 2)).copies[0]
    older = table(2, module=DOTF, secrets=secrets(1, 2), protocol=1).copies[0]
    assert newest.header.protocol == PEER_PROTOCOLS[-1] == 2 and older.header.protocol == 1
    for game, version in ((newest, 4), (older, 2)):
        for data in (encode_game(game), encode_public(game), encode_moves(game, 0)):
            unpacker = msgpack.Unpacker(raw=False)
            unpacker.feed(data)
            header_map = unpacker.unpack()
            assert header_map["version"] == version
            assert header_map.get("protocol") == (None if version == 2 else 2)
        assert verify(parse_raw(encode_game(game), "copy")).game.header.protocol == (
            game.header.protocol
        )
    assert newest.header.game_id != older.header.game_id  # (the protocol is in the game id)
    for trust, protocol in (("open", 1), ("peer", 3)):
        with pytest.raises(bs.OptionError) as info:
            Header.for_new_game(
                DOTF, ["alice", "bob"], {}, None, None, trust=trust, protocol=protocol
            )
        assert info.value.code == "bad-trust"


def _header_edited(game: bs.Game, **changes) -> bytes:
    data = encode_game(game)
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    header_map = unpacker.unpack()
    header_map.update(changes)
    return msgpack.packb(header_map, use_bin_type=True) + data[unpacker.tell() :]


def test_a_later_protocol_is_a_future_version_and_a_misplaced_one_is_corrupt():
    game = table(2, module=DOTF, secrets=secrets(1, 2)).copies[0]
    with pytest.raises(bs.FutureVersion) as future:
        parse_raw(_header_edited(game, protocol=3), "later.msgpack")
    assert "protocol 3" in str(future.value) and "upgrade" in str(future.value)
    for changes in ({"version": 2}, {"protocol": 1}, {"protocol": True}):
        with pytest.raises(bs.CorruptFile) as corrupt:
            parse_raw(_header_edited(game, **changes), "odd.msgpack")
        assert "version" in str(corrupt.value) or "protocol" in str(corrupt.value)


# ---------------------------------------------------------------- 1. the first dealer deals first
@pytest.mark.parametrize("protocol", [1, 2])
def test_the_deal_that_completes_an_epoch_rides_on_its_players_next_move_file(protocol):
    """Bob draws: his record asks for the links and his copy deals his at once; Alice's link
    completes them, and it is her turn.  Protocol 2 keeps Bob's link first (he dealt first), so
    one move file carries her link and her move.  Protocol 1 puts the lowest seat's first: her
    copy no longer holds Bob's records in the order his does, and a move file built on them is
    a fork (her link must go back alone first: one more mail)."""
    t = table(2, secrets=secrets(1, 2), rng_seed=1, protocol=protocol)
    t.settle()
    alice, bob = t.copies
    while alice.to_act() != (1,):
        seat = alice.to_act()[0]
        t.copies[seat].play(seat, "draw")
        t.settle()
    bob.play(1, "draw")
    alice.keep_in_canonical_order()  # (as the command line's copies do)
    deliver(t, 1, 0)
    start = bob.seq - 1
    alice.deal_held()
    assert alice.to_act() == (0,)
    alice.play(0, alice.legal(0)[0])
    assert deals(alice, start)[:2] == (
        [(1, "link"), (0, "link")] if protocol == 2 else [(0, "link"), (1, "link")]
    )
    same = [a.hash == b.hash for a, b in zip(alice.records, bob.records)] + [False]
    mail = parse_raw(encode_moves(alice, alice.mail_base(same.index(False) - 1)), "from alice")
    if protocol == 1:
        with pytest.raises(bs.MoveRefused) as info:
            referee_moves(bob, mail)
        assert info.value.code == "fork"
        return
    referee_moves(bob, mail)
    assert bob.head_hash == alice.head_hash


# ------------------------------------------------------ 2. the creator's pile in the invitation
def test_the_creators_pile_rides_on_the_invitation_and_the_links_wait_for_every_join():
    t = table(2, secrets=secrets(1, 2))
    alice, bob = t.copies
    invitation = verify(parse_raw(encode_public(alice), "invitation")).game
    assert [(r.kind, r.actor) for r in invitation.records] == [
        (Kind.SETUP, -1),
        (Kind.JOIN, 0),
        (Kind.DEAL, 0),
    ]
    assert deals(bob) == [(0, "arrange"), (1, "arrange"), (1, "link")]  # bob's join mail
    # Until bob has joined, nobody deals a link: alice's copy waits for his join, and a link
    # dealt early is refused, so no player can choose their secret knowing another's link.
    assert alice.due() == "join" and alice.waiting_for() == (1,) and alice.deal_held() == []
    early = alice._make(Kind.DEAL, 0, "", ("link", next_link(alice, 0, secrets(1)[0])), ())
    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(invitation, mailed(alice, alice.seq - 1, [signed(alice, early, t.keys[0])]))
    assert info.value.code == "early-deal"
    t.settle()
    assert alice.head_hash == bob.head_hash and not alice.due()


def test_two_joiners_positions_depend_on_the_joiners_link_not_on_the_creators_pile():
    """The creator's pile is in before the joiner chooses anything, but it is commitments only;
    the positions drawn from it come from links dealt after both piles are in: another joiner's
    secret draws other positions from the same invitation."""
    drawn = []
    for bob_secret in secrets(2, 3):
        t = table(2, secrets=[secrets(1)[0], bob_secret])
        t.settle()
        drawn.append(
            [
                (e.seat, e.position)
                for r in t.copies[0].records
                for e in r.events
                if type(e).__name__ == "Drawn"
            ]
        )
        assert t.copies[1].state.hands[0][0].value is bs.UNKNOWN  # (bob holds her cards sealed)
    assert drawn[0] != drawn[1]


# ------------------------------------------------------------ 3. the reply's share of a reveal
def test_a_reply_carries_the_share_of_the_reveal_it_forces():
    """The second seat bids last and reveals at once; the first seat's copy reveals, deals its
    own link, and the villain is up: the replier deals nothing for it.  The epoch's key is the
    reply's share and the revealer's link, named by the round's first record (a round's reveals
    commute: docs/trust.md)."""
    t, revealer, replier = at_a_forced_reveal()
    game = t.copies[revealer]
    reply = game.records[-1]
    assert reply.actor == replier == 1 and reply.kind == Kind.REVEAL
    link = next_link(game, revealer, secrets(1, 2)[revealer])
    given, start = dict(game.links_given), game.round.start
    made = game.reveal_held()
    # the key and stream docs/trust.md gives, from the reply's share and the revealer's link
    shares = {replier: share_of(reply.signature), revealer: link}
    supplies = Supplies()
    supplies.keys.append(epoch_key(game.header.game_id, start, REPLY_EPOCH, [shares[0], shares[1]]))
    supplies.streams[0] = b"reply:%d" % start
    pending = game.pending
    rng = PeerRng(supplies, pending.seq, game.trust.mine(game, pending.actor))
    expected, _ = game.decider.decide(pending.base, pending.moves, rng, pending.openings)
    made += game.deal_held()
    assert [(r.kind, r.actor) for r in made] == [(Kind.REVEAL, revealer), (Kind.DEAL, revealer)]
    assert villains(made[-1:]) == villains([made[0]._replace(events=expected)]) != []
    assert not game.due() and game.links_given == {**given, revealer: given[revealer] + 1}
    other = t.copies[replier]
    deliver(t, revealer, replier)
    assert other.head_hash == game.head_hash and villains(other.records) == villains(game.records)
    assert other.deal_held() == []


def test_whose_share_resolves_a_round_does_not_depend_on_the_order_of_its_reveals():
    """The second seat bids first: the first seat bids last and reveals at once, and the second
    seat's reveal resolves the round in the order the records were made, though every copy's
    canonical order (a round's reveals commute) puts it first.  The share is the second seat's
    reveal's signature either way and the first seat's link completes the epoch, so a copy
    holding the round in the order made and one holding it in canonical order agree on the
    villain (the second seat waits for that link: one round trip, after which the first seat
    bids first again)."""
    t, revealer, replier = at_a_forced_reveal(first=1)
    bob, alice = t.copies[revealer], t.copies[replier]
    assert (revealer, replier) == (1, 0)
    start = bob.round.start
    made = bob.reveal_held() + bob.deal_held()
    assert [(r.kind, r.actor) for r in made] == [(Kind.REVEAL, 1)] and bob.waiting_for() == (0,)
    deliver(t, 1, 0)
    dealt = alice.deal_held()
    assert [(r.kind, r.actor) for r in dealt] == [(Kind.DEAL, 0)] and villains(dealt)
    canon = clone(alice, t.keys[0])
    canonical_region(canon, start)
    reveals = [r.actor for r in canon.records[start:] if r.kind == Kind.REVEAL]
    assert reveals == [1, 0] != [r.actor for r in alice.records[start:] if r.kind == Kind.REVEAL]
    assert villains(canon.records) == villains(alice.records)
    deliver(t, 0, 1)
    assert bob.head_hash == alice.head_hash and not bob.due()


def test_without_the_newest_protocol_the_reveal_waits_for_the_other_players_link():
    t, revealer, replier = at_a_forced_reveal(protocol=1)
    game = t.copies[revealer]
    game.reveal_held()
    game.deal_held()
    assert game.due() == "link" and game.waiting_for() == (replier,)


def test_the_revealer_learns_the_villain_first_and_cannot_change_it():
    """Holding the reply, the revealer can compute the villain before revealing (as the last
    dealer of an epoch can: a limit), and then can only reveal, or stall.  Engine words first
    change nothing (the epoch is named by the reply, not by where the reveal lands), any other
    command is refused, and a link off the chain is refused by the other copy."""
    t, revealer, replier = at_a_forced_reveal()
    game = t.copies[revealer]
    key = t.keys[revealer]
    straight = clone(game, key)
    predicted = villains(straight.reveal_held() + straight.deal_held())
    assert predicted
    stalled = clone(game, key)
    for words in ("note thinking it over", "offer draw", "note still thinking"):
        stalled.play(revealer, words)
    made = stalled.reveal_held() + stalled.deal_held()
    assert villains(made) == predicted and made[0].seq == game.seq + 3
    with pytest.raises(bs.IllegalCommand) as info:
        game.play(revealer, "play luke 1")
    assert info.value.code == "must-reveal"
    game.reveal_held()
    base = game.seq - 1
    other = game._make(Kind.DEAL, revealer, "", ("link", chain_of(secrets(9)[0])[1]), ())
    deliver(t, revealer, replier)
    failure = refused(t.copies[replier], mailed(game, base, [signed(game, other, key)]))
    assert failure.code == "bad-link"


def test_the_replier_cannot_compute_the_villain_nor_deal_for_it():
    """The replier's share is fixed by the reply's signature before the revealer's link is
    known: the replier's copy waits for that link (a preimage only the revealer's secret
    gives), and a link of their own for the epoch is refused."""
    t, revealer, replier = at_a_forced_reveal()
    game = t.copies[revealer]
    game.reveal_held()
    deliver(t, revealer, replier)
    other = t.copies[replier]
    assert other.waiting_for() == (revealer,) and other.pending.reply is not None
    assert attempt(other) == ("links", 0)
    assert other.deal_held() == []
    base = other.seq - 1
    own = other._make(
        Kind.DEAL, replier, "", ("link", next_link(other, replier, secrets(1, 2)[replier])), ()
    )
    failure = refused(game, mailed(other, base, [signed(other, own, t.keys[replier])]))
    assert failure.code == "early-deal"


def test_nobody_but_the_replier_can_give_the_reply_another_signature():
    """The share is the reply's signature: an Ed25519 signature with its S changed to S + L (the
    group order), the one change that leaves the equation true, is refused as not verifying."""
    t, revealer, replier = at_a_forced_reveal()
    game, other = t.copies[revealer], t.copies[replier]
    reply = game.records[-1]
    s = int.from_bytes(reply.signature[32:], "little") + ORDER
    assert s < 1 << 256
    twin = reply._replace(signature=reply.signature[:32] + s.to_bytes(32, "little"))
    base = reply.seq - 1
    fresh = verify(parse_raw(encode_game(game), "copy")).game
    fresh.truncate(reply.seq)
    failure = refused(fresh, mailed(other, base, [twin]))
    assert (failure.seq, failure.code) == (reply.seq, "bad-signature")


@pytest.mark.parametrize(("players", "protocol"), [(3, None), (2, 1), (2, None)])
def test_only_two_players_of_the_newest_protocol_have_epochs_without_every_link(players, protocol):
    """Played to the end: with three players, or protocol 1, every epoch holds a link of every
    player (each player dealt as many); with two players of protocol 2 some epochs were
    completed by the revealer alone."""
    t = table(
        players, module=DOTF, secrets=secrets(1, 2, 3)[:players], rng_seed=4, protocol=protocol
    )
    for copy in t.copies:  # (as the command line's copies: each step in canonical order)
        copy.keep_in_canonical_order()
    t.settle()
    lead = t.copies[0]
    while lead.outcome() is None:
        seat = t.rng.choice(lead.to_act())
        t.copies[seat].play(seat, t.rng.choice(t.copies[seat].legal(seat)), entropy=t.rng.randbytes)
        t.settle()
    given = lead.links_given
    if players == 2 and protocol is None:
        assert given[0] != given[1]
    else:
        assert len(set(given.values())) == 1
