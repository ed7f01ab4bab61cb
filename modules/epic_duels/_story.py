"""``tell``: what a record's events did, in words, as one seat may know it (the kit's ``Teller``).

The engine hands ``tell`` the state before the record and its events as the seat's copy holds
them: a card drawn from another player's pile is face down here (``ben draws a card``), while the
drawer reads ``you draw Force Push``.  Every roll of the die is said, and every wound, heal and
card effect on the characters; the combat itself is the module's ``report``.
"""

from __future__ import annotations

from boardstate.rules import Teller, plural, words_and

from ._evolve import evolve
from ._notation import card_label
from ._state import (
    ACTIONS,
    DIE,
    DIE_NAMES,
    EVENTS,
    NOWHERE,
    ActionsChanged,
    CardDrawn,
    CardsDrawn,
    CardsLookedAt,
    CardTaken,
    CastChosen,
    Damaged,
    Destroyed,
    Discarded,
    Eliminated,
    EpicState,
    HandShown,
    Healed,
    Held,
    LookedCardTaken,
    OrderRolled,
    Penalised,
    PileGoneThrough,
    PileReshuffled,
    PileSeen,
    Placed,
    Released,
    TurnBegan,
)

TELL = Teller(EVENTS)


# ---------------------------------------------------------------------------------- names
def _card(s: EpicState, secret) -> str:
    return card_label(s, 0, secret.value) if secret.known else "a card"


def _cards(s: EpicState, secrets) -> str:
    return ", ".join(_card(s, c) for c in secrets)


def _count(n: int) -> str:
    return "a card" if n == 1 else plural(n, "card")


def _char(s: EpicState, char: int) -> str:
    return s.roster.chars[char].name


def _pile(s: EpicState, group: int, seat, what: str = "draw pile", actor: int = -1) -> str:
    """``ben's draw pile``, ``your draw pile`` (``their``: the ``actor``'s own); with two decks
    a seat (Master Play), which: ``ben's maul draw pile``."""
    rs = s.roster
    owner = rs.group_seat[group]
    whose = "your" if owner == seat else "their" if owner == actor else f"{s.players[owner]}'s"
    if len(rs.groups_of(owner)) > 1:
        return f"{whose} {rs.teams[group]} {what}"
    return f"{whose} {what}"


def _wounds(s: EpicState, char: int, damage: int) -> str:
    hp = s.roster.chars[char].hp
    return f"{max(0, hp - damage)} of {hp} left"


# ---------------------------------------------------------------------------------- set-up
@TELL.on(CastChosen)
def _cast(s: EpicState, e: CastChosen, seat) -> str | None:
    if not e.drawn:
        return None
    return "the characters are drawn: " + "; ".join(
        f"{name} plays {words_and(list(teams))}" for name, teams in zip(s.players, e.cast)
    )


@TELL.on(OrderRolled)
def _order(s: EpicState, e: OrderRolled, seat) -> str:
    rounds = [", ".join(f"{s.players[p]} {DIE_NAMES[f]}" for p, f in faces) for faces in e.rolls]
    rolls = "; then ".join(rounds)
    return f"the die for the first turn: {rolls}: {s.players[e.order[0]]} goes first"


# ---------------------------------------------------------------------------------- turns
@TELL.on(TurnBegan)
def _turn(s: EpicState, e: TurnBegan, seat) -> str:
    squares, every = DIE[e.die]
    who = "every character moves" if every else "one character moves"
    actions = "" if e.actions == ACTIONS else f"; {plural(e.actions, 'action')} this turn"
    return (
        f"turn {s.turns + 1}: {s.players[e.seat]} rolls {DIE_NAMES[e.die]} "
        f"({who} up to {squares} squares){actions}"
    )


@TELL.on(ActionsChanged)
def _actions(s: EpicState, e: ActionsChanged, seat) -> str | None:
    if e.actions <= s.actions:
        return None  # (an action spent, or the turn ended: the command says so)
    return f"{s.players[s.turn]} gains {plural(e.actions - s.actions, 'action')}"


@TELL.on(Penalised)
def _penalised(s: EpicState, e: Penalised, seat) -> str:
    name = s.players[e.seat]
    if e.no_draw:
        return f"{name} may not draw in their next turn"
    return f"{name} loses {plural(e.lose, 'action')} in their next turn"


@TELL.on(Eliminated)
def _eliminated(s: EpicState, e: Eliminated, seat) -> str:
    return f"{s.players[e.seat]} is out: their characters leave the board"


# ---------------------------------------------------------------------------------- cards
@TELL.on(CardDrawn, run=True)
def _drawn(s: EpicState, run: tuple, seat) -> list:
    """A run of draws, a line for each player and pile: ``you draw Force Push, Wrath``."""
    groups: dict = {}
    for e in run:
        groups.setdefault((e.seat, e.group), []).append(e.card)
    return [_draw_line(s, who, group, cards, seat) for (who, group), cards in groups.items()]


@TELL.on(CardsDrawn)
def _drawn_top(s: EpicState, e: CardsDrawn, seat) -> str:  # (rules revision 1)
    return _draw_line(s, e.seat, e.group, e.cards, seat)


