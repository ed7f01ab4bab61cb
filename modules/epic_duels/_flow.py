"""The turn: the die, drawing and reshuffling, damage and destruction, the end, whose turn next.

``settle(t, actor)`` runs after every command: it resolves what no one needs to choose (card
effects, the end of a combat, the hand limit) and asks the next seat for what remains.  ``actor``
is the seat whose record is being made: a step that must read a hidden hand is done here only if
the hand is the actor's, else its owner is asked (the hidden-information contract).
"""

from __future__ import annotations

from boardstate.rules import Table

from . import _effects  # (which imports this module: its names are read at call time)
from ._roster import kept_on_roster
from ._state import (
    ACT,
    ACTIONS,
    DIE,
    HAND_LIMIT,
    MOVE,
    NOWHERE,
    TRIM,
    Asked,
    Awaiting,
    CardDrawn,
    CombatEnded,
    Damaged,
    Destroyed,
    Eliminated,
    EpicState,
    GameEnded,
    Healed,
    PileGoneThrough,
    PileReshuffled,
    TurnBegan,
)

GONE_THROUGH_ENDS = 2  # "If either player goes through his/her draw pile a second time"


# ---------------------------------------------------------------------------------- cards
def draw(t: Table, seat: int, count: int, group: int | None = None) -> None:
    """``seat`` draws ``count`` cards from one of its groups' piles (its first, unless named),
    reshuffling that group's discards once.

    Each card is the one at a position the engine's randomness picks: the pile is the drawer's
    own (``Rng.arrange``), whose order the drawer may know, so it has no top.  The very secret
    moves into the hand; nothing reads its value (another copy deciding this record need not
    hold it).

    A pile is gone through when a card is wanted from it and none is left (option deck-end
    ``next-draw``), or when its last card is drawn (``last-card``); the second time ends the game.
    """
    if group is None:
        group = t.state.roster.groups_of(seat)[0]
    last_card = t.state.roster.deck_end == "last-card"
    for _ in range(count):
        s = t.state
        if s.over:
            return
        if not s.piles[group]:
            if last_card or not _gone_through(t, group):
                return
            s = t.state
            if not s.piles[group]:
                return  # nothing to reshuffle: the draw comes up short
        pile = s.piles[group]
        i = t.rng.randbelow(len(pile))
        t.emit(CardDrawn(seat, group, i, pile[i]))
        if last_card and not t.state.piles[group]:
            _gone_through(t, group)


def _gone_through(t: Table, group: int) -> bool:
    """Count a pass through a group's pile: reshuffle, or end the game. False: it ended."""
    s = t.state
    passes = s.passes[group] + 1
    t.emit(PileGoneThrough(group, passes))
    if passes >= GONE_THROUGH_ENDS:
        seat = s.roster.group_seat[group]
        whose = s.players[seat]
        if len(s.roster.groups_of(seat)) > 1:
            whose += f" ({s.roster.chars[s.roster.mains[group]].name})"
        end_on_damage(t, f"{whose} has gone through a draw pile twice")
        return False
    t.emit(PileReshuffled(group, arranged(t, group, s.discards[group])))
    return True


def arranged(t: Table, group: int, cards: tuple) -> tuple:
    """Face-up ``cards`` made a face-down pile of the group's player (nothing to arrange: no
    need to ask that player's copy for it)."""
    return t.rng.arrange(cards, t.state.roster.group_seat[group]) if cards else ()


# ---------------------------------------------------------------------------------- damage
def hurt(t: Table, char: int, amount: int) -> None:
    """Damage ``char`` (already destroyed, or ``amount`` 0: nothing); destroy it past its hp."""
    s = t.state
    if amount <= 0 or not s.alive(char) or ended(s):
        return
    t.emit(Damaged(char, amount))
    if not t.state.alive(char):
        t.emit(Destroyed(char))
        if s.roster.chars[char].main:
            main_fell(t, char)


def ended(s: EpicState) -> bool:
    """Whether nothing more may happen: the game is over (rules revision 3: the first main
    character destroyed by a card decides the game, even if the card would destroy another;
    revision 2 went on with the card's other targets, so a second end could follow)."""
    return s.over and s.revision >= 3


def heal(t: Table, char: int, amount: int) -> None:
    """Heal up to ``amount``: never above the starting hp, never a destroyed character."""
    s = t.state
    if s.alive(char) and s.on_board(char) and not ended(s):
        amount = min(amount, s.damage[char])
        if amount > 0:
            t.emit(Healed(char, amount))


