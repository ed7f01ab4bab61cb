"""The end of a command (``cli.app.main``, ``_end``): as the program itself the command line
ends its process without the interpreter's teardown (issue 29, start-up); whoever else runs it
(a program calling ``main``, a profiler, ``python -i``, an interpreter without CPython's exit
handlers) gets ``main``'s return or ``SystemExit`` as ever, and every code exits as
``sys.exit`` would have it (the command line's own ending: test_startup's END_OF_COMMAND)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from test_startup import END_OF_COMMAND

CALLED_BY_A_PROGRAM = """
import sys
sys.argv = ["boardstate", *sys.argv[1:]]
from boardstate.cli import main
def run():
    try:
        print("returned", main())
    except SystemExit as stop:
        print("raised", stop.code)
run()
print("the program goes on")
"""


@pytest.mark.parametrize(
    ("argv", "said"), [(["--version"], "returned None"), (["show"], "raised 2")]
)
def test_main_called_by_another_program_returns_or_raises_as_ever(argv, said):
    """``main`` ends the process only as the program itself: a program calling it gets its
    return or its ``SystemExit`` back and goes on."""
    done = subprocess.run(
        [sys.executable, "-c", CALLED_BY_A_PROGRAM, *argv], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(f"{said}\nthe program goes on\n")


def test_a_profiler_or_python_i_around_the_command_line_still_does_its_work(tmp_path):
    """``python -m cProfile -o FILE -m boardstate.cli`` writes its profile once the command has
    exited (how commands are profiled here: docs/performance.md), and ``python -i`` gets its
    prompt: both run after ``main`` has raised ``SystemExit``."""
    out = tmp_path / "profile.out"
    command = ["-m", "boardstate.cli", "--version"]
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(out), *command], capture_output=True
    )
    assert done.returncode == 0 and out.stat().st_size > 0, done.stderr
    done = subprocess.run(
        [sys.executable, "-i", *command], stdin=subprocess.DEVNULL, capture_output=True, text=True
    )
    assert done.returncode == 0 and ">>>" in done.stderr, done.stderr


@pytest.mark.parametrize("code", [0, 255, 256, -1, 2**40, True])
def test_the_end_of_a_command_exits_with_any_code_as_sys_exit_would(code):
    """``_end`` gives every code ``sys.exit`` takes the status (and output) ``sys.exit`` gives
    it: a status past 0-255 is the interpreter's to reduce (``os._exit`` refuses one past a C
    int with a traceback)."""
    ours = subprocess.run(
        [sys.executable, "-c", f"from boardstate.cli.app import _end; _end({code!r})"],
        capture_output=True,
        text=True,
    )
    python = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.exit({code!r})"], capture_output=True, text=True
    )
    assert (ours.returncode, ours.stderr) == (python.returncode, python.stderr)


def test_an_interpreter_without_cpythons_exit_handlers_exits_as_ever():
    """``atexit._run_exitfuncs`` and ``atexit._clear`` are CPython's own: where they are
    missing, the command exits by ``sys.exit`` (its exit handlers run once, its status kept)."""
    script = "import atexit\ndel atexit._run_exitfuncs\n" + END_OF_COMMAND
    for argv, status in ((["--version"], 0), (["show"], 2)):
        done = subprocess.run(
            [sys.executable, "-c", script, "alone", *argv], capture_output=True, text=True
        )
        assert done.returncode == status, done.stderr
        assert done.stderr.endswith("exit handler ran\n") and done.stderr.count("handler") == 1
