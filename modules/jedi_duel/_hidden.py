"""What a seat cannot see, for ``boardstate.rules.determinize``: the cards of the 54-card deck
that no public place holds and the seat's own cards do not account for, and the sensed hand the
looker holds copies of."""

from __future__ import annotations

from collections import Counter

from boardstate.rules import UNKNOWN

from ._cards import DECK
from ._state import NO_CARD, JediState


def unseen(s: JediState, seat: int) -> tuple:
    """Every card is in one place: a hand, the draw deck, the discard pile or a stance.  The
    ones ``seat``'s view holds face down are the deck less what it sees."""
    left = Counter(DECK)
    left.subtract(s.discard)
    left.subtract(c for c in s.stance_card if c != NO_CARD)
    for cards in (*s.hands, s.deck):
        left.subtract(c.value for c in cards if c.value is not UNKNOWN)
    return tuple(left.elements())


def pinned(s: JediState, seat: int) -> dict:
    """Force Sense: the looker holds the target's hand as copies (``peek``) until the swap."""
    if not s.peek:
        return {}
    target, seen = s.peek
    hand = s.hands[target]
    if len(seen) != len(hand) or any(c.value is UNKNOWN for c in seen):
        return {}
    return {h.commitment: c.value for h, c in zip(hand, seen) if h.value is UNKNOWN}
