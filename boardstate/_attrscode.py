"""attrs' generated methods kept compiled between commands, as Python keeps a module's bytecode.

attrs writes each class's ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` as Python source
and compiles it whenever the class is made: at every start, for the engine's records and every
game's events, a third of an Epic Duels command's CPU (issue 29).  The compiled code is a pure
function of that source, its file name and the interpreter, so it is kept in the user's cache
folder (``_cache``: read only if this user's alone, written whole or not at all) under the
interpreter's version, keyed by the file name and the source, and given back to attrs, which
runs it as it would have run its own.  One thing in the source differs from process to
process: ``__hash__`` starts from the hash of the class's name, and string hashes are salted
per process; the key holds a fixed stand-in, put back as this process's number in the code.

attrs has no hook for this: its module function ``_compile_and_eval`` is replaced.  An attrs
without that function (another version) is left alone, and every class compiles as before.
Only boardstate's own classes (the engine's and the shipped games') go through the kept code,
and attrs' own (its validators, ``Attribute``, ``Factory``: about 30 scripts, 3 ms of every
command), which it makes as it is imported, when boardstate imports it first: for that import
only, ``compile`` of attrs' scripts is answered from the kept code.  Any other class of the
process (a program's, a plugin's) is handed to attrs' own function, and nothing of it is kept.
"""

from __future__ import annotations  # (as attrs' own module: the same compiler flags)

import atexit
import builtins
import marshal
import sys
from types import CodeType

from ._cache import cache_path, put, read_own

STAND_IN = 0x5EEDC0DE5EEDC0DE
"""Put where the source holds its process's hash of the class's name."""
SALTED = ("<attrs generated methods ", "<attrs generated __hash__ ")
"""How attrs names the sources that hold a ``__hash__`` (``<attrs generated methods mod.Class>``,
or the method alone); its seed is the hash of ``<attrs generated hash mod.Class>``."""
OURS = "boardstate."
"""Whose classes are kept: attrs' file name ends in the class's module and name."""
ATTRS_OWN = "attr."
"""attrs' own classes, made as it is imported (kept when boardstate imports it)."""
_COMPILE = builtins.compile
"""Python's own, whatever ``compile`` is while attrs is imported (``_import_attrs``)."""
MOST = 600
"""Past this many kept (the shipped engine and games make about 200 classes), the file keeps
only what this process used: the code of classes since changed (an edited checkout) does not
grow it for every command to read."""


def cache_file() -> str | None:
    return cache_path("attrs", f"{sys.implementation.cache_tag}-{sys.hexversion:x}.marshal")


class _Codes:
    """The compiled code kept, what this process used, and whether it added any."""

    def __init__(self, original, ours=None) -> None:
        self.original, self.ours = original, ours or _ours
        self.kept = _read()
        self.used: dict[str, object] = {}
        self.added = False

    def compile_and_eval(self, script, globs, locs=None, filename="") -> None:
        """attrs' ``_compile_and_eval``, with the code compiled before if there is any."""
        if not self.ours(filename):
            return self.original(script, globs, locs, filename)
        eval(self.code(script, filename), globs, locs)

    def code(self, script: str, filename: str):
        """The code of attrs' ``script``: kept, or compiled now (and kept)."""
        script, salt = _without_salt(script, filename)
        key = f"{filename}\0{script}"
        code = self.kept.get(key)
        if code is None:
            code = _COMPILE(script, filename, "exec")
            self.kept[key] = code
            self.added = True
        self.used[key] = code
        return _with_salt(code, salt) if salt is not None else code

    def save(self) -> None:
        """What this process compiled, added to the file (as others left it meanwhile)."""
        if not self.added:
            return
        codes = _read() | self.used
        put(cache_file(), marshal.dumps(codes if len(codes) <= MOST else self.used))


def _read() -> dict:
    try:
        codes = marshal.loads(read_own(cache_file()))  # (None, not ours: a TypeError)
    except Exception:  # (missing, not ours, or cut short)
        return {}
    return codes if type(codes) is dict else {}


def _ours(filename: str) -> bool:
    """Whether attrs' file name (``<attrs generated KIND module.Class>``) names a class of ours."""
    return filename.startswith("<attrs generated ") and filename.split(" ", 3)[-1].startswith(OURS)


def _attrs_own(filename: str) -> bool:
    """Whether attrs' file name names one of attrs' own classes."""
    return filename.startswith("<attrs generated ") and filename.split(" ", 3)[-1].startswith(
        ATTRS_OWN
    )


def _without_salt(script: str, filename: str) -> tuple[str, int | None]:
    """The source with the stand-in for its hash seed, and the seed (None: none found)."""
    kind = next((prefix for prefix in SALTED if filename.startswith(prefix)), None)
    if kind is None:
        return script, None
    salt = hash(f"<attrs generated hash {filename.removeprefix(kind)}")
    line = f" {salt},\n"
    if script.count(line) != 1:
        return script, None
    return script.replace(line, f" {STAND_IN},\n"), salt


def _with_salt(code, salt: int):
    """``code`` with its ``__hash__``'s stand-in for the seed made ``salt`` again."""
    consts = list(code.co_consts)
    for at, inner in enumerate(consts):
        if type(inner) is CodeType and inner.co_name == "__hash__":
            own = tuple(salt if type(c) is int and c == STAND_IN else c for c in inner.co_consts)
            consts[at] = inner.replace(co_consts=own)
    return code.replace(co_consts=tuple(consts))


def install() -> None:
    """attrs compiles through the kept code from now on (once a process), its own classes
    too if it is imported here."""
    codes = None
    if "attr" not in sys.modules:
        codes = _Codes(None, _attrs_own)
        _import_attrs(codes)
    from attr import _make

    original = getattr(_make, "_compile_and_eval", None)
    if isinstance(getattr(original, "__self__", None), _Codes):
        return  # (installed already)
    if getattr(original, "__code__", None) is None or original.__code__.co_varnames[:4] != (
        "script",
        "globs",
        "locs",
        "filename",
    ):
        return  # (another attrs: its own way)
    if codes is None:
        codes = _Codes(original)
    else:
        codes.original, codes.ours = original, _ours
    _make._compile_and_eval = codes.compile_and_eval
    atexit.register(codes.save)


def _import_attrs(codes: _Codes) -> None:
    """``import attr``, its own classes' scripts answered from ``codes`` (attrs compiles them
    with ``compile(script, filename, "exec")``: for that import only, ``compile`` is a function
    that answers those and hands anything else to Python's own, as it was called)."""

    def kept_compile(source, filename, mode, *more, **options):
        if mode == "exec" and not more and not options and type(source) is str:
            if type(filename) is str and _attrs_own(filename):
                return codes.code(source, filename)
        return _COMPILE(source, filename, mode, *more, **options)

    builtins.compile = kept_compile
    try:
        import attr  # noqa: F401
    finally:
        builtins.compile = _COMPILE


install()  # (imported first by the package: before any attrs class of it is made)
