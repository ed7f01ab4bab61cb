"""The game a copy's last command found, saved in the user's cache: the next command runs the
rules on the records after it only (issue 29, ``boardstate/_checked.py``: ``resume``,
``keep_state``; ``boardstate/_snapshot.py``).

Differential: a copy read from a saved state is the copy read by running the rules from the
setup (``verify``'s game), record for record, in its state, in what it waits for, in every
player's legal commands, and in the records it makes next.  A file or a saved state that does
not match is never believed: the rules run from the setup, and the copy is the same, or refused
with the same words.  The rules' runs are counted (``Referee.accept``), never timed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from test_checked_copies import _cache, _play, _save  # noqa: F401  (_cache: the fixture)
from test_hosted import Hosted
from test_peer import Table

import boardstate as bs
from boardstate import _checked
from boardstate._rederive import Referee
from boardstate._referee import load_checked, verify


@pytest.fixture()
def runs(monkeypatch):
    """How many records the rules re-derived since the last reset (``runs[0]``)."""
    count = [0]
    real = Referee.accept

    def counting(self, *args, **kwargs):
        count[0] += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Referee, "accept", counting)
    return count


def _state_file(game: bs.Game) -> Path:
    return Path(_checked._state_path(game.header))


def _same(a: bs.Game, b: bs.Game) -> None:
    """Two reads of one copy hold the same game."""
    assert a.records == b.records  # (every field: body, events, openings, signature, letters)
    assert a.state == b.state and a.head_hash == b.head_hash and a.seq == b.seq
    assert a.outcome() == b.outcome() and a.to_act() == b.to_act()
    assert (a.due(), a.waiting_for(), a.waiting_text(), a.reveal_due()) == (
        b.due(),
        b.waiting_for(),
        b.waiting_text(),
        b.reveal_due(),
    )
    me = a.header.viewer  # (a player's copy lists its own player's commands only)
    seats = range(len(a.players)) if me is None else (me,)
    assert [a.legal(s) for s in seats] == [b.legal(s) for s in seats]
    assert (a.region_start, a.committed, a.keys, a.links_given) == (
        b.region_start,
        b.committed,
        b.keys,
        b.links_given,
    )
    assert {s: c.seq for s, c in a.takebacks.last.items()} == {
        s: c.seq for s, c in b.takebacks.last.items()
    }


def _go_on(a: bs.Game, b: bs.Game, signer, steps: int = 6) -> None:
    """The two reads, given the same commands, make the very same records."""
    pick = random.Random(a.seq)
    a.signer = b.signer = signer
    me = a.header.viewer
    for _ in range(steps):
        a.deal_held(), b.deal_held()
        if a.outcome() is not None or a.due() or me not in a.to_act() or a.reveal_due():
            break
        command = pick.choice(a.legal(me))
        salt = pick.randbytes(16)
        a.play(me, command, entropy=lambda n, salt=salt: salt[:n])
        b.play(me, command, entropy=lambda n, salt=salt: salt[:n])
    assert [(r.hash, r.signature) for r in a.records] == [(r.hash, r.signature) for r in b.records]
    _same(a, b)


def test_a_copy_read_from_its_saved_state_is_the_copy_the_rules_give(tmp_path, runs):
    """Three players by mail, a takeback among the moves: each copy saved at several points,
    read once (its state saved), then read again at the next point from that state."""
    table = Table(3, rng_seed=21)
    saved = {}
    for step in range(5):
        _play(table, 3)
        if step == 2:  # (a takeback asked and accepted: the state before a turn comes back)
            lead = table.copies[0]
            (seat,) = lead.to_act()
            table.copies[seat].play(seat, table.rng.choice(table.copies[seat].legal(seat)))
            table.settle()
            table.copies[seat].play(seat, "ask takeback")
            table.settle()
            for other in range(3):
                if other != seat:
                    table.copies[other].play(other, "accept takeback")
                    table.settle()
        for seat, copy in enumerate(table.copies):
            path = _save(copy, tmp_path / f"copy-{seat}.msgpack")
            runs[0] = 0
            resumed = load_checked(path)
            if seat in saved:  # (the rules ran on the records after the saved state only)
                assert runs[0] == copy.seq - saved[seat] > 0
            saved[seat] = copy.seq
            scratch = verify(path).game
            _same(resumed, scratch)
            runs[0] = 0
            _same(bs.load_game(path), scratch)  # (our own file read back: the saved state)
            assert runs[0] == 0
            _go_on(resumed, scratch, copy.signer)
    assert any(r.command == "accept takeback" for r in table.copies[0].records)


def test_a_hosted_copy_and_the_judges_log_read_from_their_saved_states(tmp_path, runs):
    """Sealed bids (Duel of the Forces): the sealed round and the judge's requests used."""
    hosted = Hosted(2, "duel-of-the-forces", seed=5)
    paths = {}
    for _ in range(3):
        hosted.play(limit=5)
        for name, copy in (("judge", hosted.judge), ("ann", hosted.copies[0])):
            paths[name] = _save(copy, tmp_path / f"{name}.msgpack")
            before = _state_file(copy).exists()
            runs[0] = 0
            resumed = load_checked(paths[name])
            assert (runs[0] < copy.seq) == before  # (a saved state: the new records only)
            _same(resumed, verify(paths[name]).game)
            assert _state_file(copy).exists()


