"""boardstate: play, record, replay and referee board and card games.

Every move is an immutable event in a hash-chained, event-sourced log stored as msgpack; a game is
a *module* (a declarative spec plus Decider-style rules) found through the entry-point group
``boardstate.modules``.  This package is the engine; it knows no game.
"""
from ._errors import (AmbiguousCommand, BoardstateError, CorruptFile, ForeignFile, FutureVersion,
                      GameFileError, IllegalCommand, InvalidCommand, MoveRefused, OptionError,
                      SecretUnavailable, TruncatedFile, VerificationFailed)
from ._datafile import FieldError, read_data_file, resolve_player, structure_toml
from ._events import event
from ._module import GameSpec, Module, Option, Outcome, Rules
from ._rng import FastRng, Rng
from ._secrets import UNKNOWN, Reveal, Secret, reveal, seats_mask

__version__ = "0.1.0"

__all__ = [
    "AmbiguousCommand", "BoardstateError", "CorruptFile", "FastRng", "FieldError", "ForeignFile",
    "FutureVersion", "GameFileError", "GameSpec", "IllegalCommand", "InvalidCommand", "Module",
    "MoveRefused", "Option", "OptionError", "Outcome", "Reveal", "Rng", "Rules", "Secret",
    "SecretUnavailable", "TruncatedFile", "UNKNOWN", "VerificationFailed", "event",
    "read_data_file", "resolve_player", "reveal", "seats_mask", "structure_toml",
]

# The game, its files and the referee (imported last: they build on the pieces above).
from ._fileformat import atomic_write, load_game, read_raw, save_game, save_moves  # noqa: E402
from ._game import Game  # noqa: E402
from ._referee import Verdict, apply_moves, describe, verify  # noqa: E402
from ._records import Record, sealed_values  # noqa: E402
from ._registry import get_module, installed_modules  # noqa: E402
from ._simulate import random_playout  # noqa: E402

__all__ += ["Game", "Record", "Verdict", "sealed_values", "apply_moves", "atomic_write", "describe", "get_module",
            "installed_modules", "load_game", "random_playout", "read_raw", "save_game",
            "save_moves", "verify"]
