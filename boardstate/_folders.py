"""This user's boardstate folders (the XDG base directories) as strings: the cache folder is
read at every command's start, which imports neither ``pathlib`` nor the keys' module for it
(``keys.user_folder`` gives the same folder as a ``Path``)."""

from __future__ import annotations

import os


def user_folder_name(variable: str, xdg: str, home: str, *under: str) -> str:
    """A folder of this user's boardstate: ``$variable``, else ``$xdg/boardstate/...``, else
    ``~/home/boardstate/...``.  A string: ``pathlib`` (with ``urllib.parse`` and
    ``ipaddress``) is about 3 ms of a command that needs no ``Path`` (issue 29)."""
    given = os.environ.get(variable)
    if given:
        return given
    base = os.environ.get(xdg) or os.path.join(_home(), home)
    return os.path.join(base, "boardstate", *under)


def _home() -> str:
    """The user's home folder, as ``Path.home()`` finds it."""
    home = os.path.expanduser("~")
    if home[:1] == "~":
        raise RuntimeError("Could not determine home directory.")
    return home
