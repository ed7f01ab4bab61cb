"""Archives and self-play at scale (issue 30): the same manifest and the same game files from
one process, a pool of processes and a Ray cluster; a file that cannot be read is a verdict;
Ctrl-C keeps what is done, --resume goes on from the manifest."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

import msgpack
import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.batch import (
    Checked,
    Plan,
    Played,
    Processes,
    Serial,
    check_files,
    game_paths,
    play_games,
    play_one,
    read_manifest,
)
from boardstate.cli import cli

ROOT = Path(__file__).parent.parent
DOTF = "duel-of-the-forces"
JEDI_RECORDS = 111  # (the self-played Jedi Duel of the archive below)


def cli_run(*args):
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


def invoke(*args):
    try:
        return cli_run(*args)
    except SystemExit as exc:  # (the group exits itself on errors)
        return exc.code, ""


def forged_reveal() -> bytes:
    """A game whose record 4 reveals a card its player does not hold (a rule is broken)."""
    from boardstate.testing import Kind, make_secret, reveal

    game = bs.Game.new(bs.get_module(DOTF), ["alice", "bob"], {}, seed=b"v", created="2026-01-01")
    game.append(game.make(Kind.COMMIT, 0, "", make_secret("play r2", bytes(16), 1).sealed(), ()))
    game.play(1, "play 2")
    game.append(game.make(Kind.REVEAL, 0, "", reveal(make_secret("play r2", bytes(16), 1)), ()))
    return bs.encode_game(game)


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """Good games (self-played, and a game of an older rules revision) and bad ones:
    tampered (a flipped byte, a forged reveal), truncated, foreign, a future file format, a
    move file, and a file named that does not exist — in folders and subfolders."""
    root = tmp_path_factory.mktemp("archive")
    (root / "good" / "deeper").mkdir(parents=True)
    (root / "bad").mkdir()
    plan = Plan(DOTF, ("ann", "ben"), seed="archive", games=4)
    for played, data in play_games(plan, Serial()):
        (root / "good" / ("deeper" if played.game % 2 else "") / played.path).write_bytes(data)
    _, sample = play_one((Plan("jedi-duel", ("luke", "vader"), seed="archive"), 0))
    (root / "good" / "jedi.msgpack").write_bytes(sample)
    old = ROOT / "tests/fixtures/duel-of-the-forces-revision-1"
    shutil.copy(
        old / "duel-of-the-forces-parlett-english-2p.msgpack", root / "good" / "old.msgpack"
    )
    flipped = bytearray(sample)
    flipped[-60] ^= 1
    (root / "bad" / "flipped.msgpack").write_bytes(bytes(flipped))
    (root / "bad" / "forged.msgpack").write_bytes(forged_reveal())
    (root / "bad" / "truncated.msgpack").write_bytes(sample[:5000])
    (root / "bad" / "foreign.msgpack").write_text("Dear Bob, my move is luke 5.\n")
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(sample)
    header = unpacker.unpack()
    future = msgpack.packb(dict(header, version=99), use_bin_type=True) + sample[unpacker.tell() :]
    (root / "bad" / "future.msgpack").write_bytes(future)
    game = bs.load_game(root / "good" / "jedi.msgpack")
    bs.save_moves(game, game.seq - 3, root / "bad" / "move.msgpack")
    (root / "bad" / "notes.txt").write_text("not a game file: a folder's *.msgpack only")
    return root


def paths_of(root: Path) -> list[str]:
    return [str(root / "good"), str(root / "bad"), str(root / "missing.msgpack")]


EXPECTED = {
    "good/duel-of-the-forces-000000.msgpack": ("ok", None),
    "good/deeper/duel-of-the-forces-000001.msgpack": ("ok", None),
    "good/jedi.msgpack": ("ok", None),
    "good/old.msgpack": ("ok", None),
    "bad/flipped.msgpack": ("failed", "bad-hash"),
    "bad/forged.msgpack": ("failed", "not-derived"),
    "bad/truncated.msgpack": ("unreadable", "truncated"),
    "bad/foreign.msgpack": ("unreadable", "foreign"),
    "bad/future.msgpack": ("unreadable", "future-version"),
    "bad/move.msgpack": ("unreadable", "not-a-game"),
    "missing.msgpack": ("unreadable", "unreadable"),
}


def manifest(root: Path, runner) -> list[str]:
    return sorted(c.line() for c in check_files(game_paths(paths_of(root)), runner))


def sorted_by_path(manifest_file: Path) -> list[str]:
    """A finished run's manifest: sorted by path (its lines, sorted as text, are returned)."""
    lines = manifest_file.read_text().splitlines()
    paths = [json.loads(line)["path"] for line in lines]
    assert paths == sorted(paths)
    return sorted(lines)


