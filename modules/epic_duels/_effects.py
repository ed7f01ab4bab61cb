"""Card effects: one interpreter for the effect vocabulary of the data files, no code per card.

A card being resolved is a ``Frame`` on the state's stack; its steps run in order.  A step that
needs nobody's choice is carried out at once; one that needs a choice asks (``EFFECT`` for the
card's player, ``RESPOND`` for a player whose hand it touches) and the answer finishes the step.
``options(s)`` lists the commands the current choice allows: the rules state each choice once,
and ``legal``, the bots and ``answer`` all read it from here.
"""

from __future__ import annotations

from boardstate.rules import Table, seats_mask

from . import _flow
from ._combat import holds, value
from ._space import around, attackable, empty_around, empty_squares, path, reachable_squares
from ._state import (
    EFFECT,
    RESPOND,
    Asked,
    Awaiting,
    CardResolved,
    CardTaken,
    Discarded,
    EpicState,
    Frame,
    HandShown,
    Held,
    Moved,
    Penalised,
    PileReshuffled,
    PileSeen,
    PileSet,
    Placed,
    StepDone,
)

WAIT = True


def current(s: EpicState):
    """(frame, step) being resolved."""
    f = s.stack[0]
    return f, s.roster.cards[f.card].effects[f.step]


def run(t: Table, actor: int) -> bool:
    """Run the front frame's next step; True if it waits for a choice."""
    s = t.state
    f = s.stack[0]
    effects = s.roster.cards[f.card].effects
    if f.step >= len(effects):
        t.emit(CardResolved())
        return False
    e = effects[f.step]
    if e.when is not None and not holds(s, f, e.when):
        _next(t, f, done=False)
        return False
    return _RUN[e.verb](t, f, e, actor)


def _next(t: Table, f: Frame, *, done: bool = True, chosen=None) -> None:
    t.emit(
        StepDone(
            f._replace(
                step=f.step + 1,
                chosen=f.chosen if chosen is None else tuple(chosen),
                done=(),
                last_done=done,
            )
        )
    )


def _ask(t: Table, seat: int, request: tuple = ()) -> bool:
    if request:
        t.emit(Asked(request))
        t.emit(Awaiting(RESPOND if request[1] != request[2] else EFFECT, (seat,)))
    else:
        t.emit(Awaiting(EFFECT, (seat,)))
    return WAIT


# ---------------------------------------------------------------------------------- who
def candidates(s: EpicState, f: Frame, e) -> tuple[int, ...]:
    """The characters a step's target may pick (on the board; for moves, not held)."""
    tg = e.target
    rs = s.roster
    on = [i for i in range(len(rs.chars)) if s.square[i] != -1]
    who = tg.who
    if who == "self":
        found = [f.me] if f.me >= 0 and s.square[f.me] != -1 else []
    elif who == "opposing":
        found = [f.combat[0]] if s.square[f.combat[0]] != -1 else []
    elif who == "chosen":
        found = [i for i in f.chosen if s.square[i] != -1]
    elif who == "any":
        found = on
    elif who == "minor":
        found = [i for i in on if not rs.chars[i].main]
    elif who == "adjacent":
        found = list(around(s, f.me)) if f.me >= 0 and s.square[f.me] != -1 else []
    elif who == "attackable":
        found = list(attackable(s, f.me)) if f.me >= 0 else []
    else:  # a character id of the card's team
        group = rs.card_group[f.card]
        found = [i for i in rs.chars_of_group(group) if rs.chars[i].kind == who and i in on]
    if tg.side == "enemy" or (tg.side == "one-opponent" and f.player >= 0):
        seat_of = rs.seat_of
        if tg.side == "enemy":
            mine = rs.side_of[f.seat]
            found = [i for i in found if rs.side_of[seat_of[i]] != mine]
        else:
            found = [i for i in found if seat_of[i] == f.player]
    if e.verb == "move":
        found = [i for i in found if not s.held[i]]
    return tuple(found)


def opponents(s: EpicState, seat: int) -> tuple[int, ...]:
    """The players of the other sides still in the game, in playing order."""
    from ._flow import in_play

    side = s.roster.side_of
    return tuple(p for p in s.order if side[p] != side[seat] and in_play(s, p))


