"""The turn's course after each choice: draws and reshuffles, the redraw, who is asked next.

Every step emits into the kit's ``Table``, which folds as it goes, so each step sees the table the
steps before it made (``t.state``).
"""

from __future__ import annotations

from boardstate.rules import Table, seats_mask

from ._cards import HAND_SIZE, IS_JOKER, LOW
from ._state import (
    ACTION,
    SETUP,
    STANCE,
    Awaiting,
    CardsDrawn,
    DeckRanOut,
    GameEnded,
    JediState,
    Reshuffled,
    ReturnAsked,
    TurnBegan,
)


def draw(t: Table, seat: int, count: int) -> int:
    """Draw ``count`` cards for ``seat``, reshuffling the discard pile when the deck runs out.

    The deck's running out is counted only when a card is wanted from it; the count reaching the
    number of players ends the game at once.  With deck and pile both empty the draw comes up short.
    """
    got = 0
    rng = t.rng
    while got < count:
        s = t.state
        if not s.deck:
            if not s.discard:
                break
            passes = s.passes + 1
            t.emit(DeckRanOut(passes))
            if passes >= len(s.players):
                t.emit(GameEnded(f"the draw deck has been gone through {passes} times"))
                break
            t.emit(Reshuffled(tuple(rng.secret(c) for c in rng.shuffled(s.discard))))
            continue
        m = min(count - got, len(s.deck))
        owner = seats_mask(seat)
        t.emit(CardsDrawn(seat, tuple([rng.passed(c, owner) for c in s.deck[:m]])))
        got += m
    return got


def setup_queue(s: JediState) -> tuple[int, ...]:
    """Everyone but the player to the dealer's left shows an initial stance, in turn order."""
    n = len(s.players)
    first = (s.dealer + 1) % n
    return tuple((first + k) % n for k in range(1, n))


def after_setup_stance(t: Table, seat: int) -> None:
    """The stance card shown is replaced at once; then the next player shows theirs."""
    draw(t, seat, 1)
    if not t.state.over:
        next_setup_stance(t)


def next_setup_stance(t: Table) -> None:
    s = t.state
    rest = s.queue[1:]
    if not s.owners_answer:
        # Revision 1 skips a hand without a stance card, reading the other players' hands.
        rest = tuple(x for x in rest if _has_stance_card(s, x))
    if rest:
        t.emit(Awaiting(SETUP, rest))
    else:
        begin_turn(t, (s.dealer + 1) % len(s.players))


def _has_stance_card(s: JediState, seat: int) -> bool:
    return any(not IS_JOKER[c.value] for c in s.hands[seat])


def begin_turn(t: Table, seat: int) -> None:
    """A turn opens with a new stance; a hand of Jokers only keeps the old stance."""
    t.emit(TurnBegan(seat))
    s = t.state
    if not s.hands[seat]:
        redraw(t)
    elif s.owners_answer or _has_stance_card(s, seat):
        # Revision 2 asks the player even for a hand of Jokers (they answer 'keep'): whether a
        # hand holds a stance card is theirs to say, not the previous player's decision's.
        t.emit(Awaiting(STANCE, (seat,)))
    else:
        t.emit(Awaiting(ACTION, (seat,)))


def after_stance(t: Table, seat: int) -> None:
    if t.state.hands[seat]:
        t.emit(Awaiting(ACTION, (seat,)))
    else:
        redraw(t)


def redraw(t: Table) -> None:
    """The active player draws back to five (Low stance: one more, and one goes back on top)."""
    s = t.state
    seat = s.turn
    want = HAND_SIZE - len(s.hands[seat])
    low = s.stance_area[seat] == LOW
    if low:
        want += 1
    if want > 0:
        before = len(s.hands[seat])
        got = draw(t, seat, want)
        if t.state.over:
            return
        if low and got == want:
            t.emit(ReturnAsked(seat, tuple(range(before, before + got))))
            return
    settle(t)


def settle(t: Table) -> None:
    """Defenders who played a card draw a replacement, in order; then the next turn."""
    for seat in t.state.owed:
        if t.state.fatigue[seat] > 0:
            draw(t, seat, 1)
            if t.state.over:
                return
    next_turn(t)


def check_survivors(t: Table) -> None:
    s = t.state
    alive = [i for i in s.seats if s.fatigue[i] > 0]
    if len(alive) == 1:
        t.emit(GameEnded(f"{s.players[alive[0]]} is the last one with fatigue left"))


def next_turn(t: Table) -> None:
    s = t.state
    n = len(s.players)
    for step in range(1, n + 1):
        seat = (s.turn + step) % n
        if s.fatigue[seat] > 0:
            begin_turn(t, seat)
            return
