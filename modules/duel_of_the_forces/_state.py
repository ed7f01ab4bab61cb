"""The table of Duel of the Forces as an immutable value and its events (``_evolve`` folds them).

Hands are public knowledge in this game (every hero's eight cards are known and discards are face
up), so a hand is a sorted tuple of card numbers: force 1-8, and 0 for R2-D2.  What is hidden is
the bids (sealed by the engine) and, in rules revisions 1 and 2, the order of the stock (shuffled
at creation: secrets owned by nobody).  From revision 3 the stock is the public list of the cards
left, and a card that turns up is drawn from it at random then: no dealer holds a hidden order.

``settled`` keeps, from public events only, what the last decision settled: the rules' ``report``
turns it into the one line a player by mail reads.
"""

from __future__ import annotations

from typing import NamedTuple

from boardstate.rules import Reveal, Secret, event

from ._cards import Cards

R2 = 0
NOT_BIDDING = -1

# editions (option ``edition``)
RAVENSBURGER = "ravensburger-2015"
PARLETT_ENGLISH = "parlett-english"
PARLETT_ORIGINAL = "parlett-original"

# phases
BID = 0
R2_DECISION = 1
OVER = 2
OFFER = 3  # revision 2: one player answers a "may" of the rules (``DuelState.offer``)

# What a player may do, asked in the OFFER phase (the texts' "darf", "peut", "can", "may").
LOOK = "look"  # R2-D2 played alone: turn up (look at) the next stock card, or not
KEEP_CARD = "keep-card"  # Darth Vader won: keep the rebel card it was won with, or discard it
TAKE = "take"  # Ravensburger: the last player holding cards takes from the stock, or not

# Rules revisions (GameSpec.revision): revision 2 corrects the rules read against the texts;
# revision 3 draws each card from the stock as it turns up, so that no dealer is needed.
FIRST_REVISION = 1
CORRECTED = 2
PEER_READY = 3


class DuelState(NamedTuple):
    """The whole table.  A NamedTuple: immutable, and ``_replace`` is cheap in the hot loop."""

    players: tuple[str, ...]
    edition: str
    heroes: tuple[str, ...]  # hero id per seat
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[Secret, ...] | tuple[int, ...]  # revisions 1-2: face down, top first;
    # revision 3: the card ids left, public, in no order that matters (``draws_at_turn_up``)
    villain: int | None  # index into the deck of the card up for grabs
    captured: tuple[tuple[int, ...], ...]
    full_tie: str  # house rule for equal force and icons: set-aside | rebid
    cards: Cards  # the card set of this game (from the header's options)
    phase: int = BID
    bids: tuple[int, ...] = ()  # the last revealed bids (NOT_BIDDING for a seat that sat out)
    r2_seat: int = -1  # the seat whose R2-D2 turned up ``r2_card``
    r2_card: int | None = None
    deferred: tuple[int, ...] = ()  # Parlett: bids to resolve after the R2-D2 decision
    set_aside: tuple[int, ...] = ()  # villains nobody won (full tie, house rule)
    end_reason: str = ""
    rounds: int = 0
    revision: int = FIRST_REVISION  # the rules revision the game is played under
    several_r2_end: bool = False  # two players holding only R2-D2 end the game (DE/IT/NL)
    r2_is_no_rebel: bool = False  # Parlett: holding only R2-D2 is "out of rebel cards"
    offer: str = ""  # OFFER: what ``asked`` may do (LOOK, KEEP_CARD, TAKE)
    asked: int = -1
    settled: tuple = ()  # what the last decision settled, for ``report`` (public facts only)

    # One flag per correction of revision 2, read where its rule is stated.
    @property
    def may_is_asked(self) -> bool:
        """ "darf", "peut", "can", "may" give a choice: R2-D2's look, the Vader winner's card,
        the Ravensburger final take (revision 1 did each without asking)."""
        return self.revision >= CORRECTED

    @property
    def gift_keeps_r2_in_parlett(self) -> bool:
        """Parlett: giving away what R2-D2 turned up keeps R2-D2, a Vader too (revision 1: a
        Vader given away cost R2-D2 in every edition)."""
        return self.revision >= CORRECTED

    @property
    def end_before_r2_turn_up(self) -> bool:
        """Ravensburger: a duel that ends the game leaves no next round for R2-D2 to turn up a
        card in (revision 1 turned one up all the same)."""
        return self.revision >= CORRECTED

    # The change of revision 3 (no dealer), read wherever a card turns up.
    @property
    def draws_at_turn_up(self) -> bool:
        """The stock is the public list of the cards left, and a card that turns up is drawn
        from it at a random position as it turns up: the same chances as the top card of a
        shuffled stock, with no dealer holding the order (the peer mode has none).  Revisions 1
        and 2 shuffled the stock face down with the seed at creation and turned up its top."""
        return self.revision >= PEER_READY

    def replace(self, **changes) -> DuelState:
        """``_replace`` without its per-field generator: this runs several times per duel."""
        values = list(self)
        for name, value in changes.items():
            values[_INDEX[name]] = value
        return tuple.__new__(DuelState, values)


