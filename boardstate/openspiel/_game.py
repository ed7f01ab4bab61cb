"""Every installed game module as a registered pyspiel game.

One registration per module, named ``boardstate_<module id>`` (``-`` as ``_``); the player
count, each of the module's options, the rules revision and the bridge's own settings are game
parameters: ``pyspiel.load_game("boardstate_duel_of_the_forces", {"players": 3, "edition":
"parlett-english"})``.  An option that is absent unless given takes ``""`` for absent.

Sequential, imperfect information, sampled chance (the engine's randomness is drawn inside a
player's action by the bridge's own generator, seeded per game from ``seed``: -1, from the
system), zero-sum terminal returns (``Bridge.returns``); information-state and observation
strings from the seat's view (``_seen``); no tensors.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from .._registry import installed_modules
from ._resample import resample
from ._seen import ALL, information_state, observation
from ._world import TERMINAL, Bridge, World

PREFIX = "boardstate_"
MAX_GAME_LENGTH = 5000  # player actions; a game not over by then ends with no winner
MAX_ACTIONS = 1024  # legal commands in one state (an action is a command's index)
BRIDGE_PARAMETERS = ("players", "seed", "revision", "max_game_length", "max_actions")

GAME_TYPES: dict[str, pyspiel.GameType] = {}  # game name -> its type, as registered
GAME_CLASSES: dict[str, type] = {}  # game name -> the BoardstateGame subclass registered
NOT_REGISTERED: dict[str, str] = {}  # module id -> why it was not registered


def game_name(module_id: str) -> str:
    """The pyspiel name of a module's game."""
    return PREFIX + module_id.replace("-", "_")


