"""Installed game modules, found through the entry-point group ``boardstate.modules``."""
from __future__ import annotations

from functools import lru_cache
from importlib.metadata import entry_points

from ._errors import OptionError

GROUP = "boardstate.modules"


BROKEN: dict[str, str] = {}  # entry-point name -> why it did not load


@lru_cache(maxsize=None)
def installed_modules() -> dict:
    """Module id -> Module, for every installed plugin.

    A plugin that fails to load is left out (a broken third-party game must not break the
    others) and noted in ``BROKEN``, which ``boardstate modules`` reports.
    """
    found = {}
    for ep in entry_points(group=GROUP):
        try:
            module = ep.load()
            found[module.spec.id] = module
        except Exception as exc:
            BROKEN[ep.name] = f"{type(exc).__name__}: {exc}"
    return dict(sorted(found.items()))


def get_module(module_id: str):
    modules = installed_modules()
    try:
        return modules[module_id]
    except KeyError:
        known = ", ".join(modules) or "none"
        raise OptionError(f"no installed module {module_id!r} (installed: {known})",
                          code="unknown-module") from None
