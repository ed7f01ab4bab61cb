"""What a seat cannot see, for ``boardstate.rules.determinize``: under rules revisions 1 and 2
the face-down stock holds the Empire cards that have not turned up (revision 3 hides nothing:
the stock is public, and the engine seals the bids)."""

from __future__ import annotations

from boardstate.rules import UNKNOWN

from ._state import DuelState


def unseen(s: DuelState, seat: int) -> tuple:
    """Every card turned up is the villain, R2-D2's card, captured or set aside."""
    if s.draws_at_turn_up:
        return ()
    up = {s.villain, s.r2_card, *s.set_aside}
    for cards in s.captured:
        up.update(cards)
    up.update(c.value for c in s.stock if c.value is not UNKNOWN)
    return tuple(i for i in range(len(s.cards.deck)) if i not in up)
