"""``boardstate.rules.determinize``: what a seat cannot see, filled in from what it can.

The conformance suite's check (``check_determinized_views_play_on``) runs here on every
installed module with a few seeds; the other tests pin each game's own rules of what is hidden:
Jedi Duel's one deck, a sensed hand, Duel of the Forces' face-down stock (revisions 1-2), Epic
Duels' decks per group and a face-down attack card.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import MODULE as EPIC
from boardstate.modules.epic_duels._legal import lay_cards
from boardstate.modules.epic_duels._state import DEFEND, LAY
from boardstate.modules.jedi_duel import MODULE as JEDI
from boardstate.modules.jedi_duel._state import LOOK
from boardstate.rules import UNKNOWN, Determinized, determinize
from boardstate.testing import random_game
from boardstate.testing._conformance import check_determinized_views_play_on
from conftest import all_modules

MODULES = all_modules()
REVISION_2 = Path(__file__).parent / "fixtures" / "duel-of-the-forces-revision-2"


@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
def test_a_determinized_view_folds_back_to_it_and_plays_on(module):
    seeds = range(8) if module.spec.id == "epic-duels" else range(24)
    assert check_determinized_views_play_on(module, seeds) > 0


def test_the_face_down_choices_of_rock_paper_scissors_play_on():
    from boardstate_example_rps import MODULE

    for seed in range(12):
        game = random_game(MODULE, seed, options={"mode": "face-down"}, stop_after=1 + seed % 3)
        for seat in range(2):
            view = MODULE.rules.view(game.state, seat)
            assert determinize(MODULE, view, seat, random.Random(seed)) == (view, {})


def hidden_values(state) -> Counter:
    from boardstate._determinize import unknown_secrets

    return Counter(unknown_secrets(state))


def test_jedi_duel_deals_the_cards_no_public_place_holds():
    game = random_game(JEDI, 3, 3, stop_after=25)
    s = game.state
    for seat in range(3):
        view = JEDI.rules.view(s, seat)
        made = determinize(JEDI, view, seat, random.Random(seat))
        assert type(made) is Determinized and made.face_down == {}
        d = made.state
        cards = [c.value for h in d.hands for c in h] + [c.value for c in d.deck]
        cards += list(d.discard) + [c for c in d.stance_card if c >= 0]
        assert sorted(cards) == list(range(54))  # every card once
        assert d.hands[seat] == s.hands[seat]  # the seat's own hand as it is
        assert JEDI.rules.view(d, seat) == view


def test_a_sensed_hand_keeps_the_cards_the_looker_saw():
    for seed in range(200):
        game = random_game(JEDI, seed, 2, stop_after=400, check_each=None)
        states = [st for st in game.states() if st.phase == LOOK]
        if states:
            break
    else:
        pytest.skip("no Force Sense in 200 random games")
    s = states[0]
    looker, (target, seen) = s.turn, s.peek
    for k in range(5):
        made = determinize(JEDI, JEDI.rules.view(s, looker), looker, random.Random(k)).state
        assert [c.value for c in made.hands[target]] == [c.value for c in seen]


def test_a_module_that_hides_values_and_names_none_is_told_so():
    class Silent(type(JEDI.rules)):
        unseen = None

    module = bs.Module(JEDI.spec, Silent())
    game = random_game(JEDI, 1, 2, stop_after=3)
    with pytest.raises(TypeError, match="'unseen' or 'determinize'"):
        determinize(module, JEDI.rules.view(game.state, 0), 0, random.Random(0))


def test_duel_of_the_forces_fills_the_face_down_stock_of_revision_2():
    game = bs.load_game(REVISION_2 / "duel-of-the-forces-ravensburger-2015-2p.msgpack")
    assert game.header.revision == 2
    module = game.module
    s = game.states()[5]
    view = module.rules.view(s, 0)
    assert all(c.value is UNKNOWN for c in view.stock)
    made = determinize(module, view, 0, random.Random(1)).state
    assert sorted(c.value for c in made.stock) == sorted(c.value for c in s.stock)
    assert [c.value for c in made.stock] != [c.value for c in s.stock]  # (dealt anew)


class Stopped(Exception):
    def __init__(self, game):
        self.game = game


def stopped_in(phase: int):
    """A random two-player Epic Duels game stopped at the first ``phase`` (an attack declared,
    its card laid face down or to lay)."""

    def look(game):
        if game.state.phase == phase:
            raise Stopped(game)

    for seed in range(10):
        try:
            random_game(EPIC, seed, 2, check_each=look)
        except Stopped as stop:
            return stop.game
    pytest.skip(f"no random game reached phase {phase}")


def test_epic_duels_guesses_the_face_down_attack_card_from_what_the_attacker_could_lay():
    game = stopped_in(DEFEND)
    s = game.state
    (attacker,) = game.face_down
    defender = 1 - attacker
    view = EPIC.rules.view(s, defender)
    for k in range(8):
        made = determinize(EPIC, view, defender, random.Random(k))
        (guessed,) = made.face_down.items()
        assert guessed[0] == attacker and guessed[1][0] == "lay"
        assert guessed[1][1] in lay_cards(made.state, attacker)
        assert made.state.hands[defender] == s.hands[defender]
        groups = made.state.roster.card_group
        for x, hand in enumerate(made.state.hands):
            assert [groups[c.value] for c in hand] == list(made.state.backs[x])
    # the attacker knows its own card: nothing to guess
    own = determinize(EPIC, EPIC.rules.view(s, attacker), attacker, random.Random(0))
    assert own.face_down == {}


def test_epic_duels_deals_a_declared_attacker_a_card_to_lay():
    game = stopped_in(LAY)
    s = game.state
    (attacker,) = game.to_act()
    view = EPIC.rules.view(s, 1 - attacker)
    for k in range(8):
        made = determinize(EPIC, view, 1 - attacker, random.Random(k))
        assert made.face_down == {} and lay_cards(made.state, attacker)