def _saved_then_changed(tmp_path):
    """A copy read (its state saved), then played on and saved again: ``(table, path)``."""
    table = Table(2, rng_seed=8)
    _play(table, 6)
    bob = table.copies[1]
    path = _save(bob, tmp_path / "bob.msgpack")
    load_checked(path)
    _play(table, 3)
    _save(bob, tmp_path / "bob.msgpack")
    return table, path


def _read(path):
    try:
        return load_checked(path)
    except bs.BoardstateError as exc:
        return (type(exc), exc.code, str(exc))


def test_a_file_changed_under_the_saved_state_is_never_believed(tmp_path, runs, monkeypatch):
    table, path = _saved_then_changed(tmp_path)
    bob = table.copies[1]
    target = next(r for r in bob.records[2:] if r.openings(1))  # (an earlier record)
    records = list(bob.records)
    for name, changed in (
        ("an opening dropped", target._replace(sealed=None, events=())),
        ("re-signed", target._replace(signature=table.keys[0].sign(b"other"))),
    ):
        bob.records[target.seq] = changed
        _save(bob, tmp_path / "bob.msgpack")
        bob.records[:] = records
        runs[0] = 0
        got = _read(path)
        assert runs[0] > target.seq, name  # (re-derived from the setup, not from the state)
        monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / "nothing-saved"))
        runs[0] = 0
        full = _read(path)
        monkeypatch.setenv("BOARDSTATE_CACHE", str(tmp_path / "cache"))
        if isinstance(full, tuple):
            assert got == full, name
        else:
            _same(got, full)
    assert isinstance(full, tuple) and full[1] == "bad-signature"


