"""Star Wars Epic Duels: whole games for every pairing on every board, through the fast path and
through the full engine (records, commitments, verify)."""

from __future__ import annotations

import itertools

import pytest

import boardstate as bs
from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._characters import cast
from boardstate.modules.epic_duels.boards import SCENES
from boardstate.testing import random_game

LIGHT = tuple(t.id for t in cast().teams if t.side == "light")
DARK = tuple(t.id for t in cast().teams if t.side == "dark")
PAIRINGS = tuple(itertools.product(LIGHT, DARK))


def test_six_light_and_six_dark_main_characters():
    assert LIGHT == ("yoda", "obi-wan", "mace", "luke", "anakin", "han")
    assert DARK == ("vader", "maul", "boba", "jango", "emperor", "dooku")


@pytest.mark.parametrize("scene", SCENES)
def test_every_pairing_sets_up_and_plays_to_the_end_on_every_board(scene):
    for i, (light, dark) in enumerate(PAIRINGS):
        options = {"characters": f"{light},{dark}", "board": scene}
        state, outcome, actions = bs.random_playout(
            MODULE, ["ann", "ben"], options, seed=b"%s-%d" % (scene.encode(), i), bot_seed=i
        )
        assert outcome is not None and outcome.winners, (light, dark)
        placed = [sq for sq in state.square if sq != -1]
        assert len(placed) == len(set(placed)), "two characters on one square"


def test_the_dark_side_may_sit_first():
    from boardstate.modules.epic_duels._render import side_name

    s = bs.random_playout(MODULE, ["ann", "ben"], {"characters": "vader,luke"}, seed=b"x")[0]
    assert (side_name(s, 0), side_name(s, 1)) == ("dark side", "light side")


@pytest.mark.parametrize("seed", range(4))
def test_games_through_the_engine_verify(seed, tmp_path):
    light, dark = PAIRINGS[seed * 7 % len(PAIRINGS)]
    options = {"characters": f"{light},{dark}", "board": SCENES[seed]}
    game = random_game(MODULE, seed, 2, options=options)
    path = tmp_path / "game.msgpack"
    bs.save_game(game, path)
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.outcome == game.outcome()
