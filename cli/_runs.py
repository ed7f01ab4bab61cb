"""What ``verify PATH...`` shares with ``selfplay`` (``batch``): where the work runs (``--jobs``,
``--ray``), a progress bar on a terminal, and Ctrl-C that keeps what is done.  Its own module:
``verify`` of one file imports this (its options) and not ``selfplay`` (issue 29)."""

from __future__ import annotations

import contextlib
import re
import sys
import threading

import click

import boardstate as bs

from ._errors import BAD_INPUT, fail

INTERRUPTED = 130
_ADDRESS = r"^(auto|local|ray://.+|[\w.\-\[\]:]+:\d+)$"
"""What ``--ray`` takes as an address (compiled when one is given)."""


def runner_options(command):
    """``--jobs N`` and ``--ray [ADDRESS]``."""
    command = click.option(
        "--ray",
        "ray",
        is_flag=False,
        flag_value="local",
        default=None,
        metavar="[ADDRESS]",
        help="Run on a Ray cluster: at ADDRESS (auto, HOST:PORT, ray://HOST:PORT), or alone: "
        "one started on this machine for the run (pip install 'boardstate[ray]').",
    )(command)
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(1, 4096),
        default=None,
        help="Processes of this machine to share the work (default 1; with --ray alone: the "
        "CPUs of the local Ray).",
    )(command)


def ray_and_paths(ray: str | None, paths: tuple) -> tuple[str | None, tuple]:
    """``--ray`` takes an optional address, so ``--ray replays/`` would read the folder as
    one: what does not look like an address is the first path, and Ray is local."""
    if ray is not None and not re.match(_ADDRESS, ray):
        return "local", (ray, *paths)
    return ray, paths


def make_runner(jobs: int | None, ray: str | None):
    try:
        if ray is not None:
            return bs.batch.make_runner(jobs or 0, ray)  # (0: every CPU of a local Ray)
        return bs.batch.make_runner(jobs or 1)
    except bs.BoardstateError:
        raise
    except Exception as exc:  # (Ray could not start or reach the cluster)
        fail(f"error: Ray did not start: {' '.join(str(exc).split())[:300]}", BAD_INPUT)


def progress(total: int, unit: str, done: int = 0):
    """A progress bar on stderr, only on a terminal (tqdm)."""
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # (no monitor thread: the pool's workers are forked)
    return tqdm(
        total=total,
        initial=done,
        unit=unit,
        file=sys.stderr,
        disable=not sys.stderr.isatty(),
        dynamic_ncols=True,
        leave=False,
    )


@contextlib.contextmanager
def stopping():
    """Ctrl-C sets the event the run checks between results (what is done is kept, what is
    under way is dropped); a second Ctrl-C stops at once."""
    import signal  # (a command that runs no batch does not import it: issue 29)

    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def on_interrupt(signum, frame):
        stop.set()
        signal.signal(signal.SIGINT, signal.default_int_handler)

    before = signal.signal(signal.SIGINT, on_interrupt)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, before)


def resume_hint(command: str, args, manifest) -> str:
    import shlex

    shown = list(args) if len(args) <= 24 else [*args[:23], "..."]
    return shlex.join(["boardstate", command, *shown, "--resume", str(manifest)])


def rate(count: int, seconds: float) -> str:
    return f"{seconds:.1f} s, {count / seconds if seconds > 0 else 0:.1f}/s"
