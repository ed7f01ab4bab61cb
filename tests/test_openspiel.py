"""The OpenSpiel bridge (``boardstate.openspiel``): every installed module a pyspiel game that
passes OpenSpiel's own random-simulation checks, strings that never show a seat another seat's
hidden values, resampling a seat cannot tell from the truth, and OpenSpiel's Python IS-MCTS
playing Duel of the Forces and Jedi Duel through it.

Needs the ``openspiel`` extra (``pip install "boardstate[openspiel]"``); without it these tests
are skipped, saying so, or fail where CI promises it (``BOARDSTATE_REQUIRE_OPENSPIEL=1``).
"""

from __future__ import annotations

import os
import random

import pytest

from boardstate import installed_modules
from boardstate.rules import Choice

MISSING = 'OpenSpiel is not installed: the "openspiel" extra (pip install "boardstate[openspiel]")'
try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import boardstate.openspiel as bos
except ImportError as exc:
    if os.environ.get("BOARDSTATE_REQUIRE_OPENSPIEL") == "1":
        pytest.fail(f"BOARDSTATE_REQUIRE_OPENSPIEL=1 but {MISSING} ({exc})", pytrace=False)
    pytest.skip(f"{MISSING}; set BOARDSTATE_REQUIRE_OPENSPIEL=1 to fail", allow_module_level=True)

LENGTH = {"epic-duels": 80}  # (a whole Epic Duel takes seconds: cut off, it ends with no winner)


def test_every_installed_module_is_a_registered_game() -> None:
    names = set(pyspiel.registered_names())
    for module_id, module in installed_modules().items():
        name = bos.game_name(module_id)
        assert name in names, bos.NOT_REGISTERED.get(module_id)
        kind = pyspiel.load_game(name).get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.provides_information_state_string and kind.provides_observation_string
        assert (kind.min_num_players, kind.max_num_players) == (
            module.spec.min_players,
            module.spec.max_players,
        )
        assert {o.key for o in module.spec.options} <= set(kind.parameter_specification)


CASES = [
    (module_id, players)
    for module_id, module in installed_modules().items()
    for players in sorted({module.spec.min_players, module.spec.max_players})
]


