"""The lowest attrs setup.cfg allows runs the code: a ``functools.cached_property`` on a
slotted attrs class (``Header.game_id`` since f760f7c) needs attrs 23.2, which makes it a
slot of its own; under 23.1 reading it raised TypeError (no ``__dict__`` to cache in) on every
header, so on every command that reads a file."""

from __future__ import annotations

import configparser
import re
import sys
from pathlib import Path

import attrs

import boardstate._header  # noqa: F401  (the class that made the floor 23.2)

SETUP_CFG = Path(__file__).resolve().parent.parent / "setup.cfg"
SLOTTED_CACHED_PROPERTY = (23, 2)  # attrs' changelog, 23.2.0


def _floor(package: str) -> tuple[int, ...]:
    parser = configparser.ConfigParser()
    parser.read(SETUP_CFG, encoding="utf-8")
    for line in parser["options"]["install_requires"].split():
        found = re.fullmatch(rf"{package}>=([0-9.]+)", line)
        if found:
            return tuple(int(part) for part in found.group(1).split("."))
    raise AssertionError(f"setup.cfg requires no {package}>=...")


def _slotted_cached_properties() -> list[str]:
    """Names kept by attrs in slots of their own that are no field (its cached properties),
    in every attrs class of the boardstate modules loaded."""
    classes = {
        cls
        for name, module in list(sys.modules.items())
        if name.startswith("boardstate")
        for cls in vars(module).values()
        if isinstance(cls, type) and attrs.has(cls) and "__slots__" in vars(cls)
    }
    return sorted(
        f"{cls.__qualname__}.{slot}"
        for cls in classes
        for slot in set(cls.__slots__) - {a.name for a in attrs.fields(cls)} - {"__weakref__"}
    )


def test_the_attrs_floor_makes_the_cached_properties():
    cached = _slotted_cached_properties()
    assert "Header.game_id" in cached
    assert _floor("attrs") >= SLOTTED_CACHED_PROPERTY, cached
