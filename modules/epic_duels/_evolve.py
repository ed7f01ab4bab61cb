"""``evolve``: how each event changes the table (``Fold`` handlers, one per event of ``EVENTS``).

Pure functions of the state and one event: the table, the loader and the referee all fold with
``evolve``, and it never fails on an event ``_decide`` made.
"""

from __future__ import annotations

from boardstate.rules import Fold

from ._roster import roster_of
from ._state import (
    EVENTS,
    NO_CARD,
    NOWHERE,
    OVER,
    ActionsChanged,
    Asked,
    AttackDeclared,
    AttackShown,
    Awaiting,
    CardDrawn,
    CardPlayed,
    CardResolved,
    CardsDrawn,
    CardsLookedAt,
    CardTaken,
    CastChosen,
    CombatEnded,
    Damaged,
    Defended,
    Destroyed,
    Discarded,
    Eliminated,
    EpicState,
    Frame,
    GameEnded,
    HandShown,
    Healed,
    Held,
    LaidFaceDown,
    LookedCardTaken,
    Moved,
    NotDefended,
    OrderRolled,
    Penalised,
    PileGoneThrough,
    PileReshuffled,
    PileSeen,
    PileSet,
    PilesShuffled,
    Placed,
    Released,
    Resolving,
    StepDone,
    TurnBegan,
    put,
    without,
)

FOLD = Fold(EVENTS)


def _from_hand(s: EpicState, seat: int, positions) -> EpicState:
    """The cards at ``positions`` leave ``seat``'s hand (and their backs with them)."""
    return s._replace(
        hands=put(s.hands, seat, without(s.hands[seat], positions)),
        backs=put(s.backs, seat, without(s.backs[seat], positions)),
    )


def _to_discard(s: EpicState, cards) -> EpicState:
    """Face-up cards onto the discard piles of their decks."""
    group_of = s.roster.card_group
    discards = s.discards
    for c in cards:
        g = group_of[c]
        discards = put(discards, g, discards[g] + (c,))
    return s._replace(discards=discards)


@FOLD.on(CastChosen)
def _cast(s: EpicState, e: CastChosen) -> EpicState:
    rs = roster_of(dict(s.options), e.cast, s.revision)
    chars, groups, seats = len(rs.chars), len(rs.teams), len(s.players)
    return s._replace(
        roster=rs,
        square=(NOWHERE,) * chars,
        damage=(0,) * chars,
        held=(0,) * chars,
        hands=((),) * seats,
        backs=((),) * seats,
        piles=((),) * groups,
        discards=((),) * groups,
        passes=(0,) * groups,
        out=(False,) * seats,
        no_draw=(False,) * seats,
        lost=(0,) * seats,
        seen=((),) * seats,
    )


@FOLD.on(PilesShuffled)
def _shuffled(s: EpicState, e: PilesShuffled) -> EpicState:
    return s._replace(piles=e.piles)


@FOLD.on(OrderRolled)
def _order(s: EpicState, e: OrderRolled) -> EpicState:
    return s._replace(order=e.order)


@FOLD.on(Placed)
def _placed(s: EpicState, e: Placed) -> EpicState:
    return s._replace(square=put(s.square, e.char, e.square))


@FOLD.on(CardsDrawn)
def _drawn(s: EpicState, e: CardsDrawn) -> EpicState:
    n = len(e.cards)
    return s._replace(
        piles=put(s.piles, e.group, s.piles[e.group][n:]),
        hands=put(s.hands, e.seat, s.hands[e.seat] + e.cards),
        backs=put(s.backs, e.seat, s.backs[e.seat] + (e.group,) * n),
    )


@FOLD.on(CardDrawn)
def _card_drawn(s: EpicState, e: CardDrawn) -> EpicState:
    g = e.group
    return s._replace(
        piles=put(s.piles, g, without(s.piles[g], (e.index,))),
        hands=put(s.hands, e.seat, s.hands[e.seat] + (e.card,)),
        backs=put(s.backs, e.seat, s.backs[e.seat] + (g,)),
    )


