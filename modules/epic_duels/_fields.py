"""How Epic Duels' data files are checked and structured, field by field.

The validators every data class uses (``whole``, ``one_of``, ``an_id``, ``nonblank``,
``only_one``: a mistake is a ``FieldError`` naming its field) and the strict ``CONVERTER``
(no extra keys, no ``"5"`` for 5, no ``1`` for true, no string for a list) that structures each
file into frozen attrs classes.  The vocabulary and the deck format register their own hooks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import get_args, get_origin

import cattrs
from cattrs.cols import homogenous_tuple_structure_factory, mapping_structure_factory

from boardstate.rules import FieldError

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

CONVERTER = cattrs.Converter(forbid_extra_keys=True)
"""Strict: no extra keys, no ``"5"`` for 5, no ``1`` for true, no string for a list."""

_TYPE_NAMES = {int: "a whole number", str: "a string", bool: "true or false"}


def _strict(kind):
    def hook(value, _type):
        if type(value) is not kind:
            raise FieldError(f"must be {_TYPE_NAMES[kind]}, got {value!r}")
        return value

    return hook


for _kind in _TYPE_NAMES:
    CONVERTER.register_structure_hook(_kind, _strict(_kind))


def _is_tuple(t) -> bool:
    args = get_args(t)
    return get_origin(t) is tuple and len(args) == 2 and args[1] is Ellipsis


def _tuple_hook(t):
    inner = homogenous_tuple_structure_factory(t, CONVERTER)

    def hook(value, _type):
        if not isinstance(value, list):
            raise FieldError(f"must be a list, got {value!r}")
        return inner(value, _type)

    return hook


def _dict_hook(t):
    inner = mapping_structure_factory(t, CONVERTER)

    def hook(value, _type):
        if not isinstance(value, dict):
            raise FieldError(f"must be a table, got {value!r}")
        return inner(value, _type)

    return hook


CONVERTER.register_structure_hook_factory(_is_tuple, _tuple_hook)
CONVERTER.register_structure_hook_factory(lambda t: get_origin(t) is dict, _dict_hook)