def _draw_line(s: EpicState, who: int, group: int, cards, seat) -> str:
    two_decks = len(s.roster.groups_of(who)) > 1
    where = f" from {_pile(s, group, seat, actor=who)}" if two_decks else ""
    if who == seat and all(c.known for c in cards):
        return f"you draw {_cards(s, cards)}{where}"
    return f"{s.players[who]} draws {_count(len(cards))}{where}"


@TELL.on(CardTaken)
def _taken(s: EpicState, e: CardTaken, seat) -> str:
    name = "you take" if e.seat == seat else f"{s.players[e.seat]} takes"
    if e.pile == 1:  # (the discard pile is face up)
        card = card_label(s, 0, s.discards[e.group][e.index])
        return f"{name} {card} from {_pile(s, e.group, seat, 'discard pile', e.seat)}"
    card = _card(s, e.card) if e.seat == seat else "a card"
    return f"{name} {card} from {_pile(s, e.group, seat, actor=e.seat)}"


@TELL.on(CardsLookedAt)
def _looked(s: EpicState, e: CardsLookedAt, seat) -> str:
    pile = _pile(s, e.group, seat, actor=e.seat)
    if e.seat == seat and all(c.known for c in e.cards):
        return f"you look at {_count(len(e.cards))} of {pile}: {_cards(s, e.cards)}"
    return f"{s.players[e.seat]} looks at {_count(len(e.cards))} of {pile}"


@TELL.on(PileSeen)
def _pile_seen(s: EpicState, e: PileSeen, seat) -> str:  # (rules revision 1)
    pile = _pile(s, e.group, seat, actor=e.seat)
    if e.seat == seat and all(c.known for c in e.cards):
        return f"you look at the top {_count(len(e.cards))} of {pile}: {_cards(s, e.cards)}"
    return f"{s.players[e.seat]} looks at the top {_count(len(e.cards))} of {pile}"


@TELL.on(LookedCardTaken)
def _looked_taken(s: EpicState, e: LookedCardTaken, seat) -> str:
    name = s.players[e.seat]
    if e.index < 0:
        return f"{name} takes none of them: they go back into the draw pile"
    if e.seat == seat and s.seen[seat]:
        card = _card(s, s.seen[seat][1][e.index])
        return f"you take {card}; the others go back into the draw pile"
    return f"{name} takes one of them; the others go back into the draw pile"


@TELL.on(HandShown)
def _shown(s: EpicState, e: HandShown, seat) -> str:
    whose, to = s.players[e.seat], s.players[e.to]
    if e.to == seat and all(c.known for c in e.cards):
        return f"{whose} shows you their hand: {_cards(s, e.cards) or 'no card'}"
    if e.seat == seat:
        return f"you show your hand to {to}"
    return f"{whose} shows their hand to {to} ({_count(len(e.cards))})"


@TELL.on(Discarded)
def _discarded(s: EpicState, e: Discarded, seat) -> str:
    cards = ", ".join(card_label(s, 0, c.value) for c in e.cards)
    return f"{s.players[e.seat]} discards {cards}"


@TELL.on(PileGoneThrough)
def _gone_through(s: EpicState, e: PileGoneThrough, seat) -> str:
    pile = _pile(s, e.group, seat)
    if e.passes == 1:
        return f"{pile} is gone through once (a second time ends the game)"
    return f"{pile} is gone through a second time"


@TELL.on(PileReshuffled)
def _reshuffled(s: EpicState, e: PileReshuffled, seat) -> str:
    return f"the discards are shuffled into {_pile(s, e.group, seat)} ({_count(len(e.cards))})"


# ---------------------------------------------------------------------------------- the board
@TELL.on(Damaged)
def _damaged(s: EpicState, e: Damaged, seat) -> str:
    left = _wounds(s, e.char, s.damage[e.char] + e.amount)
    return f"{_char(s, e.char)} takes {e.amount} damage ({left})"


@TELL.on(Healed)
def _healed(s: EpicState, e: Healed, seat) -> str:
    left = _wounds(s, e.char, s.damage[e.char] - e.amount)
    return f"{_char(s, e.char)} heals {e.amount} ({left})"


@TELL.on(Destroyed)
def _destroyed(s: EpicState, e: Destroyed, seat) -> str:
    return f"{_char(s, e.char)} is destroyed"


@TELL.on(Held)
def _held(s: EpicState, e: Held, seat) -> str:
    return f"{_char(s, e.char)} is held: {_count(e.release)} to discard to free it"


@TELL.on(Released)
def _released(s: EpicState, e: Released, seat) -> str:
    return f"{_char(s, e.char)} is free"


@TELL.on(Placed, run=True)
def _placed(s: EpicState, run: tuple, seat) -> str | None:
    """Two characters on the board that change places (a card's swap); a placing is the
    command itself."""
    if len(run) != 2:
        return None
    a, b = run
    if NOWHERE in (s.square[a.char], s.square[b.char]):
        return None
    if (a.square, b.square) != (s.square[b.char], s.square[a.char]):
        return None
    return f"{_char(s, a.char)} and {_char(s, b.char)} change places"


tell = TELL.teller(evolve)
