"""``rules_class``: a module's Decider class made from the functions of its parts.

Every module keeps each part of its rules in the file that owns it (``_legal.legal``,
``_notation.parse``, ``_decide.decide``, ``_evolve.evolve``, ...), and its ``__init__`` names
them once::

    JediRules = rules_class(
        "JediRules",
        initial=_rules.initial,
        legal=_legal.legal,
        ...
    )
    MODULE = Module(SPEC, JediRules())

The parts are plain functions, held as static methods: the engine calls them with no layer in
between.  A part a module does not give stays absent, so the engine's default applies (an
``explain`` not given: a generic refusal; no ``svg``: no pictures).  A misspelt or missing part
is refused when the module is imported, not when a game first needs it.  The class may be
subclassed to vary one part (a test's broken module); its instances hold nothing.

A part only some commands call (the pictures: ``render``, ``to_json``, ``svg``) may be given as
``on_first_use("pkg.module._svg", "svg")``: its file, and what it imports (``xml.etree``, the
board drawing), is imported when the part is first called, so a command that draws nothing
does not pay for it (issue 29).  The conformance suite imports every such part
(``resolve_parts``): a misspelt module or function fails there, not in a player's first
``show``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module

# The parts the engine asks of every module (the ``Rules`` protocol, boardstate._module)...
REQUIRED = (
    "initial",
    "start",
    "to_act",
    "legal",
    "parse",
    "notation",
    "decide",
    "evolve",
    "outcome",
    "view",
)
# ...and those it supplies a default for when a module has none.
OPTIONAL = (
    "prepare",
    "choice",
    "is_legal",
    "legal_pick",
    "explain",
    "render",
    "to_json",
    "svg",
    "report",
    "tell",
    "refuse_trust",
    "determinize",
    "unseen",
    "pinned",
)


def rules_class(name: str, /, **parts: Callable) -> type:
    """A class named ``name`` whose methods are ``parts``, each a plain function (no ``self``)
    held as a static method.  The required parts must all be given; an unknown one is refused
    (``TypeError``)."""
    unknown = sorted(set(parts) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise TypeError(
            f"{name}: no rules part {', '.join(unknown)} (parts: {', '.join(REQUIRED + OPTIONAL)})"
        )
    missing = [p for p in REQUIRED if p not in parts]
    if missing:
        raise TypeError(f"{name}: the rules need {', '.join(missing)}")
    for part, fn in parts.items():
        if not callable(fn):
            raise TypeError(f"{name}.{part}: {fn!r} is not callable")
    where = "\n".join(
        f"- ``{p}``: ``{_origin(parts[p])}``" for p in REQUIRED + OPTIONAL if p in parts
    )
    namespace = {p: staticmethod(fn) for p, fn in parts.items()}
    namespace["__slots__"] = ()
    namespace["__doc__"] = f"The rules of the module, from its parts:\n\n{where}\n"
    namespace["__module__"] = _caller_module()
    namespace["__repr__"] = lambda self: f"<{type(self).__name__}>"
    return type(name, (), namespace)


def _origin(fn) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _caller_module() -> str:
    return sys._getframe(2).f_globals.get("__name__", __name__)


def on_first_use(module: str, name: str) -> Callable:
    """The function ``name`` of ``module``, the module imported when it is first called.
    Nothing is imported now (that is the point), so a misspelt name is found by the
    conformance suite (``resolve_parts``), or else by the first call: an ``ImportError``
    naming both either way."""
    found: list[Callable] = []

    def resolve() -> Callable:
        if not found:
            found.append(_named(module, name))
        return found[0]

    def part(*args, **kwargs):
        return (found[0] if found else resolve())(*args, **kwargs)

    part.__module__, part.__name__, part.__qualname__ = module, name, name
    part.__doc__ = f"``{module}.{name}``, imported when first called."
    part.resolve = resolve  # type: ignore[attr-defined]
    return part


def _named(module: str, name: str) -> Callable:
    """``module``'s function ``name``, imported; an ``ImportError`` that names both if there
    is no such module or function."""
    where = f"on_first_use({module!r}, {name!r})"
    try:
        found = import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name is None or not f"{module}.".startswith(f"{missing.name}."):
            raise  # (the module is there, and imports one that is not: its own error)
        raise ImportError(f"{where}: no module {module!r}") from None
    fn = getattr(found, name, None)
    if not callable(fn):
        raise ImportError(f"{where}: module {module!r} has no function {name!r}")
    return fn


def resolve_parts(rules) -> dict[str, Callable]:
    """Every part ``rules`` gives, by name, each ``on_first_use`` names imported and found now
    (a test's question, never a command's: a misspelt name is refused with an ``ImportError``
    that names the part, the module and the function)."""
    parts = {}
    for part in REQUIRED + OPTIONAL:
        fn = getattr(rules, part, None)
        if fn is None:
            continue
        try:
            parts[part] = fn.resolve() if hasattr(fn, "resolve") else fn
        except ImportError as wrong:
            raise ImportError(f"{type(rules).__name__}.{part}: {wrong}") from wrong
    return parts
