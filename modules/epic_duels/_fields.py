"""How Epic Duels' data files are checked and structured, field by field.

The validators every data class uses (``whole``, ``one_of``, ``an_id``, ``nonblank``,
``only_one``: a mistake is a ``FieldError`` naming its field) and the strict ``converter()``
(no extra keys, no ``"5"`` for 5, no ``1`` for true, no string for a list) that structures each
file into frozen attrs classes.  The vocabulary and the deck format register their own hooks
(``on_converter``).  The converter, and cattrs, are made when a file is first parsed: a
command whose built-in files come from the cache (``boardstate._datacache``) needs neither.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, get_args, get_origin

from boardstate.rules import FieldError

if TYPE_CHECKING:
    import cattrs

ID = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


# --- validators ---------------------------------------------------------------------------------


def whole(lo: int, hi: int):
    def check(_inst, attribute, value):
        if value is not None and (type(value) is not int or not lo <= value <= hi):
            raise FieldError(
                f"must be a whole number from {lo} to {hi}, got {value!r}", field=attribute.name
            )

    return check


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
    """Strict: no extra keys, no ``"5"`` for 5, no ``1`` for true, no string for a list."""
    import cattrs
    from cattrs.cols import homogenous_tuple_structure_factory, mapping_structure_factory

    made = cattrs.Converter(forbid_extra_keys=True)
    for kind in _TYPE_NAMES:
        made.register_structure_hook(kind, _strict(kind))
    made.register_structure_hook_factory(
        _is_tuple, lambda t: _checked(list, "a list", homogenous_tuple_structure_factory(t, made))
    )
    made.register_structure_hook_factory(
        lambda t: get_origin(t) is dict,
        lambda t: _checked(dict, "a table", mapping_structure_factory(t, made)),
    )
    for install in _INSTALLERS:
        install(made)
    return made


_TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


def _strict(kind):
    def hook(value, _type):
        if type(value) is not kind:
            raise FieldError(f"must be {_TYPE_NAMES[kind]}, got {value!r}")
        return value

    return hook


def _is_tuple(t) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _checked(kind: type, what: str, inner):
    def hook(value, _type):
        if not isinstance(value, kind):
            raise FieldError(f"must be {what}, got {value!r}")
        return inner(value, _type)

    return hook