def test_folders_give_their_game_files_each_once(archive):
    files = game_paths([*paths_of(archive), str(archive / "good")])
    assert len(files) == 13 and len(set(files)) == 13
    assert not any(f.endswith(".txt") for f in files)


def test_the_manifest_is_the_same_from_one_process_and_from_a_pool(archive):
    one = manifest(archive, Serial())
    with Processes(2) as pool:
        assert manifest(archive, pool) == one
    found = {os.path.relpath(c.path, archive): c for c in (Checked.from_line(line) for line in one)}
    for rel, (verdict, code) in EXPECTED.items():
        assert (found[rel].verdict, found[rel].code) == (verdict, code), rel
    forged = found["bad/forged.msgpack"]
    assert forged.record == 4 and forged.rule and forged.records == 5
    jedi = found["good/jedi.msgpack"]
    assert found["bad/flipped.msgpack"].record == jedi.records - 1
    assert jedi.records == JEDI_RECORDS and jedi.revision and jedi.module == "jedi-duel"
    assert found["bad/future.msgpack"].module is None and found["bad/future.msgpack"].sha256
    assert found["missing.msgpack"].sha256 is None


def test_verify_many_files_from_the_command_line(archive, tmp_path):
    out = tmp_path / "m.jsonl"
    rc, text = invoke("verify", *paths_of(archive), "--jobs", "2", "--manifest", out)
    assert rc == 2  # (some unreadable: the worst status)
    assert "FAILED: " in text and "UNREADABLE: " in text and "ok: " not in text
    assert text.splitlines()[-1].startswith("verified 13 files on 2 processes")
    assert sorted_by_path(out) == manifest(archive, Serial())
    assert invoke("verify", archive / "good", "--manifest", out)[0] == 2  # (exists: --resume)
    rc, text = invoke("verify", archive / "good", archive / "bad" / "forged.msgpack", "--json")
    assert rc == 1
    *entries, last = [json.loads(line) for line in text.splitlines()]
    assert len(entries) == 7 and last["summary"]["failed"] == 1 and last["summary"]["ok"] == 6
    assert invoke("verify", archive / "good")[0] == 0


def test_one_file_is_verified_as_before(archive):
    rc, text = invoke("verify", archive / "good" / "jedi.msgpack")
    assert rc == 0 and text.startswith(f"ok: {JEDI_RECORDS} records re-derived and verified")
    rc, _ = invoke("verify", archive / "good", "--with", archive / "good" / "jedi.msgpack")
    assert rc == 2


def crash_on_the_third(item):
    if item == 3:
        os._exit(9)
    return item * 10


def test_a_worker_that_dies_costs_only_its_own_item():
    with Processes(2) as pool:
        died = lambda item, why: ("died", item, why)
        got = list(pool.map(crash_on_the_third, range(8), chunk=3, died=died, ordered=True))
    assert [g if isinstance(g, int) else g[:2] for g in got] == [
        0,
        10,
        20,
        ("died", 3),
        40,
        50,
        60,
        70,
    ]
    assert "the worker died" in got[3][2]


def test_an_interrupted_run_keeps_what_is_done_and_resumes(archive, tmp_path):
    files = game_paths(paths_of(archive))
    stop = threading.Event()
    kept = tmp_path / "m.jsonl"
    out = bs.batch.Manifest(kept)
    for n, checked in enumerate(check_files(files, Serial(), stop=stop), 1):
        out.add(checked)
        if n == 4:
            stop.set()
    out.close()
    assert len(read_manifest(kept, Checked)) == 4
    with kept.open("a") as f:
        f.write('{"path": "torn')  # (a line cut short by the interruption)
    rc, text = invoke("verify", *paths_of(archive), "--resume", kept)
    assert rc == 2 and "13 files, 4 of them before (--resume)" in text
    assert sorted_by_path(kept) == manifest(archive, Serial())


