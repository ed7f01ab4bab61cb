"""A self-play run that fails mid-run keeps a whole archive of the games it played, as one
stopped by Ctrl-C does (``cli.batch.selfplay`` closes its writer in a ``finally``): the command
line ends its process without the interpreter's teardown (``cli.app._end``), so an archive not
closed lost its buffered tail and its end-of-archive mark, and its manifest named games it did
not hold.  The run is the real command in a subprocess, its third game failing."""

from __future__ import annotations

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

RUN = ["selfplay", "jedi-duel", "--games", "4", "--seed", "1", "--player", "a", "--player", "b"]


def _selfplay(tmp_path, script, *argv):
    command = [sys.executable, *script, *RUN, *argv]
    return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path)


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
    resumed = _selfplay(
        tmp_path, ["-m", "boardstate.cli"], "--archive", "games.tar", "--resume", "games.tar.jsonl"
    )
    assert resumed.returncode == 0, resumed.stderr
    straight = _selfplay(tmp_path, ["-m", "boardstate.cli"], "--archive", "straight.tar")
    assert straight.returncode == 0, straight.stderr
    assert (tmp_path / "games.tar").read_bytes() == (tmp_path / "straight.tar").read_bytes()
