"""Names a package imports when first asked for (issue 29: a command imports only what it uses).

A package names, once, which of its public names live in which of its submodules, and takes
its module-level ``__getattr__`` and ``__dir__`` from ``on_first_use_names``::

    __getattr__, __dir__ = on_first_use_names(globals(), {"render_svg": "_render", ...})

One rule for every façade: the submodule is imported when one of its names is first asked for,
and the value is then kept in the package's namespace, so a name is looked up once and later
reads of it are plain attribute reads.  This module imports only ``importlib`` and ``typing``,
which ``boardstate`` imports before it, so any package of the engine, however low
(``geometry``, ``rules``, ``trust``), may use it at no cost and with no import cycle.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


def on_first_use_names(namespace: dict, where: Mapping[str, str]) -> tuple[Callable, Callable]:
    """``(__getattr__, __dir__)`` for the package whose globals are ``namespace``: each name of
    ``where`` is found in the submodule it maps to (``"_render"``: the package's
    ``_render``), imported when the name is first asked for; a name that maps to itself is
    that submodule (``"batch": "batch"``)."""
    package = namespace["__name__"]

    def __getattr__(name: str):
        submodule = where.get(name)
        if submodule is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        found = import_module(f".{submodule}", package)
        value = found if submodule == name else getattr(found, name)
        namespace[name] = value  # (asked once: later reads do not come here)
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *where})

    return __getattr__, __dir__
