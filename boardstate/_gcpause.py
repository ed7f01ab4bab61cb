"""Importing with the cyclic garbage collector paused (issue 29).

Importing the engine or a game makes classes, functions and tables that are all kept: the
collector, run every 700 new objects, only walks them again and again (3-4 ms of a command's
start).  Objects freed by their last reference go at once as ever; the collector runs again
as soon as the import is done (or fails), and only if it ran before.

Its first run would then walk everything the import made (2-3 ms after the engine's import,
about 2 ms after Epic Duels'): what is made inside is put with the old objects instead
(``gc.freeze`` then ``gc.unfreeze``: the oldest generation, walked only by a full collection,
which frees any cycle of it as ever), or, in a program that has frozen what it imported
before (the command line keeps its imports to its end), frozen with them.  Only when the
import added a module: ``gc.freeze`` takes every object alive, so a lookup that imports
nothing (a module already imported, or one that is not there: a file naming an unknown game,
which a judge may be sent again and again) must not freeze that program's garbage for good.
"""

from __future__ import annotations

import contextlib
import gc
import sys


@contextlib.contextmanager
def paused():
    """The collector paused inside (restored to what it was after, even on an error); what
    was made inside put with the old objects, or frozen if the program froze its own."""
    was, modules = gc.isenabled(), len(sys.modules)
    gc.disable()
    try:
        yield
    finally:
        if len(sys.modules) != modules:  # (an import made what it keeps: put away)
            frozen = gc.get_freeze_count()
            gc.freeze()
            if not frozen:
                gc.unfreeze()
        if was:
            gc.enable()
