"""The table as an immutable value and the events that change it (``_evolve`` folds them).

Hands and the draw deck hold ``Secret`` cards: a hand card is owned by its holder, a deck card by
nobody (under rules revision 1, a card put back on top is owned by the player who put it back).
Everything on the table is public and held as plain ints: stance cards, the discard pile, fatigue.
Cards leave a hand by *position*, so a view that sees only face-down cards folds the same events to
the same shape.
"""

from __future__ import annotations

from typing import NamedTuple

from boardstate.rules import Reveal, Secret, event, quick_replace

# phases: what the seat at the front of ``queue`` is asked for
SETUP = 0  # an initial stance (everyone but the first player, before the first turn)
STANCE = 1  # the new stance of the active player
ACTION = 2  # attack, Force power, Force Lightning, or a discard for fatigue
DEFEND = 3  # an attacked player answers: take it, a Club, or a Force Defence
LOOK = 4  # Force Sense: the active player has seen a hand and swaps one card
RETURN = 5  # Low stance: one of the three cards drawn goes back on top of the draw deck
OVER = 6
SHOW = 7  # revision 2, Force Sense: the sensed player shows their hand to the looker

# Rules revisions (GameSpec.revision).  Revision 1 reads other seats' cards inside a decision,
# so it is sound only when every copy holds every secret (the open trust mode); revision 2
# keeps the hidden-information contract: a hidden value reaches the rules through its owner.
FIRST_REVISION = 1
OWNERS_ANSWER = 2

# kinds of attack under way
NO_ATTACK, BLOW, JOKER, LIGHTNING = 0, 1, 2, 3

# Force powers, by the rank of the royal that calls them
HEAL, PUSH, SENSE = 11, 12, 13

NO_CARD = -1


@quick_replace
class JediState(NamedTuple):
    """The whole table.  A NamedTuple: immutable, and ``_replace`` (``quick_replace``'s) is
    cheap in the hot loop."""

    players: tuple[str, ...]
    speed: tuple[tuple[int, ...], ...]  # Playaid: attack modifier [attacker's stance][area]
    defence: tuple[int, ...]  # Playaid: defence modifier [defender's stance]
    playaid_name: str
    fumble_sets_area: bool  # option fumble-stance: the given card's suit sets the stance
    queen_stops_lightning: bool  # option queen-vs-lightning
    hands: tuple[tuple[Secret, ...], ...]
    stance_card: tuple[int, ...]  # NO_CARD before a first stance
    stance_area: tuple[int, ...]
    fatigue: tuple[int, ...]
    immune: tuple[bool, ...]  # Force Push/Pull (Queen) until the seat's next turn
    deck: tuple[Secret, ...] = ()  # top first
    discard: tuple[int, ...] = ()  # bottom first, top last
    passes: int = 0  # times the draw deck has run out
    dealer: int = -1
    turn: int = -1  # the active seat
    turns: int = 0
    phase: int = SETUP
    queue: tuple[int, ...] = ()  # seats asked in ``phase``, the first one acts now
    attack: tuple = ()  # (kind, card, area, speed, attacker's stance area) under way
    owed: tuple[int, ...] = ()  # defenders who played a card and draw a replacement
    peek: tuple = ()  # Force Sense: (target, the seen cards as the looker's Secrets)
    returnable: tuple[int, ...] = ()  # Low stance: hand positions that may go back on the deck
    end_reason: str = ""
    revision: int = FIRST_REVISION  # the rules revision the game is played under

    @property
    def seats(self) -> range:
        return range(len(self.players))

    def alive(self, seat: int) -> bool:
        return self.fatigue[seat] > 0

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def owners_answer(self) -> bool:
        """Revision 2: a value hidden from the acting seat is asked of its owner."""
        return self.revision >= OWNERS_ANSWER


# ---------------------------------------------------------------------------------- events
@event("jedi.deck-shuffled")
class DeckShuffled:
    cards: tuple  # of Secret owned by nobody: the draw deck, top first


@event("jedi.dealer-chosen")
class DealerChosen:
    seat: int


@event("jedi.cards-drawn")
class CardsDrawn:
    seat: int
    cards: tuple  # of Secret owned by the drawer: the top cards of the deck, in order


@event("jedi.awaiting")
class Awaiting:
    phase: int
    seats: tuple  # who is asked, in order; the first acts now


@event("jedi.turn-began")
class TurnBegan:
    seat: int


@event("jedi.stance-played")
class StancePlayed:
    seat: int
    pos: int  # position in the hand
    card: Reveal
    area: int  # high 0, middle 1, low 2 (a Club goes to the area the player names)


@event("jedi.attacked")
class Attacked:
    seat: int
    target: int
    pos: int
    card: Reveal
    area: int  # -1 for a Joker
    speed: int  # rank plus the Playaid's attack modifier (0 for a Joker)


@event("jedi.defended")
class Defended:
    seat: int
    pos: int
    card: Reveal
    force: bool  # a Force Defence (else a Club as a temporary defence)


@event("jedi.fatigue-set")
class FatigueSet:
    seat: int
    fatigue: int  # the counter's new position (0: out of the duel)


@event("jedi.fumbled")
class Fumbled:
    seat: int  # the defender who causes the fumble
    attacker: int
    pos: int  # the defender's hand card now in the attacker's stance
    card: Reveal
    taken: Secret  # the attacker's old stance card, now in the defender's hand
    area: int  # the attacker's stance area after the swap


@event("jedi.power-used")
class PowerUsed:
    seat: int
    power: int  # HEAL 11, PUSH 12, SENSE 13
    pos: int
    card: Reveal
    target: int


@event("jedi.hand-seen")
class HandSeen:
    seat: int
    target: int
    cards: tuple  # of Secret owned by the looker: the target's hand in order


@event("jedi.cards-swapped")
class CardsSwapped:
    seat: int
    target: int
    given: int  # the looker's hand position given away
    taken: int  # the target's hand position taken
    to_target: Secret  # the given card, now the target's
    to_seat: Secret  # the taken card, now the looker's


@event("jedi.lightning-cast")
class LightningCast:
    seat: int
    positions: tuple  # hand positions, highest first
    cards: tuple  # of Reveal, in the same order


@event("jedi.discarded")
class Discarded:
    seat: int
    pos: int
    card: Reveal


@event("jedi.card-returned")
class CardReturned:
    seat: int
    pos: int
    card: Secret  # now the top of the draw deck: revision 1 owned by the player who put it
    # back, revision 2 owned by nobody (a face-down deck card)


@event("jedi.deck-ran-out")
class DeckRanOut:
    passes: int  # times the draw deck has now been gone through


@event("jedi.reshuffled")
class Reshuffled:
    cards: tuple  # of Secret owned by nobody: the discard pile shuffled, top first


@event("jedi.return-asked")
class ReturnAsked:
    seat: int
    positions: tuple  # the hand positions of the cards just drawn: one of them goes back


@event("jedi.game-ended")
class GameEnded:
    reason: str


@event("jedi.stance-kept")
class StanceKept:
    seat: int  # revision 2: a hand without a stance card answers 'keep' (no card is played)


# New events go at the end: a file's event codes are positions in this tuple.
EVENTS = (
    DeckShuffled,
    DealerChosen,
    CardsDrawn,
    Awaiting,
    TurnBegan,
    StancePlayed,
    Attacked,
    Defended,
    FatigueSet,
    Fumbled,
    PowerUsed,
    HandSeen,
    CardsSwapped,
    LightningCast,
    Discarded,
    CardReturned,
    DeckRanOut,
    Reshuffled,
    ReturnAsked,
    GameEnded,
    StanceKept,
)
