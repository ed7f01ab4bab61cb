"""Installed game modules, found through the entry-point group ``boardstate.modules``."""

from __future__ import annotations

import importlib
from contextlib import contextmanager
from functools import cache

from ._errors import OptionError
from ._gcpause import paused

GROUP = "boardstate.modules"
SHIPPED = "boardstate.modules"
"""The package of the games this distribution ships, each ``SHIPPED.<id with _ for ->``."""


def entry_points(**kw):
    from importlib.metadata import entry_points  # (imported when a module is looked up)

    return entry_points(**kw)


BROKEN: dict[str, str] = {}  # entry-point name -> why it did not load
_found: dict = {}  # module id -> module, loaded on its own by ``get_module``


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
    modules[module.spec.id] = _found[module.spec.id] = module
    try:
        yield
    finally:
        _found.pop(module.spec.id, None)
        if before is None:
            modules.pop(module.spec.id, None)
        else:
            modules[module.spec.id] = before


def broken_modules() -> dict[str, str]:
    """Entry-point name -> why that installed plugin did not load."""
    installed_modules()
    return dict(BROKEN)


_ID_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def _is_an_id(text: str) -> bool:
    """``[a-z][a-z0-9]*(-[a-z0-9]+)*`` (a module's id), told without compiling the pattern at
    every start (0.1 ms, issue 29)."""
    return "a" <= text[:1] <= "z" and all(
        p and _ID_CHARACTERS.issuperset(p) for p in text.split("-")
    )


def _shipped(module_id: str):
    """The game of this id that this distribution ships, if it is one: imported directly, as
    its entry point names it, without reading every installed distribution's entry points
    (``importlib.metadata`` is a fifth of the start-up of a command)."""
    if not _is_an_id(module_id):
        return None
    name = f"{SHIPPED}.{module_id.replace('-', '_')}"
    try:
        with paused():
            package = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:
            return None
        raise
    module = getattr(package, "MODULE", None)
    return module if getattr(getattr(module, "spec", None), "id", None) == module_id else None


def get_module(module_id: str):
    """The module with this id: one made findable by ``registered``, one this distribution
    ships, or else the plugin whose entry point bears the id (only its own plugin is imported,
    so commands start faster); else every plugin is looked through."""
    if not _found.get(module_id) and (shipped := _shipped(module_id)) is not None:
        _found[module_id] = shipped
    if not _found.get(module_id):
        for ep in entry_points(group=GROUP, name=module_id):
            try:
                module = ep.load()
            except Exception:
                break  # (``installed_modules`` notes why)
            if module.spec.id == module_id:
                _found[module_id] = module
                return module
    if module_id in _found:
        return _found[module_id]
    modules = installed_modules()
    try:
        return modules[module_id]
    except KeyError:
        known = ", ".join(modules) or "none"
        raise OptionError(
            f"no installed module {module_id!r} (installed: {known})", code="unknown-module"
        ) from None
