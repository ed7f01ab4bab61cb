"""Pure arithmetic of the duel: the fatigue track, attack and defence totals, who may do what.

Totals are speeds: lower is faster.  An attack whose total is lower than the defence's total does
the difference in fatigue damage.
"""

from __future__ import annotations

from ._cards import AREA_OF, HIGH, IS_CLUB, IS_ROYAL, LOW, MIDDLE, RANK, STANCE_SUIT, SUIT, matches
from ._state import NO_CARD, JediState

START_FATIGUE = 21
COLUMN_HEIGHT = 7  # the Fatigue Playaid: columns 21-15, 14-8, 7-1


def column(fatigue: int) -> int:
    """0 for 21-15, 1 for 14-8, 2 for 7-1 (3 once out of fatigue)."""
    return (START_FATIGUE - fatigue) // COLUMN_HEIGHT if fatigue > 0 else 3


def column_top(fatigue: int) -> int:
    return START_FATIGUE - COLUMN_HEIGHT * column(fatigue)


def column_bottom(fatigue: int) -> int:
    return column_top(fatigue) - COLUMN_HEIGHT + 1


def attack_speed(s: JediState, seat: int, card: int, area: int) -> int:
    """Rank plus the Playaid's modifier for the attacker's stance and the area (none for a ♣)."""
    if IS_CLUB[card]:
        return RANK[card]
    return RANK[card] + s.speed[s.stance_area[seat]][area]


def stance_defence(s: JediState, target: int, area: int) -> int:
    """The defender's stance card, plus the Playaid's modifier when attacked in another area."""
    total = RANK[s.stance_card[target]]
    stance = s.stance_area[target]
    if area != stance:
        total += s.defence[stance]
    return total


def blow_damage(s: JediState, target: int, area: int, speed: int, club: int = NO_CARD) -> int:
    """Fatigue lost to a normal attack, defended by the stance or by a ♣ (no modifier)."""
    defence = RANK[club] if club != NO_CARD else stance_defence(s, target, area)
    return defence - speed if speed < defence else 0


def in_stance_suit(s: JediState, seat: int, card: int) -> bool:
    """A royal that works for ``seat`` now: the suit of their stance, or a ♣ royal."""
    if not IS_ROYAL[card]:
        return False
    if IS_CLUB[card]:
        return True
    area = s.stance_area[seat]
    return area >= 0 and SUIT[card] == STANCE_SUIT[area]


def can_force_defend(attacker_area: int) -> bool:
    return attacker_area != HIGH


def may_fumble(s: JediState, defender: int, attacker: int) -> bool:
    """A Force Defence lets the defender swap the attacker's stance if they are a column lower."""
    return column(s.fatigue[defender]) > column(s.fatigue[attacker])


def fumble_area(s: JediState, attacker: int, card: int) -> int:
    """The attacker's stance after a fumble: the given card's area (option), a ♣ keeps it."""
    area = AREA_OF[card]
    if s.fumble_sets_area and area >= 0:
        return area
    return s.stance_area[attacker]


def can_channel(s: JediState, seat: int) -> bool:
    """Jokers and Force Lightning come only from the middle or low stance."""
    return s.stance_area[seat] in (MIDDLE, LOW)


def shielded(s: JediState, target: int, attacker: int) -> bool:
    """Force Push/Pull: immune from attacks, except those made from the high stance."""
    return s.immune[target] and s.stance_area[attacker] != HIGH


def lightning_targets(s: JediState, seat: int) -> tuple[int, ...]:
    """Everyone else still in the duel and not in the high stance, from the caster's left."""
    n = len(s.players)
    out = []
    for step in range(1, n):
        t = (seat + step) % n
        if s.fatigue[t] <= 0 or s.stance_area[t] == HIGH:
            continue
        if s.queen_stops_lightning and s.immune[t]:
            continue
        out.append(t)
    return tuple(out)


def discard_gain(s: JediState, card: int) -> int:
    """+2 when the card matches the suit on top of the discard pile (♣ wild), else +1."""
    if s.discard and matches(card, s.discard[-1]):
        return 2
    return 1


def rested_fatigue(fatigue: int, gain: int) -> int:
    """Fatigue regained never leaves the column."""
    return min(column_top(fatigue), fatigue + gain)
