"""``evolve``: how each event changes the table (``Fold`` handlers, one per event of ``EVENTS``).

Pure functions of the state and one event: the table, the loader and the referee all fold with
``evolve``, and it never fails on an event ``_decide`` made.  ``DuelState.settled`` keeps what the
last decision settled: a decision starts with BidsRevealed, R2Resolved or Answered, and each later
event of it adds one entry (the rules' ``report`` reads it).
"""

from __future__ import annotations

from boardstate.rules import Fold

from ._state import (
    BID,
    EVENTS,
    OFFER,
    OVER,
    R2,
    R2_DECISION,
    RAVENSBURGER,
    Answered,
    BidsRevealed,
    Captured,
    CardDiscarded,
    DuelState,
    FinalDrawn,
    FinalTake,
    GameEnded,
    Offered,
    R2Drawn,
    R2Resolved,
    R2TurnedUp,
    StockShuffled,
    VillainDrawn,
    VillainSetAside,
    VillainTurnedUp,
)

FOLD = Fold(EVENTS)


def _add(seq: tuple, seat: int, item) -> tuple:
    return seq[:seat] + (seq[seat] + (item,),) + seq[seat + 1 :]


def _without(stock: tuple, cards) -> tuple:
    """Revision 3: the cards left once ``cards`` (drawn from them) have turned up."""
    left = list(stock)
    for card in cards:
        left.remove(card)
    return tuple(left)


@FOLD.on(StockShuffled)
def _evolve_shuffled(s: DuelState, e: StockShuffled) -> DuelState:
    return s.replace(stock=e.cards)


@FOLD.on(VillainTurnedUp)
def _evolve_turned_up(s: DuelState, e: VillainTurnedUp) -> DuelState:
    return _villain_up(s, e.card.value, s.stock[1:])


@FOLD.on(VillainDrawn)
def _evolve_villain_drawn(s: DuelState, e: VillainDrawn) -> DuelState:
    return _villain_up(s, e.card, _without(s.stock, (e.card,)))


def _villain_up(s: DuelState, card: int, stock: tuple) -> DuelState:
    return s.replace(stock=stock, villain=card, bids=(), rounds=s.rounds + 1, phase=BID)


@FOLD.on(BidsRevealed)
def _evolve_bids(s: DuelState, e: BidsRevealed) -> DuelState:
    return s.replace(bids=e.cards, settled=(("bids", s.rounds, s.villain, e.cards),))


@FOLD.on(Captured)
def _evolve_captured(s: DuelState, e: Captured) -> DuelState:
    return s.replace(
        captured=_add(s.captured, e.seat, e.card),
        villain=None,
        settled=s.settled + (("won", e.seat, e.card, s.bids),),
    )


@FOLD.on(CardDiscarded)
def _evolve_discarded(s: DuelState, e: CardDiscarded) -> DuelState:
    hand = list(s.hands[e.seat])
    hand.remove(e.card)
    return s.replace(
        hands=s.hands[: e.seat] + (tuple(hand),) + s.hands[e.seat + 1 :],
        settled=s.settled + (("discarded", e.seat, e.card),),
    )


@FOLD.on(VillainSetAside)
def _evolve_set_aside(s: DuelState, e: VillainSetAside) -> DuelState:
    return s.replace(
        villain=None,
        set_aside=s.set_aside + (e.card,),
        settled=s.settled + (("set-aside", e.card),),
    )


@FOLD.on(R2TurnedUp)
def _evolve_r2_up(s: DuelState, e: R2TurnedUp) -> DuelState:
    return _r2_up(s, e.seat, e.card.value, s.stock[1:])


@FOLD.on(R2Drawn)
def _evolve_r2_drawn(s: DuelState, e: R2Drawn) -> DuelState:
    return _r2_up(s, e.seat, e.card, _without(s.stock, (e.card,)))


def _r2_up(s: DuelState, seat: int, card: int, stock: tuple) -> DuelState:
    # Parlett: R2-D2 acts before the villain up is won, so its bids wait for the decision.
    deferred = s.bids if s.edition != RAVENSBURGER else ()
    return s.replace(
        stock=stock,
        r2_seat=seat,
        r2_card=card,
        phase=R2_DECISION,
        deferred=deferred,
        settled=s.settled + (("r2-up", seat, card),),
    )


@FOLD.on(R2Resolved)
def _evolve_r2_resolved(s: DuelState, e: R2Resolved) -> DuelState:
    hands = s.hands
    if not e.keeps_r2:
        hand = list(hands[e.seat])
        hand.remove(R2)
        hands = hands[: e.seat] + (tuple(hand),) + hands[e.seat + 1 :]
    return s.replace(
        captured=_add(s.captured, e.recipient, s.r2_card),
        hands=hands,
        r2_seat=-1,
        r2_card=None,
        phase=BID,
        deferred=(),
        settled=(("r2", e.seat, e.recipient, s.r2_card, e.keeps_r2),),
    )


@FOLD.on(FinalTake)
def _evolve_final_take(s: DuelState, e: FinalTake) -> DuelState:
    taken = tuple(r.value for r in e.cards)
    return _final(s, e.seat, taken, s.stock[len(taken) :])


@FOLD.on(FinalDrawn)
def _evolve_final_drawn(s: DuelState, e: FinalDrawn) -> DuelState:
    return _final(s, e.seat, e.cards, _without(s.stock, e.cards))


def _final(s: DuelState, seat: int, taken: tuple, stock: tuple) -> DuelState:
    captured = s.captured[:seat] + (s.captured[seat] + taken,) + s.captured[seat + 1 :]
    hands = s.hands[:seat] + ((),) + s.hands[seat + 1 :]
    return s.replace(
        captured=captured,
        hands=hands,
        stock=stock,
        settled=s.settled + (("final", seat, taken),),
    )


@FOLD.on(GameEnded)
def _evolve_ended(s: DuelState, e: GameEnded) -> DuelState:
    return s.replace(phase=OVER, end_reason=e.reason, settled=s.settled + (("ended", e.reason),))


@FOLD.on(Offered)
def _evolve_offered(s: DuelState, e: Offered) -> DuelState:
    return s.replace(
        phase=OFFER,
        offer=e.offer,
        asked=e.seat,
        settled=s.settled + (("offered", e.seat, e.offer),),
    )


@FOLD.on(Answered)
def _evolve_answered(s: DuelState, e: Answered) -> DuelState:
    return s.replace(
        phase=BID,
        offer="",
        asked=-1,
        settled=(("answered", e.seat, e.accepted, s.offer, s.bids[e.seat] if s.bids else -1),),
    )


evolve = FOLD.evolver()
