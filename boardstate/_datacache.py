"""A module's built-in data files as their parsed values, kept between commands (issue 29).

Parsing a data file (TOML, then structured and checked with cattrs) is a pure function of its
text and of the installed code, yet every command of a game with data files did it again, and
imported cattrs to do it: a quarter of an Epic Duels command.  The parsed value of a built-in
file is kept in the user's cache folder (``$BOARDSTATE_CACHE``, or
``$XDG_CACHE_HOME/boardstate``, ``~/.cache/boardstate``; the folder the copies' memory uses),
keyed by a digest of the file's text, its name, the parse function, Python's version and every
file of the engine and of the module's package (their names, sizes and times: ``_cache``'s
fingerprint of the code, and the package's data files): other code or other data is never
answered from it.  A file of it that is not this user's alone, or that
does not read back, is ignored and the file parsed as before; a player's own data file (an
option) is never kept.  A table a module's rules derive from its built-in data and code alone
(``kept``: Epic Duels' tables of a board) is kept the same way, under the same key.  The key
names a function by its module and qualified name: only a function found so, in the engine's or
the package's code, is kept (``_unkeyable``); what it reads besides its arguments, the code and
the package's data files is no part of the key, and cannot be checked.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import sys
from importlib import import_module
from types import FunctionType

from . import _cache
from ._cache import HIGHEST, cache_path, code_fingerprint, pickling, put, read_own


def parsed(parse, text: str, name: str, package: str):
    """``parse(text, name)``, or the value it gave before for the same key; a ``parse`` the key
    cannot name (``_unkeyable``: a closure, a lambda, a ``partial``, ...) parses every time."""
    if _unkeyable(parse, package, (text, name)) is None and _keys_code(package):
        return _kept(parse, package, (text, name))
    return parse(text, name)


def kept(make, package: str, *args: str):
    """``make(*args)``, or the value it gave before for the same arguments: for a value made
    from ``package``'s built-in data files and code alone (a parsed file; a table a rule
    derives from a board), whose key is the code, the package's data files, the function
    and the arguments' text.  A ``make`` or arguments the key cannot name are a TypeError
    (a module's mistake, found by its first test); what ``make`` reads besides them (an option
    or a player's file, the environment, a file outside the package, another package's data, a
    global set as it runs, a library outside the engine) no key can see and nothing checks: the
    caller's promise (docs/writing-a-module.md)."""
    wrong = _unkeyable(make, package, args)
    if wrong is not None:
        raise TypeError(f"kept({getattr(make, '__qualname__', make)!r}): {wrong}")
    if not _keys_code(package):  # (code in an archive: no files' times to key it by)
        return make(*args)
    return _kept(make, package, args)


def _kept(make, package: str, args: tuple[str, ...]):
    path = cache_path("data", _key(make, package, args))
    try:
        return pickling.loads(read_own(path))  # (None, not this user's alone: a TypeError)
    except Exception:  # (missing, not ours, or written by a run that was cut short)
        pass
    value = make(*args)
    try:
        data = pickling.dumps(value, protocol=HIGHEST)
    except Exception:  # (a value that cannot be pickled: made again next time)
        return value
    put(path, data)  # (a folder that cannot be written: made again next time)
    return value


def _unkeyable(make, package: str, args: tuple) -> str | None:
    """Why ``make(*args)`` cannot be named by its module, its qualified name and ``args`` (the
    key), or None.  A closure, a nested function or lambda (one name, many functions: their
    defaults differ), a ``partial`` or a bound method hold values no key names; code outside
    the engine's and ``package``'s folders is not in the code's fingerprint."""
    if any(type(a) is not str for a in args):
        return "its arguments must be strings (the key is their text)"
    if type(make) is not FunctionType:
        return "not a function (a partial, a method or a class holds more than the key names)"
    if make.__closure__ is not None:
        return "a closure (what it holds is no part of the key)"
    found = sys.modules.get(make.__module__)
    for name in make.__qualname__.split("."):
        found = getattr(found, name, None)
    if found is not make:
        return "not found by its name at its module's top level (a nested function, a lambda)"
    code = getattr(sys.modules[make.__module__], "__file__", None) or ""
    if not any(code.startswith(root + os.sep) for root in _code_roots(package)):
        return f"its module {make.__module__} is neither the engine's nor {package}'s code"
    return None


def _code_roots(package: str) -> tuple[str, str]:
    """The folders the code's fingerprint walks (``_cache.code_fingerprint``)."""
    return os.path.dirname(_cache.__file__), os.path.dirname(import_module(package).__file__)


@functools.lru_cache(maxsize=8)
def _keys_code(package: str) -> bool:
    """Whether the engine's and the package's code are folders of files (their sizes and times
    key what is kept): code in an archive (a zip on the path) is not, and nothing is kept."""
    return all(os.path.isdir(root) for root in _code_roots(package))


def _key(make, package: str, args: tuple[str, ...]) -> str:
    init = import_module(package).__file__
    sha = hashlib.sha256(code_fingerprint(init) + data_key(init))
    for part in (make.__module__, make.__qualname__, *args):
        data = part.encode("utf-8", "surrogatepass")
        sha.update(len(data).to_bytes(8, "big") + data)  # (length first: no two lists meet)
    return sha.hexdigest()


def data_key(package_file: str) -> bytes:
    """The data files of ``package_file``'s folder (``_data_files``): what is made from them is
    keyed by it as well as by the code (a parse kept here, a game saved by ``_checked``)."""
    return _data_files(os.path.dirname(package_file))


@functools.lru_cache(maxsize=8)
def _data_files(package_folder: str) -> bytes:
    """The package's other files (a data file's parse may read another: a deck its cast),
    by name, size and time; ``code_fingerprint`` names the code."""
    parts = []
    for folder, subfolders, files in os.walk(package_folder):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(f for f in files if not f.endswith(".py")):
            try:
                st = os.stat(f"{folder}/{name}")
            except OSError:  # (gone since listed, or a link to nothing: no data)
                continue
            if stat.S_ISREG(st.st_mode):  # (a file, or a link to one)
                parts.append(f"{folder}/{name}\0{st.st_mtime_ns}\0{st.st_size}")
    return hashlib.sha256("\0".join(parts).encode()).digest()
