"""``start`` and ``decide``: the events each command causes.  Randomness only from ``t.rng``.

A decision reads only what the acting seat's copy holds: public values and the seat's own
secrets (its hand, and its own draw piles).  A card that needs another player's hand asks that
player (see ``_effects``).  No secret is owned by nobody (the peer mode has no dealer): every
draw pile is arranged for its player (``Rng.arrange``) and drawn from at random positions.
"""

from __future__ import annotations

from boardstate.rules import HIDDEN, SecretUnavailable, Table

from . import _effects
from ._characters import cast
from ._combat import combat_values
from ._flow import begin_turn, draw, heal, hurt, settle
from ._legal import movers, unplaced
from ._space import path
from ._state import (
    DEFEND,
    DIE,
    LAY,
    MOVE,
    NO_CARD,
    PLACE,
    START_HAND,
    TURN,
    ActionsChanged,
    AttackDeclared,
    AttackShown,
    Awaiting,
    CardPlayed,
    CastChosen,
    Defended,
    Discarded,
    Frame,
    LaidFaceDown,
    Moved,
    NotDefended,
    OrderRolled,
    PilesShuffled,
    Placed,
    Released,
    Resolving,
    put,
    without,
)
from .boards import BOARDS


def start(t: Table) -> None:
    """Name the cast (chosen in the options, or drawn now), arrange every deck as its player's
    draw pile, put the mains on their squares, roll for the order, deal the first hands, and
    ask the first player to place their minors."""
    rng = t.rng
    chosen = dict(t.state.options).get("characters")
    if chosen is not None:
        t.emit(CastChosen(tuple(tuple(group) for group in chosen), False))
    else:
        t.emit(_draw_cast(t))
    s = t.state
    rs = s.roster
    seat_of = rs.group_seat  # (Master Play: a seat arranges both its groups' piles)
    t.emit(PilesShuffled(tuple(rng.arrange(d, seat_of[g]) for g, d in enumerate(rs.decks))))
    board = rs.board
    for main in rs.mains:
        col, row = board.square(rs.chars[main].kind)
        t.emit(Placed(main, row * board.width + col))
    t.emit(_roll_for_order(t))
    if t.state.revision < HANDS_AFTER_PLACING:
        _deal(t)
    t.emit(Awaiting(PLACE, (t.state.order[0],)))


HANDS_AFTER_PLACING = 3
"""The rules revision from which the opening hands are drawn once every minor is placed (the
rulebook's set-up: place the minors, then "draw the top four cards"); revision 2 dealt them
before the placing, so the first player placed knowing their hand."""


