"""The turn: the die, drawing and reshuffling, damage and destruction, the end, whose turn next.

``settle(t, actor)`` runs after every command: it resolves what no one needs to choose (card
effects, the end of a combat, the hand limit) and asks the next seat for what remains.  ``actor``
is the seat whose record is being made: a step that must read a hidden hand is done here only if
the hand is the actor's, else its owner is asked (the hidden-information contract).
"""

from __future__ import annotations

from boardstate.rules import Table, seats_mask

from ._state import (
    ACT,
    ACTIONS,
    DIE,
    HAND_LIMIT,
    MOVE,
    TRIM,
    Asked,
    Awaiting,
    CardsDrawn,
    CombatEnded,
    Damaged,
    Destroyed,
    EpicState,
    GameEnded,
    Healed,
    PileGoneThrough,
    PileReshuffled,
    TurnBegan,
)

GONE_THROUGH_ENDS = 2  # "If either player goes through his/her draw pile a second time"


# ---------------------------------------------------------------------------------- cards
def draw(t: Table, seat: int, count: int) -> None:
    """``seat`` draws ``count`` cards from the top of its pile, reshuffling its discards once.

    A pile is gone through when a card is wanted from it and none is left (option deck-end
    ``next-draw``), or when its last card is drawn (``last-card``); the second time ends the game.
    """
    last_card = t.state.roster.deck_end == "last-card"
    for _ in range(count):
        s = t.state
        if s.over:
            return
        if not s.piles[seat]:
            if last_card or not _gone_through(t, seat):
                return
            s = t.state
            if not s.piles[seat]:
                return  # nothing to reshuffle: the draw comes up short
        card = s.piles[seat][0]
        t.emit(CardsDrawn(seat, (t.rng.secret(card.value, seats_mask(seat)),)))
        if last_card and not t.state.piles[seat]:
            _gone_through(t, seat)


def _gone_through(t: Table, seat: int) -> bool:
    """Count a pass through ``seat``'s pile: reshuffle, or end the game. False: it ended."""
    s = t.state
    passes = s.passes[seat] + 1
    t.emit(PileGoneThrough(seat, passes))
    if passes >= GONE_THROUGH_ENDS:
        end_on_damage(t, f"{s.players[seat]} has gone through their draw pile twice")
        return False
    rng = t.rng
    pile = tuple(rng.secret(c) for c in rng.shuffled(s.discards[seat]))
    t.emit(PileReshuffled(seat, pile))
    return True


# ---------------------------------------------------------------------------------- damage
def hurt(t: Table, char: int, amount: int) -> None:
    """Damage ``char`` (already destroyed, or ``amount`` 0: nothing); destroy it past its hp."""
    s = t.state
    if amount <= 0 or not s.alive(char):
        return
    t.emit(Damaged(char, amount))
    if not t.state.alive(char):
        t.emit(Destroyed(char))
        check_mains(t)


def heal(t: Table, char: int, amount: int) -> None:
    """Heal up to ``amount``: never above the starting hp, never a destroyed character."""
    s = t.state
    if s.alive(char) and s.on_board(char):
        amount = min(amount, s.damage[char])
        if amount > 0:
            t.emit(Healed(char, amount))


def destroy(t: Table, char: int) -> None:
    s = t.state
    if s.alive(char):
        hurt(t, char, s.roster.dies_at[char] - s.damage[char])


def check_mains(t: Table) -> None:
    """Two players: the game is won when the opponent's main character is destroyed."""
    s = t.state
    if s.over:
        return
    mains = s.roster.main_of
    standing = tuple(seat for seat in s.seats if s.alive(mains[seat]))
    if len(standing) < len(s.players):
        fallen = [s.roster.chars[mains[seat]].name for seat in s.seats if seat not in standing]
        t.emit(GameEnded(f"{' and '.join(fallen)} destroyed", standing))


def end_on_damage(t: Table, why: str) -> None:
    """The end by the draw pile: the least damage to a main character wins; a tie is a tie."""
    s = t.state
    mains = s.roster.main_of
    least = min(s.damage[mains[seat]] for seat in s.seats)
    winners = tuple(seat for seat in s.seats if s.damage[mains[seat]] == least)
    result = "a tie" if len(winners) > 1 else f"{s.players[winners[0]]} wins on least damage"
    damage = ", ".join(
        f"{s.roster.chars[mains[seat]].name} {s.damage[mains[seat]]}" for seat in s.seats
    )
    t.emit(GameEnded(f"{why}: {result} (damage: {damage})", winners))


# ---------------------------------------------------------------------------------- turns
def begin_turn(t: Table, seat: int) -> None:
    """Roll the die (the engine's randomness, recorded) and ask the seat to move."""
    s = t.state
    face = t.rng.randbelow(len(DIE))
    t.emit(TurnBegan(seat, face, max(0, ACTIONS - s.lost[seat])))
    t.emit(Awaiting(MOVE, (seat,)))


def next_seat(s: EpicState) -> int:
    """The next seat in playing order whose main character still stands."""
    order = s.order
    i = order.index(s.turn)
    for k in range(1, len(order) + 1):
        seat = order[(i + k) % len(order)]
        if s.alive(s.roster.main_of[seat]):
            return seat
    return s.turn


def may_play_free(s: EpicState, seat: int) -> bool:
    """Whether the seat's deck holds a card that is not an action (public: the deck list).

    Asked instead of the hand, so that how a turn ends tells the others nothing about it."""
    return any(c.free for c in s.roster.cards[seat])


def settle(t: Table, actor: int) -> None:
    """Resolve what needs nobody's choice, then ask for what comes next."""
    from ._effects import run

    while True:
        s = t.state
        if s.over or s.request:
            return  # (a request pending: its Awaiting is out)
        if s.stack:
            if run(t, actor):
                return  # a choice is asked for
            continue
        if s.combat:
            t.emit(CombatEnded())
            continue
        break
    s = t.state
    for seat in s.order:
        extra = len(s.hands[seat]) - HAND_LIMIT
        if extra > 0:
            t.emit(Asked(("trim", seat, seat, extra, ())))
            t.emit(Awaiting(TRIM, (seat,)))
            return
    if s.actions > 0 or _free_left(s):
        t.emit(Awaiting(ACT, (s.turn,)))
        return
    begin_turn(t, next_seat(s))


def _free_left(s: EpicState) -> bool:
    """With no action left, the turn stays open (for a card that is not an action) until the
    player says ``end`` (which sets ``actions`` to -1)."""
    return s.actions == 0 and may_play_free(s, s.turn)