@FOLD.on(CardsLookedAt)
def _looked_at(s: EpicState, e: CardsLookedAt) -> EpicState:
    pile = list(s.piles[e.group])
    for i in e.positions:
        del pile[i]
    return s._replace(
        piles=put(s.piles, e.group, tuple(pile)), seen=put(s.seen, e.seat, (-1 - e.group, e.cards))
    )


@FOLD.on(LookedCardTaken)
def _looked_taken(s: EpicState, e: LookedCardTaken) -> EpicState:
    whose, cards = s.seen[e.seat][:2]
    g = -1 - whose
    s = s._replace(seen=put(s.seen, e.seat, ()))
    if e.index < 0:
        return s._replace(piles=put(s.piles, g, s.piles[g] + cards))
    return s._replace(
        hands=put(s.hands, e.seat, s.hands[e.seat] + (cards[e.index],)),
        backs=put(s.backs, e.seat, s.backs[e.seat] + (g,)),
        piles=put(s.piles, g, s.piles[g] + cards[: e.index] + cards[e.index + 1 :]),
    )


@FOLD.on(PileGoneThrough)
def _gone_through(s: EpicState, e: PileGoneThrough) -> EpicState:
    return s._replace(passes=put(s.passes, e.group, e.passes))


@FOLD.on(PileReshuffled)
def _reshuffled(s: EpicState, e: PileReshuffled) -> EpicState:
    return s._replace(piles=put(s.piles, e.group, e.cards), discards=put(s.discards, e.group, ()))


@FOLD.on(Awaiting)
def _awaiting(s: EpicState, e: Awaiting) -> EpicState:
    if s.phase == e.phase and s.queue == e.seats:  # (asked again: the same state, not a copy)
        return s
    return s._replace(phase=e.phase, queue=e.seats)


@FOLD.on(TurnBegan)
def _turn_began(s: EpicState, e: TurnBegan) -> EpicState:
    return s._replace(
        turn=e.seat,
        turns=s.turns + 1,
        die=e.die,
        moved=(),
        actions=e.actions,
        draw_barred=s.no_draw[e.seat],
        no_draw=put(s.no_draw, e.seat, False),
        lost=put(s.lost, e.seat, 0),
        seen=((),) * len(s.seen),
    )


@FOLD.on(Moved)
def _moved(s: EpicState, e: Moved) -> EpicState:
    return s._replace(square=put(s.square, e.char, e.path[-1]), moved=s.moved + (e.char,))


@FOLD.on(Discarded)
def _discarded(s: EpicState, e: Discarded) -> EpicState:
    s = _from_hand(s, e.seat, e.positions)
    return _to_discard(s, tuple(c.value for c in e.cards))


@FOLD.on(Healed)
def _healed(s: EpicState, e: Healed) -> EpicState:
    return s._replace(damage=put(s.damage, e.char, s.damage[e.char] - e.amount))


@FOLD.on(Damaged)
def _damaged(s: EpicState, e: Damaged) -> EpicState:
    return s._replace(damage=put(s.damage, e.char, s.damage[e.char] + e.amount))


@FOLD.on(Destroyed)
def _destroyed(s: EpicState, e: Destroyed) -> EpicState:
    return s._replace(square=put(s.square, e.char, NOWHERE), held=put(s.held, e.char, 0))


@FOLD.on(AttackDeclared)
def _declared(s: EpicState, e: AttackDeclared) -> EpicState:
    return s._replace(combat=(e.attacker, e.defender, NO_CARD, NO_CARD))


@FOLD.on(LaidFaceDown, NotDefended)
def _unchanged(s: EpicState, e) -> EpicState:
    return s  # nothing the state holds changes (a face-down card is the engine's to keep)


@FOLD.on(Defended)
def _defended(s: EpicState, e: Defended) -> EpicState:
    attacker, defender, _, attack = s.combat
    s = _from_hand(s, e.seat, (e.pos,))
    return s._replace(combat=(attacker, defender, e.card.value, attack))


@FOLD.on(AttackShown)
def _shown(s: EpicState, e: AttackShown) -> EpicState:
    attacker, defender, defence, _ = s.combat
    s = _from_hand(s, e.seat, (e.pos,))
    return s._replace(
        actions=s.actions - (not e.free),
        combat=(attacker, defender, defence, e.card.value),
        last_combat=(attacker, defender, e.attack, e.defence, s.turns),
    )