def _needs_opponent(s: EpicState, f: Frame, e) -> bool:
    return f.player < 0 and (
        e.player == "opponent" or (e.target is not None and e.target.side == "one-opponent")
    )


def players(s: EpicState, f: Frame, e) -> tuple[int, ...]:
    """The seats a step's ``player`` names."""
    p = e.player or "you"
    if p == "you":
        return (f.seat,)
    if p == "opponent":
        return (f.player,)
    if p == "everyone":
        i = s.order.index(f.seat)
        return tuple(s.order[(i + k) % len(s.order)] for k in range(len(s.order)))
    if p == "opposing":
        return (s.roster.seat_of[f.combat[0]],)
    chosen = [i for i in f.chosen]  # 'chosen': the player of the chosen character
    return (s.roster.seat_of[chosen[0]],) if chosen else ()


# ---------------------------------------------------------------------------------- options
def options(s: EpicState) -> list:
    """The commands the choice asked for now allows (EFFECT and RESPOND phases)."""
    if s.request:
        return _request_options(s)
    f, e = current(s)
    if _needs_opponent(s, f, e):
        return [("choose", p) for p in opponents(s, f.seat)]
    verb = e.verb
    out: list = []
    if verb == "move":
        for c in candidates(s, f, e):
            if c not in f.done:
                out.extend(("move", c, sq) for sq in reachable_squares(s, c, e.squares))
        out.append(("done",))
        return out
    if verb == "place":
        for c in candidates(s, f, e):
            out.extend(("place", c, sq) for sq in _place_squares(s, c, e.where))
    elif verb == "search":
        pile = s.discards[s.roster.card_group[f.card]]
        out.extend(("take", k, ()) for k in sorted(set(pile)))
    else:  # a target to choose
        out.extend(("target", c) for c in candidates(s, f, e))
    if e.optional:
        out.append(("skip",))
    return out


def _place_squares(s: EpicState, char: int, where: str) -> tuple[int, ...]:
    if where == "anywhere":
        return empty_squares(s)
    near: set[int] = set()
    for i, sq in enumerate(s.square):
        if sq != -1 and i != char:
            near.update(empty_around(s, sq))
    return tuple(sorted(near))


def _request_options(s: EpicState) -> list:
    kind, asked, asker, amount, _positions = s.request
    hand = tuple(c.value for c in s.hands[asked])
    if kind in ("random", "all", "match", "show"):
        return [("show",)]
    skip = [("skip",)] if kind != "trim" and asked == asker and current(s)[1].optional else []
    if kind in ("owner", "trim"):
        return [("discard", m) for m in multisets(hand, min(amount, len(hand)))] + skip
    if kind == "keep":
        return [("keep", m) for m in multisets(hand, amount)] + skip
    if kind == "backs":
        backs = s.backs[asked]
        return [("backs", m) for m in multisets(backs, min(amount, len(backs)))]
    if kind == "pick":
        whose, cards = s.seen[asked][:2]
        values = tuple(c.value for c in cards)
        return [("pick", m) for m in multisets(values, min(amount, len(values)))]
    if kind == "top":
        _, cards = s.seen[asked][:2]
        values = tuple(c.value for c in cards)
        out = []
        for k in sorted(set(values)):
            rest = list(values)
            rest.remove(k)
            out.extend(("take", k, order) for order in sorted(set(_orders(tuple(rest)))))
        return out
    raise AssertionError(kind)


def _orders(cards: tuple) -> list:
    from itertools import permutations

    return list(permutations(cards))


def multisets(values: tuple, n: int) -> list:
    """The distinct ways to choose ``n`` of ``values`` (cards as sorted tuples)."""
    from itertools import combinations

    return sorted(set(combinations(sorted(values), n)))


def positions_of(hand, cards) -> tuple[int, ...]:
    """Hand positions of ``cards`` (first matches), highest first."""
    left = list(cards)
    out = []
    for i, c in enumerate(hand):
        if c.value in left:
            left.remove(c.value)
            out.append(i)
    return tuple(sorted(out, reverse=True))


