"""Card effects: one interpreter for the effect vocabulary of the data files, no code per card.

A card being resolved is a ``Frame`` on the state's stack; its steps run in order.  A step that
needs nobody's choice is carried out at once; one that needs a choice asks (``EFFECT`` for the
card's player, ``RESPOND`` for a player whose hand it touches) and the answer finishes the step.
``options(s)`` lists the commands the current choice allows: the rules state each choice once,
and ``legal``, the bots and ``answer`` all read it from here.

A draw pile belongs to its player (``Rng.arrange``) and has no top: "the top N cards" are N
cards drawn for a look at random positions, a search of the draw pile is a look at all of it,
and the player takes a card by its place among the cards looked at (``take 2``), so that every
copy can carry the choice out without knowing the cards.  Moving a pile's secret is done by any
copy; reading one, only by its owner's copy, and never after randomness in the same decision.

Likewise a step about a hidden hand is answered by the hand's owner naming the cards it turns
over (``discard C1, C2``: every card of a kind, or all but the cards Anger keeps), and the
record turns over exactly those.  Every player's copy re-runs the decision with the openings
the record brings and reads no card that stays face down; only the owner's copy can say
whether the answer was the right one (``options`` needs the hand).
"""

from __future__ import annotations

from boardstate.rules import UNKNOWN, SecretUnavailable, Table, seats_mask

