"""The judge's store (boardstate/judge/_store.py) on SQLite and on a real PostgreSQL server.

Every test runs on both backends.  Each PostgreSQL test has a database of its own; all of them
are skipped, with the reason, when no server can be started here (tests/pg_server.py).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pytest
from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)

from boardstate.judge._store import SCHEMA_VERSION, StoreConflict, StoreError, open_store
from boardstate.judge._types import Outgoing

GAME = hashlib.sha256(b"game").digest()
OTHER = b"other game"
PLAYERS = [("alice", "alice@example.org"), ("bob", "bob@example.org")]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(params=["sqlite", "postgres"])
def where(request, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:{tmp_path / 'judge.sqlite'}"
    return request.getfixturevalue("fresh_postgres_url")


@pytest.fixture
def store(where):
    with open_store(where) as opened:
        opened.add_game(GAME, b"header", [_row(0), _row(1)], PLAYERS)
        yield opened


def _row(seq: int) -> bytes:
    """A record row whose bytes and length depend on its seq (so a torn or misplaced row shows)."""
    return seq.to_bytes(4, "big") + hashlib.sha256(b"%d" % seq).digest() * (1 + seq % 64)


def _message(move: int) -> bytes:
    return hashlib.sha256(b"message %d" % move).digest()


def _mail(move: int, rows: list[bytes]) -> Outgoing:
    files = tuple((f"{move}-{i}.bsm", row) for i, row in enumerate(rows))
    return Outgoing("alice@example.org", f"move {move}", "Accepted.", files)


def _snapshot(store, *messages: bytes) -> tuple:
    return store.load(GAME), [store.answered(m) for m in messages], store.outbox()


def _raw(where: str, sql: str) -> None:
    """Change a store behind its back, as another (newer) program might."""
    if where.startswith("sqlite:"):
        with sqlite3.connect(where[len("sqlite:") :]) as conn:
            conn.execute(sql)
    else:
        import psycopg

        with psycopg.connect(where, autocommit=True) as conn:
            conn.execute(sql)


def test_games_rows_and_players_round_trip(where):
    with open_store(where) as store:
        assert store.game_ids() == []
        rows = [b"", b"\x00\xff" * 1000, _row(2)]
        store.add_game(GAME, b"\x00header", rows, PLAYERS)
        store.add_game(OTHER, b"h2", [], [("carol", "c@example.org")])
        assert store.game_ids() == [GAME, OTHER]
        assert store.load(GAME) == (b"\x00header", rows)
        assert store.load(OTHER) == (b"h2", [])
        assert store.players(GAME) == PLAYERS
        store.set_address(GAME, 1, "bob@elsewhere.example")
        assert store.players(GAME) == [PLAYERS[0], ("bob", "bob@elsewhere.example")]

        with pytest.raises(StoreConflict, match="already exists"):
            store.add_game(GAME, b"other header", [b"x"], [])
        assert store.load(GAME) == (b"\x00header", rows)
        for call in (lambda: store.load(b"nope"), lambda: store.players(b"nope")):
            with pytest.raises(StoreError, match="no game 6e6f7065"):
                call()
        with pytest.raises(StoreError, match="no seat 2"):
            store.set_address(GAME, 2, "x@example.org")


def test_accept_appends_rows_answers_and_queues(store):
    rows = [_row(2), _row(3)]
    store.accept(GAME, 2, rows, _message(1), [_mail(1, rows), _mail(1, [])])
    assert store.load(GAME) == (b"header", [_row(s) for s in range(4)])
    assert store.answered(_message(1)) and not store.answered(_message(2))
    assert [mail for _, mail in store.outbox()] == [_mail(1, rows), _mail(1, [])]
    store.accept(GAME, 4, [], _message(2), [])  # nothing to append is still "no gap"
    assert store.answered(_message(2))


@pytest.mark.parametrize(
    "first_seq, message, game, error",
    [
        (1, _message(9), GAME, "record 1 is taken"),
        (0, _message(9), GAME, "record 0 is taken"),
        (4, _message(9), GAME, "record 4 would leave a gap"),
        (2, _message(1), GAME, "already answered"),
        (0, _message(9), b"nope", "no game"),
    ],
    ids=["taken", "first-taken", "gap", "answered", "unknown-game"],
)
def test_a_refused_accept_writes_nothing(store, first_seq, message, game, error):
    store.accept(GAME, 2, [_row(2)], _message(1), [_mail(1, [_row(2)])])
    before = _snapshot(store, _message(1), _message(9))
    with pytest.raises(StoreError, match=error):
        store.accept(game, first_seq, [_row(7), _row(8)], message, [_mail(9, [_row(7)])])
    assert _snapshot(store, _message(1), _message(9)) == before


def test_answer_without_a_move(store):
    store.answer(_message(1), [_mail(1, [])])
    before = _snapshot(store, _message(1))
    assert before[1] == [True] and len(before[2]) == 1
    with pytest.raises(StoreConflict, match="already answered"):
        store.answer(_message(1), [_mail(2, [])])
    with pytest.raises(StoreConflict, match="already answered"):
        store.accept(GAME, 2, [_row(2)], _message(1), [_mail(2, [])])
    assert _snapshot(store, _message(1)) == before


def test_outbox_is_a_queue(store):
    for move in range(3):
        store.answer(_message(move), [_mail(move, [_row(move)])])
    queued = store.outbox()
    assert [mail for _, mail in queued] == [_mail(m, [_row(m)]) for m in range(3)]
    first, second, _ = (mail_id for mail_id, _ in queued)
    store.sent(second)
    store.sent(second)  # again: a sender that crashed before noting it
    assert store.outbox() == [queued[0], queued[2]]
    store.sent(first)
    assert store.outbox() == [queued[2]]
    with pytest.raises(StoreError, match="no mail"):
        store.sent(10**6)


def test_reopening_keeps_everything(where, store):
    store.accept(GAME, 2, [_row(2)], _message(1), [_mail(1, [_row(2)])])
    store.answer(_message(2), [_mail(2, [])])
    store.sent(store.outbox()[0][0])
    before = _snapshot(store, _message(1), _message(2), _message(3))
    store.close()
    with open_store(where) as again:
        assert _snapshot(again, _message(1), _message(2), _message(3)) == before
        assert again.players(GAME) == PLAYERS
        again.accept(GAME, 3, [_row(3)], _message(3), [])
    with open_store(where) as third:
        assert third.load(GAME)[1] == [_row(s) for s in range(4)]


def test_a_newer_schema_is_refused(where, store):
    store.close()
    _raw(where, f"UPDATE store_version SET version = {SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError) as refused:
        open_store(where)
    assert refused.value.code == "future-version"
    assert "newer than this boardstate's" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_unopenable_stores_say_why_in_one_line(where, tmp_path):
    if where.startswith("sqlite:"):
        (tmp_path / "junk").write_bytes(b"not a database" * 300)
        bad = {
            str(tmp_path / "missing" / "judge.sqlite"): "unable to open",
            str(tmp_path): "unable to open",  # a directory
            f"sqlite:{tmp_path / 'junk'}": "not a database",
            "mysql://host/db": "unknown store URL scheme 'mysql'",
            "sqlite:": "no store path",
        }
    else:
        server = where.rsplit("/", 1)[0]
        bad = {
            f"{server}/no_such_database": "does not exist",
            "postgresql://judge:s3cret@127.0.0.1:notaport/db": "cannot open store",
            "postgres://127.0.0.1:1/db": "cannot open store",
        }
    for place, reason in bad.items():
        with pytest.raises(StoreError, match=reason) as refused:
            open_store(place)
        assert "\n" not in str(refused.value) and "s3cret" not in str(refused.value), place


def test_only_judge_new_makes_a_store(tmp_path, monkeypatch):
    """A mistyped store path in list, site, run or publish is refused in one line and leaves no
    empty store behind; judge new makes one."""
    from click.testing import CliRunner

    from boardstate.cli import cli

    monkeypatch.chdir(tmp_path)
    for args in (
        ["judge", "list", "--store", "typo.sqlite"],
        ["judge", "site", "--store", "typo.sqlite", "-o", "site"],
        [
            "judge",
            "run",
            "--store",
            "typo.sqlite",
            "--key",
            "k",
            "--inbox",
            "dir:i",
            "--outbox",
            "dir:o",
        ],
        ["judge", "publish", "ab", "--store", "typo.sqlite", "--key", "judge", "-o", "x"],
    ):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code != 0 and isinstance(result.exception, SystemExit), args
        assert result.output.strip() == (
            "boardstate: error: no judge store typo.sqlite (judge new makes one) [no-store]"
        ), args
        assert not (tmp_path / "typo.sqlite").exists(), args
    with pytest.raises(StoreError, match="no judge store") as refused:
        open_store(str(tmp_path / "typo.sqlite"), create=False)
    assert refused.value.code == "no-store"


def test_missing_psycopg_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "psycopg", None)  # makes `import psycopg` fail
    with pytest.raises(StoreError, match=r"install boardstate\[postgres\]"):
        open_store("postgresql://localhost/judge")


def test_two_judges_racing_for_a_seq_one_wins(where, store):
    rounds, start = 15, threading.Barrier(2, timeout=30)
    outcomes: dict[int, list[str]] = {r: [] for r in range(rounds)}

    def judge(name: str) -> None:
        with open_store(where) as own:  # a connection of its own, as another process has
            for r in range(rounds):
                start.wait()
                try:
                    own.accept(GAME, 2 + r, [_row(2 + r)], _message(100 * r) + name.encode(), [])
                    outcomes[r].append("won")
                except StoreConflict:
                    outcomes[r].append("lost")

    threads = [threading.Thread(target=judge, args=(n,)) for n in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(sorted(o) == ["lost", "won"] for o in outcomes.values()), outcomes
    assert store.load(GAME)[1] == [_row(s) for s in range(2 + rounds)]


# The child accepts moves of two rows each until killed.  Its helpers are this file's own.
_WRITER = """
from boardstate.judge._store import open_store
from boardstate.judge._types import Outgoing

