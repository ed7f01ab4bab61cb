"""What a seat may do now, phase by phase.  Each rule of when a command applies is stated here
once; ``explain`` (``_why``) and the notation only say it in words.

``is_legal`` answers ``command in legal(s, seat)`` for one command from the same functions the
list is made of (the reachable squares of the one character it names, the attacks of the one
attacker...): the referee checks every command of a long log, and the whole list is a quarter
of a record's cost (tests/test_is_legal.py holds the two equal)."""

from __future__ import annotations

from boardstate.rules import IdentityMemo

from . import _effects
from ._combat import attack_card_sets, attack_cards, defence_cards
from ._multisets import Multisets, multisets
from ._roster import kept_on_roster
from ._space import (
    MovesOf,
    attacks_in_position,
    empty_around,
    empty_squares,
    reachable_bits,
    reachable_bits_of,
    reaches,
)
from ._state import (
    ACT,
    DEFEND,
    DIE,
    EFFECT,
    HAND_LIMIT,
    LAY,
    MOVE,
    NO_CARD,
    PLACE,
    RESPOND,
    TRIM,
    EpicState,
    values_of,
)


def legal(s: EpicState, seat: int) -> list:
    phase = s.phase
    if phase == PLACE:
        return placements(s, seat)
    if phase == MOVE or phase == ACT:
        return _joined(parts(s, seat))
    if phase == LAY:
        return [("lay", k) for k in lay_cards(s, seat)]
    if phase == DEFEND:
        return [("defend", k) for k in defend_cards(s, seat)] + [("undefended",)]
    if phase in (EFFECT, RESPOND, TRIM):
        return _effects.options(s)
    return []


def legal_pick(s: EpicState, seat: int, below) -> tuple:
    """``legal(s, seat)[below(len(legal(s, seat)))]``, for random self-play: on the move and
    action phases the list's ``parts`` are counted (a mover's moves from its reachable squares'
    bitmask, ``draw 2``'s discards from the hand's counts) and only the command picked is made
    (tests/test_legal_pick.py holds it equal to the list, position by position)."""
    phase = s.phase
    if phase != MOVE and phase != ACT:
        options = legal(s, seat)
        return options[below(len(options))]
    listed = parts(s, seat)
    sizes = [len(part) for part in listed]
    i = below(sum(sizes))
    for part, n in zip(listed, sizes):
        if i < n:
            return part[i]
        i -= n
    raise IndexError("below(n) gave a number not below n")


def parts(s: EpicState, seat: int) -> list:
    """The move or action phase's list in parts, in its order: the moves (``move_parts``),
    ``done``, then the actions (``action_parts``); on the action phase the actions alone.  Each
    part is a sequence (its length, its items in order); ``legal`` lists them all and
    ``legal_pick`` counts them and makes the one command picked: the order said once."""
    if s.phase == MOVE:
        return [*move_parts(s, seat), DONE, *action_parts(s, seat)]
    return action_parts(s, seat)


def _joined(listed: list) -> list:
    out: list = []
    for part in listed:
        out.extend(part)
    return out


DONE = (("done",),)  # (the move phase's one command between the moves and the actions)


# ---------------------------------------------------------------------------------- setup
def unplaced(s: EpicState, seat: int) -> tuple[int, ...]:
    rs = s.roster
    return tuple(i for i in rs.chars_of(seat) if not rs.chars[i].main and s.square[i] == -1)


