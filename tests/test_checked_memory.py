"""A copy read from the game its last command saved keeps in memory only the records its
commands need (issue 29: ``apply``'s memory flat in the length of the game;
``boardstate/_filelog.py``, ``_checked.resume_streamed``).  The others stay in the file: read
back, checked against the digest of their bytes taken as they were first read, when a command
asks for one; copied byte for byte when the copy is written back.  A file changed meanwhile is
refused, never used or written over.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate._fileformat import encode_game, encode_moves
from boardstate._referee import load_checked, verify
from boardstate._words import _state_before

sys.path.insert(0, str(Path(__file__).parent.parent / "bench"))
from longlog import make_long_peer_copies


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / "cache"))


def _copies_read(tmp_path, records: int = 150):
    """Two players' copies of a long Duel of the Forces peer game (``bench/longlog.py``), the
    first player to bid, each saved as the CLI saves it and read once (its game saved in the
    cache): ``(copies, paths)``."""
    copies = make_long_peer_copies(records, [Ed25519PrivateKey.generate() for _ in range(2)])
    paths = []
    for seat, copy in enumerate(copies):
        path = tmp_path / f"copy-{seat}.msgpack"
        bs.save_game(copy, path)
        load_checked(path)
        paths.append(path)
    return copies, paths


def _one_move(copies, tmp_path) -> Path:
    """The first player bids on their copy: the move file to the other."""
    first = copies[0]
    base = first.last_seq
    first.play(0, "play r2")
    path = tmp_path / "move.msgpack"
    path.write_bytes(encode_moves(first, first.mail_base(base)))
    return path


def test_apply_on_a_long_copy_leaves_its_old_records_in_the_file(tmp_path):
    copies, paths = _copies_read(tmp_path)
    to, move = 1, _one_move(copies, tmp_path)
    game = load_checked(paths[to])
    count = len(game.records)
    in_file, _stored = game.records.on_file()
    assert count > 100 and count - in_file <= 4  # (in memory: the last records only)
    delivery = bs.referee_mailed(game, bs.read_mailed(str(move)))
    assert delivery.applied and len(delivery.game.records) > count
    bs.save_game(delivery.game, paths[to])
    assert delivery.game.records.on_file()[0] == in_file  # (never read back: copied)
    written = paths[to].read_bytes()
    assert written == encode_game(delivery.game)  # (the old records read back: the same file)
    assert delivery.game.records.on_file()[0] == 0
    full = verify(paths[to]).game
    assert delivery.game.records == full.records and delivery.game.state == full.state


def test_a_command_that_asks_for_an_old_record_gets_it_read_back(tmp_path):
    _copies, paths = _copies_read(tmp_path)
    game = load_checked(paths[0])
    assert game.records.on_file()[0] > 0
    full = verify(paths[0]).game
    assert game.records[1] == full.records[1]  # (every old record read back, once)
    assert game.records.on_file()[0] == 0
    assert game.records == full.records


@pytest.mark.parametrize("asks", ["save", "an old record"])
def test_a_file_changed_while_its_records_wait_in_it_is_refused(tmp_path, asks):
    """A byte of an old record changed in place after the read: the copy is not written (the
    file keeps the changed bytes, no temporary file stays) and no old record is read back."""
    _copies, paths = _copies_read(tmp_path)
    path = paths[1]
    game = load_checked(path)
    assert game.records.on_file()[0] > 10
    data = bytearray(path.read_bytes())
    where = len(data) // 3  # (inside an old record: the file's last records are in memory)
    data[where] ^= 0x01
    with open(path, "r+b") as f:  # (the same file, changed in place: not replaced)
        f.seek(where)
        f.write(data[where : where + 1])
    with pytest.raises(bs.GameFileError) as refused:
        if asks == "save":
            bs.save_game(game, path)
        else:
            game.records[2]
    assert "changed while it was read" in str(refused.value)
    assert path.read_bytes() == bytes(data)
    assert sorted(os.listdir(tmp_path)) == ["cache", "copy-0.msgpack", "copy-1.msgpack"]


def test_a_round_put_in_canonical_order_starts_from_the_saved_game(tmp_path):
    """Both players bid, each on their copy: the second bid reaches the first bidder's copy,
    and the round's records go in canonical order (the log cut back to where the round began
    and made again).  The cut starts from the game the checked read started from, not from
    the setup: the old records stay in the file, and the copy is the one the rules give."""
    copies, paths = _copies_read(tmp_path)
    move = _one_move(copies, tmp_path)  # (the first player's bid, their copy written)
    bs.save_game(copies[0], paths[0])
    second = bs.referee_mailed(load_checked(paths[1]), bs.read_mailed(str(move))).game
    second.signer = copies[1].signer
    base = second.last_seq
    second.play(1, "play r2")
    move.write_bytes(encode_moves(second, second.mail_base(base)))
    game = load_checked(paths[0])
    in_file = game.records.on_file()[0]
    delivery = bs.referee_mailed(game, bs.read_mailed(str(move)))
    assert delivery.applied and delivery.game.records.on_file()[0] == in_file > 100
    game = delivery.game
    game.signer = copies[0].signer
    assert game.add_owed()  # (the first player's reveal, due now: the round resolves)
    bs.save_game(game, paths[0])
    full = verify(paths[0]).game
    said = [bs.describe(game, r, 0) for r in game.records[in_file:]]  # (``apply`` prints them)
    before = [_state_before(game, r) for r in game.records[in_file:]]  # (what they tell from)
    assert game.records.on_file()[0] == in_file  # (the words fold from the saved game too)
    assert said == [bs.describe(full, r, 0) for r in full.records[in_file:]]
    assert before == [_state_before(full, r) for r in full.records[in_file:]]
    assert game.records == full.records and game.state == full.state
    assert full.records[second.seq - 1].hash == second.head_hash  # (both in one order)


def test_a_copy_read_with_nothing_saved_leaves_no_file_open(tmp_path):
    """The first reading (kept readable for a saved game) is closed when there is none and
    the file is read again: not left to the cyclic collector."""
    import gc

    copies = make_long_peer_copies(20, [Ed25519PrivateKey.generate() for _ in range(2)])
    path = tmp_path / "copy.msgpack"
    bs.save_game(copies[0], path)
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        before = len(os.listdir("/dev/fd"))
        game = load_checked(path)  # (nothing saved yet: read again, checked in full)
        del game
        assert len(os.listdir("/dev/fd")) == before
    finally:
        if was:
            gc.enable()


def test_the_commitments_a_long_copy_made_stay_in_its_saved_game_file(tmp_path):
    """The commitments made grow with the game (each may be made once, so all are kept:
    ``boardstate/_commitments.py``); a copy read from its saved game leaves them in the saved
    game's file and finds them there, instead of holding them (about 128 bytes a commitment
    as a set of bytes and the pickle a cut unpickles; 32 as one sorted bytes).  Memory the
    read leaves held, traced, at two lengths: the difference per commitment."""
    import gc
    import tracemalloc

    keys = [Ed25519PrivateKey.generate() for _ in range(2)]
    held = []
    for records in (200, 2000):
        path = tmp_path / f"copy-{records}.msgpack"
        bs.save_game(make_long_peer_copies(records, keys)[1], path)
        load_checked(path)  # (its game saved)
        gc.collect()
        tracemalloc.start()
        try:
            game = load_checked(path)
            gc.collect()
            held.append((tracemalloc.get_traced_memory()[0], len(game.committed)))
        finally:
            tracemalloc.stop()
        assert game.records.on_file()[0] >= records - 4  # (the old records left in the file)
        del game
    (short, made_short), (long, made_long) = held
    assert made_long - made_short > 800
    assert (long - short) / (made_long - made_short) < 4


def test_a_commitment_made_again_is_refused_on_a_copy_read_from_its_saved_game(tmp_path):
    """The check that a commitment was never made before is made exactly on the commitments
    left in the saved game's file: the first one made, the last, and one made again by a
    move file (the other player's bid, its commit's commitment an old one) are refused."""
    from boardstate._kinds import COMMIT
    from boardstate._secrets import Secret

    _copies, paths = _copies_read(tmp_path)
    game = load_checked(paths[1])
    assert game.records.on_file()[0] > 100 and game.committed._file is not None
    made = [r.sealed.commitment for r in verify(paths[1]).game.records if r.kind == COMMIT]
    assert len(made) > 50 and all(c in game.committed for c in made)
    for old in (made[0], made[len(made) // 2], made[-1]):
        with pytest.raises(bs.IllegalCommand) as refused:
            game.check_commit(0, Secret(old, 1))
        assert refused.value.code == "replayed"
    game.check_commit(0, Secret(bytes(32), 1))  # (one never made: due, and new)


def test_saved_commitments_changed_in_place_are_not_believed(tmp_path):
    """A byte of the commitments in the saved game's file changed: their SHA-256, which the
    saved state names, differs, so the saved game is not used (the rules run from the
    setup, every record in memory) and the copy is the one verify gives."""
    from boardstate import _checked

    _copies, paths = _copies_read(tmp_path)
    game = load_checked(paths[1])
    state = _checked._state_path(game.header)
    with open(state, "rb") as f:
        data = bytearray(f.read())
    data[5] ^= 0x01  # (inside the first commitment: the file begins with them)
    with open(state, "r+b") as f:
        f.write(data)
    again = load_checked(paths[1])
    assert type(again.records) is list
    full = verify(paths[1]).game
    assert again.records == full.records and again.committed == full.committed


def test_writing_a_long_copy_back_streams_its_old_records_a_little_at_a_time(tmp_path):
    """``save_game`` copies the records left in the file a chunk at a time (64 KiB), so what
    it holds does not grow with the file (it read up to a MiB at a time, and copied it again:
    about twice the file's bytes, up to 2 MiB).  Its traced peak at two lengths."""
    import tracemalloc

    keys, peaks = [Ed25519PrivateKey.generate() for _ in range(2)], []
    for records in (500, 2500):
        path = tmp_path / f"copy-{records}.msgpack"
        bs.save_game(make_long_peer_copies(records, keys)[1], path)
        load_checked(path)  # (its game saved)
        game = load_checked(path)
        assert game.records.on_file()[0] >= records - 4
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            bs.save_game(game, path)
            peaks.append((tracemalloc.get_traced_memory()[1] - before, path.stat().st_size))
        finally:
            tracemalloc.stop()
        assert verify(path).ok
    (short, short_size), (long, long_size) = peaks
    assert long_size - short_size > 300_000
    assert long - short < 64 * 1024


def open_game_saved(tmp_path, seed: bytes):
    """``(game, path)``: an open Epic Duels game of eight moves (no commitment made), saved at
    ``path`` and read once, so its game is saved in the cache."""
    game = bs.Game.new(bs.get_module("epic-duels"), ["ann", "ben"], {}, seed=seed)
    for _ in range(8):
        seat = game.to_act()[0]
        game.play(seat, game.legal(seat)[0])
    path = tmp_path / "open.msgpack"
    bs.save_game(game, path)
    load_checked(path)  # (its game saved)
    return game, path


def test_a_copy_with_no_commitments_keeps_no_descriptor_of_its_saved_game(tmp_path):
    """A game that made no commitment (an open game: Epic Duels, every move in the open) has
    nothing to find in its saved game's file, so its copy read from it holds no descriptor of
    that file: a program holding many games open holds one descriptor each (its file's)."""
    from boardstate import _checked

    game, path = open_game_saved(tmp_path, b"fd")
    state = os.path.realpath(_checked._state_path(game.header))
    copy = load_checked(path)
    assert copy.records.on_file()[0] > 0 and len(copy.committed) == 0  # (read from it)
    held = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            held.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            pass
    assert state not in held
