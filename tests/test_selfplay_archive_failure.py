"""A self-play run that fails mid-run keeps a whole archive of the games it played, as one
stopped by Ctrl-C does (``cli.batch.selfplay`` closes its writer in a ``finally``): the command
line ends its process without the interpreter's teardown (``cli.app._end``), so an archive not
closed lost its buffered tail and its end-of-archive mark, and its manifest named games it did
not hold.  The run is the real command in a subprocess, its third game failing."""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile

FAILING_THIRD_GAME = """
import sys
import boardstate.batch as batch
played = batch.play_games
def failing(*args, **kwargs):
    for n, game in enumerate(played(*args, **kwargs)):
        if n == 2:
            raise RuntimeError("injected: the third game fails")
        yield game
batch.play_games = failing
sys.argv = ["boardstate", *sys.argv[1:]]
from boardstate.cli import main
main()
"""

FULL_DISK_IN_THE_THIRD_GAME = """
import errno, sys, tarfile
copied = tarfile.copyfileobj
calls = []
def half_then_full(src, dst, length=None, *args, **kwargs):
    calls.append(length)
    if len(calls) == 3:  # (the third game's data: its header and half its bytes are written)
        dst.write(src.read(length // 2))
        raise OSError(errno.ENOSPC, "No space left on device")
    return copied(src, dst, length, *args, **kwargs)
tarfile.copyfileobj = half_then_full
sys.argv = ["boardstate", *sys.argv[1:]]
from boardstate.cli import main
main()
"""

RUN = ["selfplay", "jedi-duel", "--games", "4", "--seed", "1", "--player", "a", "--player", "b"]


def _selfplay(tmp_path, script, *argv):
    command = [sys.executable, *script, *RUN, *argv]
    return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)


def _resumes_to_the_bytes_of_an_uninterrupted_run(tmp_path):
    resumed = _selfplay(
        tmp_path, ["-m", "boardstate.cli"], "--archive", "games.tar", "--resume", "games.tar.jsonl"
    )
    assert resumed.returncode == 0, resumed.stderr
    straight = _selfplay(tmp_path, ["-m", "boardstate.cli"], "--archive", "straight.tar")
    assert straight.returncode == 0, straight.stderr
    assert (tmp_path / "games.tar").read_bytes() == (tmp_path / "straight.tar").read_bytes()


def test_a_failing_run_keeps_a_whole_archive_that_resumes_to_the_same_bytes(tmp_path):
    failed = _selfplay(tmp_path, ["-c", FAILING_THIRD_GAME], "--archive", "games.tar")
    assert failed.returncode == 3, failed.stderr
    assert "injected: the third game fails" in failed.stderr.splitlines()[-1]
    manifest = (tmp_path / "games.tar.jsonl").read_text().splitlines()
    with tarfile.open(tmp_path / "games.tar") as tar:  # (strict: a torn member is an error)
        members = tar.getmembers()
        assert [m.name for m in members] == ["jedi-duel-000000.msgpack", "jedi-duel-000001.msgpack"]
        assert all(len(tar.extractfile(m).read()) == m.size > 0 for m in members)
    assert len(manifest) == 2
    data = (tmp_path / "games.tar").read_bytes()
    assert len(data) % tarfile.RECORDSIZE == 0 and data.endswith(bytes(2 * tarfile.BLOCKSIZE))
    _resumes_to_the_bytes_of_an_uninterrupted_run(tmp_path)


def test_a_member_torn_by_a_full_disk_is_cut_off_before_the_archive_is_closed(tmp_path):
    """The disk fills half-way through the third game's bytes: the archive on disk is cut back
    to the end of the second game (``_Archive.add``), then closed: a clean tar of exactly the
    manifest's games, nothing of the torn one after them (before: its header and half its data
    stayed, read as a third member), and ``--resume`` makes the bytes of an uninterrupted run."""
    failed = _selfplay(tmp_path, ["-c", FULL_DISK_IN_THE_THIRD_GAME], "--archive", "games.tar")
    assert failed.returncode == 2, failed.stderr  # (a failed write: docs/reliability.md)
    assert failed.stderr.count("\n") == 1, failed.stderr
    assert failed.stderr.startswith("boardstate: error: cannot write (No space left on device): ")
    assert "2 of 4 games played, kept in games.tar" in failed.stderr
    assert "--resume games.tar.jsonl" in failed.stderr
    manifest = (tmp_path / "games.tar.jsonl").read_text().splitlines()
    data = (tmp_path / "games.tar").read_bytes()
    with tarfile.open(tmp_path / "games.tar") as tar:
        members = tar.getmembers()
        assert [m.name for m in members] == [json.loads(line)["path"] for line in manifest]
        assert all(len(tar.extractfile(m).read()) == m.size > 0 for m in members)
    assert len(members) == 2
    last = members[-1]
    end = last.offset_data + -(-last.size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE
    assert len(data) % tarfile.RECORDSIZE == 0 and data[end:] == bytes(len(data) - end)
    assert len(data) - end >= 2 * tarfile.BLOCKSIZE
    _resumes_to_the_bytes_of_an_uninterrupted_run(tmp_path)
