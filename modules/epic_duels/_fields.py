"""How Epic Duels' data files are checked and structured, field by field.

The validators every data class uses (``whole``, which is the kit's ``whole_number``,
``one_of``, ``an_id``, ``nonblank``, ``only_one``: a mistake is a ``FieldError`` naming its
field) and the ``converter()``, the kit's strict one (``strict_converter``: no extra keys, no
``"5"`` for 5, no ``1`` for true, no string for a list), that structures each file into frozen
attrs classes.  The vocabulary and the deck format register their own hooks
(``on_converter``).  The converter, and cattrs, are made when a file is first parsed: a command
whose built-in files come from the cache (``boardstate._datacache``) needs neither.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from boardstate.rules import FieldError, strict_converter, whole_number

if TYPE_CHECKING:
    import cattrs

ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


# --- validators ---------------------------------------------------------------------------------


whole = whole_number
"""The kit's validator of a whole number from ``lo`` to ``hi`` (None passes)."""


def one_of(choices: Iterable[str]):
    choices = tuple(choices)

    def check(_inst, attribute, value):
        if value is not None and value not in choices:
            raise FieldError(
                f"must be one of {', '.join(choices)}, got {value!r}", field=attribute.name
            )

    return check


def an_id(_inst, attribute, value):
    if value is not None and not ID.fullmatch(value):
        raise FieldError(
            f"must be an id in lower case with hyphens (like 'obi-wan'), got {value!r}",
            field=attribute.name,
        )


def nonblank(_inst, attribute, value):
    if not value.strip():
        raise FieldError("must not be empty", field=attribute.name)


def only_one(inst, names: tuple[str, ...], what: str) -> str:
    given = [n for n in names if getattr(inst, n) is not None]
    if len(given) != 1:
        raise FieldError(f"{what} needs exactly one of {', '.join(names)}, got {len(given)}")
    return given[0]


# --- the converter ------------------------------------------------------------------------------

_INSTALLERS: list[Callable[[cattrs.Converter], None]] = []


def on_converter(install: Callable[[cattrs.Converter], None]) -> None:
    """Have ``install(converter)`` register its hooks when the converter is made (at once if it
    is made already)."""
    _INSTALLERS.append(install)
    if converter.cache_info().currsize:
        install(converter())


@functools.cache
def converter() -> cattrs.Converter:
    """The kit's strict converter (``strict_converter``: no extra keys, no ``"5"`` for 5, no
    ``1`` for true, no string for a list) with the vocabulary's and the deck format's hooks."""
    made = strict_converter()
    for install in _INSTALLERS:
        install(made)
    return made
