"""``evolve``: how each event changes the table (``Fold`` handlers, one per event of ``EVENTS``).

Pure functions of the state and one event: the table, the loader and the referee all fold with
``evolve``, and it never fails on an event ``_decide`` made.
"""

from __future__ import annotations

from boardstate.rules import Fold

from ._state import (
    BLOW,
    EVENTS,
    JOKER,
    LIGHTNING,
    NO_CARD,
    OVER,
    PUSH,
    RETURN,
    Attacked,
    Awaiting,
    CardReturned,
    CardsDrawn,
    CardsSwapped,
    DealerChosen,
    DeckRanOut,
    DeckShuffled,
    Defended,
    Discarded,
    FatigueSet,
    Fumbled,
    GameEnded,
    HandSeen,
    JediState,
    LightningCast,
    PowerUsed,
    Reshuffled,
    ReturnAsked,
    StanceKept,
    StancePlayed,
    TurnBegan,
)

FOLD = Fold(EVENTS)


def _put(seq: tuple, i: int, value) -> tuple:
    return seq[:i] + (value,) + seq[i + 1 :]


def _without(hand: tuple, pos: int) -> tuple:
    return hand[:pos] + hand[pos + 1 :]


@FOLD.on(DeckShuffled)
def _deck_shuffled(s: JediState, e: DeckShuffled) -> JediState:
    return s._replace(deck=e.cards)


@FOLD.on(DealerChosen)
def _dealer(s: JediState, e: DealerChosen) -> JediState:
    return s._replace(dealer=e.seat)


@FOLD.on(CardsDrawn)
def _drawn(s: JediState, e: CardsDrawn) -> JediState:
    n = len(e.cards)
    return s._replace(deck=s.deck[n:], hands=_put(s.hands, e.seat, s.hands[e.seat] + e.cards))


@FOLD.on(Awaiting)
def _awaiting(s: JediState, e: Awaiting) -> JediState:
    return s._replace(phase=e.phase, queue=e.seats)


@FOLD.on(TurnBegan)
def _turn_began(s: JediState, e: TurnBegan) -> JediState:
    return s._replace(
        turn=e.seat,
        turns=s.turns + 1,
        immune=_put(s.immune, e.seat, False),
        attack=(),
        owed=(),
        peek=(),
        returnable=(),
    )


@FOLD.on(StancePlayed)
def _stance(s: JediState, e: StancePlayed) -> JediState:
    seat = e.seat
    old = s.stance_card[seat]
    return s._replace(
        hands=_put(s.hands, seat, _without(s.hands[seat], e.pos)),
        discard=s.discard + (old,) if old != NO_CARD else s.discard,
        stance_card=_put(s.stance_card, seat, e.card.value),
        stance_area=_put(s.stance_area, seat, e.area),
    )


@FOLD.on(Attacked)
def _attacked(s: JediState, e: Attacked) -> JediState:
    kind = JOKER if e.area < 0 else BLOW
    return s._replace(
        hands=_put(s.hands, e.seat, _without(s.hands[e.seat], e.pos)),
        discard=s.discard + (e.card.value,),
        attack=(kind, e.card.value, e.area, e.speed, s.stance_area[e.seat]),
    )


@FOLD.on(Defended)
def _defended(s: JediState, e: Defended) -> JediState:
    return s._replace(
        hands=_put(s.hands, e.seat, _without(s.hands[e.seat], e.pos)),
        discard=s.discard + (e.card.value,),
        owed=s.owed + (e.seat,),
    )


@FOLD.on(FatigueSet)
def _fatigue(s: JediState, e: FatigueSet) -> JediState:
    return s._replace(fatigue=_put(s.fatigue, e.seat, e.fatigue))


@FOLD.on(Fumbled)
def _fumbled(s: JediState, e: Fumbled) -> JediState:
    hands = _put(s.hands, e.seat, _without(s.hands[e.seat], e.pos) + (e.taken,))
    return s._replace(
        hands=hands,
        stance_card=_put(s.stance_card, e.attacker, e.card.value),
        stance_area=_put(s.stance_area, e.attacker, e.area),
    )


@FOLD.on(PowerUsed)
def _power(s: JediState, e: PowerUsed) -> JediState:
    s = s._replace(
        hands=_put(s.hands, e.seat, _without(s.hands[e.seat], e.pos)),
        discard=s.discard + (e.card.value,),
    )
    if e.power == PUSH:
        s = s._replace(immune=_put(s.immune, e.seat, True))
    return s


@FOLD.on(HandSeen)
def _seen(s: JediState, e: HandSeen) -> JediState:
    return s._replace(peek=(e.target, e.cards))


@FOLD.on(CardsSwapped)
def _swapped(s: JediState, e: CardsSwapped) -> JediState:
    hands = _put(s.hands, e.seat, _without(s.hands[e.seat], e.given) + (e.to_seat,))
    hands = _put(hands, e.target, _without(hands[e.target], e.taken) + (e.to_target,))
    return s._replace(hands=hands, peek=())


@FOLD.on(LightningCast)
def _lightning(s: JediState, e: LightningCast) -> JediState:
    hand = s.hands[e.seat]
    for pos in e.positions:  # highest first, so the others keep their places
        hand = _without(hand, pos)
    values = tuple(c.value for c in e.cards)
    return s._replace(
        hands=_put(s.hands, e.seat, hand),
        discard=s.discard + values,
        attack=(LIGHTNING, NO_CARD, -1, 0, s.stance_area[e.seat]),
    )


@FOLD.on(Discarded)
def _discarded(s: JediState, e: Discarded) -> JediState:
    return s._replace(
        hands=_put(s.hands, e.seat, _without(s.hands[e.seat], e.pos)),
        discard=s.discard + (e.card.value,),
    )


@FOLD.on(CardReturned)
def _returned(s: JediState, e: CardReturned) -> JediState:
    return s._replace(
        hands=_put(s.hands, e.seat, _without(s.hands[e.seat], e.pos)),
        deck=(e.card,) + s.deck,
        returnable=(),
    )


@FOLD.on(DeckRanOut)
def _ran_out(s: JediState, e: DeckRanOut) -> JediState:
    return s._replace(passes=e.passes)


@FOLD.on(Reshuffled)
def _reshuffled(s: JediState, e: Reshuffled) -> JediState:
    return s._replace(deck=e.cards, discard=())


@FOLD.on(ReturnAsked)
def _return_asked(s: JediState, e: ReturnAsked) -> JediState:
    return s._replace(phase=RETURN, queue=(e.seat,), returnable=e.positions)


@FOLD.on(GameEnded)
def _ended(s: JediState, e: GameEnded) -> JediState:
    return s._replace(phase=OVER, queue=(), end_reason=e.reason)


@FOLD.on(StanceKept)
def _kept(s: JediState, e: StanceKept) -> JediState:
    return s  # the stance stays; the next Awaiting says what comes now


evolve = FOLD.evolver()