from . import _flow
from ._combat import holds, value
from ._multisets import multisets
from ._space import MovesOf, around, attackable, empty_around, empty_squares, path, reachable_bits
from ._state import (
    EFFECT,
    RESPOND,
    Asked,
    Awaiting,
    CardResolved,
    CardsLookedAt,
    CardTaken,
    Discarded,
    EpicState,
    Frame,
    HandShown,
    Held,
    LookedCardTaken,
    Moved,
    Penalised,
    PileReshuffled,
    Placed,
    StepDone,
    values_of,
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
    side = tg.side
    if side == "any" and e.verb == "damage" and who == "any" and not rs.own_damage:
        side = "enemy"  # (option own-damage: "any one character" means an enemy one)
    if side == "enemy" or (side == "one-opponent" and f.player >= 0):
        seat_of = rs.seat_of
        if side == "enemy":
            found = [i for i in found if not rs.same_side(seat_of[i], f.seat)]
        else:
            found = [i for i in found if seat_of[i] == f.player]
    if e.verb == "move":
        found = [i for i in found if not s.held[i]]
    return tuple(found)


def opponents(s: EpicState, seat: int) -> tuple[int, ...]:
    """The players of the other sides still in the game, in playing order."""
    rs = s.roster
    return tuple(p for p in s.order if not rs.same_side(p, seat) and _flow.in_play(s, p))


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
            out.extend(_goals(s, f, e, c))
        out.append(("done",))
        return out
    if verb == "place":
        for c in candidates(s, f, e):
            out.extend(_goals(s, f, e, c))
    elif verb == "search":  # (the discard pile: a draw pile is looked at, request 'look')
        group = s.roster.card_group[f.card]
        out.extend(("take", k, ()) for k in sorted(set(s.discards[group])))
    else:  # a target to choose
        out.extend(("target", c) for c in candidates(s, f, e))
    if e.optional:
        out.append(("skip",))
    return out


def _goals(s: EpicState, f: Frame, e, char: int):
    """The moves (or placings) of one of a move's (or a placing's) characters, a sequence (a
    move's: ``MovesOf``, its squares' bitmask)."""
    if e.verb == "move":
        if char in f.done:
            return []
        return MovesOf(char, reachable_bits(s, char, e.squares))
    return [("place", char, sq) for sq in _place_squares(s, char, e.where)]


def is_option(s: EpicState, command) -> bool:
    """``command in options(s)``; a move or a placing from the one character it names (the
    referee checks every command of a log)."""
    if (
        s.request
        or type(command) is not tuple
        or len(command) != 3
        or command[0] not in ("move", "place")
    ):
        return command in options(s)
    f, e = current(s)
    if _needs_opponent(s, f, e) or e.verb != command[0]:
        return False  # (the options then hold no move, or no placing)
    for c in candidates(s, f, e):
        if c == command[1]:
            return command in _goals(s, f, e, c)
    return False


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
    if kind in ("random", "all", "show"):
        return [("show",)]
    if kind == "look":
        return look_options(s, asked)
    if kind == "backs":  # (the asker chooses from the backs, which everyone sees)
        backs = s.backs[asked]
        return [("backs", m) for m in multisets(backs, min(amount, len(backs)))]
    if kind == "pick":
        whose, cards = s.seen[asked][:2]
        values = values_of(cards, s, asked, "cards shown")
        return [("pick", m) for m in multisets(values, min(amount, len(values)))]
    hand = values_of(s.hands[asked], s, asked)  # (the owner's copy alone can say)
    if kind == "match":  # every matching card, named: the answer says what is turned over
        cards = s.roster.cards
        m = current(s)[1].matching
        found = tuple(sorted(v for v in hand if matches(cards[v], m)))
        return [("discard", found)] if found else [("show",)]
    skip = [("skip",)] if kind != "trim" and asked == asker and current(s)[1].optional else []
    if kind in ("owner", "trim"):
        return [("discard", m) for m in multisets(hand, min(amount, len(hand)))] + skip
    if kind == "keep":  # the cards discarded, named (``keep C`` is read as this at the
        # owner's copy): the record turns them face up and does not name the cards kept
        return [("discard", rest(hand, m)) for m in multisets(hand, amount)] + skip
    raise AssertionError(kind)


def rest(values: tuple, kept) -> tuple:
    """``values`` less one of each of ``kept`` (sorted); ValueError if one is not there."""
    left = list(values)
    for v in kept:
        left.remove(v)
    return tuple(sorted(left))


def look_options(s: EpicState, seat: int) -> list:
    """Take one of the cards looked at, by its place among them (``("take", i, ())``): any of
    them, or only the card the step names (none there: ``skip``; an optional step may be
    skipped anyway).  Only the named card's test needs the cards' faces."""
    f, e = current(s)
    cards = s.seen[seat][1]
    if e.named is None:
        out = [("take", i, ()) for i in range(len(cards))]
    else:
        names = s.roster.cards
        faces = values_of(cards, s, seat, "cards looked at")
        out = [("take", i, ()) for i, k in enumerate(faces) if names[k].name == e.named]
    return out + [("skip",)] if e.optional or not out else out


def card_value(t: Table | None, card):
    """A hand card's value as this copy knows it: its own card, or one the record being made
    turns face up (its opening comes with the record); else UNKNOWN."""
    if card.known or t is None:
        return card.value
    try:
        return t.reveal(card).value
    except SecretUnavailable:
        return UNKNOWN


def positions_of(hand, cards, t: Table | None = None) -> tuple[int, ...]:
    """Hand positions of ``cards`` (first matches), highest first.  With ``t``, cards the
    record turns face up count as known (so another player's copy finds the cards a discard
    reveals); a card this copy cannot see raises ``SecretUnavailable``."""
    left = list(cards)
    out = []
    for i, c in enumerate(hand):
        v = card_value(t, c)
        if v in left:
            left.remove(v)
            out.append(i)
    if left:
        raise SecretUnavailable(
            "this copy of the game does not hold those cards", code="no-opening"
        )
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
    """The discard pile shuffled into the draw pile: the discards are arranged for the pile's
    player and join its secrets (draws are at random positions, so they need no new order)."""
    s = t.state
    group = s.roster.card_group[f.card]
    pile = s.piles[group] + _flow.arranged(t, group, s.discards[group])
    t.emit(PileReshuffled(group, pile))
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
    pile = s.piles[group]  # the card's player's own secrets: moved here, never read
    if not pile:
        _next(t, f, done=False)
        return False
    if e.top is not None:  # "the top N": N cards drawn for a look, at random positions (each
        positions = []  # among the cards still there)
        for n in range(len(pile), max(0, len(pile) - e.top), -1):
            positions.append(t.rng.randbelow(n))
    else:  # a search: the player looks through the whole pile
        positions = [0] * len(pile)
    left = list(pile)
    cards = tuple(left.pop(i) for i in positions)
    t.emit(CardsLookedAt(seat, group, tuple(positions), cards))
    return _ask(t, seat, ("look", seat, seat, 1, ()))  # (then the rest go back: no shuffle
    # is needed, as every draw is at a random position)


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
        if actor == p and kind in ("all", "match"):
            _discard_shown(t, request)  # the actor's own hand: no need to ask (a random pick
            # is asked even so: its owner's copy turns over what randomness picked, and in
            # the peer mode only a later decision of theirs can)
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
    """Turn over the cards the request names: the positions picked at random, the whole hand,
    or every matching card.

    Every copy decides it alike without reading a card the record keeps face down.  A match
    reads the hand's cards as this copy knows them (``card_value``): the owner's copy knows
    them all and turns over every matching one; another copy knows only the cards the record
    itself turns over (their openings come with it), and finds the same positions.  A card it
    cannot see is one the record leaves face down: not a match, unless the owner's record is
    false, which the end-of-game audit finds."""
    kind, p, asker, _n, positions = request
    s = t.state
    hand = s.hands[p]
    if kind == "all":
        positions = tuple(range(len(hand) - 1, -1, -1))
    elif kind == "match":
        if asker != p:
            show_hand(t, p, asker)
        cards = s.roster.cards
        m = current(s)[1].matching
        seen = [card_value(t, c) for c in hand]
        positions = tuple(
            i
            for i in range(len(hand) - 1, -1, -1)
            if seen[i] is not UNKNOWN and matches(cards[seen[i]], m)
        )
    if positions:
        t.emit(Discarded(p, positions, tuple(t.reveal(hand[i]) for i in positions)))


def show_hand(t: Table, p: int, to: int) -> None:
    """``p``'s hand shown to ``to`` alone: copies that only ``to`` may open.  ``p``'s copy makes
    them from its cards; another copy, which cannot see them, takes their commitments from the
    record (in the peer mode, ``PeerRng.secret`` makes a stand-in there without the value, and
    the letter brings ``to`` the opening)."""
    hand = t.state.hands[p]
    copies = tuple(t.rng.secret(card_value(t, c), seats_mask(to)) for c in hand)
    t.emit(HandShown(p, to, copies))


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
    elif word == "take":  # from the discard pile of the card's deck: a face-up card, face
        group = s.roster.card_group[f.card]  # down in the hand (a one-card pile its taker's
        pile = s.discards[group]  # copy arranges: in the peer mode every copy folds its deal)
        (secret,) = t.rng.arrange((command[1],), seat)
        t.emit(CardTaken(seat, group, 1, pile.index(command[1]), secret))
        _next(t, t.state.stack[0])


def _answer_request(t: Table, seat: int, command) -> None:
    s = t.state
    kind, p, asker, n, positions = s.request
    word = command[0]
    t.emit(Asked(()))
    if kind == "look":  # the card taken by its place (no copy needs its face); the rest go
        taken = command[1] if word == "take" else -1  # back into the pile
        t.emit(LookedCardTaken(seat, taken))
        _next(t, t.state.stack[0], done=taken >= 0)
        return
    if word == "skip":
        _next(t, t.state.stack[0], done=False)
        return
    if kind == "trim":
        hand = s.hands[p]
        pos = positions_of(hand, command[1], t)
        t.emit(Discarded(p, pos, tuple(t.reveal(hand[i]) for i in pos)))
        return
    f = t.state.stack[0]
    if word == "show" and kind == "show":
        show_hand(t, p, asker)
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
    elif word == "discard":  # the cards named: found among those the record turns over (the
        # cards kept, by Anger, are never read; a match shows the hand first)
        if kind == "match" and asker != p:
            show_hand(t, p, asker)
        hand = t.state.hands[p]
        pos = positions_of(hand, command[1], t)
        if pos:
            t.emit(Discarded(p, pos, tuple(t.reveal(hand[i]) for i in pos)))
    elif word == "pick":
        whose, copies = s.seen[seat][:2]
        pos = positions_of(copies, command[1], t)
        t.emit(Discarded(whose, pos, tuple(t.reveal(copies[i]) for i in pos)))
        p = whose
    f = t.state.stack[0]
    t.emit(StepDone(f._replace(done=f.done + (p,))))
