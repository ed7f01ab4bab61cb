"""``start`` and ``decide``: the events each command causes.  Randomness only from ``t.rng``.

A decision reads only what the acting seat's copy holds (its own hand, public cards, the deck's
face-down cards), except where rules revision 1 says otherwise (see ``JediState.owners_answer``).
"""

from __future__ import annotations

from boardstate.rules import SecretUnavailable, Table, seats_mask

from ._cards import DECK, HAND_SIZE
from ._combat import (
    attack_speed,
    blow_damage,
    column_bottom,
    column_top,
    discard_gain,
    fumble_area,
    lightning_targets,
    rested_fatigue,
)
from ._flow import (
    after_setup_stance,
    after_stance,
    check_survivors,
    draw,
    next_setup_stance,
    redraw,
    settle,
    setup_queue,
)
from ._state import (
    BLOW,
    DEFEND,
    HEAL,
    LOOK,
    NO_CARD,
    PUSH,
    SENSE,
    SETUP,
    SHOW,
    Attacked,
    Awaiting,
    CardReturned,
    CardsSwapped,
    DealerChosen,
    DeckShuffled,
    Defended,
    Discarded,
    FatigueSet,
    Fumbled,
    HandSeen,
    LightningCast,
    PowerUsed,
    StanceKept,
    StancePlayed,
)


def start(t: Table) -> None:
    """Choose the dealer, shuffle, deal five each from the dealer's left, ask for stances."""
    rng = t.rng
    n = len(t.state.players)
    t.emit(DealerChosen(rng.randbelow(n)))
    t.emit(DeckShuffled(tuple(rng.secret(c) for c in rng.shuffled(DECK))))
    for k in range(1, n + 1):
        draw(t, (t.state.dealer + k) % n, HAND_SIZE)
    t.emit(Awaiting(SETUP, setup_queue(t.state)))


def decide(t: Table, moves) -> None:
    ((seat, command),) = moves
    _STEPS[command[0]](t, seat, command)


def _pos(t: Table, seat: int, card: int) -> int:
    """Where ``card`` is in ``seat``'s hand.  A copy that does not hold that hand (another
    player's view) cannot tell: it says so, and the referee checks what it can."""
    hand = t.state.hands[seat]
    for i, c in enumerate(hand):
        if c.value == card:
            return i
    for i, c in enumerate(hand):  # (another player's copy: the card the record turns over)
        if t.opened(c) == card:
            return i
    raise SecretUnavailable(
        f"this copy does not hold the card {card} in {t.state.players[seat]}'s hand",
        code="no-opening",
    )


def _play(t: Table, seat: int, card: int):
    """A card of the acting seat's hand, turned face up: (its position, its reveal)."""
    pos = _pos(t, seat, card)
    return pos, t.reveal(t.state.hands[seat][pos])


def _stance(t: Table, seat: int, command) -> None:
    _, card, area = command
    setup = t.state.phase == SETUP
    pos, shown = _play(t, seat, card)
    t.emit(StancePlayed(seat, pos, shown, area))
    if setup:
        after_setup_stance(t, seat)
    else:
        after_stance(t, seat)


def _keep(t: Table, seat: int, command) -> None:
    """Revision 2: a hand without a stance card keeps the stance; no card is played or drawn."""
    setup = t.state.phase == SETUP
    t.emit(StanceKept(seat))
    if setup:
        next_setup_stance(t)
    else:
        after_stance(t, seat)


def _attack(t: Table, seat: int, command) -> None:
    _, target, card, area = command
    speed = attack_speed(t.state, seat, card, area) if area >= 0 else 0
    pos, shown = _play(t, seat, card)
    t.emit(Attacked(seat, target, pos, shown, area, speed))
    t.emit(Awaiting(DEFEND, (target,)))


def _heal(t: Table, seat: int, command) -> None:
    pos, shown = _play(t, seat, command[1])
    t.emit(PowerUsed(seat, HEAL, pos, shown, seat))
    fatigue = t.state.fatigue[seat]
    if column_top(fatigue) != fatigue:
        t.emit(FatigueSet(seat, column_top(fatigue)))
    redraw(t)


def _push(t: Table, seat: int, command) -> None:
    pos, shown = _play(t, seat, command[1])
    t.emit(PowerUsed(seat, PUSH, pos, shown, seat))
    redraw(t)