@FOLD.on(CombatEnded)
def _combat_ended(s: EpicState, e: CombatEnded) -> EpicState:
    """Both played cards go to their decks' discard piles."""
    _, _, defence, attack = s.combat
    s = _to_discard(s, (attack,) if defence == NO_CARD else (attack, defence))
    return s._replace(combat=())


@FOLD.on(CardPlayed)
def _played(s: EpicState, e: CardPlayed) -> EpicState:
    s = _from_hand(s, e.seat, (e.pos,))
    return s._replace(actions=s.actions - (not e.free))


@FOLD.on(Resolving)
def _resolving(s: EpicState, e: Resolving) -> EpicState:
    return s._replace(stack=tuple(Frame(*f) for f in e.frames) + s.stack)


@FOLD.on(StepDone)
def _step_done(s: EpicState, e: StepDone) -> EpicState:
    return s._replace(stack=(Frame(*e.frame),) + s.stack[1:])


@FOLD.on(CardResolved)
def _card_resolved(s: EpicState, e: CardResolved) -> EpicState:
    frame = s.stack[0]
    s = s._replace(stack=s.stack[1:])
    if frame.combat:  # a power combat card: discarded when the combat ends
        return s
    return _to_discard(s, (frame.card,))


@FOLD.on(Asked)
def _asked(s: EpicState, e: Asked) -> EpicState:
    return s._replace(request=e.request)


@FOLD.on(HandShown)
def _hand_shown(s: EpicState, e: HandShown) -> EpicState:
    return s._replace(seen=put(s.seen, e.to, (e.seat, e.cards)))


@FOLD.on(Held)
def _held(s: EpicState, e: Held) -> EpicState:
    return s._replace(held=put(s.held, e.char, e.release))


@FOLD.on(Released)
def _released(s: EpicState, e: Released) -> EpicState:
    return s._replace(held=put(s.held, e.char, 0))


@FOLD.on(Penalised)
def _penalised(s: EpicState, e: Penalised) -> EpicState:
    return s._replace(
        lost=put(s.lost, e.seat, s.lost[e.seat] + e.lose),
        no_draw=put(s.no_draw, e.seat, s.no_draw[e.seat] or e.no_draw),
    )


@FOLD.on(CardTaken)
def _taken(s: EpicState, e: CardTaken) -> EpicState:
    g = e.group
    if e.pile == 0:
        s = s._replace(piles=put(s.piles, g, without(s.piles[g], (e.index,))))
    else:
        s = s._replace(discards=put(s.discards, g, without(s.discards[g], (e.index,))))
    return s._replace(
        hands=put(s.hands, e.seat, s.hands[e.seat] + (e.card,)),
        backs=put(s.backs, e.seat, s.backs[e.seat] + (g,)),
    )


@FOLD.on(PileSet)
def _pile_set(s: EpicState, e: PileSet) -> EpicState:
    seat = s.roster.group_seat[e.group]
    return s._replace(piles=put(s.piles, e.group, e.cards), seen=put(s.seen, seat, ()))


@FOLD.on(ActionsChanged)
def _actions(s: EpicState, e: ActionsChanged) -> EpicState:
    return s._replace(actions=e.actions)


@FOLD.on(PileSeen)
def _pile_seen(s: EpicState, e: PileSeen) -> EpicState:
    return s._replace(seen=put(s.seen, e.seat, (-1 - e.group, e.cards)))


@FOLD.on(GameEnded)
def _ended(s: EpicState, e: GameEnded) -> EpicState:
    return s._replace(phase=OVER, queue=(), end_reason=e.reason, winners=e.winners)


@FOLD.on(Eliminated)
def _eliminated(s: EpicState, e: Eliminated) -> EpicState:
    square = s.square
    for i in s.roster.chars_of(e.seat):
        square = put(square, i, NOWHERE)
    return s._replace(square=square, out=put(s.out, e.seat, True))


evolve = FOLD.evolver()
