"""A review of the command line's sweep (docs/reliability.md, "The command line's sweep"): the
cases its fixes left open, each failing before its own fix."""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import os
import shlex
import subprocess
import sys

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

play_module = importlib.import_module("boardstate.cli.play")


@pytest.fixture
def game(tmp_path, monkeypatch):
    """An open Duel of the Forces game, ``g.msgpack`` in ``tmp_path``, the working folder."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.setenv("BOARDSTATE_LOCK_WAIT", "0.5")
    new = ("new", "duel-of-the-forces", "--player", "ann", "--player", "ben", "-o", "g.msgpack")
    assert CliRunner().invoke(cli, list(new)).exit_code == 0
    return tmp_path / "g.msgpack"


def _another_writer(path, data: bytes) -> None:
    """A write of another command: a new file renamed over ``path``."""
    with open(f"{path}.new", "wb") as f:
        f.write(data)
    os.replace(f"{path}.new", path)


def test_play_knows_its_own_save_from_a_write_right_after_it(game, monkeypatch):
    """play took the file's identity after its save had let the lock go: a move written in
    that moment was taken for play's own save, and play's next save wrote over it."""
    loaded = bs.load_checked(str(game))
    save = play_module._Saves(str(game), play_module._identity(str(game)))
    real_locked = bs.locked

    @contextlib.contextmanager
    def then_another_command(path, **how):
        with real_locked(path, **how) as held:
            yield held
        _another_writer(path, b"another command's game")

    monkeypatch.setattr(bs, "locked", then_another_command)
    save(loaded)
    monkeypatch.setattr(bs, "locked", real_locked)
    with pytest.raises(SystemExit) as stopped:
        save(loaded)
    assert stopped.value.code == 2
    assert game.read_bytes() == b"another command's game"


def test_play_sees_a_rewrite_in_place_that_kept_size_and_time(game):
    """A writer that rewrites the file in place and keeps its time (``cp -p``, ``touch -r``,
    ``rsync --inplace -t``) leaves device, inode, size and time as they were: only the change
    time (which no program can set) tells play the file is no longer the one it wrote."""
    loaded = bs.load_checked(str(game))
    save = play_module._Saves(str(game), play_module._identity(str(game)))
    save(loaded)
    before = os.stat(game)
    data = game.read_bytes()
    with open(game, "r+b") as f:  # (same inode, same size)
        f.write(bytes([data[0] ^ 1]))
    os.utime(game, ns=(before.st_atime_ns, before.st_mtime_ns))
    with pytest.raises(SystemExit) as stopped:
        save(loaded)
    assert stopped.value.code == 2
    assert game.read_bytes() != data


def _shell(command: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        f"exec {shlex.quote(sys.executable)} -m boardstate.cli {command}",
        shell=True,
        capture_output=True,
        timeout=120,
    )


def test_selfplay_without_standard_error_plays(game):
    """Started without standard error (``2>&-``), sys.stderr is None: selfplay's progress bar
    asked it ``isatty()``, and every game 'did not end' (exit 3)."""
    done = _shell("selfplay duel-of-the-forces -n 2 --seed s -o runs 2>&-")
    assert done.returncode == 0, done
    assert len([n for n in os.listdir("runs") if n.endswith(".msgpack")]) == 2


def test_no_word_for_standard_error_goes_to_standard_output(game):
    """``print(..., file=sys.stderr)`` with no standard error writes to standard output: the
    lock's 'waiting for another command' line went into the move file of ``move -o -``."""
    held = os.open(game, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        done = _shell("move g.msgpack --as ann play luke 5 -o - 2>&-")
    finally:
        os.close(held)
    assert done.returncode == 2 and done.stdout == b"", done


@pytest.mark.parametrize(
    "args",
    [
        ("selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "-o", "-"),
        ("judge", "site", "--store", "s.sqlite", "-o", "-"),
    ],
)
def test_dash_is_no_folder_either(game, args):
    """The sweep refused ``-`` for every output file a command writes by its name (75a1be9),
    but not for the output folders: ``selfplay -o -`` made a folder named ``-`` and wrote
    its games there, with nothing on standard output."""
    result = CliRunner().invoke(cli, list(args))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.stderr
    assert "'-' is standard output, which this command does not write" in lines[0]
    assert not os.path.exists("-")


@pytest.mark.parametrize("name", ["Zoë", "Zoe\u0308", "Łódź", "日本語", "نام"])
def test_an_error_line_shows_a_name_in_any_script_as_it_is(game, name):
    """The error line escapes control and invisible characters (a7ad5a1), not letters: a name
    in any script, with a combining mark too, is shown as typed."""
    result = CliRunner().invoke(cli, ["show", f"{name}.msgpack"])
    assert result.exit_code == 2
    assert result.stderr == f"boardstate: error: {name}.msgpack: no such file [unreadable]\n"


def test_a_bot_given_twice_is_refused(game):
    """``--bot a:easy --bot a:strong``: the last one won without a word, as an ``--option``
    given twice did before the sweep (0271ac7)."""
    args = ["play", "rock-paper-scissors", "--player", "a", "--player", "b"]
    result = CliRunner().invoke(cli, [*args, "--bot", "a:easy", "--bot", "a:strong"], input="")
    assert result.exit_code == 2, result.output
    assert result.stderr == "boardstate: error: --bot a:strong: a is given --bot twice\n"


@pytest.mark.parametrize(
    "args",
    [
        ("selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "-o", ""),
        ("verify", "g.msgpack", "--manifest", ""),
        ("board", "epic-duels", "-o", ""),
        ("new", "duel-of-the-forces", "--player", "a", "--player", "b", "-o", "n.msgpack")
        + ("--option", "deck="),
    ],
)
def test_an_empty_name_names_no_output_folder_or_data_file(game, args):
    """``''`` names no file (11f5752), but where a command asked ``if out:`` it was no output
    at all: ``selfplay -o ''`` wrote its games into the working folder, ``verify --manifest ''``
    and ``board -o ''`` wrote no manifest or picture and exited 0; ``--option deck=`` read the
    folder ``.`` (pathlib's name of ``''``): 'the deck file is a directory'."""
    before = sorted(os.listdir("."))
    result = CliRunner().invoke(cli, list(args))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, (result.exit_code, result.output)
    assert "'': an empty name names no file [no-name]" in lines[0]
    assert sorted(os.listdir(".")) == before


def test_an_output_in_a_folder_that_cannot_be_searched_is_one_line(game, monkeypatch):
    """``new -o FOLDER/x`` where FOLDER may not be searched (no ``x`` permission: ``stat``
    fails with EACCES) was an internal error: whether the output exists could not be told,
    and claim_output let that PermissionError out.  (Root may search any folder, so the test
    makes ``stat`` fail as it does for anyone else.)"""
    real_stat = os.stat

    def stat_as_a_user(path, *args, **kwargs):
        if "locked-away" in os.fspath(path):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat_as_a_user)
    new = ("new", "duel-of-the-forces", "--player", "a", "--player", "b")
    result = CliRunner().invoke(cli, [*new, "-o", "locked-away/x.msgpack"])
    assert result.exit_code == 2, result.stderr
    expected = "boardstate: error: locked-away/x.msgpack: cannot write (Permission denied)"
    assert result.stderr == f"{expected} [unwritable]\n"


def test_key_new_in_a_folder_that_cannot_be_searched_is_one_line(game, monkeypatch):
    """``key new NAME --dir FOLDER`` where FOLDER may not be searched was an internal error:
    pathlib's ``exists`` lets EACCES out.  (As root, the system calls are made to fail as they
    do for anyone else.)"""

    def as_a_user(real):
        def call(path, *args, **kwargs):
            if "locked-away" in os.fspath(path):
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return real(path, *args, **kwargs)

        return call

    for name in ("stat", "lstat", "open", "mkdir"):
        monkeypatch.setattr(os, name, as_a_user(getattr(os, name)))
    result = CliRunner().invoke(cli, ["key", "new", "zed", "--dir", "locked-away"])
    assert result.exit_code == 2, result.stderr
    assert result.stderr.startswith("boardstate: error: locked-away"), result.stderr
    assert "(Permission denied) [unwritable]\n" in result.stderr, result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("selfplay", "rock-paper-scissors", "-n", "2", "--seed", "s", "-o", "runs", "--resume", ""),
        ("new", "duel-of-the-forces", "--player", "ann", "--player", "ben", "--as", "ann")
        + ("--key", "", "-o", "p.msgpack"),
        ("judge", "new", "duel-of-the-forces", "--player", "a=a@x.example", "--player", "b=b@x")
        + ("--key", "", "--store", "s.sqlite"),
    ],
)
def test_an_empty_name_is_no_manifest_or_key_to_read(game, args):
    """``--resume ""`` was no resume at all (then 'runs/manifest.jsonl exists'), and ``--key ""``
    the default key (``new``: the player's own, without a word) or the key file ``..key``
    (``judge new``): an empty name names no file to read either."""
    assert CliRunner().invoke(cli, ["key", "new", "ann"]).exit_code == 0
    assert (
        CliRunner()
        .invoke(cli, ["selfplay", "rock-paper-scissors", "-n", "1", "--seed", "s", "-o", "runs"])
        .exit_code
        == 0
    )
    before = sorted(os.listdir("."))
    result = CliRunner().invoke(cli, list(args))
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1, (result.exit_code, result.output)
    assert "'': an empty name names no file [no-name]" in lines[0]
    # (judge new makes its store before it reads its key: a store is left by any key refused)
    assert sorted(set(os.listdir(".")) - {"s.sqlite"}) == before