@pytest.mark.slow  # (two programs, 48 Epic Duels files verified)
def test_ctrl_c_stops_a_run_and_says_how_to_resume(tmp_path):
    _, sample = play_one((Plan("epic-duels", ("ann", "ben"), seed="slow"), 0))
    for n in range(24):
        (tmp_path / f"g{n:02d}.msgpack").write_bytes(sample)
    out = tmp_path / "m.jsonl"
    command = [sys.executable, "-m", "boardstate.cli", "verify", ".", "-j", "2"]
    proc = subprocess.Popen(
        [*command, "--manifest", str(out)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (out.exists() and out.read_text().count("\n") >= 1):
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted: " in err
    assert f"resume with: boardstate verify . --resume {out}" in err
    done = len(read_manifest(out, Checked))
    assert 1 <= done < 24
    rc = subprocess.run([*command, "--resume", str(out)], cwd=tmp_path, capture_output=True)
    assert rc.returncode == 0
    assert len(out.read_text().splitlines()) == 24


def selfplay(*extra):
    rc, text = invoke("selfplay", DOTF, "--games", "6", "--seed", "s", *extra)
    assert rc == 0, text
    return text


def test_selfplay_makes_the_same_files_in_one_process_and_in_a_pool(tmp_path):
    text = selfplay("-o", tmp_path / "one")
    assert "played 6 games of duel-of-the-forces (seed s, random bot)" in text
    selfplay("-o", tmp_path / "pool", "--jobs", "2")
    selfplay("--archive", tmp_path / "games.tar", "--jobs", "2")
    one = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert len(one) == 7 and "manifest.jsonl" in one
    for name in one:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "pool" / name).read_bytes()
    with tarfile.open(tmp_path / "games.tar") as tar:
        names = tar.getnames()
        assert names == sorted(one)[:6]
        for name in names:
            assert tar.extractfile(name).read() == (tmp_path / "one" / name).read_bytes()
    assert (tmp_path / "games.tar.jsonl").read_bytes() == (
        tmp_path / "one" / "manifest.jsonl"
    ).read_bytes()
    rc, text = invoke("verify", tmp_path / "one")
    assert rc == 0 and "6 ok" in text
    rc, text = invoke("selfplay", DOTF, "--games", "2", "--json", "-o", tmp_path / "new")
    summary = json.loads(text)
    assert summary["games"] == 2 and sum(summary["records"].values()) > 0


def test_selfplay_resumes_an_archive_from_its_manifest(tmp_path):
    plan = Plan(DOTF, ("ann", "ben"), seed="r", games=5)
    whole = [data for _, data in play_games(plan, Serial())]
    tar = tmp_path / "g.tar"
    args = ("selfplay", DOTF, "--games", "5", "--seed", "r", "--archive", tar)
    rc, _ = invoke(*args[:3], "2", *args[4:])  # (the first two games: as if interrupted)
    assert rc == 0
    lines = (tmp_path / "g.tar.jsonl").read_text()
    rc, text = invoke(*args, "--resume", tmp_path / "g.tar.jsonl", "--jobs", "2")
    assert rc == 0, text
    assert (tmp_path / "g.tar.jsonl").read_text().startswith(lines)
    with tarfile.open(tar) as t:
        assert [t.extractfile(m).read() for m in t.getmembers()] == whole
    assert [p.game for p in read_manifest(tmp_path / "g.tar.jsonl", Played)] == list(range(5))


@pytest.mark.slow
def test_selfplay_with_a_search_bot_is_the_same_in_a_pool():
    plan = Plan(DOTF, ("ann", "ben"), seed="bots", bot="easy", games=2)
    with Processes(2) as pool:
        assert list(play_games(plan, pool)) == list(play_games(plan, Serial()))
    rc, text = invoke("selfplay", DOTF, "--bot", "best", "-o", "never")
    assert rc == 2 and not Path("never").exists()


# ------------------------------------------------------------------------------- on Ray
@pytest.fixture(scope="module")
def ray_here():
    """A Ray started on this machine once for these tests (2 CPUs, no dashboard)."""
    try:
        import ray
    except ImportError:
        if os.environ.get("BOARDSTATE_REQUIRE_RAY"):
            pytest.fail("BOARDSTATE_REQUIRE_RAY is set but Ray is not installed")
        pytest.skip("Ray is not installed (pip install 'boardstate[ray]'); CI runs these tests")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_manifest_and_the_same_games(ray_here, archive, tmp_path):
    runner = bs.batch.RayRunner("local")
    assert runner.workers == 2 and "Ray on this machine" in str(runner)
    assert manifest(archive, runner) == manifest(archive, Serial())
    plan = Plan(DOTF, ("ann", "ben"), seed="ray", games=6)
    assert list(play_games(plan, runner)) == list(play_games(plan, Serial()))
    out = tmp_path / "m.jsonl"
    rc, text = invoke("verify", *paths_of(archive), "--ray", "--manifest", out)
    assert rc == 2 and "on Ray on this machine (2 CPUs)" in text
    assert sorted_by_path(out) == manifest(archive, Serial())
    rc, text = invoke("verify", "--ray", archive / "good")  # (a path after --ray is a path)
    assert rc == 0, text
    assert ray_here.is_initialized()  # (a Ray the run did not start is left running)
