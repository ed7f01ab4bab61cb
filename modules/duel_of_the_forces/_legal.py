"""Which commands a seat may give now: the one list that ``validate`` and the bots share.

Commands are tuples: ("play", card), ("give", seat), and the one-word answers ("keep",),
("look",), ("pass",), ("discard",), ("take",).  ``is_legal`` checks one command without the list
(the referee checks every bid of a long log).
"""

from __future__ import annotations

from boardstate.rules import cached_by_value

from ._state import BID, KEEP_CARD, LOOK, OFFER, R2, R2_DECISION, TAKE, DuelState, vader_up

KEEP = ("keep",)
LOOK_CMD = ("look",)
PASS = ("pass",)
DISCARD = ("discard",)
TAKE_CMD = ("take",)
# What a player asked in the OFFER phase may answer: yes first, then no.
ANSWERS = {LOOK: (LOOK_CMD, PASS), KEEP_CARD: (KEEP, DISCARD), TAKE: (TAKE_CMD, PASS)}


def play(card: int) -> tuple:
    return ("play", card)


def give(seat: int) -> tuple:
    return ("give", seat)


def legal(s: DuelState, seat: int):
    if s.phase == BID:
        return legal_bids(s.hands[seat], vader_up(s))
    if s.phase == R2_DECISION and seat == s.r2_seat:
        return (KEEP,) + tuple(("give", o) for o in range(len(s.players)) if o != seat)
    if s.phase == OFFER and seat == s.asked:
        return ANSWERS[s.offer]
    return ()


def is_legal(s: DuelState, seat: int, command) -> bool:
    """``command in legal(s, seat)``, checked without the list: the referee checks every bid
    of a long log."""
    if s.phase == BID:
        return (
            type(command) is tuple
            and len(command) == 2
            and command[0] == "play"
            and command[1] in s.hands[seat]
            and may_bid(command[1], vader_up(s))
        )
    return command in legal(s, seat)


@cached_by_value(size=1024)  # every hand (2**9) with Vader up or not
def legal_bids(hand: tuple, vader: bool) -> tuple:
    """The bids a hand allows: they depend only on the hand and on whether Vader is up."""
    return tuple(("play", c) for c in hand if may_bid(c, vader))


def may_bid(card: int, vader: bool) -> bool:
    """A card of the hand may be bid, except R2-D2 while Vader is up: the bid rule, stated once
    for the list and for ``is_legal``."""
    return not (vader and card == R2)
