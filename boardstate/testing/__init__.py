"""``boardstate.testing``: the conformance suite every module must pass, and helpers for tests.

``check_module(module)`` (or ``boardstate check MODULE``) runs the whole suite on an installed
module, no source checkout needed.  The helpers drive a module the way the engine does
(``initial_state``, ``decide``, ``validate``, ``random_game``) and forge records for tests of
the referee (``forge``, ``rechain``).
"""

from .._events import EventCodes
from .._fileformat import encode_file as encode_records
from .._records import Kind, chain, make_record, pack, sealed_values
from .._registry import registered
from .._rng import Rng
from .._secrets import commit, make_secret, reveal
from ._conformance import (
    CHECKS,
    Report,
    append_forged,
    check_forged_records_never_crash,
    check_module,
    check_nothing_after_the_end,
    check_random_games_end_and_verify,
    forge,
    rechain,
)
from ._contract import ContractBroken, check_hidden_information, held_by
from ._play import (
    CREATED,
    checked_options,
    decide,
    initial_state,
    player_names,
    random_game,
    start,
    validate,
)

__all__ = [
    "CREATED",
    "registered",
    "CHECKS",
    "check_forged_records_never_crash",
    "check_nothing_after_the_end",
    "check_random_games_end_and_verify",
    "EventCodes",
    "Kind",
    "Rng",
    "chain",
    "commit",
    "encode_records",
    "make_record",
    "make_secret",
    "pack",
    "Report",
    "append_forged",
    "check_module",
    "forge",
    "rechain",
    "reveal",
    "sealed_values",
    "ContractBroken",
    "check_hidden_information",
    "checked_options",
    "decide",
    "held_by",
    "initial_state",
    "player_names",
    "random_game",
    "start",
    "validate",
]
