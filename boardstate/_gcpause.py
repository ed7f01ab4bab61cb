"""Importing with the cyclic garbage collector paused (issue 29).

Importing the engine or a game makes classes, functions and tables that are all kept: the
collector, run every 700 new objects, only walks them again and again (3-4 ms of a command's
start).  Objects freed by their last reference go at once as ever; the collector runs again
as soon as the import is done (or fails), and only if it ran before.
"""

from __future__ import annotations

import contextlib
import gc


@contextlib.contextmanager
def paused():
    """The collector paused inside (restored to what it was after, even on an error)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