_INDEX = {name: i for i, name in enumerate(DuelState._fields)}


def vader_up(s: DuelState) -> bool:
    """Darth Vader is up for grabs.  (No villain is up while a decision waits for the draw that
    turns the next one up: the peer mode's randomness comes when every player has given it.)"""
    return s.villain is not None and s.cards.deck[s.villain].vader


@event("dotf.stock-shuffled")
class StockShuffled:
    cards: tuple  # of Secret: the stock, top first, each face down


@event("dotf.villain-turned-up")
class VillainTurnedUp:
    card: Reveal  # the top stock card, opened in public


@event("dotf.bids-revealed")
class BidsRevealed:
    cards: tuple  # per seat: the card played (0 = R2-D2) or -1 (did not bid)


@event("dotf.captured")
class Captured:
    seat: int
    card: int  # the villain or Vader taken (the one up for grabs)


@event("dotf.card-discarded")
class CardDiscarded:
    seat: int
    card: int


@event("dotf.villain-set-aside")
class VillainSetAside:
    card: int  # nobody won it (full tie, house rule 'set-aside')


@event("dotf.r2-turned-up")
class R2TurnedUp:
    seat: int
    card: Reveal  # the top stock card, turned up by the seat's R2-D2


@event("dotf.r2-resolved")
class R2Resolved:
    seat: int
    recipient: int
    keeps_r2: bool


@event("dotf.final-take")
class FinalTake:
    seat: int
    cards: tuple  # of Reveal: the stock cards taken, one per card left in hand


@event("dotf.game-ended")
class GameEnded:
    reason: str


@event("dotf.offered")
class Offered:
    seat: int
    offer: str  # LOOK, KEEP_CARD or TAKE: what the seat may now do (revision 2)


@event("dotf.answered")
class Answered:
    seat: int
    accepted: bool  # look / keep / take (True), or pass / discard (False)


# Revision 3: cards drawn from the public stock as they turn up (plain card ids, no secrets).
@event("dotf.villain-drawn")
class VillainDrawn:
    card: int  # the villain turned up, drawn at random from the cards left


@event("dotf.r2-drawn")
class R2Drawn:
    seat: int
    card: int  # the card the seat's R2-D2 turned up, drawn at random from the cards left


@event("dotf.final-drawn")
class FinalDrawn:
    seat: int
    cards: tuple  # of int: the stock cards taken, each drawn at random from the cards left


EVENTS = (
    StockShuffled,
    VillainTurnedUp,
    BidsRevealed,
    Captured,
    CardDiscarded,
    VillainSetAside,
    R2TurnedUp,
    R2Resolved,
    FinalTake,
    GameEnded,
    Offered,  # appended in revision 2: never reorder, never remove
    Answered,
    VillainDrawn,  # appended in revision 3
    R2Drawn,
    FinalDrawn,
)