def _sense(t: Table, seat: int, command) -> None:
    """Force Sense.  Revision 2 asks the target to show their hand (only they hold it);
    revision 1 looks into it from the looker's decision."""
    _, target, card = command
    pos, shown = _play(t, seat, card)
    t.emit(PowerUsed(seat, SENSE, pos, shown, target))
    if t.state.owners_answer and t.state.hands[target]:
        t.emit(Awaiting(SHOW, (target,)))
    else:  # (revision 2 comes here only for an empty hand: there is nothing to read)
        _hand_seen(t, seat, target)


def _show(t: Table, seat: int, command) -> None:
    """Revision 2: the sensed player's answer shows their hand to the looker alone."""
    _hand_seen(t, t.state.turn, seat)


def _hand_seen(t: Table, looker: int, target: int) -> None:
    """The target's hand, as new secrets of the looker; then the swap (if both hold cards)."""
    s = t.state
    seen = tuple(t.rng.passed(c, seats_mask(looker)) for c in s.hands[target])
    t.emit(HandSeen(looker, target, seen))
    if t.state.hands[looker] and seen:
        t.emit(Awaiting(LOOK, (looker,)))
    else:
        redraw(t)


def _swap(t: Table, seat: int, command) -> None:
    """The taken card's value comes from what the looker saw (their own secrets), never from
    the target's hand: the same events, read from the looker's copy."""
    _, given, taken = command
    s = t.state
    target, seen = s.peek
    to_target = t.rng.passed(s.hands[seat][given], seats_mask(target))
    to_seat = t.rng.passed(seen[taken], seats_mask(seat))
    t.emit(CardsSwapped(seat, target, given, taken, to_target, to_seat))
    redraw(t)


def _lightning(t: Table, seat: int, command) -> None:
    positions = sorted((_pos(t, seat, c) for c in command[1]), reverse=True)
    shown = tuple(t.reveal(t.state.hands[seat][p]) for p in positions)
    t.emit(LightningCast(seat, tuple(positions), shown))
    targets = lightning_targets(t.state, seat)
    if targets:
        t.emit(Awaiting(DEFEND, targets))
    else:
        redraw(t)


def _discard(t: Table, seat: int, command) -> None:
    card = command[1]
    gain = discard_gain(t.state, card)
    pos, shown = _play(t, seat, card)
    t.emit(Discarded(seat, pos, shown))
    fatigue = t.state.fatigue[seat]
    rested = rested_fatigue(fatigue, gain)
    if rested != fatigue:
        t.emit(FatigueSet(seat, rested))
    redraw(t)


def _take(t: Table, seat: int, command) -> None:
    _hit(t, seat, NO_CARD)
    _next_defender(t)


def _defend(t: Table, seat: int, command) -> None:
    club = command[1]
    pos, shown = _play(t, seat, club)
    t.emit(Defended(seat, pos, shown, False))
    _hit(t, seat, club)
    _next_defender(t)


def _force_defend(t: Table, seat: int, command) -> None:
    _, card, fumble = command
    pos, shown = _play(t, seat, card)
    t.emit(Defended(seat, pos, shown, True))
    if fumble != NO_CARD:
        attacker = t.state.turn
        pos, given = _play(t, seat, fumble)
        s = t.state
        taken = t.rng.secret(s.stance_card[attacker], seats_mask(seat))
        t.emit(Fumbled(seat, attacker, pos, given, taken, fumble_area(s, attacker, fumble)))
    _next_defender(t)


def _hit(t: Table, seat: int, club: int) -> None:
    """The attack lands: a blow costs its damage, a Joker or Lightning the rest of the column."""
    s = t.state
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
    if t.state.over:
        return
    rest = t.state.queue[1:]
    if rest:
        t.emit(Awaiting(DEFEND, rest))
    else:
        redraw(t)


def _return(t: Table, seat: int, command) -> None:
    """Low stance: the card goes back on top.  Revision 2 makes it a face-down deck card owned
    by nobody, so whoever draws it next reads a card of the table, not another player's."""
    pos = command[1]
    owners = 0 if t.state.owners_answer else seats_mask(seat)
    card = t.rng.passed(t.state.hands[seat][pos], owners)
    t.emit(CardReturned(seat, pos, card))
    settle(t)


_STEPS = {
    "stance": _stance,
    "keep": _keep,
    "attack": _attack,
    "heal": _heal,
    "push": _push,
    "sense": _sense,
    "show": _show,
    "swap": _swap,
    "lightning": _lightning,
    "discard": _discard,
    "take": _take,
    "defend": _defend,
    "force-defend": _force_defend,
    "return": _return,
}
