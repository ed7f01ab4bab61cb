"""The table as an immutable value and the events that change it (``_evolve`` folds them).

The first event names the cast (``CastChosen``: chosen, or drawn at random); the ``Roster`` it
makes numbers the characters and the cards for the whole game (see ``_roster``).  The state holds
plain tuples indexed by character (square, damage, hold), by group (draw pile, discard pile,
passes) and by seat (hand and its card backs).  A card is an int: its number among the distinct
cards of the game's decks, so two copies of a card are the same command and a card's number says
which deck it belongs to.

Hands hold ``Secret`` cards owned by their holder.  A draw pile holds ``Secret`` cards owned by
the pile's player: ``Rng.arrange`` makes it (in the peer mode that player's copy arranges it),
so no secret is ever owned by nobody.  The player may know its order, so a pile has no top: a
draw takes the card at a position the engine's randomness picks, and the very secret moves into
the hand (``CardDrawn``).  Cards leave a hand or a pile by *position*, so a copy that sees only
face-down cards folds the same events to the same shape.
"""

# (No ``from __future__ import annotations``: ``typing.NamedTuple`` compiles each string
# annotation, 7.6 us a field, about 0.3 ms for the state's and the frame's 44 at every start.)
from typing import NamedTuple

from boardstate.rules import UNKNOWN, Reveal, Secret, SecretUnavailable, event, quick_replace

# phases: what the seats in ``queue`` are asked for
PLACE = 0  # setup: place a minor next to its main
MOVE = 1  # the active seat moves after the die roll (or goes on to its actions)
ACT = 2  # an action: draw, play a card, heal (or a card that is not an action)
LAY = 3  # the attacker lays the attack card face down
DEFEND = 4  # the defender's player answers face up, or takes it
TURN = 5  # the attacker turns the attack card over
EFFECT = 6  # a card's effect asks its player for a choice
RESPOND = 7  # a player answers a card about their hand (show it, or discard from it)
TRIM = 8  # a player with more than 10 cards discards down to 10
OVER = 9

PHASE_NAMES = {
    PLACE: "place minors",
    MOVE: "move",
    ACT: "actions",
    LAY: "lay the attack card face down",
    DEFEND: "defend",
    TURN: "turn the attack card over",
    EFFECT: "resolve a card",
    RESPOND: "answer a card",
    TRIM: "discard down to 10",
    OVER: "over",
}

HAND_LIMIT = 10
START_HAND = 4
ACTIONS = 2

# The die: (squares, every character moves) per face
DIE = ((3, False), (4, False), (5, False), (2, True), (3, True), (4, True))
DIE_NAMES = ("3", "4", "5", "2-ALL", "3-ALL", "4-ALL")

NOWHERE = -1  # the square of a character off the board (not placed yet, or destroyed)
NO_CARD = -1


class Frame(NamedTuple):
    """A card being resolved: its effect steps run in order, pausing for choices."""

    seat: int  # the card's player
    card: int
    me: int  # the character the card shows ('self'); -1 if none is on the board
    step: int = 0  # the next step
    chosen: tuple = ()  # the characters the latest targeted step acted on
    player: int = -1  # the opponent chosen for this card ('opponent' steps), -1 not yet
    combat: tuple = ()  # power combat: (opposing character, defended, damage dealt, attack)
    done: tuple = ()  # characters already moved by the current 'each' move step
    last_done: bool = True  # whether the previous (optional) step was carried out


