"""``tell``: what a record's events did, in words, as one seat may know it (the kit's ``Teller``).

The engine hands ``tell`` the state before the record and its events as the seat's copy holds
them, so a card another player drew is face down here: ``ben draws 2 cards``, while the drawer
reads ``you draw 7H, QS``.  Attacks say what is at stake (speed against defence), answers what
they did to the fatigue track.
"""

from __future__ import annotations

from boardstate.rules import Teller, plural, words_and

from . import _cards
from ._combat import (
    blow_damage,
    column_bottom,
    discard_gain,
    lightning_targets,
    rested_fatigue,
    stance_defence,
)
from ._evolve import evolve
from ._state import (
    BLOW,
    DEFEND,
    EVENTS,
    PUSH,
    Attacked,
    CardReturned,
    CardsDrawn,
    CardsSwapped,
    DealerChosen,
    DeckRanOut,
    Defended,
    Discarded,
    FatigueSet,
    Fumbled,
    HandSeen,
    JediState,
    LightningCast,
    PowerUsed,
    Reshuffled,
)

TELL = Teller(EVENTS)


def _card(secret) -> str:
    return _cards.name(secret.value) if secret.known else "a card"


def _count(n: int) -> str:
    return "a card" if n == 1 else plural(n, "card")


def _cards_of(secrets) -> str:
    return ", ".join(_card(c) for c in secrets)


@TELL.on(DealerChosen)
def _dealer(s: JediState, e: DealerChosen, seat) -> str:
    return f"{s.players[e.seat]} deals"


@TELL.on(CardsDrawn)
def _drawn(s: JediState, e: CardsDrawn, seat) -> str:
    if e.seat == seat and all(c.known for c in e.cards):
        return f"you draw {_cards_of(e.cards)}"
    return f"{s.players[e.seat]} draws {_count(len(e.cards))}"


@TELL.on(Attacked)
def _attacked(s: JediState, e: Attacked, seat) -> str:
    target = s.players[e.target]
    if e.area < 0:  # a Joker: the rest of the column
        fatigue = s.fatigue[e.target]
        return (
            f"a Joker: taken, it drops {target} to the bottom of the fatigue column "
            f"({fatigue} → {column_bottom(fatigue)})"
        )
    defence = stance_defence(s, e.target, e.area)
    damage = blow_damage(s, e.target, e.area, e.speed)
    return f"speed {e.speed} against {target}'s defence {defence}: " + (
        f"{damage} damage if taken" if damage else "no damage even if taken"
    )


@TELL.on(Defended)
def _defended(s: JediState, e: Defended, seat) -> str:
    name, card = s.players[e.seat], _cards.name(e.card.value)
    if e.force:
        return f"{name}'s Force Defence with {card} stops the attack"
    kind, _card_, area, speed, _stance = s.attack
    if kind != BLOW:
        return f"{name} plays {card}"
    club = e.card.value
    defence = _cards.RANK[club]
    hurt = blow_damage(s, e.seat, area, speed, club)
    return f"{name} defends with {card}: defence {defence} against speed {speed}" + (
        "" if hurt else ", no damage"
    )


@TELL.on(FatigueSet)
def _fatigue(s: JediState, e: FatigueSet, seat) -> str:
    name, before = s.players[e.seat], s.fatigue[e.seat]
    if e.fatigue >= before:
        return f"{name}: fatigue {before} → {e.fatigue} ({e.fatigue - before} regained)"
    out = ": out of the duel" if e.fatigue == 0 else ""
    return f"{name}: fatigue {before} → {e.fatigue} ({before - e.fatigue} damage){out}"


@TELL.on(Discarded)
def _discarded(s: JediState, e: Discarded, seat) -> str | None:
    """A discard for fatigue: the track says what it regained, unless it regained nothing."""
    fatigue = s.fatigue[e.seat]
    if rested_fatigue(fatigue, discard_gain(s, e.card.value)) != fatigue:
        return None
    return f"{s.players[e.seat]}: fatigue stays {fatigue} (the top of the column)"


