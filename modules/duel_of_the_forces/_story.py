"""``tell``: what a record's events did, in words (the kit's ``Teller``).

Nothing in this game is hidden but the bids, which the engine seals, and (rules revisions 1-2)
the order of the stock: every seat reads the same lines.  The duel itself, who bid what and who
won, is the module's ``report``; ``tell`` adds the card that turns up for the next duel.
"""

from __future__ import annotations

from boardstate.rules import Teller

from ._evolve import evolve
from ._report import _card
from ._state import EVENTS, DuelState, VillainDrawn, VillainTurnedUp

TELL = Teller(EVENTS)


@TELL.on(VillainTurnedUp)
def _turned_up(s: DuelState, e: VillainTurnedUp, seat) -> str:
    return f"up for grabs: {_card(s, e.card.value)}"


@TELL.on(VillainDrawn)
def _drawn(s: DuelState, e: VillainDrawn, seat) -> str:  # (rules revision 3)
    return f"up for grabs: {_card(s, e.card)}"


tell = TELL.teller(evolve)
