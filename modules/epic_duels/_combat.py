"""Card values and conditions: what a card's attack, defence, amounts and ``when`` come to now."""

from __future__ import annotations

from functools import lru_cache

from ._roster import kept_on_roster
from ._space import adjacent
from ._state import NO_CARD, EpicState, Frame
from ._vocabulary import Condition, Value


def attack_cards(s: EpicState, char: int) -> tuple[int, ...]:
    """The cards that can attack for ``char``: from its group's deck, they show it, and they
    have an attack value."""
    return _fitting(s.roster, s.roster.chars[char].group, s.roster.chars[char].kind, "attack")


def defence_cards(s: EpicState, char: int) -> tuple[int, ...]:
    """The cards that can defend ``char``: they show it, and have a defence value."""
    return _fitting(s.roster, s.roster.chars[char].group, s.roster.chars[char].kind, "defense")


@kept_on_roster
def attack_card_sets(roster) -> tuple[frozenset[int], ...]:
    """Per character: its ``attack_cards`` as a set, made once a roster (the legal list asks
    whether a hand holds one, for every character, at every command)."""
    return tuple(frozenset(_fitting(roster, c.group, c.kind, "attack")) for c in roster.chars)


@lru_cache(maxsize=1024)
def _fitting(roster, group: int, kind: str, value: str) -> tuple[int, ...]:
    """(Cached by the roster's identity: one per game, shared by all its states.)"""
    return tuple(
        i
        for i in sorted(set(roster.decks[group]))
        if (c := roster.cards[i]).pictures == kind
        and getattr(c, value) is not None
        and c.kind != "special"
    )


def holds(s: EpicState, f: Frame, cond: Condition) -> bool:
    """Whether a card's condition holds for the frame (or, in combat, the card) it belongs to."""
    test = cond.test
    seat = f.seat
    if test == "destroyed":
        return all(
            not s.alive(i)
            for i in s.roster.chars_of(seat)
            if s.roster.chars[i].kind == cond.destroyed
        )
    if test == "adjacent_to":
        return f.me >= 0 and any(
            adjacent(s, f.me, i)
            for i in s.roster.chars_of(seat)
            if s.roster.chars[i].kind == cond.adjacent_to and s.alive(i)
        )
    if test == "hand_size":
        return len(s.hands[seat]) == cond.hand_size
    if test == "board":
        return s.roster.scene == cond.board
    if test == "previous_done":
        return f.last_done == cond.previous_done
    opposing, defended, dealt, _ = f.combat
    if test == "defended":
        return defended == cond.defended
    if test == "damage_dealt":
        return (dealt > 0) == cond.damage_dealt
    return (not s.alive(opposing)) == cond.opposing_destroyed  # opposing_destroyed


def value(s: EpicState, f: Frame, v: Value) -> int:
    """A number, a quantity worked out now, or a conditional value."""
    if v.quantity is not None:
        q = v.quantity
        if q == "cards-in-hand":
            return len(s.hands[f.seat])
        if q == "attack-value":
            return f.combat[3]
        return f.combat[2]  # damage-dealt
    if v.when is not None and holds(s, f, v.when):
        return v.then
    return v.base


def combat_values(s: EpicState, attack_card: int) -> tuple[int, int]:
    """(attack, defence) of the combat under way once the attack card is turned over (it has
    left the attacker's hand; an undefended attack meets defence 0)."""
    attacker, defender, defence_card, _ = s.combat
    seat_of = s.roster.seat_of
    a_seat, d_seat = seat_of[attacker], seat_of[defender]
    defended = defence_card != NO_CARD
    a_frame = Frame(a_seat, attack_card, attacker, combat=(defender, defended, 0, 0))
    attack = value(s, a_frame, s.roster.cards[attack_card].attack)
    if not defended:
        return attack, 0
    d_frame = Frame(d_seat, defence_card, defender, combat=(attacker, True, 0, attack))
    return attack, value(s, d_frame, s.roster.cards[defence_card].defense)
