"""Installed game modules, found through the entry-point group ``boardstate.modules``."""

from __future__ import annotations

from contextlib import contextmanager
from functools import cache
from importlib.metadata import entry_points

from ._errors import OptionError

GROUP = "boardstate.modules"


BROKEN: dict[str, str] = {}  # entry-point name -> why it did not load


@cache
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


@contextmanager
def registered(module):
    """Make ``module`` findable by its id for a while (a module under test, not installed)."""
    modules = installed_modules()
    before = modules.get(module.spec.id)
    modules[module.spec.id] = module
    try:
        yield
    finally:
        if before is None:
            modules.pop(module.spec.id, None)
        else:
            modules[module.spec.id] = before


def broken_modules() -> dict[str, str]:
    """Entry-point name -> why that installed plugin did not load."""
    installed_modules()
    return dict(BROKEN)


def get_module(module_id: str):
    modules = installed_modules()
    try:
        return modules[module_id]
    except KeyError:
        known = ", ".join(modules) or "none"
        raise OptionError(
            f"no installed module {module_id!r} (installed: {known})", code="unknown-module"
        ) from None