@quick_replace
class EpicState(NamedTuple):
    """The whole table.  A NamedTuple: immutable, and ``_replace`` (``quick_replace``'s) is
    cheap in the hot loop."""

    players: tuple[str, ...]
    options: tuple  # the header's options, as sorted (key, value) pairs (see ``_rules.frozen``)
    roster: object = None  # Roster: the board, the characters, the cards (from CastChosen)
    square: tuple[int, ...] = ()  # per character: cell index, NOWHERE off the board
    damage: tuple[int, ...] = ()  # per character: damage taken (``Roster.dies_at`` destroys)
    held: tuple[int, ...] = ()  # per character: cards its player must discard to free it
    hands: tuple[tuple[Secret, ...], ...] = ()
    backs: tuple[tuple[int, ...], ...] = ()  # per seat: the group of each hand card (public)
    piles: tuple[tuple[Secret, ...], ...] = ()  # per group: draw pile (its player's secrets,
    # drawn from at random positions: the order means nothing)
    discards: tuple[tuple[int, ...], ...] = ()  # per group: bottom first, top last
    passes: tuple[int, ...] = ()  # per group: times the draw pile has been gone through
    out: tuple[bool, ...] = ()  # per seat: eliminated (free-for-all)
    order: tuple[int, ...] = ()  # seats in playing order, the first player first
    phase: int = PLACE
    queue: tuple[int, ...] = ()  # seats asked in ``phase``; the first acts now
    turn: int = -1  # the active seat
    turns: int = 0
    die: int = -1  # the face rolled this turn
    moved: tuple[int, ...] = ()  # characters moved after this turn's roll
    actions: int = 0  # actions left this turn
    no_draw: tuple[bool, ...] = ()  # per seat: may not draw in their next turn
    lost: tuple[int, ...] = ()  # per seat: actions lost in their next turn
    draw_barred: bool = False  # the active seat may not draw this turn
    combat: tuple = ()  # (attacker, defender, defence card, attack card) under way (NO_CARD:
    # none played, or the attack card still face down)
    stack: tuple[Frame, ...] = ()  # cards being resolved, the first one now
    request: tuple = ()  # RESPOND/TRIM: (kind, seat asked, asker, amount, positions)
    seen: tuple = ()  # per seat: (whose hand, its cards as this seat's Secrets) shown to the
    # seat; whose < 0: cards drawn for a look from the seat's own draw pile of group -1 - whose
    # (out of the pile until one is taken and the others go back)
    end_reason: str = ""
    winners: tuple[int, ...] = ()
    revision: int = 1
    last_combat: tuple = ()  # (attacker, defender, attack, defence, turn) of the latest combat

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def seats(self) -> range:
        return range(len(self.players))

    def alive(self, char: int) -> bool:
        return self.damage[char] < self.roster.dies_at[char]

    def on_board(self, char: int) -> bool:
        return self.square[char] != NOWHERE


# ---------------------------------------------------------------------------------- events
@event("epic.cast-chosen")
class CastChosen:
    cast: tuple  # per seat: the main characters (team ids) it plays
    drawn: bool  # drawn at random by the engine (else chosen in the options)


@event("epic.piles-shuffled")
class PilesShuffled:
    piles: tuple  # per group: the draw pile, arranged for its player (their Secrets)


@event("epic.order-rolled")
class OrderRolled:
    rolls: tuple  # per seat: the die faces rolled, in rounds (ties roll again)
    order: tuple  # seats in playing order: the highest roll places and plays first


@event("epic.placed")
class Placed:
    char: int
    square: int


@event("epic.cards-drawn")
class CardsDrawn:
    seat: int
    group: int  # whose draw pile
    cards: tuple  # of Secret owned by the drawer: the top cards of their pile, in order
    # (revision 1 only: revision 2 draws at random positions, ``CardDrawn``)


@event("epic.pile-gone-through")
class PileGoneThrough:
    group: int
    passes: int


@event("epic.pile-reshuffled")
class PileReshuffled:
    group: int
    cards: tuple  # the new draw pile: the discard pile arranged for the group's player (their
    # Secrets; a card's 'reshuffle' keeps the draw pile's own secrets before them)


@event("epic.awaiting")
class Awaiting:
    phase: int
    seats: tuple


@event("epic.turn-began")
class TurnBegan:
    seat: int
    die: int  # the face rolled
    actions: int  # actions this turn (two, less any lost)


@event("epic.moved")
class Moved:
    char: int
    path: tuple  # cell indexes, from the start square to the end square


@event("epic.discarded")
class Discarded:
    seat: int
    positions: tuple  # hand positions, highest first
    cards: tuple  # of Reveal, in the same order


@event("epic.healed")
class Healed:
    char: int
    amount: int  # damage taken off


@event("epic.damaged")
class Damaged:
    char: int
    amount: int


@event("epic.destroyed")
class Destroyed:
    char: int


@event("epic.attack-declared")
class AttackDeclared:
    attacker: int
    defender: int


@event("epic.laid-face-down")
class LaidFaceDown:
    seat: int


@event("epic.defended")
class Defended:
    seat: int
    pos: int
    card: Reveal


@event("epic.not-defended")
class NotDefended:
    seat: int


@event("epic.attack-shown")
class AttackShown:
    seat: int
    pos: int
    card: Reveal
    attack: int  # the attack value
    defence: int  # the defence value (0 undefended)
    free: bool  # the card is not an action


@event("epic.combat-ended")
class CombatEnded:
    pass


@event("epic.card-played")
class CardPlayed:
    seat: int
    pos: int
    card: Reveal
    me: int  # the character the card shows
    free: bool


@event("epic.resolving")
class Resolving:
    frames: tuple  # Frames pushed on the front of the stack, the first runs first (a file
    # holds each as a plain tuple; evolve makes it a Frame again)


