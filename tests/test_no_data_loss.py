"""Never destroy a game: outputs never replace a game or the file being read without --force,
symlinks are written through, failed writes change nothing, and two commands on one game file
at once both keep their updates (the file is locked for the whole read-modify-write)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import boardstate as bs


def run(tmp_path, *args, env=None):
    proc = subprocess.run(
        [sys.executable, "-m", "boardstate.cli", *map(str, args)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=None if env is None else {**os.environ, **env},
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def game(tmp_path):
    rc, _, err = run(
        tmp_path, "new", "duel-of-the-forces", "--player", "alice", "--player", "bob",
        "--seed", "safety", "-o", "game.msgpack",
    )  # fmt: skip
    assert rc == 0, err
    return tmp_path / "game.msgpack"


def one_line_refusal(result, words):
    rc, out, err = result
    assert rc == 2, (out, err)
    assert err.count("\n") == 1 and words in err, err


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_no_command_writes_its_output_over_the_game_it_reads(tmp_path, game, force):
    before = game.read_bytes()
    cases = [
        ("move", game, "play 3", "--as", "alice", "--out", game),
        ("export", game, "--after", "-1", "-o", game),
        ("view", game, "--as", "bob", "-o", game),
    ]
    for args in cases:
        one_line_refusal(run(tmp_path, *args, *force), "the file the command reads")
        assert game.read_bytes() == before
    run(tmp_path, "move", game, "play 3", "--as", "alice", "--out", "m1.msgpack")
    after_move = game.read_bytes()
    bob = tmp_path / "bob.msgpack"
    bob.write_bytes(before)
    for out in (bob, tmp_path / "m1.msgpack"):
        one_line_refusal(
            run(tmp_path, "apply", bob, "m1.msgpack", "--out", out, *force),
            "the file the command reads",
        )
    assert bob.read_bytes() == before and game.read_bytes() == after_move


def test_an_existing_game_file_is_replaced_only_with_force(tmp_path, game):
    other = tmp_path / "other.msgpack"
    other.write_bytes(game.read_bytes())
    kept = other.read_bytes()
    for args in [
        ("move", game, "play 3", "--as", "alice", "--out", other),
        ("view", game, "--as", "bob", "-o", other),
        ("export", game, "--after", "-1", "-o", other),
        ("board", "epic-duels", "kamino", "-o", other, "--format", "svg"),
        ("new", "jedi-duel", "--player", "a", "--player", "b", "-o", other),
    ]:
        result = run(tmp_path, *args)
        assert result[0] == 2 and other.read_bytes() == kept, (args, result)
    assert game.read_bytes() != b"" and bs.load_game(game).seq == 1  # no move was kept either
    rc, _, err = run(tmp_path, "view", game, "--as", "bob", "-o", other, "--force")
    assert rc == 0, err
    assert bs.load_game(other).header.viewer == 1


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path, game):
    link = tmp_path / "link.msgpack"
    link.symlink_to(game.name)
    rc, _, err = run(tmp_path, "move", link, "play 3", "--as", "alice")
    assert rc == 0, err
    assert link.is_symlink() and os.readlink(link) == game.name
    assert bs.load_game(game).seq == 2  # the target holds the move
    view_link = tmp_path / "view-link.msgpack"
    view_link.symlink_to("view.msgpack")  # a dangling link: the target is created
    rc, _, err = run(tmp_path, "view", game, "--as", "bob", "-o", view_link)
    assert rc == 0, err
    assert view_link.is_symlink() and (tmp_path / "view.msgpack").is_file()


def test_a_device_or_directory_is_never_an_output(tmp_path, game):
    one_line_refusal(run(tmp_path, "view", game, "--as", "bob", "-o", "/dev/null"),
                     "not a regular file")  # fmt: skip
    (tmp_path / "adir").mkdir()
    rc, _, err = run(tmp_path, "export", game, "--after", "-1", "-o", tmp_path / "adir")
    assert rc == 2 and err.count("\n") == 1


def test_a_move_whose_move_file_cannot_be_written_is_not_kept(tmp_path, game):
    before = game.read_bytes()
    result = run(tmp_path, "move", game, "play 3", "--as", "alice", "--out", "no/such/m.msgpack")
    one_line_refusal(result, "cannot write")
    assert game.read_bytes() == before  # the move file first: the game does not hold the move
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_two_moves_at_once_on_one_file_both_keep_their_update(tmp_path, game):
    """Hot seat: Alice and Bob bid at the same moment, ten times over; both bids always land."""
    for trial in range(10):
        path = tmp_path / f"race{trial}.msgpack"
        path.write_bytes(game.read_bytes())
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "boardstate.cli", "move", str(path), bid, "--as", who],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for who, bid in (("alice", "play 3"), ("bob", "play 5"))
        ]
        results = [(p.wait(), p.stderr.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        assert [rc for rc, _ in results] == [0, 0], results
        played = bs.load_game(path)
        assert played.seq >= 5  # setup, two commitments, two reveals (and the duel)
        assert played.records[1].actor != played.records[2].actor


def test_a_locked_game_waits_then_refuses_with_a_clear_message(tmp_path, game):
    before = game.read_bytes()
    with bs.locked(game, say=lambda line: None):
        rc, _, err = run(
            tmp_path, "move", game, "play 3", "--as", "alice", env={"BOARDSTATE_LOCK_WAIT": "0.5"}
        )
    assert rc == 2 and "another boardstate command is still writing" in err
    assert "waiting for another boardstate command" in err
    assert game.read_bytes() == before
    holder = threading.Thread(target=_hold, args=(game, 0.6))
    holder.start()
    time.sleep(0.1)
    rc, _, err = run(tmp_path, "move", game, "play 3", "--as", "alice")
    holder.join()
    assert rc == 0, err  # it waited for the other writer, then went on
    assert bs.load_game(game).seq == 2


def _hold(path, seconds: float) -> None:
    with bs.locked(path, say=lambda line: None):
        time.sleep(seconds)


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path, game):
    """kill -9 during a write leaves '.game.msgpack.PID.xxxx.tmp'; the next write removes the
    files of writers that no longer exist, and never a live writer's."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    orphan = tmp_path / f".game.msgpack.{dead}.abcd.tmp"
    orphan.write_bytes(b"half a game")
    live = tmp_path / f".game.msgpack.{os.getpid()}.efgh.tmp"
    live.write_bytes(b"being written")
    rc, _, err = run(tmp_path, "move", game, "play 3", "--as", "alice")
    assert rc == 0, err
    assert not orphan.exists() and live.exists()


