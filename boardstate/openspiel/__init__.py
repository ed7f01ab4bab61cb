"""``boardstate.openspiel``: every installed game module as an OpenSpiel game.

Install with ``pip install "boardstate[openspiel]"``.  Importing this package registers each
installed module as a pyspiel game named ``boardstate_<module id>`` (``game_name``), with the
player count, the module's options and the rules revision as game parameters::

    import pyspiel
    import boardstate.openspiel as bos

    game = pyspiel.load_game("boardstate_duel_of_the_forces", {"players": 3})
    game = bos.load_game("jedi-duel", players=4, fumble_stance="area")  # the same, by module id

The games are sequential (a sealed round is taken seat by seat, each choice hidden until all
are in), imperfect-information, with sampled chance (the engine's randomness is drawn by the
bridge's own generator inside a player's action) and zero-sum terminal returns.  An action is
the index of a command in the module's legal list; ``state.command(action)`` is the command.
Information-state and observation strings are the seat's view: never another seat's hidden
values.  ``state.resample_from_infostate(player, sampler)`` (and ``resampler``, for
``ISMCTSBot.set_resampler``) gives a state the player cannot tell from this one: what it cannot
see filled in by the kit's determinizer (``boardstate.rules.determinize``), so OpenSpiel's
IS-MCTS searches on the bridge.
"""

try:
    import pyspiel  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        'boardstate.openspiel needs OpenSpiel: pip install "boardstate[openspiel]"'
    ) from exc

from ._game import (
    GAME_TYPES,
    NOT_REGISTERED,
    BoardstateGame,
    BoardstateState,
    Observer,
    game_name,
    load_game,
    register,
    resampler,
)
from ._seen import information_state, observation, written
from ._world import Bridge, Seen, World

register()

__all__ = [
    "GAME_TYPES",
    "NOT_REGISTERED",
    "BoardstateGame",
    "BoardstateState",
    "Bridge",
    "Observer",
    "Seen",
    "World",
    "game_name",
    "information_state",
    "load_game",
    "observation",
    "register",
    "resampler",
    "written",
]
