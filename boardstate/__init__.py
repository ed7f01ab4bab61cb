"""boardstate: play, record, replay and referee board and card games.

Every move is an immutable event in a hash-chained, event-sourced log stored as msgpack; a game is
a *module* (a declarative spec plus Decider-style rules) found through the entry-point group
``boardstate.modules``.  This package is the engine; it knows no game.

Three façades, by audience:

- ``boardstate``: playing and refereeing games (this module);
- ``boardstate.rules``: writing a game module;
- ``boardstate.testing``: the conformance suite and helpers to forge records in tests.

``boardstate.batch`` (loaded when first used) verifies archives and plays games at scale.
"""

# First: the cyclic garbage collector is paused while the engine is imported, attrs and typing
# with it (_gcpause: restored after, an error too), and the attrs classes made from here on
# reuse kept code (_attrscode).
from . import _gcpause

with _gcpause.paused():  # (importing makes only objects that are kept)
    from typing import TYPE_CHECKING

    from . import _attrscode, _lazy  # noqa: F401
    from ._armor import armor
    from ._errors import (
        AmbiguousCommand,
        BoardError,
        BoardstateError,
        CorruptFile,
        ForeignFile,
        FutureVersion,
        GameFileError,
        IllegalCommand,
        InvalidCommand,
        MoveRefused,
        OffBoard,
        OptionError,
        SecretUnavailable,
        TruncatedFile,
        VerificationFailed,
    )
    from ._fileformat import (
        RawFile,
        atomic_write,
        encode_game,
        encode_moves,
        encode_public,
        parse_raw,
        path_name,
        read_raw,
        save_game,
        save_moves,
    )
    from ._game import Game
    from ._loading import load_game
    from ._module import GameSpec, Module, Option, Outcome
    from ._records import Kind, Record
    from ._registry import broken_modules, get_module, installed_modules
    from ._secrets import UNKNOWN, Reveal, Secret
    from ._words import (
        describe,
        next_line,
        outcome_line,
        records_grouped,
        records_said,
        round_trip_note,
        standing,
        status_lines,
    )

__version__ = "0.2.0"

__all__ = [
    "AmbiguousCommand",
    "BOT_LEVELS",
    "DEADLINE_POLICIES",
    "BoardError",
    "BoardstateError",
    "CorruptFile",
    "Delivery",
    "ForeignFile",
    "FutureVersion",
    "Game",
    "GameFileError",
    "GameSpec",
    "IllegalCommand",
    "InvalidCommand",
    "Kind",
    "ListedGame",
    "Mailed",
    "Module",
    "MoveRefused",
    "OffBoard",
    "Option",
    "OptionError",
    "Outcome",
    "Position",
    "RawFile",
    "Record",
    "Referee",
    "Reveal",
    "Seated",
    "Secret",
    "SecretUnavailable",
    "TruncatedFile",
    "UNKNOWN",
    "Verdict",
    "VerificationFailed",
    "apply_moves",
    "armor",
    "atomic_write",
    "Audit",
    "audit",
    "audit_hosted",
    "audit_peer",
    "broken_modules",
    "check_output",
    "encode_public",
    "locked",
    "describe",
    "next_line",
    "round_trip_note",
    "outcome_line",
    "standing",
    "status_lines",
    "take_seat",
    "encode_game",
    "encode_moves",
    "get_module",
    "installed_modules",
    "list_games",
    "load_checked",
    "load_game",
    "migrate",
    "parse_raw",
    "path_name",
    "random_playout",
    "records_grouped",
    "records_said",
    "read_mailed",
    "read_raw",
    "referee_mailed",
    "referee_moves",
    "save_game",
    "save_moves",
    "save_replay_html",
    "verify",
]


_LAZY = {
    "Audit": "_audit",
    "audit": "_audit",
    "audit_hosted": "_audit",
    "audit_peer": "_audit",
    "check_output": "_safety",
    "locked": "_safety",
    "Delivery": "_mailed",
    "Mailed": "_mailed",
    "read_mailed": "_mailed",
    "referee_mailed": "_mailed",
    "ListedGame": "_gamelist",
    "list_games": "_gamelist",
    "migrate": "_migrate",
    "Position": "_pictures",
    "random_playout": "_simulate",
    "save_replay_html": "_html",
    "Seated": "_seating",
    "take_seat": "_seating",
    "batch": "batch",  # (archives and self-play at scale: the package itself)
    "BOT_LEVELS": "_deadline",
    "DEADLINE_POLICIES": "_deadline",
    "Referee": "_referee",  # (the rules run again: verify, move, apply, not show or log)
    "Verdict": "_referee",
    "apply_moves": "_referee",
    "load_checked": "_referee",
    "referee_moves": "_referee",
    "verify": "_referee",
}
"""Names whose module is imported when first asked for: a command imports only what it uses
(the audits, the mail reader, the game list, the pictures, the replay page's XML parser, ...),
so ``import boardstate`` stays as quick as the command line needs (issue 29)."""

if TYPE_CHECKING:  # (what the lazy names are, for readers and type checkers)
    from ._audit import Audit, audit, audit_hosted, audit_peer
    from ._deadline import BOT_LEVELS, DEADLINE_POLICIES
    from ._gamelist import ListedGame, list_games
    from ._html import save_replay_html
    from ._mailed import Delivery, Mailed, read_mailed, referee_mailed
    from ._migrate import migrate
    from ._pictures import Position
    from ._referee import Referee, Verdict, apply_moves, load_checked, referee_moves, verify
    from ._safety import check_output, locked
    from ._seating import Seated, take_seat
    from ._simulate import random_playout


__getattr__, __dir__ = _lazy.on_first_use_names(globals(), _LAZY)