def _deal(t: Table) -> None:
    """The opening hands, in playing order: four cards (Master Play: two from each deck)."""
    rs = t.state.roster
    for seat in t.state.order:
        groups = rs.groups_of(seat)
        for g in groups:
            draw(t, seat, START_HAND // len(groups), g)


def _draw_cast(t: Table) -> CastChosen:
    """The random draw: every main character's chart face down, each player picks (two each in
    Master Play): the engine's randomness, recorded, so nobody can draw again."""
    s = t.state
    per_player = 2 if dict(s.options).get("variant") == "master" else 1
    named = BOARDS[dict(s.options)["board"]].named_squares  # (every main has one on the
    charts = t.rng.shuffled(team.id for team in cast().teams if team.id in named)  # 4 boards)
    n = len(s.players)
    return CastChosen(
        tuple(tuple(charts[seat * per_player : (seat + 1) * per_player]) for seat in range(n)),
        True,
    )


def _roll_for_order(t: Table) -> OrderRolled:
    """Everyone rolls; the highest number places and plays first (ties roll again); play
    passes on in seat order ("clockwise")."""
    n = len(t.state.players)
    rolling = tuple(range(n))
    rounds = []
    while len(rolling) > 1:
        faces = tuple((seat, t.rng.randbelow(len(DIE))) for seat in rolling)
        rounds.append(faces)
        best = max(DIE[f][0] for _, f in faces)
        rolling = tuple(seat for seat, f in faces if DIE[f][0] == best)
    first = rolling[0]
    return OrderRolled(tuple(rounds), tuple((first + k) % n for k in range(n)))


def decide(t: Table, moves) -> None:
    ((seat, command),) = moves
    s = t.state
    if command is HIDDEN:  # the attack card, laid face down
        t.emit(LaidFaceDown(seat))
        t.emit(Awaiting(DEFEND, (s.roster.seat_of[s.combat[1]],)))
        return
    _STEPS[command[0]](t, seat, command)


def _hand_pos(t: Table, seat: int, card: int) -> int:
    """Where ``card`` is in the seat's hand: the seat's own copy knows; another finds the card
    the record turns face up (its reveal), or says it cannot."""
    for i, c in enumerate(t.state.hands[seat]):
        if _effects.card_value(t, c) == card:
            return i
    raise SecretUnavailable(
        f"this copy does not hold {t.state.players[seat]}'s hand", code="no-opening"
    )


def _place(t: Table, seat: int, command) -> None:
    s = t.state
    if s.phase != PLACE:  # (a card's 'place', not the set-up's)
        return _answer(t, seat, command)
    _, char, square = command
    t.emit(Placed(char, square))
    s = t.state
    if unplaced(s, seat):
        t.emit(Awaiting(PLACE, (seat,)))
        return
    i = s.order.index(seat) + 1
    if i < len(s.order):
        t.emit(Awaiting(PLACE, (s.order[i],)))
        return
    if s.revision >= HANDS_AFTER_PLACING:
        _deal(t)
    begin_turn(t, s.order[0])


def _move(t: Table, seat: int, command) -> None:
    s = t.state
    if s.phase != MOVE:  # (a card's move, not the die's)
        return _answer(t, seat, command)
    _, char, goal = command
    t.emit(Moved(char, path(s, char, goal, DIE[s.die][0])))
    if movers(t.state, seat):
        t.emit(Awaiting(MOVE, (seat,)))
    else:
        settle(t, seat)


def _done(t: Table, seat: int, command) -> None:
    if t.state.phase != MOVE:
        _effects.answer(t, seat, command)
    settle(t, seat)


def _spend(t: Table) -> None:
    t.emit(ActionsChanged(t.state.actions - 1))


def _discard(t: Table, seat: int, card: int) -> None:
    pos = _hand_pos(t, seat, card)
    t.emit(Discarded(seat, (pos,), (t.reveal(t.state.hands[seat][pos]),)))


def _draw(t: Table, seat: int, command) -> None:
    _, card, group = command
    if card != NO_CARD:  # a full hand: discard first, then draw
        _discard(t, seat, card)
    _spend(t)
    draw(t, seat, 1, group)
    settle(t, seat)


def _draw_two(t: Table, seat: int, command) -> None:
    """Both actions spent drawing, the second without a look at the first card: the rules'
    own example of two actions alike ("such as drawing 2 cards"), said as one command so that
    in the peer mode the draws wait for the other player's share once, at the end of the turn,
    instead of a mail there and back in its middle (docs/trust.md)."""
    _, group, discards = command
    for card in discards:  # what a full hand needs, first (``_legal.two_draws_discarding``)
        _discard(t, seat, card)
    for _ in range(2):
        if t.state.over:  # (a pile gone through once too often ends the game at the first)
            return
        _draw(t, seat, ("draw", NO_CARD, group))


def _heal(t: Table, seat: int, command) -> None:
    _, card, char = command
    _discard(t, seat, card)
    _spend(t)
    heal(t, char, 1)
    settle(t, seat)


def _attack(t: Table, seat: int, command) -> None:
    _, attacker, defender = command
    t.emit(AttackDeclared(attacker, defender))
    t.emit(Awaiting(LAY, (seat,)))  # the attack card, face down


def _defend(t: Table, seat: int, command) -> None:
    s = t.state
    if command[0] == "undefended":
        t.emit(NotDefended(seat))
    else:
        pos = _hand_pos(t, seat, command[1])
        t.emit(Defended(seat, pos, t.reveal(s.hands[seat][pos])))
    t.emit(Awaiting(TURN, (s.turn,)))  # the attacker turns the card over


def _lay(t: Table, seat: int, command) -> None:
    """The face-down attack card, turned over: the combat is resolved."""
    s = t.state
    card = command[1]
    pos = _hand_pos(t, seat, card)
    shown = t.reveal(s.hands[seat][pos])
    after = s._replace(hands=put(s.hands, seat, without(s.hands[seat], (pos,))))
    attack, defence = combat_values(after, card)
    rs = s.roster
    t.emit(AttackShown(seat, pos, shown, attack, defence, rs.cards[card].free))
    attacker, defender, defence_card, _ = t.state.combat
    dealt = max(0, attack - defence)
    before = t.state.damage[defender]
    hurt(t, defender, dealt)
    if t.state.over:
        return
    dealt = t.state.damage[defender] - before
    defended = defence_card != NO_CARD
    frames = []
    if rs.cards[card].effects:
        frames.append(Frame(seat, card, attacker, combat=(defender, defended, dealt, attack)))
    d_seat = rs.seat_of[defender]
    if defended and rs.cards[defence_card].effects:
        frames.append(
            Frame(d_seat, defence_card, defender, combat=(attacker, defended, dealt, attack))
        )
    if frames:
        t.emit(Resolving(tuple(frames)))
    settle(t, seat)


def _play(t: Table, seat: int, command) -> None:
    _, card, me = command
    s = t.state
    pos = _hand_pos(t, seat, card)
    free = s.roster.cards[card].free
    t.emit(CardPlayed(seat, pos, t.reveal(s.hands[seat][pos]), me, free))
    t.emit(Resolving((Frame(seat, card, me),)))
    settle(t, seat)


def _release(t: Table, seat: int, command) -> None:
    _, char, cards = command
    s = t.state
    hand = s.hands[seat]
    pos = _effects.positions_of(hand, cards, t)
    t.emit(Discarded(seat, pos, tuple(t.reveal(hand[i]) for i in pos)))
    t.emit(Released(char))
    if s.phase == MOVE:
        t.emit(Awaiting(MOVE, (seat,)))
    else:
        settle(t, seat)


def _end(t: Table, seat: int, command) -> None:
    t.emit(ActionsChanged(-1))
    settle(t, seat)


def _answer(t: Table, seat: int, command) -> None:
    _effects.answer(t, seat, command)
    settle(t, seat)


_STEPS = {
    "place": _place,
    "move": _move,
    "done": _done,
    "draw": _draw,
    "draw-two": _draw_two,
    "heal": _heal,
    "attack": _attack,
    "defend": _defend,
    "undefended": _defend,
    "take": _answer,
    "lay": _lay,
    "play": _play,
    "release": _release,
    "end": _end,
    "target": _answer,
    "skip": _answer,
    "choose": _answer,
    "show": _answer,
    "discard": _answer,
    "pick": _answer,
    "backs": _answer,
}
