"""What a copy has already checked is not checked again (issue 29, ``boardstate/_checked.py``).

``load_checked`` (what ``move``, ``apply`` and ``undo`` read their copy with) remembers, in the
user's cache folder, a digest of the records whose signatures it checked; the next read checks
the signatures of the records after them only.  Signature checks are counted (the function the
trust plugs call, patched), never timed.  A file changed under the memory is checked in full
and refused as before, and every copy gives the same game and the same error with the memory
as without it.
"""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from peer_draw import MODULE
from test_hosted import Hosted
from test_peer import Table

import boardstate as bs
from boardstate import keys as player_keys
from boardstate._checked import MAX_REMEMBERED, remembered
from boardstate._fileformat import encode_game, parse_raw
from boardstate._referee import load_checked, load_peer, verify
from boardstate._registry import registered


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / "cache"))
    with registered(MODULE):
        yield


@pytest.fixture()
def checks(monkeypatch):
    """How many signatures were checked since the last reset (``checks[0]``)."""
    count = [0]
    real = player_keys.verifies

    def counting(*args):
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(player_keys, "verifies", counting)
    return count


def _play(table: Table, moves: int) -> None:
    """``moves`` random commands, the mail delivered after each."""
    table.settle()
    lead = table.copies[0]
    for _ in range(moves):
        if lead.outcome() is not None:
            return
        (seat,) = lead.to_act()
        game = table.copies[seat]
        game.play(seat, table.rng.choice(game.legal(seat)))
        table.settle()


def _save(game: bs.Game, path) -> str:
    path.write_bytes(encode_game(game, viewer=game.header.viewer))
    return str(path)


def _signed(game: bs.Game) -> int:
    return sum(1 for r in game.records if r.seq > 0)  # (every record but the setup)


def _same(a: bs.Game, b: bs.Game) -> None:
    """Two reads of one copy hold the same game: records, state, and what it waits for."""
    assert [r.hash for r in a.records] == [r.hash for r in b.records]
    assert [(r.signature, r.letters) for r in a.records] == [
        (r.signature, r.letters) for r in b.records
    ]
    assert a.state == b.state
    assert a.outcome() == b.outcome()
    assert a.to_act() == b.to_act()
    assert (a.due(), a.waiting_for(), a.waiting_text()) == (
        b.due(),
        b.waiting_for(),
        b.waiting_text(),
    )
    assert a.keys == b.keys


def test_a_command_checks_the_signatures_of_the_new_records_only(tmp_path, checks):
    table = Table(2, rng_seed=3)
    _play(table, 6)
    alice = table.copies[0]
    path = _save(alice, tmp_path / "alice.msgpack")
    checks[0] = 0
    load_checked(path)
    assert checks[0] == _signed(alice)  # (nothing remembered yet: every signature, once)
    checks[0] = 0
    _same(load_checked(path), alice)
    assert checks[0] == 0  # (the same records: nothing to check again)
    before = alice.seq
    _play(table, 6)
    assert alice.seq > before + 3
    _save(alice, tmp_path / "alice.msgpack")
    checks[0] = 0
    _same(load_checked(path), alice)
    assert checks[0] == alice.seq - before  # (the records added since: each checked once)


def test_a_record_changed_under_the_memory_is_refused(tmp_path, checks):
    table = Table(2, rng_seed=4)
    _play(table, 5)
    bob = table.copies[1]
    path = _save(bob, tmp_path / "bob.msgpack")
    load_checked(path)
    assert remembered(bob.header.game_id)[0][0] == bob.last_seq
    # an earlier record of another player re-signed by someone else: its body, its hash and
    # the chain are as remembered, so only the memory's digest of the signatures can tell
    target = next(r for r in bob.records if r.seq > 2 and r.actor == 0)
    other = Ed25519PrivateKey.generate().sign(b"something else")
    bob.records[target.seq] = target._replace(signature=other)
    _save(bob, tmp_path / "bob.msgpack")
    checks[0] = 0
    with pytest.raises(bs.VerificationFailed) as refused:
        load_checked(path)
    assert refused.value.code == "bad-signature"
    assert f"record {target.seq}" in str(refused.value)
    assert checks[0] == target.seq  # (checked from the start, as if nothing were remembered)


