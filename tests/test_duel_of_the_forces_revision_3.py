"""Duel of the Forces, rules revision 3: no dealer.

The stock is the public list of the cards left, and each card that turns up (a villain, R2-D2's
look, the final take) is drawn from it at a random position then, with ``table.rng.randbelow``:
the chances of the top card of a shuffled stock, with no order that anybody (or any file) holds
beforehand.  So the peer mode, which has no dealer, can play it; revisions 1 and 2 (a stock
shuffled with the seed at creation) are refused there by ``refuse_trust``.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest
from test_duel_of_the_forces import RULES, act, bid, deck_index, table

import boardstate as bs
from boardstate.modules.duel_of_the_forces import KEEP, LOOK_CMD, MODULE, PASS, TAKE_CMD, give
from boardstate.modules.duel_of_the_forces._state import (
    BID,
    LOOK,
    OFFER,
    OVER,
    R2,
    R2_DECISION,
    TAKE,
    FinalDrawn,
    R2Drawn,
    VillainDrawn,
)
from boardstate.rules import Choice, Reveal, Secret, Setup, Table
from boardstate.testing import Rng, checked_options, initial_state, random_game, start

EDITIONS = ("ravensburger-2015", "parlett-english", "parlett-original")
DECK = initial_state(MODULE).cards.deck
ALL = frozenset(range(len(DECK)))
DRAWN = (VillainDrawn, R2Drawn, FinalDrawn)


class NoDealer(Rng):
    """Randomness as the peer mode gives it to the rules: numbers, made when they are used.
    A secret owned by nobody (a dealer's card), a shuffle or an arranged pile fails the test;
    ``asked`` keeps the ``n`` of every ``randbelow(n)``."""

    def __init__(self, seed: bytes) -> None:
        super().__init__(seed, b"record:1")
        self.asked: list[int] = []

    def randbelow(self, n: int) -> int:
        self.asked.append(n)
        return super().randbelow(n)

    def secret(self, value, owners: int = 0):
        raise AssertionError(f"revision 3 made a secret (owners {owners}): it needs no dealer")

    def shuffled(self, items):
        raise AssertionError("revision 3 shuffles nothing: cards are drawn as they turn up")

    def arrange(self, items, owner):
        raise AssertionError("revision 3 arranges no pile")


def drawn_cards(event) -> tuple:
    """The card ids a revision-3 event drew from the stock (none for any other event)."""
    if isinstance(event, FinalDrawn):
        return tuple(event.cards)
    if isinstance(event, (VillainDrawn, R2Drawn)):
        return (event.card,)
    return ()


def holds_secret(value) -> bool:
    if isinstance(value, (Secret, Reveal)):
        return True
    return isinstance(value, tuple) and any(holds_secret(v) for v in value)


def play_out(edition: str, n: int, seed: int):
    """A random game at the level of the rules, every draw made by ``NoDealer``: yields
    ``(state before, rng, events, state after)`` for the setup and every decision."""
    pick = random.Random(seed)
    state = initial_state(MODULE, ("ann", "ben", "cat", "dan")[:n], {"edition": edition})
    rng = NoDealer(b"setup-%d" % seed)
    t = Table(state, RULES.evolve, rng)
    RULES.start(t)
    yield state, rng, tuple(t.events), t.state
    state = t.state
    for step in range(2000):
        if RULES.outcome(state) is not None:
            return
        seats = RULES.to_act(state)
        if RULES.choice(state) != Choice.SEALED:
            seats = seats[:1]
        moves = tuple((seat, pick.choice(tuple(RULES.legal(state, seat)))) for seat in seats)
        rng = NoDealer(b"game-%d-%d" % (seed, step))
        t = Table(state, RULES.evolve, rng)
        RULES.decide(t, moves)
        yield state, rng, tuple(t.events), t.state
        state = t.state
    raise AssertionError("the game does not end")


# ------------------------------------------------------------------ the set-up
def test_new_games_draw_the_first_villain_from_a_public_stock():
    state = initial_state(MODULE, ("ann", "ben"))
    assert state.revision == 3 and state.draws_at_turn_up
    assert set(state.stock) == ALL and len(state.stock) == len(DECK) == 34
    events, after = start(MODULE, state)
    assert [type(e) for e in events] == [VillainDrawn]  # no shuffle, no secret
    assert after.villain == events[0].card and set(after.stock) == ALL - {after.villain}
    assert RULES.view(after, 0) == after == RULES.view(after, None)  # nothing to hide


def test_revision_2_still_shuffles_the_stock_at_creation():
    state = initial_state(MODULE, ("ann", "ben"), revision=2)
    assert not state.draws_at_turn_up and state.stock == ()
    events, after = start(MODULE, state)
    assert [e.__event_name__ for e in map(type, events)] == [
        "dotf.stock-shuffled",
        "dotf.villain-turned-up",
    ]
    assert all(type(c) is Secret and c.owners == 0 for c in events[0].cards)
    assert all(not c.known for c in RULES.view(after, 0).stock)


def test_the_first_villain_is_uniform_over_the_deck():
    """Chi-square over 2040 set-ups (60 expected per card, 33 degrees of freedom): 63.9 is the
    0.1% point.  A draw that favoured any position of the stock would fail it."""
    state = initial_state(MODULE, ("ann", "ben"))
    tries = 60 * len(DECK)
    counts = Counter(start(MODULE, state, seed=b"first-%d" % i)[1].villain for i in range(tries))
    assert set(counts) == ALL
    expected = tries / len(DECK)
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in ALL)
    assert chi2 < 63.9, (chi2, counts)


def test_the_final_take_draws_distinct_cards_uniformly():
    """Two cards taken from a stock of four: all 12 ordered pairs alike (chi-square, 11 degrees
    of freedom, 31.3 the 0.1% point)."""
    stock = ["Greedo", ("Darth Vader", -6), "Boba Fett", "Jabba the Hutt", "Count Dooku"]
    s = table(stock, hands=[(1, 2), (8,)])
    s, _ = bid(s, 1, 8)  # ben wins Greedo with his last card: ann may take two of the four
    assert s.phase == OFFER and s.offer == TAKE and len(s.stock) == 4
    tries = 1200
    pairs = Counter()
    for i in range(tries):
        rng = NoDealer(b"take-%d" % i)
        after, events = act(s, 0, TAKE_CMD, rng=rng)
        (take,) = [e for e in events if isinstance(e, FinalDrawn)]
        taken = set(take.cards)
        assert rng.asked == [4, 3] and len(taken) == 2 and taken <= set(s.stock)
        assert after.captured[0] == take.cards and set(after.stock) == set(s.stock) - taken
        pairs[take.cards] += 1
    assert len(pairs) == 12
    expected = tries / 12
    chi2 = sum((k - expected) ** 2 / expected for k in pairs.values())
    assert chi2 < 31.3, (chi2, pairs)


# ------------------------------------------------------------------ turn-ups draw from what is left
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_turn_up_draws_only_from_the_cards_left(edition):
    """Whatever turns up (villains, R2-D2's cards, the final take) comes from the stock as it
    stands, at a position the draw picks among all of it; the stock keeps exactly the cards
    never seen, so no card once seen is ever drawn again."""
    kinds = Counter()
    for seed in range(12):
        seen: set = set()
        for before, rng, events, after in play_out(edition, 2 + seed % 3, seed):
            state = before
            asked = iter(rng.asked)
            for event in events:
                assert not holds_secret(attrs.astuple(event, recurse=False))
                cards = drawn_cards(event)
                for k, card in enumerate(cards):
                    assert card in state.stock and card not in seen
                    assert next(asked) == len(state.stock) - k  # a position among all left
                    seen.add(card)
                state = RULES.evolve(state, event)
                if cards:
                    kinds[type(event).__name__] += 1
                    assert set(state.stock) == ALL - seen - {state.villain} - {None}
            assert next(asked, None) is None  # no draw other than the turn-ups
            assert state == after
            assert not seen & set(after.stock) and seen | set(after.stock) == ALL
    assert kinds["VillainDrawn"] and kinds["R2Drawn"]


def test_the_final_take_is_drawn_from_the_cards_left_in_every_edition_that_has_one():
    found = Counter()
    for edition in ("ravensburger-2015", "parlett-original"):
        for seed in range(40):
            for before, _, events, _ in play_out(edition, 2 + seed % 3, seed):
                for event in events:
                    if isinstance(event, FinalDrawn):
                        found[edition] += 1
                        assert set(event.cards) <= set(before.stock)
                        assert len(set(event.cards)) == len(event.cards)
    assert found["ravensburger-2015"] and found["parlett-original"]


# ------------------------------------------------------------------ R2-D2: a look, never a known top
@pytest.mark.parametrize("edition", EDITIONS)
def test_r2_d2_looks_at_a_card_drawn_from_the_cards_left(edition):
    # "Dafür dürft ihr ... die oberste Karte vom Bösewicht-Kartenstapel aufdecken"; Parlett:
    # "you can look at the next top card of the stock and either keep it yourself or give it to
    # somebody else".  The card R2-D2 turns up is drawn then, from the cards left.
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett", "Count Dooku"], edition=edition)
    s, _ = bid(s, R2, 3)
    assert s.phase == OFFER and s.offer == LOOK
    left = s.stock
    assert deck_index("Greedo") not in left and len(left) == 3  # the villain up is not in it
    looked = Counter()
    for i in range(60):
        rng = NoDealer(b"look-%d" % i)
        up, events = act(s, 0, LOOK_CMD, rng=rng)
        (drawn,) = [e for e in events if isinstance(e, R2Drawn)]
        assert rng.asked == [3] and drawn.card in left and up.r2_card == drawn.card
        assert up.phase == R2_DECISION and up.stock == tuple(c for c in left if c != drawn.card)
        looked[drawn.card] += 1
        # kept or given, the card leaves the stock for good: the next villain (after the duel
        # R2-D2 made wait, in Parlett's editions) is drawn from the two cards left
        rng = NoDealer(b"after-%d" % i)
        done, events = act(up, 0, give(1) if i % 2 else KEEP, rng=rng)
        assert drawn.card in done.captured[i % 2]
        (villain,) = [e for e in events if isinstance(e, VillainDrawn)]
        assert rng.asked == [2] and villain.card in up.stock and done.phase == BID
    assert set(looked) == set(left)  # any of the cards left may be the one R2-D2 turns up


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_pass_looks_at_nothing_so_no_card_is_known(edition):
    """'pass' turns up nothing: the stock is as it was, and the next villain is drawn from all
    of it.  (No rule puts a card once seen back on the stock, so revision 3 never has a known
    top card to turn up next.)"""
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett", "Count Dooku"], edition=edition)
    s, _ = bid(s, R2, 3)
    rng = NoDealer(b"pass")
    after, events = act(s, 0, PASS, rng=rng)
    assert not [e for e in events if isinstance(e, R2Drawn)]
    (villain,) = [e for e in events if isinstance(e, VillainDrawn)]
    assert rng.asked == [3] and villain.card in s.stock  # drawn from every card left
    assert set(after.stock) == set(s.stock) - {villain.card} and R2 in after.hands[0]
    assert after.captured[1] == (deck_index("Greedo"),)  # the duel is won all the same


def test_ravensburger_r2_d2_looks_after_the_duel_and_before_the_next_villain():
    # "zu Beginn der nächsten Runde": R2-D2's card is drawn first, then the next villain, each
    # from the cards left, as the top two cards of a shuffled stock would be.
    s = table(["Greedo", "Jabba the Hutt", "Boba Fett"])
    s, events = bid(s, R2, 3)
    assert not [e for e in events if isinstance(e, VillainDrawn)]  # no villain up yet
    assert s.villain is None and s.captured[1] == (deck_index("Greedo"),)
    s, _ = act(s, 0, LOOK_CMD)
    assert s.r2_card == deck_index("Jabba the Hutt")  # (the stacked draw: the first left)
    s, _ = act(s, 0, KEEP)
    assert s.villain == deck_index("Boba Fett") and s.stock == ()


class Waits(Exception):
    pass


class NotYet(Rng):
    """The peer mode before every player has given their share: a draw stops the decision
    (the engine keeps the events made so far and shows the table as they leave it)."""

    def __init__(self) -> None:
        super().__init__(b"", b"")

    def randbelow(self, n: int) -> int:
        raise Waits


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_table_waiting_for_a_draw_still_shows_and_answers(edition):
    """The villain is won and the next one waits for its draw: no villain is up.  Whom the
    table waits for is the engine's, but the rules still answer for that table."""
    for setup in (True, False):
        state = table(["Greedo", ("Darth Vader", -2), "Boba Fett"], edition=edition, n=3)
        if setup:
            t = Table(
                initial_state(MODULE, ("ann", "ben", "cat"), {"edition": edition}),
                RULES.evolve,
                NotYet(),
            )
            with pytest.raises(Waits):
                RULES.start(t)
        else:
            t = Table(state, RULES.evolve, NotYet())
            with pytest.raises(Waits):
                RULES.decide(t, ((0, ("play", 5)), (1, ("play", 3)), (2, ("play", 2))))
        waiting = t.state
        assert waiting.villain is None and waiting.phase == BID
        assert RULES.to_act(waiting) == (0, 1, 2)
        assert RULES.legal(waiting, 0) and RULES.outcome(waiting) is None
        for seat in (None, 0, 1, 2):
            view = RULES.view(waiting, seat)
            assert RULES.render(view, seat) and RULES.to_json(view, seat)
        RULES.report(waiting)


# ------------------------------------------------------------------ whole games
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_plays_to_the_end_and_verifies(edition, players):
    for seed in range(3):
        game = random_game(MODULE, seed, players, options={"edition": edition})
        assert game.outcome() is not None and game.header.revision == 3
        verdict = bs.verify(bs.parse_raw(bs.encode_game(game), "revision-3"))
        assert verdict.ok, verdict.failure
        assert verdict.rederived == verdict.records and verdict.game.state == game.state
        events = [e for r in game.records for e in r.events]
        names = {type(e).__event_name__ for e in events}
        assert "dotf.villain-drawn" in names and not names & {
            "dotf.stock-shuffled",
            "dotf.villain-turned-up",
            "dotf.r2-turned-up",
            "dotf.final-take",
        }
        seen = [c for e in events for c in drawn_cards(e)]
        assert len(seen) == len(set(seen)) and set(seen) | set(game.state.stock) == ALL
        for seat in (None, *range(players)):
            assert RULES.view(game.state, seat) == game.state


# ------------------------------------------------------------------ the peer mode
@pytest.mark.parametrize("revision", [1, 2])
def test_the_peer_mode_is_refused_before_revision_3(revision):
    setup = Setup(("ann", "ben"), checked_options(MODULE), revision)
    line = type(RULES).refuse_trust(setup, "peer")  # a plain function of (setup, mode)
    assert line == (
        f"Duel of the Forces rules revision {revision} shuffles the stock with a seed at "
        f"creation; the peer mode needs revision 3 (the default for new games)"
    )
    assert RULES.refuse_trust(setup, "open") is None


@pytest.mark.parametrize("revision", [1, 2])
def test_the_hosted_mode_plays_every_revision(revision):
    setup = Setup(("ann", "ben"), checked_options(MODULE), revision)
    assert RULES.refuse_trust(setup, "hosted") is None  # (the judge holds the seed)


@pytest.mark.parametrize("mode", ["open", "peer", "hosted"])
def test_revision_3_is_played_in_every_mode(mode):
    options = checked_options(MODULE, {"edition": "parlett-original"}, ("ann", "ben", "cat"))
    assert RULES.refuse_trust(Setup(("ann", "ben", "cat"), options, 3), mode) is None


def test_a_game_over_takes_nothing_more_from_the_stock():
    s = table(["Greedo", "Boba Fett"], edition="parlett-english", hands=[(1,), (2,)])
    rng = NoDealer(b"end")
    s, events = bid(s, 1, 2, rng=rng)  # ben wins with his last card: he has run out
    assert s.phase == OVER and rng.asked == [] and not [e for e in events if drawn_cards(e)]
    assert s.stock == (deck_index("Boba Fett"),)