game = bytes.fromhex(sys.argv[2])
with open_store(sys.argv[1]) as store:
    move = len(store.load(game)[1]) // 2
    print("go", flush=True)
    while True:
        rows = [_row(2 * move), _row(2 * move + 1)]
        store.accept(game, 2 * move, rows, _message(move), [_mail(move, rows)])
        move += 1
"""


def test_kill_9_loses_nothing_and_tears_nothing(where):
    with open_store(where) as store:
        store.add_game(GAME, b"header", [], PLAYERS)
    helpers = "".join(inspect.getsource(f) for f in (_row, _message, _mail))
    script = "from __future__ import annotations\nimport hashlib, sys\n" + helpers + _WRITER
    moves = 0
    for _ in range(3):
        child = subprocess.Popen(
            [sys.executable, "-c", script, where, GAME.hex()],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            assert child.stdout.readline() == b"go\n", child.stderr.read().decode()
            time.sleep(random.uniform(0.1, 0.5))
            assert child.poll() is None, child.stderr.read().decode()
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
            child.stdout.close()
            child.stderr.close()

        with open_store(where) as store:
            rows = store.load(GAME)[1]
            assert len(rows) % 2 == 0, "a move's rows were split"
            assert rows == [_row(s) for s in range(len(rows))], "a row is torn, lost or misplaced"
            assert len(rows) // 2 > moves, "the child committed nothing"
            moves = len(rows) // 2
            assert all(store.answered(_message(m)) for m in range(moves))
            assert not store.answered(_message(moves))
            queued = [mail for _, mail in store.outbox()]
            assert queued == [_mail(m, rows[2 * m : 2 * m + 2]) for m in range(moves)]