@pytest.mark.parametrize("name", ["game.msgpack", "a[b]*?.x y", "[*]", "..tmp", "g"])
def test_only_a_dead_writers_own_leftovers_are_removed(tmp_path, name):
    """A write of ``name`` removes ``.NAME.PID.RANDOM.tmp`` of a dead PID (brackets, ``*``,
    ``?``, dots and spaces in the name are its letters), and nothing else: not a live writer's,
    not another file's writer's (``NAME.123``'s ``.NAME.123.PID.RANDOM.tmp``, 123 no process),
    not a name whose PID is no process's number (``²``, 20 digits) and no traceback for those."""
    from boardstate._fileformat import atomic_write

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    orphan = tmp_path / f".{name}.{dead}.0123456789ab.tmp"
    kept = [
        f".{name}.{os.getpid()}.0123456789ab.tmp",  # (a live writer's)
        f".{name}.{dead}.{os.getpid()}.0123456789ab.tmp",  # (a live writer of NAME.DEAD)
        f".{name}.\u00b2.0123456789ab.tmp",  # (isdigit, not a number int reads)
        f".{name}.{'9' * 20}.0123456789ab.tmp",  # (no process's number: os.kill overflows)
        f".{name}x.{dead}.0123456789ab.tmp",
        f".{name}.{dead}.0123456789ab.tmpx",
    ]
    for leftover in [orphan.name, *kept]:
        (tmp_path / leftover).write_bytes(b"half a game")
    atomic_write(str(tmp_path / name), b"a game")
    assert (tmp_path / name).read_bytes() == b"a game"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([name, *kept])
