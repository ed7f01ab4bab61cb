"""``start`` and ``decide``: the events each command causes.  Randomness only from ``rng``."""
from __future__ import annotations

from boardstate import reveal, seats_mask

from ._cards import DECK, HAND_SIZE
from ._combat import (attack_speed, blow_damage, column_bottom, column_top, discard_gain,
                      fumble_area, lightning_targets, rested_fatigue)
from ._flow import (Table, after_setup_stance, after_stance, check_survivors, draw, redraw,
                    settle, setup_queue)
from ._state import (BLOW, DEFEND, HEAL, LOOK, NO_CARD, PUSH, SENSE, SETUP, Attacked, Awaiting, CardReturned,
                     CardsSwapped, DealerChosen, DeckShuffled, Defended, Discarded, FatigueSet,
                     Fumbled, HandSeen, JediState, LightningCast, PowerUsed, StancePlayed)


def start(s: JediState, rng) -> tuple:
    """Choose the dealer, shuffle, deal five each from the dealer's left, ask for stances."""
    t = Table(s, rng)
    n = len(s.players)
    t.emit(DealerChosen(rng.randbelow(n)))
    t.emit(DeckShuffled(tuple(rng.secret(c) for c in rng.shuffled(DECK))))
    for k in range(1, n + 1):
        draw(t, (t.s.dealer + k) % n, HAND_SIZE)
    t.emit(Awaiting(SETUP, setup_queue(t.s)))
    return tuple(t.out)


def decide(s: JediState, moves, rng) -> tuple:
    (seat, command), = moves
    t = Table(s, rng)
    _STEPS[command[0]](t, seat, command)
    return tuple(t.out)


def _pos(s: JediState, seat: int, card: int) -> int:
    for i, c in enumerate(s.hands[seat]):
        if c.value == card:
            return i
    raise LookupError(f"card {card} is not in the hand of seat {seat}")


def _play(s: JediState, seat: int, card: int):
    pos = _pos(s, seat, card)
    return pos, reveal(s.hands[seat][pos])


def _stance(t: Table, seat: int, command) -> None:
    _, card, area = command
    setup = t.s.phase == SETUP
    pos, shown = _play(t.s, seat, card)
    t.emit(StancePlayed(seat, pos, shown, area))
    if setup:
        after_setup_stance(t, seat)
    else:
        after_stance(t, seat)


def _attack(t: Table, seat: int, command) -> None:
    _, target, card, area = command
    speed = attack_speed(t.s, seat, card, area) if area >= 0 else 0
    pos, shown = _play(t.s, seat, card)
    t.emit(Attacked(seat, target, pos, shown, area, speed))
    t.emit(Awaiting(DEFEND, (target,)))


def _heal(t: Table, seat: int, command) -> None:
    pos, shown = _play(t.s, seat, command[1])
    t.emit(PowerUsed(seat, HEAL, pos, shown, seat))
    fatigue = t.s.fatigue[seat]
    if column_top(fatigue) != fatigue:
        t.emit(FatigueSet(seat, column_top(fatigue)))
    redraw(t)


def _push(t: Table, seat: int, command) -> None:
    pos, shown = _play(t.s, seat, command[1])
    t.emit(PowerUsed(seat, PUSH, pos, shown, seat))
    redraw(t)


def _sense(t: Table, seat: int, command) -> None:
    _, target, card = command
    pos, shown = _play(t.s, seat, card)
    t.emit(PowerUsed(seat, SENSE, pos, shown, target))
    looker = seats_mask(seat)
    seen = tuple(t.rng.secret(c.value, looker) for c in t.s.hands[target])
    t.emit(HandSeen(seat, target, seen))
    if t.s.hands[seat] and seen:
        t.emit(Awaiting(LOOK, (seat,)))
    else:
        redraw(t)


def _swap(t: Table, seat: int, command) -> None:
    _, given, taken = command
    s = t.s
    target = s.peek[0]
    to_target = t.rng.secret(s.hands[seat][given].value, seats_mask(target))
    to_seat = t.rng.secret(s.hands[target][taken].value, seats_mask(seat))
    t.emit(CardsSwapped(seat, target, given, taken, to_target, to_seat))
    redraw(t)


def _lightning(t: Table, seat: int, command) -> None:
    s = t.s
    positions = sorted((_pos(s, seat, c) for c in command[1]), reverse=True)
    shown = tuple(reveal(s.hands[seat][p]) for p in positions)
    t.emit(LightningCast(seat, tuple(positions), shown))
    targets = lightning_targets(t.s, seat)
    if targets:
        t.emit(Awaiting(DEFEND, targets))
    else:
        redraw(t)


def _discard(t: Table, seat: int, command) -> None:
    card = command[1]
    gain = discard_gain(t.s, card)
    pos, shown = _play(t.s, seat, card)
    t.emit(Discarded(seat, pos, shown))
    fatigue = t.s.fatigue[seat]
    rested = rested_fatigue(fatigue, gain)
    if rested != fatigue:
        t.emit(FatigueSet(seat, rested))
    redraw(t)


def _take(t: Table, seat: int, command) -> None:
    _hit(t, seat, NO_CARD)
    _next_defender(t)


def _defend(t: Table, seat: int, command) -> None:
    club = command[1]
    pos, shown = _play(t.s, seat, club)
    t.emit(Defended(seat, pos, shown, False))
    _hit(t, seat, club)
    _next_defender(t)


def _force_defend(t: Table, seat: int, command) -> None:
    _, card, fumble = command
    pos, shown = _play(t.s, seat, card)
    t.emit(Defended(seat, pos, shown, True))
    if fumble != NO_CARD:
        s = t.s
        attacker = s.turn
        pos, given = _play(s, seat, fumble)
        taken = t.rng.secret(s.stance_card[attacker], seats_mask(seat))
        t.emit(Fumbled(seat, attacker, pos, given, taken, fumble_area(s, attacker, fumble)))
    _next_defender(t)


def _hit(t: Table, seat: int, club: int) -> None:
    """The attack lands: a blow costs its damage, a Joker or Lightning the rest of the column."""
    s = t.s
    kind, _card, area, speed, _attacker_area = s.attack
    fatigue = s.fatigue[seat]
    if kind == BLOW:
        after = max(0, fatigue - blow_damage(s, seat, area, speed, club))
    else:
        after = column_bottom(fatigue)
    if after != fatigue:
        t.emit(FatigueSet(seat, after))
        if after == 0:
            check_survivors(t)


def _next_defender(t: Table) -> None:
    if t.over:
        return
    rest = t.s.queue[1:]
    if rest:
        t.emit(Awaiting(DEFEND, rest))
    else:
        redraw(t)


def _return(t: Table, seat: int, command) -> None:
    pos = command[1]
    card = t.rng.secret(t.s.hands[seat][pos].value, seats_mask(seat))
    t.emit(CardReturned(seat, pos, card))
    settle(t)


_STEPS = {
    "stance": _stance, "attack": _attack, "heal": _heal, "push": _push, "sense": _sense,
    "swap": _swap, "lightning": _lightning, "discard": _discard, "take": _take,
    "defend": _defend, "force-defend": _force_defend, "return": _return,
}