def game_type(module) -> pyspiel.GameType:
    spec = module.spec
    clash = [o.key for o in spec.options if o.key in BRIDGE_PARAMETERS]
    if clash:
        raise ValueError(f"its option {clash[0]!r} has the name of a bridge parameter")
    parameters = {
        "players": spec.min_players,
        **{o.key: o.default if o.default is not None else "" for o in spec.options},
        "seed": -1,
        "revision": spec.revision,
        "max_game_length": MAX_GAME_LENGTH,
        "max_actions": MAX_ACTIONS,
    }
    return pyspiel.GameType(
        short_name=game_name(spec.id),
        long_name=f"{spec.name} (boardstate)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


class BoardstateGame(pyspiel.Game):
    """A module's game with the players, options and settings of ``params``.  Registered as a
    subclass per module (``register``), which names the module and its ``GameType``."""

    _module = None
    _kind: pyspiel.GameType

    def __init__(self, params=None) -> None:
        module, kind = self._module, self._kind
        params = {**kind.parameter_specification, **(params or {})}
        raw = {o.key: params[o.key] for o in module.spec.options if params[o.key] != ""}
        players = int(params["players"])
        bridge = Bridge(
            module,
            players,
            raw,
            int(params["revision"]),
            int(params["max_game_length"]),
            int(params["max_actions"]),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=bridge.max_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=players - 1.0,
            utility_sum=0.0,
            max_game_length=bridge.max_game_length,
        )
        super().__init__(kind, info, params)
        self.bridge = bridge
        seed = int(params["seed"])
        self._seeds = random.Random(seed if seed >= 0 else None)

    def new_initial_state(self) -> BoardstateState:
        """A new game, set up with a seed of its own (drawn from the game's ``seed``)."""
        return BoardstateState(self, self.bridge.first(self._seeds.randbytes(16)))

    def state_of(self, world: World) -> BoardstateState:
        """An OpenSpiel state holding ``world`` (one the bridge made: ``Bridge.first``,
        ``Bridge.play``, or a resampled one)."""
        return BoardstateState(self, world)

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        return Observer(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class BoardstateState(pyspiel.State):
    """A game under way: a ``World`` (immutable; ``clone`` shares it)."""

    def __init__(self, game: BoardstateGame, world: World) -> None:
        super().__init__(game)
        self.bridge = game.bridge  # (shared by clones: its __deepcopy__ is itself)
        self.world = world

    @property
    def module_state(self):
        """The module's state: every value, hidden or not."""
        return self.world.state

    def current_player(self) -> int:
        return self.world.seat

    def _legal_actions(self, player: int) -> list[int]:
        world = self.world
        return list(range(len(world.commands))) if player == world.seat else []

    def _apply_action(self, action: int) -> None:
        self.world = self.bridge.play(self.world, action)

    def _action_to_string(self, player: int, action: int) -> str:
        world = self.world
        if player != world.seat or not 0 <= action < len(world.commands):
            return f"action {action}"
        return self.bridge.notation(world.state, player, world.commands[action])

    def command(self, action: int):
        """The module's command that ``action`` stands for now."""
        return self.world.commands[action]

    def is_terminal(self) -> bool:
        return self.world.seat == TERMINAL

    def returns(self) -> list[float]:
        return self.bridge.returns(self.world)

    def __str__(self) -> str:
        return observation(self.bridge, self.world, ALL)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> BoardstateState:
        """A state ``player_id`` cannot tell from this one (``_resample``), drawn with
        ``probability_sampler`` (OpenSpiel's: a call gives a number in [0, 1))."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return self.resampled(player_id, rng)

    def resampled(self, seat: int, rng: random.Random) -> BoardstateState:
        """A state ``seat`` cannot tell from this one, drawn with ``rng`` (a clone: the same
        history of actions, another world)."""
        other = self.clone()
        other.world = resample(self.bridge, self.world, seat, rng)
        return other


_PRIVATE = pyspiel.PrivateInfoType


class Observer:
    """OpenSpiel's Python observer: strings only (an empty tensor)."""

    def __init__(self, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        self.private = iig_obs_type.private_info
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict = {}

    def set_from(self, state: BoardstateState, player: int) -> None:
        pass

    def string_from(self, state: BoardstateState, player: int) -> str:
        seat = {_PRIVATE.NONE: None, _PRIVATE.ALL_PLAYERS: ALL}.get(self.private, player)
        world, key = state.world, (self.perfect_recall, seat)
        text = world.said.get(key)
        if text is None:  # (IS-MCTS asks twice a node)
            write = information_state if self.perfect_recall else observation
            text = world.said[key] = write(state.bridge, world, seat)
        return text


def resampler(seed: int | None = None):
    """A resampler for OpenSpiel's Python IS-MCTS (``ISMCTSBot.set_resampler``): ``(state,
    player) -> state``, with randomness of its own (``seed``; None: from the system)."""
    rng = random.Random(seed)

    def resample_for(state: BoardstateState, player: int) -> BoardstateState:
        return state.resampled(player, rng)

    return resample_for


def register(module=None) -> list[str]:
    """Register ``module`` (default: every installed module) as a pyspiel game, once; the names
    of the games registered now.  A module that cannot be is noted in ``NOT_REGISTERED``."""
    modules = [module] if module is not None else list(installed_modules().values())
    known = set(pyspiel.registered_names())
    made = []
    for mod in modules:
        name = game_name(mod.spec.id)
        if name in known:
            continue
        try:
            kind = game_type(mod)
        except ValueError as exc:
            NOT_REGISTERED[mod.spec.id] = str(exc)
            continue
        # A class, as OpenSpiel's own Python games register (a function that held the type
        # would be freed by pyspiel's registry after Python has shut down, and abort)
        made_by = type(name, (BoardstateGame,), {"_module": mod, "_kind": kind})
        pyspiel.register_game(kind, made_by)
        GAME_TYPES[name] = kind
        GAME_CLASSES[name] = made_by
        made.append(name)
    return made


def load_game(module_id: str, **params) -> BoardstateGame:
    """``pyspiel.load_game`` of a module's game, options by their keys (``-`` as ``_``):
    ``load_game("duel-of-the-forces", players=3, full_tie="rebid")``."""
    register()
    named = {k if k in BRIDGE_PARAMETERS else k.replace("_", "-"): v for k, v in params.items()}
    return pyspiel.load_game(game_name(module_id), named)
