"""``boardstate.rules``: the kit for writing a game module.

A module is a ``Module(spec, rules)``: a declarative ``GameSpec`` (names, player counts,
options, events, rules revision) beside Decider-style rules (see ``Rules``).  ``decide`` and
``start`` emit events into a ``Table``, which folds them with the module's ``evolve`` as it goes.
Secrets are ``Secret`` values in events; ``table.reveal`` turns one face up.  Choices made at
once and sealed, or face down and turned over later, are engine features a module asks for with
``Rules.choice`` (``Choice``).  ``Fold`` makes ``evolve`` from one handler per event type, and
``Teller`` makes ``tell`` (a record's events in words, as a seat may know them) the same way;
``rules_class`` makes the rules' class from the functions of the module's parts;
``quick_replace`` gives a ``NamedTuple`` state a quicker ``_replace`` for the fold, and
``IdentityMemo`` keeps a hot path's answers by the very (immutable) value asked about, and
``kept(make, package, *args)`` a table made from the module's data and code between commands.  A
module's accessible SVG picture of its table can start from ``picture`` and the small drawing
helpers beside it (``label``, ``card_back``, ...).  ``determinize(module, view, seat, rng)``
fills what a seat cannot see with values consistent with what it can (bots; OpenSpiel's
``resample_from_infostate``).  See docs/writing-a-module.md.
"""

from typing import TYPE_CHECKING

from .._datafile import (
    DataFile,
    FieldError,
    cached_by_value,
    exactly,
    read_data_file,
    resolve_player,
    stored_key,
    strict_converter,
    structure_stored,
    structure_toml,
    whole_number,
)
from .._errors import (
    AmbiguousCommand,
    IllegalCommand,
    InvalidCommand,
    OptionError,
    SecretUnavailable,
)
from .._events import event
from .._lazy import on_first_use_names
from .._module import HIDDEN, Choice, GameSpec, Module, Option, Outcome, Rules, Setup
from .._secrets import UNKNOWN, Reveal, Secret, seats_mask
from .._table import Table
from ._fold import Fold
from ._memo import IdentityMemo
from ._parts import on_first_use, rules_class
from ._replace import quick_replace
from ._tell import Teller, plural, words_and

__all__ = [
    "AmbiguousCommand",
    "Choice",
    "DataFile",
    "Determinized",
    "FieldError",
    "Fold",
    "GameSpec",
    "HIDDEN",
    "IdentityMemo",
    "IllegalCommand",
    "InvalidCommand",
    "Module",
    "Option",
    "OptionError",
    "Outcome",
    "Reveal",
    "Rules",
    "Secret",
    "SecretUnavailable",
    "Setup",
    "Table",
    "Teller",
    "UNKNOWN",
    "cached_by_value",
    "determinize",
    "card_back",
    "card_lines",
    "element",
    "empty_slot",
    "label",
    "picture",
    "plural",
    "quick_replace",
    "read_data_file",
    "event",
    "exactly",
    "fill_unknown",
    "kept",
    "resolve_player",
    "on_first_use",
    "rules_class",
    "seats_mask",
    "stored_key",
    "strict_converter",
    "structure_stored",
    "structure_toml",
    "whole_number",
    "words_and",
]

DRAWING = ("card_back", "card_lines", "element", "empty_slot", "label", "picture")
"""The drawing helpers' names (``_drawing``, with ``xml.etree``): imported when first asked
for, by a module's picture code, so that a command drawing nothing does not load them."""

DETERMINIZING = ("Determinized", "determinize", "fill_unknown")
"""The bots' and OpenSpiel's sampling of hidden cards (``boardstate._determinize``, the
engine's: ``"._determinize"`` below is the package's parent's): imported when first asked
for, so that a command that plays no bot does not load it."""

KEPT = ("kept",)
"""A value made from a module's built-in data and code alone (a board's tables), kept between
commands in the user's cache folder (``boardstate._datacache``): imported when first asked for.
Its key cannot see what ``make`` reads besides them: docs/writing-a-module.md says what it may."""

if TYPE_CHECKING:
    from .._datacache import kept
    from .._determinize import Determinized, determinize, fill_unknown
    from ._drawing import card_back, card_lines, element, empty_slot, label, picture

__getattr__, __dir__ = on_first_use_names(
    globals(),
    dict.fromkeys(DRAWING, "_drawing")
    | dict.fromkeys(DETERMINIZING, "._determinize")
    | dict.fromkeys(KEPT, "._datacache"),
)
