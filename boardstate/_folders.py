"""This user's boardstate folders (the XDG base directories) as strings: the cache folder is
read at every command's start, which imports neither ``pathlib`` nor the keys' module for it
(``keys.user_folder`` gives the same folder as a ``Path``)."""

from __future__ import annotations

import os

from ._errors import OptionError


class NoHomeFolder(OptionError):
    """No home folder to put a user's folder in (``$HOME`` unset, no entry for the user: a
    container's arbitrary user), and the environment names none."""


def user_folder_name(variable: str, xdg: str, home: str, *under: str) -> str:
    """A folder of this user's boardstate: ``$variable``, else ``$xdg/boardstate/...``, else
    ``~/home/boardstate/...``.  A string: ``pathlib`` (with ``urllib.parse`` and
    ``ipaddress``) is about 3 ms of a command that needs no ``Path`` (issue 29)."""
    given = os.environ.get(variable)
    if given:
        return given
    base = os.environ.get(xdg)
    if not base:
        # (as ``Path.home()`` finds it; it raised a ``RuntimeError``: every command's traceback)
        found = os.path.expanduser("~")
        if found[:1] == "~":
            raise NoHomeFolder(
                f"no home folder (HOME is not set, and this user has no entry): set HOME, "
                f"{xdg} or {variable}"
            )
        base = os.path.join(found, home)
    return os.path.join(base, "boardstate", *under)