def test_with_and_without_the_memory_the_same_game_and_the_same_errors(tmp_path, monkeypatch):
    """Differential: every copy of a game at several points, each of them as saved and with
    one record damaged in three ways, read with an empty memory, with the memory of an
    earlier point, and with its own: the same game, or the same error, every time."""
    table = Table(3, rng_seed=7)
    files = []
    for step in range(4):
        _play(table, 3)
        for seat, copy in enumerate(table.copies):
            files.append(_save(copy, tmp_path / f"copy-{step}-{seat}.msgpack"))
            middle = copy.records[copy.seq // 2]
            for name, changed in (
                ("unsigned", middle._replace(signature=b"")),
                ("short", middle._replace(signature=middle.signature[:-1])),
                ("swapped", middle._replace(signature=copy.records[-1].signature)),
            ):
                records = list(copy.records)
                copy.records[middle.seq] = changed
                files.append(_save(copy, tmp_path / f"copy-{step}-{seat}-{name}.msgpack"))
                copy.records[:] = records

    def read(path):
        try:
            return load_checked(path)
        except bs.BoardstateError as exc:
            return (type(exc), exc.code, str(exc))

    outcomes = []
    for memory in ("empty", "earlier", "own"):
        monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / f"cache-{memory}"))
        if memory == "earlier":
            for path in files[: len(files) // 2]:
                read(path)
        for path in files:
            if memory == "own":
                read(path)
            with_memory = read(path)
            monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / "nothing-remembered"))
            full = read(path)
            monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / f"cache-{memory}"))
            outcomes.append(isinstance(full, tuple))
            if isinstance(full, tuple):
                assert with_memory == full, path
            else:
                _same(with_memory, full)
                assert verify(path).ok
    assert outcomes.count(True) == 3 * outcomes.count(False)  # (each damage refused)


def test_a_hosted_copy_checks_the_judges_new_records_only(tmp_path, checks):
    hosted = Hosted(2, "duel-of-the-forces", seed=2)
    hosted.play(limit=4)
    ann = hosted.copies[0]
    path = _save(ann, tmp_path / "ann.msgpack")
    checks[0] = 0
    load_checked(path)
    assert checks[0] >= _signed(ann)  # (the judge's signature and the player's request)
    checks[0] = 0
    _same(load_checked(path), ann)
    assert checks[0] == 0
    before = ann.seq
    hosted.play(limit=3)
    _save(ann, tmp_path / "ann.msgpack")
    checks[0] = 0
    _same(load_checked(path), ann)
    assert 0 < checks[0] <= 2 * (ann.seq - before)


def test_the_memory_keeps_a_few_points_of_each_game(tmp_path):
    table = Table(2, rng_seed=5)
    for step in range(MAX_REMEMBERED + 2):
        _play(table, 1)
        load_checked(_save(table.copies[0], tmp_path / f"alice-{step}.msgpack"))
    points = remembered(table.copies[0].header.game_id)
    assert len(points) == MAX_REMEMBERED
    assert points[0][0] == table.copies[0].last_seq  # (newest first)


def test_a_merge_from_the_game_the_last_cut_left_is_the_game_made_again_from_the_setup(
    monkeypatch,
):
    """Merges cut the log where copies parted (``Game.truncate``) and start from a copy of
    the game the last cut left: every copy of a 4-player game whose mail crosses ends as the
    same copy re-derived from its setup, and the cuts did start from a kept copy."""
    from boardstate import _cuts

    starts = []
    real = _cuts._cut_before

    def cut_before(game, count):
        fresh, done = real(game, count)
        starts.append(done)
        return fresh, done

    monkeypatch.setattr(_cuts, "_cut_before", cut_before)
    table = Table(4, secrets=[bytes([seat + 1]) * 32 for seat in range(4)], rng_seed=11)
    _play(table, 25)
    assert starts and max(starts) > 0  # (cuts that did not start from the setup)
    for seat, copy in enumerate(table.copies):
        again = load_peer(parse_raw(encode_game(copy, viewer=seat), "copy"), signed=False)
        _same(copy, again)
        assert copy.region_start == again.region_start
        assert copy.waiting_for() == again.waiting_for()
