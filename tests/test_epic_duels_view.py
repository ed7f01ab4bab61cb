"""Epic Duels' ``view``: what a seat may know of the table, made again for each state but kept
for a tuple of cards it has sealed before (a pile stays the same tuple from state to state, and
``log`` views every state): the same views as made afresh, for every seat and a spectator."""

from __future__ import annotations

import random

import boardstate as bs
from boardstate.modules.epic_duels import _rules


def _fresh_view(s, seat):
    """``view`` as it was written before the kept answers: every card sealed now."""

    def seal(cards, mine):
        return tuple(c if mine and c.owned_by(seat) else c.sealed() for c in cards)

    if s.roster is None:
        return s
    hands = tuple(seal(h, i == seat) for i, h in enumerate(s.hands))
    piles = tuple(seal(p, seat is not None) for p in s.piles)
    seen = tuple((x[0], seal(x[1], i == seat)) if x else () for i, x in enumerate(s.seen))
    return s._replace(hands=hands, piles=piles, seen=seen)


def test_the_views_of_every_state_are_the_views_made_afresh():
    module = bs.get_module("epic-duels")
    game = bs.Game.new(module, ["ann", "ben", "cy"], {}, seed=b"view", created="2026-01-01")
    pick = random.Random(3)
    for _ in range(150):
        if not game.to_act():
            break
        seat = game.to_act()[0]
        game.play(seat, pick.choice(game.legal(seat)))
    states = list(game.states())
    assert len(states) > 100
    for seat in (None, 0, 1, 2):
        for s in states:
            assert _rules.view(s, seat) == _fresh_view(s, seat)
        for s in states:  # (the second time: every answer kept; a secret's == is its value too)
            assert _rules.view(s, seat) == _fresh_view(s, seat)


def test_a_kept_answer_is_for_its_own_tuple_only():
    """The answers are kept by the very tuple, held with them: tuples of cards made and
    dropped in turn (their ids come again) each get their own answer, and no more than 256
    are kept (a bot match or the judge views states for hours)."""
    from boardstate._secrets import make_secret

    pick = random.Random(29)
    for n in range(2000):
        cards = tuple(make_secret(pick.randrange(30), bytes(16), 1 + n % 3) for _ in range(5))
        seat = pick.choice((None, 0, 1))
        mine = tuple(c if seat is not None and c.owned_by(seat) else c.sealed() for c in cards)
        assert _rules._seen_by(cards, seat) == mine, n
        assert len(_rules._SEEN) <= 256
        del cards, mine