def setup_squares(s: EpicState, char: int) -> tuple[int, ...]:
    """Free squares next to the minor's main character (diagonals included); if every one is
    taken or blocked, the free squares nearest to it (a choice of this module: the rules do
    not say)."""
    rs = s.roster
    main_square = s.square[rs.mains[rs.chars[char].group]]
    near = empty_around(s, main_square)
    if near:
        return near
    w = rs.board.width
    free = empty_squares(s)

    def dist(sq):
        return max(abs(sq % w - main_square % w), abs(sq // w - main_square // w))

    best = min(dist(sq) for sq in free)
    return tuple(sq for sq in free if dist(sq) == best)


def placements(s: EpicState, seat: int) -> list:
    return [("place", c, sq) for c in unplaced(s, seat) for sq in setup_squares(s, c)]


# ---------------------------------------------------------------------------------- moving
def movers(s: EpicState, seat: int) -> tuple[int, ...]:
    """The seat's characters that may still move after this turn's roll."""
    if s.phase != MOVE:
        return ()
    squares, every = DIE[s.die]
    if s.moved and not every:
        return ()
    square, held, moved = s.square, s.held, s.moved
    return tuple(
        [c for c in s.roster.chars_of(seat) if square[c] != -1 and not held[c] and c not in moved]
    )


def move_parts(s: EpicState, seat: int) -> list:
    """The moves in parts: the movers in turn, each one's ``MovesOf``."""
    chars = movers(s, seat)
    return [MovesOf(c, e) for c, e in zip(chars, reachable_bits_of(s, chars, DIE[s.die][0]))]


def moves_of(s: EpicState, char: int, budget: int) -> list:
    """The moves of one of the movers."""
    return list(MovesOf(char, reachable_bits(s, char, budget)))


# ---------------------------------------------------------------------------------- actions
def hand_cards(s: EpicState, seat: int) -> tuple[int, ...]:
    """The distinct cards in the seat's own hand, ascending (the seat's copy holds them;
    another copy cannot say, and raises ``SecretUnavailable``)."""
    return _read_hand(s, seat)[1]


def hand_values(s: EpicState, seat: int) -> tuple:
    """The cards of the seat's own hand, in its order (``values_of``)."""
    return _read_hand(s, seat)[0]


def _read_hand(s: EpicState, seat: int) -> tuple:
    """(``values_of`` the seat's hand, its distinct cards ascending), kept for the hands asked
    about (up to ``_KEPT``; then the table starts again): a turn asks again after every move
    and action.  Kept by the very tuple (``IdentityMemo``: a hand is immutable, and so are its
    secrets: a value of the tuple alone)."""
    hand = s.hands[seat]
    read = _hands_read.get(hand)
    if read is None:
        values = values_of(hand, s, seat)
        read = _hands_read.keep(hand, (values, tuple(sorted(set(values)))))
    return read


_KEPT = 256  # hands kept at most (then the table starts again)
_hands_read = IdentityMemo(_KEPT)  # a hand -> (its values, its distinct cards)


def action_parts(s: EpicState, seat: int) -> list:
    """The actions in parts, in order: one draw, ``draw 2`` (a part per pile: counted without
    being made), then in one list the heals, each character's attacks, each special card's
    plays, each character's releases, and ``end`` once it is allowed."""
    hand = hand_cards(s, seat)
    chars = s.roster.chars_of(seat)
    listed = acting_parts(s, seat, hand, chars)
    ending = may_end(s, listed)
    rest = listed[-1]
    rest.extend(releases(s, seat, chars))
    if ending:
        rest.append(("end",))
    return listed


def acting_parts(s: EpicState, seat: int, hand: tuple[int, ...], chars) -> list:
    """The actions ``end`` waits for, in parts in the list's order: one draw, ``draw 2`` a part
    per pile, then the heals, attacks and plays in one list (``action_parts`` adds to it)."""
    rest = heal_actions(s, seat, hand)
    rest.extend(attacks_of(s, chars, hand))
    rest.extend(plays(s, hand))
    return [one_draws(s, seat, hand), *both_draw_parts(s, seat), rest]


def may_end(s: EpicState, acting: list) -> bool:
    """Whether ``end`` is listed: with no action left, or when none of the actions it waits
    for (``acting_parts``) may be taken (the list and ``is_legal`` both ask here)."""
    return s.actions <= 0 or not any(acting)


def one_draws(s: EpicState, seat: int, hand: tuple[int, ...]) -> list:
    """The draws of one action (a full hand names the card it discards first)."""
    if s.actions <= 0 or s.draw_barred:
        return []
    groups = draw_groups(s, seat)
    if len(s.hands[seat]) < HAND_LIMIT:
        return [("draw", NO_CARD, g) for g in groups]
    return [("draw", k, g) for k in hand for g in groups]


def both_draw_parts(s: EpicState, seat: int) -> list:
    """'draw 2': both actions drawing at once (the discards a full hand makes named first), a
    part per pile."""
    if s.actions < 2 or s.draw_barred or s.revision < DRAW_TWO_REVISION:
        return []
    return [two_draws_discarding(s, seat, g, ("draw-two", g)) for g in draw_groups(s, seat)]


DRAW_TWO_REVISION = 4  # 'draw 2', both actions drawing, is a command from this revision on


def two_draws_discard(s: EpicState, seat: int) -> int:
    """How many cards of the hand two draws in a row discard first: none from 8 cards or
    fewer, one from 9, two from 10 (the hand limit before each draw)."""
    return max(0, len(s.hands[seat]) + 2 - HAND_LIMIT)


def two_draws_discarding(s: EpicState, seat: int, group: int, head=None) -> Multisets:
    """What two draws in a row from ``group``'s pile discard first, chosen before either card
    is seen: nothing from 8 cards or fewer, one card of the hand from 9, two from 10 (sorted;
    one card twice only if the hand holds two of it).  Those discards are made before both
    draws, which comes to the same as one before each only while the pile holds both cards
    (no discards reshuffled in between): with fewer, a full hand draws one at a time (no
    choice: of no cards).  ``head``: the command each choice completes (``Multisets``)."""
    need = two_draws_discard(s, seat)
    if not need:
        return Multisets((), 0, head)
    if len(s.piles[group]) < 2:
        return Multisets((), need, head)
    return Multisets(hand_values(s, seat), need, head)


def heal_actions(s: EpicState, seat: int, hand: tuple[int, ...]) -> list:
    if s.actions <= 0:
        return []
    return [("heal", k, c) for k, c in heals(s, seat, hand)]


def attacks_by(s: EpicState, a: int, hand: tuple[int, ...]) -> list:
    """The attacks of one of the seat's characters (``hand``: the seat's ``hand_cards``)."""
    return attacks_of(s, (a,), hand)


def attacks_of(s: EpicState, chars, hand: tuple[int, ...]) -> list:
    """The attacks of the seat's characters ``chars``, one after the other: each with an
    attack card in the hand (with no action left, one that is not an action) and an enemy in
    attack position.  The roster's tables and what blocks a shot read once for them all."""
    square, held, actions = s.square, s.held, s.actions
    fitting_of = attack_card_sets(s.roster)
    armed = []
    for a in chars:
        if square[a] == -1 or held[a]:
            continue
        fitting = fitting_of[a]
        if fitting.isdisjoint(hand):
            continue
        if actions <= 0:  # (with no action left, only a card that is not one)
            cards = s.roster.cards
            if not any(cards[k].free for k in fitting.intersection(hand)):
                continue
        armed.append(a)
    if not armed:
        return armed
    return [("attack", a, d) for a, d in attacks_in_position(s, armed)]


def plays_of(s: EpicState, k: int) -> list:
    """The plays of one special card of the hand."""
    return plays(s, (k,))


def plays(s: EpicState, cards) -> list:
    """The plays of the special cards among ``cards`` (of the hand), card after card: each by
    a character it shows on the board, an action's worth unless the card is not an action."""
    specials = _special_cards(s.roster)
    out = []
    for k in cards:
        if k in specials and (s.actions > 0 or s.roster.cards[k].free):
            out.extend([("play", k, me) for me in players_of(s, k)])
    return out


def _is_special(card) -> bool:
    return card.kind == "special"


@kept_on_roster
def _special_cards(rs) -> frozenset[int]:
    """The cards ``plays_of`` may list (the others it never does), made once a roster."""
    return frozenset(k for k, card in enumerate(rs.cards) if _is_special(card))


def releases_of(s: EpicState, seat: int, c: int) -> list:
    """The releases of one of the seat's characters, if it is held."""
    return releases(s, seat, (c,))


def releases(s: EpicState, seat: int, chars) -> list:
    """The releases of the seat's characters ``chars`` that are held, one after the other:
    each by discarding as many cards as hold it."""
    held, square = s.held, s.square
    out = []
    for c in chars:
        if held[c] and square[c] != -1:
            out.extend([("release", c, m) for m in multisets(hand_values(s, seat), held[c])])
    return out


def is_legal(s: EpicState, seat: int, command) -> bool:
    """``command in legal(s, seat)``, from the part of the list that could hold it."""
    phase = s.phase
    if phase in (EFFECT, RESPOND, TRIM):
        return _effects.is_option(s, command)
    if phase not in (MOVE, ACT) or type(command) is not tuple or not command:
        return command in legal(s, seat)
    # The hand read first, as the list reads it: a copy that cannot read it cannot judge.
    hand_values(s, seat)
    verb = command[0]
    if phase == MOVE and verb == "move" and len(command) == 3:
        char = _one_of(command[1], movers(s, seat))
        if char is None:
            return False
        goal, budget = command[2], DIE[s.die][0]
        if type(goal) is int and 0 <= goal < len(s.roster.board.cells):
            return reaches(s, char, goal, budget)
        return command in moves_of(s, char, budget)
    if phase == MOVE and command == ("done",):
        return True
    hand = hand_cards(s, seat)
    if verb == "draw":
        return command in one_draws(s, seat, hand)
    if verb == "draw-two":  # (each pile's part asked, its choices not made: ``Multisets``)
        return any(command in part for part in both_draw_parts(s, seat))
    if verb == "heal":
        return command in heal_actions(s, seat, hand)
    if verb == "attack" and len(command) == 3:
        char = _one_of(command[1], s.roster.chars_of(seat))
        return char is not None and command in attacks_by(s, char, hand)
    if verb == "play" and len(command) == 3:
        card = _one_of(command[1], hand)
        return card is not None and command in plays_of(s, card)
    if verb == "release" and len(command) == 3:
        char = _one_of(command[1], s.roster.chars_of(seat))
        return char is not None and command in releases_of(s, seat, char)
    if command == ("end",):
        return may_end(s, acting_parts(s, seat, hand, s.roster.chars_of(seat)))
    return False


def _one_of(value, options):
    """The option equal to ``value`` (as ``in`` compares), None if none is."""
    for option in options:
        if option == value:
            return option
    return None


def draw_groups(s: EpicState, seat: int) -> tuple[int, ...]:
    """The piles the seat may draw from: its group's (Master Play: either, named in the
    command)."""
    return s.roster.groups_of(seat)


def players_of(s: EpicState, card: int) -> tuple[int, ...]:
    """The characters on the board that may play a special card: the ones it shows."""
    square = s.square
    return tuple([c for c in _pictured(s.roster)[card] if square[c] != -1])


@kept_on_roster
def _pictured(rs) -> tuple[tuple[int, ...], ...]:
    """Per card: the characters it shows (``Roster.pictured``), made once a roster."""
    return tuple(rs.pictured(card) for card in range(len(rs.cards)))


def heals(s: EpicState, seat: int, hand: tuple[int, ...]) -> list[tuple[int, int]]:
    """(card, character) pairs one action may heal by 1 (the rulebook's Healing a Character):
    a main character whose minors are all destroyed, with a card of those minors; in the team
    game also a minor whose main is destroyed, with a card of that main.  ``hand``: the seat's
    ``hand_cards``, which ``actions`` has already made."""
    rs = s.roster
    out = []
    for g in rs.groups_of(seat):
        members = rs.chars_of_group(g)
        main, minors = members[0], members[1:]
        if not any(map(s.alive, minors)):
            if s.damage[main] and s.alive(main):
                kinds = {rs.chars[c].kind for c in minors}
                out.extend((k, main) for k in hand if _is(rs, k, g, kinds))
        elif rs.variant == "team" and not s.alive(main):
            kind = {rs.chars[main].kind}
            for c in minors:
                if s.alive(c) and s.damage[c]:
                    out.extend((k, c) for k in hand if _is(rs, k, g, kind))
    return out


def _is(rs, card: int, group: int, kinds) -> bool:
    return rs.card_group[card] == group and rs.cards[card].pictures in kinds


# ---------------------------------------------------------------------------------- combat
def lay_cards(s: EpicState, seat: int) -> list[int]:
    attacker = s.combat[0]
    cards = s.roster.cards
    hand = hand_cards(s, seat)
    return [k for k in attack_cards(s, attacker) if k in hand and (s.actions > 0 or cards[k].free)]


def defend_cards(s: EpicState, seat: int) -> list[int]:
    defender = s.combat[1]
    if s.held[defender]:
        return []
    hand = hand_cards(s, seat)
    return [k for k in defence_cards(s, defender) if k in hand]