def destroy(t: Table, char: int) -> None:
    s = t.state
    if s.alive(char):
        hurt(t, char, s.roster.dies_at[char] - s.damage[char])


def beaten(s: EpicState, seat: int) -> bool:
    """Whether the seat has lost its part: its main destroyed (both, in Master Play)."""
    return not any(s.alive(m) for m in s.roster.mains_of(seat))


def main_fell(t: Table, char: int) -> None:
    """A main character is destroyed: the end, or (free-for-all) its player is out.

    Duel and free-for-all: a player whose main falls is beaten, and the last one standing
    wins.  Team game: a side is beaten when every main of its players has fallen.  Master
    Play: a player is beaten when both mains have fallen, and their side loses."""
    s = t.state
    rs = s.roster
    seat = rs.seat_of[char]
    if not beaten(s, seat):
        return
    if rs.variant in ("free-for-all", "random-draw"):
        t.emit(Eliminated(seat))
        s = t.state
    standing = {rs.side_of[p] for p in s.seats if not beaten(s, p)}
    if rs.variant == "master" or len(standing) <= 1:
        winners = tuple(p for p in s.seats if not rs.same_side(p, seat) and not s.out[p])
        fallen = " and ".join(rs.chars[m].name for m in rs.mains_of(seat))
        t.emit(GameEnded(f"{fallen} destroyed", winners))


def end_on_damage(t: Table, why: str) -> None:
    """The end by the draw pile: the side whose main characters have taken the least damage
    wins; a tie is a tie (players out of a free-for-all do not count)."""
    s = t.state
    rs = s.roster
    totals: dict[int, int] = {}
    for p in s.seats:
        if not s.out[p]:
            side = rs.side_of[p]
            totals[side] = totals.get(side, 0) + sum(s.damage[m] for m in rs.mains_of(p))
    least = min(totals.values())
    winners = tuple(p for p in s.seats if not s.out[p] and totals[rs.side_of[p]] == least)
    best = {rs.side_of[p] for p in winners}
    names = " and ".join(s.players[p] for p in winners)
    result = (
        "a tie"
        if len(best) > 1
        else f"{names} {'wins' if len(winners) == 1 else 'win'} on least damage"
    )
    damage = ", ".join(
        f"{rs.chars[m].name} {s.damage[m]}" for p in s.seats if not s.out[p] for m in rs.mains_of(p)
    )
    t.emit(GameEnded(f"{why}: {result} (damage: {damage})", winners))


# ---------------------------------------------------------------------------------- turns
def begin_turn(t: Table, seat: int) -> None:
    """Roll the die (the engine's randomness, recorded) and ask the seat to move."""
    s = t.state
    face = t.rng.randbelow(len(DIE))
    t.emit(TurnBegan(seat, face, max(0, ACTIONS - s.lost[seat])))
    t.emit(Awaiting(MOVE, (seat,)))


def in_play(s: EpicState, seat: int) -> bool:
    """A seat still plays while it is not out and has a character on the board (a team
    player whose main has fallen plays on with minors).  (A loop: a generator under ``any``
    costs three times as much, and every turn's end asks.)"""
    if s.out[seat]:
        return False
    square = s.square
    for c in s.roster.chars_of(seat):
        if square[c] != NOWHERE:
            return True
    return False


def next_seat(s: EpicState) -> int:
    """The next seat in playing order that still plays."""
    order = s.order
    i = order.index(s.turn)
    for k in range(1, len(order) + 1):
        seat = order[(i + k) % len(order)]
        if in_play(s, seat):
            return seat
    return s.turn


def may_play_free(s: EpicState, seat: int) -> bool:
    """Whether the seat's decks hold a card that is not an action (public: the deck lists).

    Asked instead of the hand, so that how a turn ends tells the others nothing about it."""
    return _decks_hold_free(s.roster)[seat]


@kept_on_roster
def _decks_hold_free(rs) -> tuple[bool, ...]:
    """Per seat: ``may_play_free``, made once a roster."""
    return tuple(
        any(rs.cards[c].free for g in rs.groups_of(seat) for c in set(rs.decks[g]))
        for seat in range(rs.seats)
    )


def settle(t: Table, actor: int) -> None:
    """Resolve what needs nobody's choice, then ask for what comes next."""
    while True:
        s = t.state
        if s.over or s.request:
            return  # (a request pending: its Awaiting is out)
        if s.stack:
            if _effects.run(t, actor):
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
