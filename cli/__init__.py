"""The ``boardstate`` command (click)."""

import gc

# What the command line imports (the engine, click, its commands) is kept to the end of the
# process: the collector is off while it is made, and it is frozen after (``gc.freeze``), so
# that no collection walks it again (those walks were 1-3 ms of a command, issue 29).  As the
# engine's own pause, the collector is left as the program had it.
_collecting = gc.isenabled()
gc.disable()
try:
    from .app import cli, main
finally:
    gc.freeze()
    if _collecting:
        gc.enable()

__all__ = ["cli", "main"]
