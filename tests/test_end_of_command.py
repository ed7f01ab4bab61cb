"""The end of a command (``cli.app.main``, ``_end``): as the program itself the command line
ends its process without the interpreter's teardown (issue 29, start-up); whoever else runs it
(a program calling ``main``, a profiler, ``python -i``, an interpreter without CPython's exit
handlers) gets ``main``'s return or ``SystemExit`` as ever, and every code exits as
``sys.exit`` would have it (the command line's own ending: test_startup's END_OF_COMMAND)."""

from __future__ import annotations

import os
import shutil
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


LEFT_OPEN = """
import atexit, gc, io, sys, types
def survey():  # (registered first: it runs last, after every other exit handler)
    gc.unfreeze()
    std = set()
    for stream in (sys.stdin, sys.stdout, sys.stderr, sys.__stdin__, sys.__stdout__,
                   sys.__stderr__):
        while stream is not None:
            std.add(id(stream))
            stream = getattr(stream, "buffer", None) or getattr(stream, "raw", None)
    left = set()
    buffered = (io.BufferedIOBase, io.TextIOBase)  # (a raw file holds nothing unwritten)
    for o in gc.get_objects():
        if isinstance(o, buffered) and not isinstance(o, (io.BytesIO, io.StringIO)) \\
                and id(o) not in std and not o.closed and o.writable():
            left.add(f"open for writing: {getattr(o, 'name', o)!r}")
        elif isinstance(o, types.GeneratorType) and o.gi_frame is not None and o.gi_frame.f_lasti >= 0 \\
                and o.gi_code.co_filename.startswith(ours):
            left.add(f"suspended: {o.gi_code.co_qualname}")
    print("left at the end:", sorted(left), file=sys.stderr)
atexit.register(survey)
import os
import boardstate
from boardstate.cli import main
ours = (os.path.dirname(boardstate.__file__), os.path.dirname(main.__code__.co_filename))
if sys.argv[1] == "keep-one":
    kept = open("kept.txt", "w")
    open("held.msgpack", "wb").close()
    held = boardstate.locked("held.msgpack")
    held.__enter__()
sys.argv = ["boardstate", *sys.argv[2:]]
main()
"""

WRITING_COMMANDS = (
    "new duel-of-the-forces --player alice --player bob --seed x -o game.msgpack",
    "move game.msgpack --as alice play luke 5 --out to-bob.msgpack",
    "apply bob.msgpack to-bob.msgpack",
    "replay game.msgpack --as bob --html game.html",
    "show game.msgpack --as bob -o table.svg",
    "view game.msgpack --as bob -o view.msgpack",
    "selfplay jedi-duel --games 3 --seed 1 --player a --player b --archive games.tar --jobs 2",
    "selfplay jedi-duel --games 3 --seed 1 --player a --player b -o games",
    "verify games --jobs 2",
    "key new judge",
    "judge new jedi-duel --player ann=a@x.example --player ben=b@x.example --store j.sqlite"
    " --key judge",
    "judge run --store j.sqlite --key judge --inbox dir:in --outbox dir:out --once",
)


def test_a_command_leaves_no_file_open_for_writing_nor_a_generator_suspended(tmp_path):
    """What the end without the teardown (``app._end``, ``os._exit``) rests on: no command
    leaves a file open for writing (its buffer would never be written) nor a generator of ours
    suspended (its ``finally`` would never run) to the interpreter's teardown.  The survey
    runs as the last exit handler, and sees a file and a lock a program kept (the first run)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    (tmp_path / "in").mkdir()
    runs = [("keep-one", "--version")] + [("alone", *c.split()) for c in WRITING_COMMANDS]
    for argv in runs:
        if argv[1] == "move":  # (bob's copy, to apply alice's move file to)
            shutil.copy(tmp_path / "game.msgpack", tmp_path / "bob.msgpack")
        done = subprocess.run(
            [sys.executable, "-c", LEFT_OPEN, *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
        )
        assert done.returncode == 0, (argv, done.stderr)
        left = done.stderr.rsplit("left at the end: ", 1)[1]
        kept = "[\"open for writing: 'kept.txt'\", 'suspended: locked']"
        assert left.strip() == (kept if argv[0] == "keep-one" else "[]"), argv