def test_a_changed_damaged_or_foreign_saved_state_is_never_believed(tmp_path, runs, monkeypatch):
    table, path = _saved_then_changed(tmp_path)
    bob = table.copies[1]
    state = _state_file(bob)
    good = state.read_bytes()
    other = Table(2, rng_seed=9)  # (another game's saved state, under this game's name)
    _play(other, 6)
    load_checked(_save(other.copies[1], tmp_path / "other.msgpack"))
    foreign = _state_file(other.copies[1]).read_bytes()
    flipped = bytearray(good)
    flipped[-40] ^= 1
    cases = {
        "a byte changed": bytes(flipped),
        "cut short": good[: len(good) // 2],
        "not a state": b"\x93\x01\x02\x03" + os.urandom(64),
        "empty": b"",
        "another game's": foreign,
    }
    expected = verify(path).game
    for name, data in cases.items():
        state.write_bytes(data)
        runs[0] = 0
        _same(load_checked(path), expected)
        assert runs[0] == bob.seq, name  # (every record re-derived: the state ignored)
    for name in ("written by other code", "writable by others", "a link"):
        state.write_bytes(good)
        os.chmod(state, 0o600)
        with monkeypatch.context() as patch:
            if name == "written by other code":
                patch.setattr(_checked, "code_fingerprint", lambda _file: b"other code")
            elif name == "writable by others":
                os.chmod(state, 0o666)
            else:  # (the very bytes saved, but through a link)
                real = state.with_name("elsewhere")
                state.rename(real)
                state.symlink_to(real)
            runs[0] = 0
            _same(load_checked(path), expected)
        assert runs[0] == bob.seq, name
    state.write_bytes(good)  # (and the state as saved is used: the control)
    os.chmod(state, 0o600)
    runs[0] = 0
    _same(load_checked(path), expected)
    assert 0 < runs[0] < bob.seq


def test_an_epic_duels_copy_goes_on_from_its_saved_game(tmp_path, runs):
    """Epic Duels' roster is a value (equal by its fields, pickled as them), so its copies too
    start from the saved game, equal to the game verify makes from the setup."""
    from test_epic_duels_copies import PeerTable

    table = PeerTable({}, 3)
    _play(table, 8)
    ann = table.copies[0]
    path = _save(ann, tmp_path / "ann.msgpack")
    load_checked(path)
    _play(table, 3)
    _save(ann, tmp_path / "ann.msgpack")
    runs[0] = 0
    again = load_checked(path)
    assert 0 < runs[0] < ann.seq
    _same(again, verify(path).game)


def test_a_game_whose_states_are_not_values_is_pickled_once_then_marked(
    tmp_path, runs, monkeypatch
):
    """A state pickle cannot write (here Epic Duels' roster made so: a module's read-only
    mapping): the first checked read tries to pickle the game and marks it; later reads do not
    try again and run the rules from the setup, as before.  A mark of other code is ignored."""
    from test_epic_duels_copies import PeerTable

    from boardstate.modules.epic_duels._roster import Roster

    def cannot(self):
        raise TypeError("cannot pickle 'mappingproxy' object")

    monkeypatch.setattr(Roster, "__reduce__", cannot)
    pickled = [0]
    real = _checked.state_and_records

    def counting(*args, **kwargs):
        pickled[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(_checked, "state_and_records", counting)
    table = PeerTable({}, 3)
    _play(table, 8)
    ann = table.copies[0]
    assert ann.state.roster is not None  # (the cast is chosen: the state is no value now)
    path = _save(ann, tmp_path / "ann.msgpack")
    load_checked(path)
    assert pickled[0] == 1
    _play(table, 3)
    _save(ann, tmp_path / "ann.msgpack")
    pickled[0] = runs[0] = 0
    again = load_checked(path)
    assert (pickled[0], runs[0]) == (0, ann.seq)  # (not pickled; every record re-derived)
    _same(again, verify(path).game)
    monkeypatch.setattr(_checked, "code_fingerprint", lambda _file: b"other code")
    load_checked(path)
    assert pickled[0] == 1


def test_the_first_record_a_saved_game_names_is_the_one_its_reader_starts_from(tmp_path):
    """``keep_state`` names the first record the next command keeps in memory and folds the
    state before it; ``resume_streamed`` starts from the first record the saved game needs.
    Three players: records whose openings a copy knows beyond its file come early, so a reader
    and a writer that said the rule apart would start apart, and the state folded before the
    first record would be dropped (``FileLog.folded``: the words about a record start there)."""
    table = Table(3, rng_seed=5)
    kept_openings = 0
    for step in range(3):
        _play(table, 4)
        for seat, copy in enumerate(table.copies):
            path = _save(copy, tmp_path / f"copy-{seat}.msgpack")
            load_checked(path)  # (the state saved: from the setup, then from the last one)
            key, body = _checked.saved_state(copy)
            openings, _state, written, _folded, _committed = _checked._unpacked(body, 5)
            kept_openings += bool(openings)
            assert _checked._first_needed(body, key[3]) == written, (step, seat)
            if step:  # (read again from the state just saved: its folded state is kept)
                resumed = load_checked(path)
                assert resumed.records.held()[0] == written > 0
                assert resumed.records.folded is not None, (step, seat)
    assert kept_openings  # (the case in point: openings known beyond the file, early ones)


@pytest.mark.parametrize("module_id", ["epic-duels", "duel-of-the-forces", "jedi-duel"])
def test_an_open_game_goes_on_from_its_saved_game(tmp_path, runs, module_id):
    """An open game has no signatures, but its copy read to be added to (``move``, ``apply``)
    starts from the game its last read saved too: the rules run on the new records only, and
    the copy is the one verify makes from the setup, making the same records next."""
    game = bs.Game.new(bs.get_module(module_id), ["ann", "ben"], {}, seed=b"open")
    pick = random.Random(7)

    def play(game, moves):
        for _ in range(moves):
            if game.outcome() is None:
                seat, salt = game.to_act()[0], pick.randbytes(16)  # (a sealed choice's salt)
                game.play(
                    seat, pick.choice(game.legal(seat)), entropy=lambda n, salt=salt: salt[:n]
                )

    path = tmp_path / "open.msgpack"
    play(game, 20)
    bs.save_game(game, path)
    load_checked(path)  # (the rules from the setup: the game saved after them)
    saved = game.seq
    play(game, 4)
    bs.save_game(game, path)
    runs[0] = 0
    again = load_checked(path)
    assert runs[0] == game.seq - saved > 0  # (the records after the saved game)
    scratch = verify(path).game
    _same(again, scratch)
    state = pick.getstate()
    play(again, 6)
    pick.setstate(state)
    play(scratch, 6)
    assert [r.hash for r in again.records] == [r.hash for r in scratch.records]


def test_a_saved_game_is_not_believed_once_the_games_data_changed(tmp_path, runs, monkeypatch):
    """The game's installed data files (Epic Duels' characters and cards, the boards) make its
    state as much as its code does: a state saved before they changed is not believed, the
    rules run from the setup (as verify does), as for other code."""
    from test_checked_memory import open_game_saved

    from boardstate import _datacache

    game, path = open_game_saved(tmp_path, b"data")
    expected, real = verify(path).game, _datacache.data_key
    monkeypatch.setattr(_checked, "data_key", lambda file: b"edited" + real(file))
    runs[0] = 0
    _same(load_checked(path), expected)
    assert runs[0] == game.seq  # (every record: the saved game not believed)
    runs[0] = 0
    load_checked(path)  # (and the one saved then is: the control)
    assert runs[0] == 0