@pytest.mark.parametrize(("module_id", "players"), CASES, ids=[f"{m}-{n}p" for m, n in CASES])
def test_openspiels_random_simulation_checks_pass(module_id: str, players: int) -> None:
    """OpenSpiel's own checks (``pyspiel.random_sim_test``): clones play alike, legal actions
    sorted and only the current player's, returns within the utility range and zero-sum,
    the game no longer than its maximum length."""
    params = {"players": players, "seed": 7}
    if module_id in LENGTH:
        params["max_game_length"] = LENGTH[module_id]
    game = pyspiel.load_game(bos.game_name(module_id), params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_options_and_players_are_game_parameters() -> None:
    game = pyspiel.load_game("boardstate_duel_of_the_forces(players=3,edition=parlett-english)")
    assert game.num_players() == 3
    assert game.bridge.options["edition"] == "parlett-english"
    assert bos.load_game("jedi-duel", players=4, fumble_stance="area").bridge.options == (
        pyspiel.load_game(
            "boardstate_jedi_duel", {"players": 4, "fumble-stance": "area"}
        ).bridge.options
    )
    with pytest.raises(Exception, match="not one of"):
        bos.load_game("duel-of-the-forces", edition="no-such-edition")
    with pytest.raises(Exception, match="2-4 players"):
        bos.load_game("duel-of-the-forces", players=5)


def _random_states(module_id: str, players: int, seed: int, **params):
    """Every state of one game of random actions (cut off at 200 actions)."""
    game = bos.load_game(module_id, players=players, seed=seed, **params)
    state, pick = game.new_initial_state(), random.Random(seed).choice
    for _ in range(200):
        yield state
        if state.is_terminal():
            return
        state = state.child(pick(state.legal_actions()))


def _blinded(state, seat: int):
    """``state``'s world with everything hidden from ``seat`` changed: the module's state as
    its view holds it (hidden values UNKNOWN), every other seat's choice that is sealed or face
    down (in the round under way, lying face down, and in the history) another command."""
    world, other = state.world, ("not", "this")
    hidden = {Choice.SEALED, Choice.FACE_DOWN}
    seen, actions = world.seen, []
    while seen is not None:
        secret = seen.how in hidden and seen.actor != seat
        actions.append((seen.actor, other if secret else seen.command, seen.how))
        seen = seen.earlier
    for actor, command, how in reversed(actions):
        seen = bos.Seen(seen, actor, command, how)
    return world._replace(
        state=state.bridge.view(world.state, seat),
        sealed=tuple((s, c if s == seat else other) for s, c in world.sealed),
        face_down=tuple((s, c if s == seat else other, w) for s, c, w in world.face_down),
        seen=seen,
        said={},
    )


GAMES = [
    ("duel-of-the-forces", 3, {}),
    ("duel-of-the-forces", 2, {"revision": 2}),  # (a face-down stock)
    ("jedi-duel", 3, {}),
    ("epic-duels", 2, {}),  # (hands, piles and attack cards laid face down)
    ("rock-paper-scissors", 2, {"mode": "face-down"}),
]


@pytest.mark.parametrize(("module_id", "players", "params"), GAMES, ids=[g[0] for g in GAMES])
def test_strings_never_show_a_seat_what_is_hidden_from_it(module_id, players, params) -> None:
    """A seat's information state and observation are the same whatever the values hidden from
    it: they are written from its view alone.  Its own hidden choices are in them."""
    for state in _random_states(module_id, players, 3, **params):
        for seat in range(players):
            blind = _blinded(state, seat)
            assert bos.information_state(state.bridge, blind, seat) == (
                state.information_state_string(seat)
            )
            assert bos.observation(state.bridge, blind, seat) == state.observation_string(seat)
            for s, command, *_ in (*state.world.sealed, *state.world.face_down):
                if s == seat:
                    assert repr(command) in state.observation_string(seat)


def test_a_sealed_round_is_taken_seat_by_seat_and_turned_over_at_once() -> None:
    game = bos.load_game("duel-of-the-forces", players=2, seed=1)
    state = game.new_initial_state()
    assert state.current_player() == 0
    first = state.legal_actions()[-1]
    bid = state.action_to_string(0, first)
    state.apply_action(first)
    assert state.current_player() == 1
    assert state.world.sealed == ((0, state.world.sealed[0][1]),)
    assert "0 chose sealed" in state.information_state_string(1)
    assert repr(state.world.sealed[0][1]) not in state.information_state_string(1)
    state.apply_action(state.legal_actions()[0])
    assert state.world.sealed == ()
    assert "turned over ((0, " in state.information_state_string(1)
    assert bid.startswith("play luke")


@pytest.mark.parametrize(("module_id", "players", "params"), GAMES, ids=[g[0] for g in GAMES])
def test_a_resampled_state_is_one_the_seat_cannot_tell_apart(module_id, players, params) -> None:
    """What OpenSpiel's IS-MCTS asserts of every resampled root: the same player to act and
    information state; and the resampled world plays on."""
    rng = random.Random(5)
    for i, state in enumerate(_random_states(module_id, players, 4, **params)):
        if state.is_terminal() or i % 3:
            continue
        seat = state.current_player()
        other = state.resampled(seat, rng)
        assert other.current_player() == seat
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.legal_actions() == state.legal_actions()
        other.apply_action(other.legal_actions()[0])


@pytest.mark.parametrize("module_id", ["duel-of-the-forces", "jedi-duel"])
def test_openspiels_ismcts_plays_through_the_bridge(module_id: str) -> None:
    """OpenSpiel's Python IS-MCTS, resampling with the kit's determinizer, plays a few moves
    of each seat (the rest of the game at random)."""
    game = bos.load_game(module_id, players=2, seed=11)
    rs = np.random.RandomState(3)
    bots = []
    for resample in (None, bos.resampler(seed=2)):  # its own call, and set_resampler
        bot = ismcts.ISMCTSBot(
            game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=8, random_state=rs
        )
        if resample is not None:
            bot.set_resampler(resample)
        bots.append(bot)
    state, searched = game.new_initial_state(), 0
    while not state.is_terminal():
        if searched < 6:
            action = bots[state.current_player()].step(state)
            searched += 1
        else:
            action = rs.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 0