# ---------------------------------------------------------------------------------- running
def _targeted(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    if _needs_opponent(s, f, e):
        return _choose_opponent(t, f)
    found = candidates(s, f, e)
    if not found:
        _next(t, f, done=False, chosen=())
        return False
    if e.target.each or e.target.who in ("self", "opposing", "chosen"):
        _apply(t, f, e, found)
        return False
    if len(found) == 1 and not e.optional:
        _apply(t, f, e, found)
        return False
    return _ask(t, f.seat)


def _choose_opponent(t: Table, f: Frame) -> bool:
    s = t.state
    opp = opponents(s, f.seat)
    if len(opp) == 1:
        t.emit(StepDone(f._replace(player=opp[0])))
        return False
    return _ask(t, f.seat)


def _apply(t: Table, f: Frame, e, chars) -> None:
    """Carry out a targeted verb on ``chars`` (with ``and_adjacent``: their neighbours too)."""
    s = t.state
    chars = tuple(chars)
    if e.target.and_adjacent:
        extra = [i for c in chars for i in around(s, c) if i not in chars]
        chars = chars + tuple(dict.fromkeys(extra))
    verb = e.verb
    if verb == "damage":
        amount = value(s, f, e.amount)
        for c in chars:
            _flow.hurt(t, c, amount)
    elif verb == "heal":
        amount = value(s, f, e.amount)
        for c in chars:
            _flow.heal(t, c, amount)
    elif verb == "destroy":
        for c in chars:
            _flow.destroy(t, c)
    elif verb == "immobilize":
        for c in chars:
            if t.state.alive(c):
                t.emit(Held(c, e.release))
    elif verb == "swap":
        for c in chars[:1]:
            a, b = t.state.square[f.me], t.state.square[c]
            t.emit(Placed(f.me, b))
            t.emit(Placed(c, a))
    if not t.state.over:
        _next(t, t.state.stack[0], chosen=chars)


def _move(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    left = [c for c in candidates(s, f, e) if c not in f.done]
    if not left:
        _next(t, f, done=bool(f.done), chosen=f.done)
        return False
    return _ask(t, f.seat)


def _place(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    found = candidates(s, f, e)
    if not any(_place_squares(s, c, e.where) for c in found):
        _next(t, f, done=False, chosen=())
        return False
    return _ask(t, f.seat)


def _draw(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    if _needs_opponent(s, f, e):
        return _choose_opponent(t, f)
    amount = value(s, f, e.amount)
    for p in players(s, f, e):
        _flow.draw(t, p, amount, draw_group(s, f, p))
    if not t.state.over:
        _next(t, t.state.stack[0])
    return False


def draw_group(s: EpicState, f: Frame, p: int) -> int:
    """The pile a card makes ``p`` draw from: the card's own deck for its player; another
    player's first group that still has a character on the board (Master Play's choice)."""
    rs = s.roster
    if p == f.seat and rs.group_seat[rs.card_group[f.card]] == p:
        return rs.card_group[f.card]
    groups = rs.groups_of(p)
    for g in groups:
        if any(s.square[c] != -1 for c in rs.chars_of_group(g)):
            return g
    return groups[0]


def _penalty(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    if _needs_opponent(s, f, e):
        return _choose_opponent(t, f)
    for p in players(s, f, e):
        if e.verb == "lose-actions":
            t.emit(Penalised(p, value(s, f, e.amount), False))
        else:
            t.emit(Penalised(p, 0, True))
    _next(t, t.state.stack[0])
    return False


def _reshuffle(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    rng = t.rng
    group = s.roster.card_group[f.card]
    cards = tuple(c.value for c in s.piles[group]) + s.discards[group]
    t.emit(PileReshuffled(group, tuple(rng.secret(c) for c in rng.shuffled(cards))))
    _next(t, t.state.stack[0])
    return False


def _search(t: Table, f: Frame, e, actor: int) -> bool:
    s = t.state
    seat = f.seat
    group = s.roster.card_group[f.card]  # the card's own deck (Master Play: Future Foreseen
    # looks through the Emperor's pile only)
    if e.pile == "discard":
        if not s.discards[group]:
            _next(t, f, done=False)
            return False
        return _ask(t, seat)
    pile = s.piles[group]  # face down to everyone: the table's own cards, dealt by the engine
    rng = t.rng
    if e.top is not None:
        if not pile:
            _next(t, f, done=False)
            return False
        top = tuple(rng.secret(c.value, seats_mask(seat)) for c in pile[: e.top])
        t.emit(PileSeen(seat, group, top))
        return _ask(t, seat, ("top", seat, seat, 1, ()))
    names = [s.roster.cards[c.value].name for c in pile]
    found = e.named in names
    if found:
        i = names.index(e.named)
        t.emit(CardTaken(seat, group, 0, i, rng.secret(pile[i].value, seats_mask(seat))))
    rest = t.state.piles[group]
    t.emit(PileSet(group, tuple(rng.secret(c) for c in rng.shuffled([c.value for c in rest]))))
    _next(t, t.state.stack[0], done=found)
    return False


def _discard(t: Table, f: Frame, e, actor: int) -> bool:
    """Each named player in turn (``f.done`` holds the seats finished)."""
    s = t.state
    if _needs_opponent(s, f, e):
        return _choose_opponent(t, f)
    for p in players(s, f, e):
        if p in f.done:
            continue
        hand = s.hands[p]
        request = _discard_request(t, f, e, p)
        if request is None or not hand:
            f = f._replace(done=f.done + (p,))
            t.emit(StepDone(f))
            s = t.state
            continue
        kind = request[0]
        if actor == p and kind in ("random", "all", "match"):
            _discard_shown(t, request)  # the actor's own hand: no need to ask
            f = t.state.stack[0]._replace(done=f.done + (p,))
            t.emit(StepDone(f))
            s = t.state
            continue
        return _ask(t, f.seat if kind == "backs" else p, request)
    _next(t, f, done=True)
    return False


def _discard_request(t: Table, f: Frame, e, p: int) -> tuple | None:
    """What ``p`` is asked to do for a discard step (None: nothing to discard)."""
    s = t.state
    hand = s.hands[p]
    if e.keep is not None:
        if len(hand) <= e.keep:
            return None
        return ("all", p, f.seat, 0, ()) if e.keep == 0 else ("keep", p, f.seat, e.keep, ())
    if e.matching is not None:
        return ("match", p, f.seat, 0, ())
    n = min(value(s, f, e.amount), len(hand))
    if n == 0:
        return None
    if e.pick == "random":
        if len(set(s.backs[p])) > 1:  # Master Play: the card's player sees the backs and
            return ("backs", p, f.seat, n, ())  # chooses the group of each card
        return ("random", p, f.seat, n, random_positions(t, s.backs[p], s.backs[p][:1] * n))
    if e.pick == "owner" or p == f.seat:
        return ("owner", p, f.seat, n, ())
    return ("show", p, f.seat, n, ())


def random_positions(t: Table, backs: tuple, groups) -> tuple[int, ...]:
    """Hand positions picked by the engine's randomness: one card with each of the given backs
    (highest position first)."""
    left = list(range(len(backs)))
    chosen = []
    for g in groups:
        pool = [i for i in left if backs[i] == g]
        i = pool[t.rng.randbelow(len(pool))]
        left.remove(i)
        chosen.append(i)
    return tuple(sorted(chosen, reverse=True))


def matches(card, m) -> bool:
    if m.kind is not None:
        return card.kind == m.kind
    a = card.attack
    return a is not None and a.quantity is None and a.base > m.attack_above


def _discard_shown(t: Table, request: tuple) -> None:
    """The asked seat's own decision: turn over the cards the request names."""
    kind, p, asker, _n, positions = request
    s = t.state
    hand = s.hands[p]
    if kind == "all":
        positions = tuple(range(len(hand) - 1, -1, -1))
    elif kind == "match":
        cards = s.roster.cards
        if asker != p:
            copies = tuple(t.rng.secret(c.value, seats_mask(asker)) for c in hand)
            t.emit(HandShown(p, asker, copies))
        positions = tuple(
            i for i in range(len(hand) - 1, -1, -1) if matches(cards[hand[i].value], _matching(t))
        )
    if positions:
        t.emit(Discarded(p, positions, tuple(t.reveal(hand[i]) for i in positions)))


def _matching(t: Table):
    f, e = current(t.state)
    return e.matching


_RUN = {
    "damage": _targeted,
    "heal": _targeted,
    "destroy": _targeted,
    "immobilize": _targeted,
    "swap": _targeted,
    "move": _move,
    "place": _place,
    "draw": _draw,
    "lose-actions": _penalty,
    "forbid-draw": _penalty,
    "reshuffle": _reshuffle,
    "search": _search,
    "discard": _discard,
}


# ---------------------------------------------------------------------------------- answers
def answer(t: Table, seat: int, command) -> None:
    """Finish the step the choice was asked for (the command is one of ``options``)."""
    s = t.state
    word = command[0]
    if s.request:
        _answer_request(t, seat, command)
        return
    f, e = current(s)
    if word == "choose":
        t.emit(StepDone(f._replace(player=command[1])))
    elif word == "skip":
        _next(t, f, done=False, chosen=())
    elif word == "target":
        _apply(t, f, e, (command[1],))
    elif word == "move":
        _, char, goal = command
        t.emit(Moved(char, path(s, char, goal, e.squares)))
        f = t.state.stack[0]
        if e.target.each:
            t.emit(StepDone(f._replace(done=f.done + (char,))))
        else:
            _next(t, f, chosen=(char,))
    elif word == "done":
        _next(t, f, done=bool(f.done), chosen=f.done)
    elif word == "place":
        _, char, square = command
        t.emit(Placed(char, square))
        _next(t, t.state.stack[0], chosen=(char,))
    elif word == "take":  # from the discard pile of the card's deck
        group = s.roster.card_group[f.card]
        pile = s.discards[group]
        secret = t.rng.secret(command[1], seats_mask(seat))
        t.emit(CardTaken(seat, group, 1, pile.index(command[1]), secret))
        _next(t, t.state.stack[0])


def _answer_request(t: Table, seat: int, command) -> None:
    s = t.state
    kind, p, asker, n, positions = s.request
    word = command[0]
    t.emit(Asked(()))
    if word == "skip":
        _next(t, t.state.stack[0], done=False)
        return
    if kind == "trim":
        hand = s.hands[p]
        pos = positions_of(hand, command[1])
        t.emit(Discarded(p, pos, tuple(t.reveal(hand[i]) for i in pos)))
        return
    f = t.state.stack[0]
    if word == "show" and kind == "show":
        hand = s.hands[p]
        copies = tuple(t.rng.secret(c.value, seats_mask(asker)) for c in hand)
        t.emit(HandShown(p, asker, copies))
        t.emit(Asked(("pick", asker, asker, n, ())))
        t.emit(Awaiting(EFFECT, (asker,)))
        return
    if word == "backs":
        positions = random_positions(t, s.backs[p], command[1])
        t.emit(Asked(("random", p, asker, n, positions)))
        t.emit(Awaiting(RESPOND, (p,)))
        return
    if word == "show":
        _discard_shown(t, (kind, p, asker, n, positions))
    elif word in ("discard", "keep"):
        hand = s.hands[p]
        if word == "keep":  # the cards kept are the first matches; the rest are discarded
            kept = set(positions_of(hand, command[1]))
            pos = tuple(i for i in range(len(hand) - 1, -1, -1) if i not in kept)
        else:
            pos = positions_of(hand, command[1])
        t.emit(Discarded(p, pos, tuple(t.reveal(hand[i]) for i in pos)))
    elif word == "pick":
        whose, copies = s.seen[seat][:2]
        pos = positions_of(copies, command[1])
        t.emit(Discarded(whose, pos, tuple(t.reveal(copies[i]) for i in pos)))
        p = whose
    elif word == "take":  # from the top of the draw pile, the rest back in the order given
        _, k, order = command
        _, top = s.seen[seat][:2]
        i = [c.value for c in top].index(k)
        rng = t.rng
        group = -1 - s.seen[seat][0]
        t.emit(CardTaken(seat, group, 0, i, rng.secret(k, seats_mask(seat))))
        rest = t.state.piles[group][len(order) :]
        t.emit(PileSet(group, tuple(rng.secret(c) for c in order) + rest))
        _next(t, t.state.stack[0])
        return
    f = t.state.stack[0]
    t.emit(StepDone(f._replace(done=f.done + (p,))))
