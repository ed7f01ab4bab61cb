"""Which commands a seat may give now: the one list that ``validate`` and the bots share.

Commands are plain tuples (see ``_notation``); cards are ints, positions are 0-based.
"""

from __future__ import annotations

from itertools import combinations

from boardstate.rules import UNKNOWN, SecretUnavailable

from ._cards import AREA_OF, AREAS, BLACK_JOKER, HIGH, IS_CLUB, IS_JOKER, IS_ROYAL, RANK, RED_JOKER
from ._combat import can_channel, can_force_defend, in_stance_suit, may_fumble, shielded
from ._state import (
    ACTION,
    BLOW,
    DEFEND,
    HEAL,
    LOOK,
    NO_CARD,
    PUSH,
    RETURN,
    SENSE,
    SETUP,
    SHOW,
    STANCE,
    JediState,
)

TAKE = ("take",)
KEEP = ("keep",)  # revision 2: a hand without a stance card keeps the stance
SHOW_HAND = ("show",)  # revision 2: the answer to Force Sense


def legal(s: JediState, seat: int) -> list:
    if not s.queue or s.queue[0] != seat:
        return []
    phase = s.phase
    if phase == SETUP or phase == STANCE:
        return stances(s, seat)
    if phase == ACTION:
        return actions(s, seat)
    if phase == DEFEND:
        return defences(s, seat)
    if phase == SHOW:
        return [SHOW_HAND]
    if phase == LOOK:
        target = s.peek[0]
        return [
            ("swap", i, j) for i in range(len(s.hands[seat])) for j in range(len(s.hands[target]))
        ]
    if phase == RETURN:
        return [("return", pos) for pos in s.returnable]
    return []


def hand_values(s: JediState, seat: int) -> list[int]:
    """The cards of ``seat``'s hand; a copy that holds them face down cannot judge the move."""
    values = [c.value for c in s.hands[seat]]
    if UNKNOWN in values:
        raise SecretUnavailable(
            f"this copy of the game does not hold {s.players[seat]}'s hand", code="no-opening"
        )
    return values


def stances(s: JediState, seat: int) -> list:
    """Every card but a Joker makes a stance; with none (revision 2) the stance is kept."""
    out = []
    for c in hand_values(s, seat):
        if IS_JOKER[c]:
            continue
        if IS_CLUB[c]:
            out.extend(("stance", c, a) for a in AREAS)
        else:
            out.append(("stance", c, AREA_OF[c]))
    if not out and s.owners_answer:
        out.append(KEEP)
    return out


def opponents(s: JediState, seat: int) -> list[int]:
    n = len(s.players)
    return [(seat + k) % n for k in range(1, n) if s.fatigue[(seat + k) % n] > 0]


def actions(s: JediState, seat: int) -> list:
    hand = hand_values(s, seat)
    turn = turn_facts(s, seat)
    out = []
    for c in hand:
        out.extend(card_actions(s, seat, turn, c))
    if turn[3]:
        out += lightnings(hand)
    out += [("discard", c) for c in hand]
    return out


def turn_facts(s: JediState, seat: int) -> tuple:
    """What every card's actions of one turn depend on, read once a list: ``(opponents, those
    not shielded, has a stance, may channel the Force)``."""
    others = opponents(s, seat)
    return (
        others,
        [t for t in others if not shielded(s, t, seat)],
        s.stance_area[seat] >= 0,
        can_channel(s, seat),
    )


def card_actions(s: JediState, seat: int, turn: tuple, c: int) -> list:
    """The actions one card of the hand makes (its discard and the lightnings apart)."""
    others, open_targets, has_stance, channel = turn
    if IS_JOKER[c]:
        return [("attack", t, c, -1) for t in open_targets] if channel else []
    if IS_ROYAL[c]:
        if not in_stance_suit(s, seat, c):
            return []
        rank = RANK[c]
        if rank == HEAL:
            return [("heal", c)]
        if rank == PUSH:
            return [("push", c)]
        if rank == SENSE:
            return [("sense", t, c) for t in others if s.stance_area[t] != HIGH]
        return []
    if not has_stance:
        return []
    areas = AREAS if IS_CLUB[c] else (AREA_OF[c],)
    return [("attack", t, c, a) for t in open_targets for a in areas]


def lightnings(hand: list[int]) -> list:
    """The lightnings a hand makes, for a seat that may channel the Force."""
    royals = sorted(c for c in hand if not IS_JOKER[c] and IS_ROYAL[c])
    out = [("lightning", combo) for combo in combinations(royals, 4)]
    if RED_JOKER in hand and BLACK_JOKER in hand:
        out.append(("lightning", (RED_JOKER, BLACK_JOKER)))
    return out


_CARD_AT = {"attack": 2, "heal": 1, "push": 1, "sense": 2}  # where a card action names its card


def is_legal(s: JediState, seat: int, command) -> bool:
    """``command in legal(s, seat)``; in the action phase from the one card it names (the
    referee checks every command of a log: tests/test_is_legal.py holds the two equal)."""
    if (
        s.phase != ACTION
        or not s.queue
        or s.queue[0] != seat
        or type(command) is not tuple
        or not command
    ):
        return command in legal(s, seat)
    hand = hand_values(s, seat)  # (read first, as the list does: a copy that cannot, cannot judge)
    verb = command[0]
    if verb == "discard":
        return command in [("discard", c) for c in hand]
    turn = turn_facts(s, seat)
    if verb == "lightning":
        return bool(turn[3]) and command in lightnings(hand)
    at = _CARD_AT.get(verb) if type(verb) is str else None
    if at is None or len(command) <= at:
        return False
    card = next((c for c in hand if c == command[at]), None)
    return card is not None and command in card_actions(s, seat, turn, card)


def defences(s: JediState, seat: int) -> list:
    kind, _card, _area, _speed, attacker_area = s.attack
    hand = hand_values(s, seat)
    out = [TAKE]
    if kind == BLOW:
        out.extend(("defend", c) for c in hand if IS_CLUB[c])
    if can_force_defend(attacker_area):
        fumble = may_fumble(s, seat, s.turn) and s.stance_card[s.turn] != NO_CARD
        for c in hand:
            if in_stance_suit(s, seat, c):
                out.append(("force-defend", c, NO_CARD))
                if fumble:
                    out.extend(("force-defend", c, g) for g in hand if g != c and not IS_JOKER[g])
    return out
