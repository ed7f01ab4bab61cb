"""The user's cache folder, which only ever saves work: what this user's boardstate checked
of a copy and the game it found there (``_checked``), and a module's data files parsed
(``_datacache``).  A file of it is read only if it and its folder are this user's alone, never
through a link, and is written whole or not at all; what cannot be read or written there costs
time, never safety.  Its paths are strings (``os.path``): every command reads this folder at
start, and ``pathlib`` (with ``urllib.parse`` and ``ipaddress``) is 3 ms of a command that
needs no ``Path`` (issue 29)."""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import sys
from collections.abc import Iterable

try:  # (the C pickler ``pickle`` itself uses: importing ``pickle`` is 1 ms of every start)
    import _pickle as pickling
except ImportError:  # (an interpreter without it)
    import pickle

    pickling = pickle

HIGHEST = -1
"""Pickle's highest protocol, as ``pickle.HIGHEST_PROTOCOL`` (a negative protocol asks for it);
Python's version, in every key of the cache, names it."""
MAX_BYTES = 1 << 28  # (the largest file of the cache read back)


def cache_dir() -> str | None:
    """Where the cache is kept (the environment decides); None: nowhere, with no home folder
    and no folder named (the commands run without it: it only saves time)."""
    from ._folders import NoHomeFolder, user_folder_name

    try:
        return user_folder_name("BOARDSTATE_CACHE", "XDG_CACHE_HOME", ".cache")
    except NoHomeFolder:
        return None


def cache_path(*names: str) -> str | None:
    """A file of the cache, ``names`` joined to its folder (None: no cache folder)."""
    folder = cache_dir()
    return None if folder is None else os.path.join(folder, *names)


def put(path: str | None, data: bytes | Iterable[bytes]) -> None:
    """A new file put in place (a crash leaves the old one, or none), readable by this user
    only; a folder that cannot be written leaves it as it was (the next command checks more,
    nothing else), and so does no cache folder (``path`` None).  ``data``: its bytes, or its
    parts in order (streamed)."""
    if path is None:
        return
    from ._fileformat import new_temporary  # (not tempfile: shutil, the compressors, random)

    folder, name = os.path.split(path)
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)  # (the new parents: the umask's mode)
        fd, tmp = new_temporary(folder, f".{name}.", "")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data) if type(data) is bytes else f.writelines(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass


@functools.lru_cache(maxsize=8)
def code_fingerprint(rules_file: str) -> bytes:
    """The installed engine and the game module's package, as their source files' sizes and
    times, and Python's version: a state written by other code is not read back.  (A game's
    package inside the engine's folder, as installed, is walked once; every file is read
    with the engine's.)"""
    parts = [sys.version]
    roots = sorted({os.path.dirname(__file__), os.path.dirname(rules_file)})
    for root in (r for r in roots if not any(r.startswith(o + os.sep) for o in roots)):
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
            for name in sorted(f for f in files if f.endswith(".py")):
                try:
                    st = os.stat(f"{folder}/{name}")
                except OSError:  # (gone since listed, or a link to nothing: no code)
                    continue
                parts.append(f"{folder}/{name}\0{st.st_mtime_ns}\0{st.st_size}")
    return hashlib.sha256("\0".join(parts).encode()).digest()


def _own(st: os.stat_result) -> bool:
    """This user's, a regular file or folder, and nobody else may write it."""
    kind = stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)
    return kind and st.st_uid == os.getuid() and not st.st_mode & 0o022


def read_own(path: str | None) -> bytes | None:
    """The bytes of ``path`` if it and its folder are this user's alone (never through a
    link: the file is checked as opened), else None."""
    fd = open_own(path)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_BYTES:
            return None
        return f.read(size)  # (not the limit: read() reserves what it is asked for)


def open_own(path: str | None) -> int | None:
    """A descriptor of ``path`` opened to read, if it and its folder are this user's alone
    (never through a link: the file is checked as opened), else None (and for no path: no
    cache folder)."""
    if path is None:
        return None
    folder, name = os.path.split(path)
    flags = os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:  # (the folder checked is the folder read: opened once, not looked up twice by name)
        at = os.open(folder, flags | os.O_DIRECTORY)
    except OSError:  # (none, or a link: ``O_NOFOLLOW``)
        return None
    try:
        if not _own(os.fstat(at)):
            return None
        fd = os.open(name, flags, dir_fd=at)
    finally:
        os.close(at)
    if not _own(os.fstat(fd)):
        os.close(fd)
        return None
    return fd
