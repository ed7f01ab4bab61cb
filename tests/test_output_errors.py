"""Standard output that cannot be written: a full disk is one line on stderr and exit 2, as any
failed write (docs/reliability.md), for ``--help`` and ``--version`` too (click writes them
before any command's own error handling) and for a command's own output (standard output is
guarded while it runs: ``cli._errors.GuardedOutput``); a closed pipe stays as it was (its reader has had all
it wanted): click's exit 1 before a command, a command's exit 0, silently both."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

FULL = "boardstate: error: standard output: cannot write (No space left on device)\n"


def _run(argv, stdout, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "boardstate.cli", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
    )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["new", "--help"], ["judge", "-h"]])
def test_a_full_disk_under_help_or_version_is_one_line_and_exit_2(argv):
    with open("/dev/full", "w") as full:
        done = _run(argv, full)
    assert (done.returncode, done.stderr) == (2, FULL)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_a_full_disk_under_a_commands_own_output_is_one_line_and_exit_2(tmp_path):
    """``modules``, ``log FILE``, ``show FILE`` and a move file to ``-`` (bytes, written to
    standard output's buffer) on a full disk: one line, exit 2, as any failed write (was an
    internal error, exit 3)."""
    new = ["new", "duel-of-the-forces", "--player", "a", "--player", "b", "--seed", "x"]
    made = _run([*new, "-o", "game.msgpack"], subprocess.DEVNULL, tmp_path)
    assert made.returncode == 0, made.stderr
    move = ["move", "game.msgpack", "play 3", "--as", "a", "--out", "-"]
    for argv in (["modules"], ["log", "game.msgpack"], ["show", "game.msgpack"], move):
        with open("/dev/full", "w") as full:
            done = _run(argv, full, tmp_path)
        assert (done.returncode, done.stderr) == (2, FULL), argv


def _closed_pipe_run(argv, cwd=None):
    read, write = os.pipe()
    os.close(read)
    try:
        return _run(argv, write, cwd)
    finally:
        os.close(write)


def test_a_closed_pipe_stays_as_it_was(tmp_path):
    """``boardstate --version | true`` and ``boardstate log FILE | head -1``, the reader gone
    before the first line: silent, status 1 (click's) and 0 (``one_line_errors``)."""
    done = _closed_pipe_run(["--version"])
    assert (done.returncode, done.stderr) == (1, "")
    new = ["new", "duel-of-the-forces", "--player", "a", "--player", "b", "--seed", "x"]
    made = _run([*new, "-o", "game.msgpack"], subprocess.DEVNULL, tmp_path)
    assert made.returncode == 0, made.stderr
    done = _closed_pipe_run(["log", "game.msgpack"], tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
