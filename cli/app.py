"""``boardstate``: create, play, exchange, replay and verify games.

The click group and its one-line usage errors; the commands live by family: setting up
(``setting_up``: modules, new, join, migrate), moves (``moves``: move, apply, inspect;
``own_records``: undo, export), looking (``looking``: show, legal, log; ``replaying``: replay,
view), checking (``checking``: verify, check), and ``play``, ``board``, ``key`` and ``judge`` in
their own files.  A command's file is imported when the command is run (or listed by
``--help``): a command starts without the others' imports (the judge's, the bots', the archives')
and without building the others' click commands."""

from __future__ import annotations

import atexit
import gc
import importlib
import os
import sys
from typing import NoReturn

import click

import boardstate as bs

from ._errors import BAD_INPUT, GuardedOutput, StandardOutputFailed, fail, output_failed

COMMANDS = {
    "modules": ("setting_up", "modules_cmd"),
    "new": ("setting_up", "new"),
    "join": ("setting_up", "join"),
    "migrate": ("setting_up", "migrate"),
    "move": ("moves", "move"),
    "undo": ("own_records", "undo"),
    "apply": ("moves", "apply"),
    "inspect": ("moves", "inspect"),
    "export": ("own_records", "export"),
    "show": ("looking", "show"),
    "legal": ("looking", "legal"),
    "replay": ("replaying", "replay"),
    "log": ("looking", "log"),
    "view": ("replaying", "view_cmd"),
    "games": ("games", "games"),
    "verify": ("checking", "verify"),
    "check": ("checking", "check"),
    "play": ("play", "play"),
    "hint": ("bots", "hint"),
    "selfplay": ("batch", "selfplay"),
    "board": ("board", "board"),
    "key": ("key", "key"),
    "judge": ("judge", "judge"),
}
"""Command name -> (the file of ``boardstate.cli`` that defines it, its click command)."""


class _Group(click.Group):
    """Usage errors exit 2 with one line (click's default prints a usage block); commands
    imported when asked for (``COMMANDS``)."""

    def list_commands(self, ctx) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx, name: str):
        if name not in COMMANDS:
            return None
        family, command = COMMANDS[name]
        return getattr(importlib.import_module(f".{family}", __package__), command)

    def invoke(self, ctx):
        """Run the command with standard output guarded (``GuardedOutput``): a write there
        that fails is told from any other file's (``one_line_errors``, ``main``); a stream the
        process was started without has a stand-in (``open_streams``)."""
        from ._errors import open_streams  # (beside its one use: app.py's imports are start-up's)

        open_streams()
        stream = sys.stdout
        guarded = sys.stdout = GuardedOutput(stream)
        try:
            return super().invoke(ctx)
        finally:
            if sys.stdout is guarded:  # (as it was, unless the command put another there)
                sys.stdout = stream

    def main(self, *args, **kwargs):
        kwargs.setdefault("standalone_mode", True)
        try:
            return super().main(
                *args,
                standalone_mode=False,
                **{k: v for k, v in kwargs.items() if k != "standalone_mode"},
            )
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.UsageError as exc:
            hint = (
                f" (try 'boardstate {exc.ctx.command_path.split(' ', 1)[1]} --help')"
                if exc.ctx and " " in exc.ctx.command_path
                else " (try 'boardstate --help')"
            )
            fail(f"usage: {exc.format_message()}{hint}", BAD_INPUT)
        except click.ClickException as exc:
            fail(exc.format_message(), exc.exit_code or BAD_INPUT)
        except click.Abort:
            fail("aborted", BAD_INPUT)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except OSError as exc:  # (--help and --version write before any command's own errors;
            # click ends a closed pipe itself, status 1)
            output_failed(exc)
        except StandardOutputFailed as exc:  # (a command's --help: written before its own errors)
            output_failed(exc.cause)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(bs.__version__, prog_name="boardstate")
def cli():
    """Play, record, replay and referee board and card games.

    Exit status: 0 done, 1 rejected by the rules or verification failed, 2 bad usage or
    unreadable input.
    """


def main() -> None:
    """The ``boardstate`` command.  As the program itself (``_alone``) it ends the process once
    the command is done (``_end``); called by another program it returns, or raises
    ``SystemExit``, as it always has."""
    alone = _alone(sys._getframe(1))
    code = None
    try:
        cli.main(prog_name="boardstate")
    except SystemExit as stop:
        if not alone:
            raise
        code = stop.code  # (the exception goes here: what its frames held is released now)
    finally:
        # The process ends here: the interpreter's last full collection would walk every object
        # the command made, to free memory the system takes back anyway (10-15 ms of an Epic
        # Duels command, issue 29).  Objects are still released as their last reference goes;
        # files are closed where they are written, never left to the collector.
        gc.freeze()
    if alone:
        _end(code)


def _end(code) -> NoReturn:
    """Exit with ``code`` as ``sys.exit`` would, without the interpreter's teardown when
    nothing needs it: the exit handlers run and the standard streams are flushed, then the
    process ends (``os._exit``), not taking apart every module and object the command made
    (2-2.5 ms of an Epic Duels command, issue 29).  A code that is a message or not a status
    (0-255), another thread still running, or a stream that cannot be flushed: the
    interpreter's own exit, as ever."""
    threading = sys.modules.get("threading")
    if not (code is None or (isinstance(code, int) and 0 <= code <= 255)) or (
        threading and threading.active_count() > 1
    ):
        sys.exit(code)
    _flushed_or_exit(code)
    atexit._run_exitfuncs()
    atexit._clear()  # (run once, whichever way the process ends)
    _flushed_or_exit(code)
    os._exit(code or 0)


def _alone(caller) -> bool:
    """Whether ``main`` is the program, called by the ``boardstate`` script or ``python -m
    boardstate.cli`` (through runpy) with nothing of anyone else's to run after it: not by a
    program that catches its ``SystemExit``, a profiler, a debugger, coverage or ``python
    -i`` (each does its work once ``main`` has raised it), nor on an interpreter without
    CPython's exit handlers to call (PyPy flushes unclosed files only at its own teardown)."""
    if (
        sys.implementation.name != "cpython"
        or not hasattr(atexit, "_run_exitfuncs")
        or not hasattr(atexit, "_clear")
        or sys.flags.inspect
        or sys.gettrace() is not None
        or sys.getprofile() is not None
        or caller.f_code.co_name != "<module>"
        or caller.f_globals.get("__name__") != "__main__"
    ):
        return False
    monitoring = getattr(sys, "monitoring", None)  # (3.12: cProfile, coverage's sysmon core)
    if monitoring is not None and any(monitoring.get_tool(tool) for tool in range(6)):
        return False
    frame = caller.f_back
    while frame is not None:
        if frame.f_globals.get("__name__") != "runpy":
            return False
        frame = frame.f_back
    return True


def _flushed_or_exit(code) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except Exception:  # (a closed pipe, say: the interpreter reports it as it always has)
        sys.exit(code)
