"""``determinize``: a table consistent with what one seat sees, for bots (and OpenSpiel's
``resample_from_infostate``).

Each deck is its own multiset: a hidden card is drawn from the cards of its group's deck that
no public place holds (discard piles, the combat's cards, cards being resolved) and the seat's
own cards do not account for; a hand card's group is on its back (``backs``).  A hand the seat
was shown (``seen``) keeps the cards it showed.  An attack card laid face down by another seat
is guessed from the cards that seat could have laid, in a deal that holds at least one (an
attack declared, its card not laid yet, wants such a deal too).
"""

from __future__ import annotations

from collections import Counter

from boardstate.rules import UNKNOWN, Determinized, Secret

from ._legal import lay_cards
from ._state import DEFEND, LAY, NO_CARD, TURN, EpicState

TRIES = 64  # deals tried for one that lets the face-down attack card be one the attacker held


def determinize(s: EpicState, seat: int, rng) -> Determinized:
    if s.roster is None:
        return Determinized(s, {})
    attacker, laid = _attacker(s, seat)
    for _ in range(TRIES):
        made = _deal(s, seat, rng)
        if attacker < 0:
            return Determinized(made, {})
        cards = lay_cards(made, attacker)
        if cards:
            return Determinized(made, {attacker: ("lay", rng.choice(cards))} if laid else {})
    raise ValueError("no deal of the hidden cards lets the attacker hold an attack card")


def _attacker(s: EpicState, seat: int) -> tuple[int, bool]:
    """The other seat that has declared an attack (-1: none), and whether its attack card
    lies face down already: its hand held a card it could lay."""
    if not s.combat or s.combat[3] != NO_CARD or s.phase not in (LAY, DEFEND, TURN):
        return -1, False
    attacker = s.roster.seat_of[s.combat[0]]
    return (attacker, s.phase != LAY) if attacker != seat else (-1, False)


def _left(s: EpicState) -> list[Counter]:
    """Per group: the deck's cards that no public place and no known secret holds."""
    rs = s.roster
    left = [Counter(d) for d in rs.decks]
    group = rs.card_group
    for g, pile in enumerate(s.discards):
        left[g].subtract(pile)
    in_play = [k for k in s.combat[2:4] if k != NO_CARD] if s.combat else []
    in_play += [f.card for f in s.stack if not f.combat]
    for k in in_play:
        left[group[k]][k] -= 1
    for cards in (*s.hands, *s.piles, *(x[1] for x in s.seen if x and x[0] < 0)):
        for c in cards:
            if c.value is not UNKNOWN:
                left[group[c.value]][c.value] -= 1
    return left


def _deal(s: EpicState, seat: int, rng) -> EpicState:
    left = _left(s)
    pinned = _pinned(s, seat, left)
    pools = [list(c.elements()) for c in left]
    for pool in pools:
        rng.shuffle(pool)

    def fill(cards, groups, pins=None):
        if all(c.value is not UNKNOWN for c in cards):
            return cards
        out = []
        for i, c in enumerate(cards):
            if c.value is UNKNOWN:
                value = pins[i] if pins is not None else pools[groups[i]].pop()
                c = Secret(c.commitment, c.owners, value, b"")
            out.append(c)
        return tuple(out)

    hands = tuple(fill(h, s.backs[x], pinned.get(x)) for x, h in enumerate(s.hands))
    piles = tuple(fill(p, (g,) * len(p)) for g, p in enumerate(s.piles))
    seen = []
    for x in s.seen:
        if x and x[0] < 0:
            x = (x[0], fill(x[1], (-1 - x[0],) * len(x[1])))
        elif x:  # copies of a hand: its cards, in order
            shown = hands[x[0]]
            copies = [c.value for c in shown] if len(shown) == len(x[1]) else None
            if copies is None:
                copies = [rng.choice(shown).value if shown else NO_CARD for _ in x[1]]
            x = (x[0], fill(x[1], (), copies))
        seen.append(x)
    if any(pools):
        raise ValueError("the hidden cards and the cards left of the decks do not match")
    return s._replace(hands=hands, piles=piles, seen=tuple(seen))


def _pinned(s: EpicState, seat: int, left: list[Counter]) -> dict:
    """A hand shown to ``seat`` (its own copies, in order): that hand holds those cards, if
    they still fit it."""
    x = s.seen[seat] if s.seen else ()
    if not x or x[0] < 0 or x[0] == seat:
        return {}
    whose, copies = x
    hand = s.hands[whose]
    if len(hand) != len(copies) or any(c.value is UNKNOWN for c in copies):
        return {}
    need = Counter((s.backs[whose][i], c.value) for i, c in enumerate(copies) if not hand[i].known)
    group = s.roster.card_group
    if any(group[k] != g or left[g][k] < n for (g, k), n in need.items()):
        return {}
    for (g, k), n in need.items():
        left[g][k] -= n
    return {whose: [c.value for c in copies]}