@event("epic.step-done")
class StepDone:
    frame: tuple  # the front Frame as it stands after the step (a file holds it as a tuple)


@event("epic.card-resolved")
class CardResolved:
    pass


@event("epic.asked")
class Asked:
    request: tuple  # (kind, seat asked, asker, amount, positions)


@event("epic.hand-shown")
class HandShown:
    seat: int  # whose hand
    to: int  # the seat that sees it
    cards: tuple  # of Secret owned by ``to``: the hand in order


@event("epic.held")
class Held:
    char: int
    release: int  # cards to discard to free it


@event("epic.released")
class Released:
    char: int


@event("epic.penalised")
class Penalised:
    seat: int
    lose: int  # actions lost in their next turn (added)
    no_draw: bool  # may not draw in their next turn


@event("epic.card-taken")
class CardTaken:
    seat: int
    group: int  # whose pile
    pile: int  # 0: from the draw pile, 1: from the discard pile
    index: int  # position in that pile (draw: from the first; discard: from the bottom)
    card: Secret  # now in the seat's hand (from the draw pile: that very secret)


@event("epic.pile-set")
class PileSet:
    group: int
    cards: tuple  # the group's new draw pile, top first (revision 1 only: Secrets owned by
    # nobody)


@event("epic.actions-changed")
class ActionsChanged:
    actions: int


@event("epic.pile-seen")
class PileSeen:
    seat: int
    group: int  # one of the seat's groups
    cards: tuple  # of Secret owned by ``seat``: the top cards of that draw pile, in order
    # (revision 1 only: revision 2 looks with ``CardsLookedAt``)


@event("epic.eliminated")
class Eliminated:
    seat: int  # free-for-all: the main fell; the seat's characters leave the board


@event("epic.game-ended")
class GameEnded:
    reason: str
    winners: tuple


@event("epic.card-drawn")
class CardDrawn:
    seat: int
    group: int  # whose draw pile (one of the seat's groups)
    index: int  # the position the engine's randomness picked in it
    card: Secret  # that very secret (owned by the drawer), now at the end of the hand


@event("epic.cards-looked-at")
class CardsLookedAt:
    seat: int
    group: int  # one of the seat's groups
    positions: tuple  # positions in that draw pile, picked one by one by the engine's randomness
    # (each among the cards still there)
    cards: tuple  # those very secrets (owned by ``seat``), out of the pile and shown to it


@event("epic.looked-card-taken")
class LookedCardTaken:
    seat: int
    index: int  # the card taken into the hand, by its place among the cards looked at (-1:
    # none); the others go back into the draw pile they came from


# New events go at the end: a file's event codes are positions in this tuple.
EVENTS = (
    PilesShuffled,
    OrderRolled,
    Placed,
    CardsDrawn,
    PileGoneThrough,
    PileReshuffled,
    Awaiting,
    TurnBegan,
    Moved,
    Discarded,
    Healed,
    Damaged,
    Destroyed,
    AttackDeclared,
    LaidFaceDown,
    Defended,
    NotDefended,
    AttackShown,
    CombatEnded,
    CardPlayed,
    Resolving,
    StepDone,
    CardResolved,
    Asked,
    HandShown,
    Held,
    Released,
    Penalised,
    CardTaken,
    PileSet,
    ActionsChanged,
    GameEnded,
    PileSeen,
    CastChosen,
    Eliminated,
    CardDrawn,
    CardsLookedAt,
    LookedCardTaken,
)


# ---------------------------------------------------------------------------------- helpers
def put(seq: tuple, i: int, value) -> tuple:
    """``seq`` with ``value`` at ``i`` (through a list: quicker than slicing twice)."""
    changed = list(seq)
    changed[i] = value
    return tuple(changed)


def values_of(cards, s: EpicState | None = None, seat: int = -1, what: str = "hand") -> tuple:
    """The values of secrets a rule needs (``seat``'s own ``what``: hand, or the cards it was
    shown).  A copy that holds them face down (another player's copy in the peer mode, or a
    view) cannot judge what depends on them: it says so, and the referee checks what it can."""
    values = tuple([c.value for c in cards])
    if UNKNOWN in values:
        whose = f"{s.players[seat]}'s {what}" if s is not None else "those cards"
        raise SecretUnavailable(f"this copy of the game does not hold {whose}", code="no-opening")
    return values


def without(hand: tuple, positions) -> tuple:
    """``hand`` less the cards at ``positions``."""
    if len(positions) == 1 and type(p := positions[0]) is int and p >= 0:  # (the usual one)
        return hand[:p] + hand[p + 1 :]
    drop = set(positions)
    return tuple(c for i, c in enumerate(hand) if i not in drop)