@TELL.on(Fumbled)
def _fumbled(s: JediState, e: Fumbled, seat) -> str:
    attacker = s.players[e.attacker]
    old = _cards.name(s.stance_card[e.attacker])  # (face up on the table until now)
    return (
        f"{s.players[e.seat]} fumbles {attacker}: {_cards.name(e.card.value)} is {attacker}'s "
        f"stance now ({_cards.AREA_NAMES[e.area]}), and {old} goes to {s.players[e.seat]}'s hand"
    )


@TELL.on(PowerUsed)
def _power(s: JediState, e: PowerUsed, seat) -> str | None:
    if e.power == PUSH:
        return (
            f"{s.players[e.seat]} is shielded until their next turn "
            "(only an attack from the high stance reaches them)"
        )
    return None  # (Heal: the fatigue track says it; Sense: the hand seen)


@TELL.on(HandSeen)
def _seen(s: JediState, e: HandSeen, seat) -> str:
    looker, target = s.players[e.seat], s.players[e.target]
    if e.seat == seat:
        return f"you see {target}'s hand: {_cards_of(e.cards) or 'no card'}"
    if e.target == seat:
        return f"{looker} sees your hand"
    return f"{looker} sees {target}'s hand ({_count(len(e.cards))})"


@TELL.on(CardsSwapped)
def _swapped(s: JediState, e: CardsSwapped, seat) -> str:
    looker, target = s.players[e.seat], s.players[e.target]
    given, taken = s.hands[e.seat][e.given], s.hands[e.target][e.taken]
    if e.seat == seat:
        return f"you give {_card(given)} to {target} and take {_card(e.to_seat)}"
    if e.target == seat:
        return f"{looker} gives you {_card(e.to_target)} and takes your {_card(taken)}"
    return f"{looker} swaps a card with {target}"


@TELL.on(LightningCast)
def _lightning(s: JediState, e: LightningCast, seat) -> str:
    targets = [s.players[t] for t in lightning_targets(s, e.seat)]
    if not targets:
        return "Force Lightning reaches nobody"
    return (
        f"Force Lightning at {words_and(targets)}: taken, it drops each to the bottom of "
        "their fatigue column"
    )


@TELL.on(CardReturned)
def _returned(s: JediState, e: CardReturned, seat) -> str:
    card = s.hands[e.seat][e.pos]
    if e.seat == seat and card.known:
        return f"you put {_card(card)} back on top of the draw deck"
    return f"{s.players[e.seat]} puts a card back on top of the draw deck"


@TELL.on(DeckRanOut)
def _ran_out(s: JediState, e: DeckRanOut, seat) -> str:
    ends = len(s.players)
    return (
        f"the draw deck has run out for the {_nth(e.passes)} time (the {_nth(ends)} ends the game)"
    )


@TELL.on(Reshuffled)
def _reshuffled(s: JediState, e: Reshuffled, seat) -> str:
    return f"the discard pile is shuffled into a new draw deck of {plural(len(e.cards), 'card')}"


def _nth(n: int) -> str:
    return f"{n}{'tsnrhtdd'[(n // 10 % 10 != 1) * (n % 10 < 4) * n % 10 :: 4]}"


_EACH = TELL.teller(evolve)


def tell(s: JediState, events, seat) -> tuple:
    """The lines of each event, and one for an attack taken that cost nothing (no event says
    so: the fatigue track stays)."""
    lines = _EACH(s, events, seat)
    if s.phase != DEFEND or not s.queue or not events:
        return lines
    defender = s.queue[0]
    answered = any(
        type(e) in (Defended, FatigueSet) and e.seat == defender for e in events
    )  # (blocked, or the fatigue track moved)
    if answered:
        return lines
    return (f"{s.players[defender]} takes it: no damage", *lines)
