"""The judge's commands close their store however they end (``cli.judge._judge``): the command
line ends its process without the interpreter's teardown (``cli.app._end``), so a store left
open stays open to the end: a SQLite store kept its -wal and -shm files beside it, a PostgreSQL
connection was dropped, never closed.  Each command runs in a subprocess whose last exit handler
lists the store connections still open; PostgreSQL when a server can be started
(tests/pg_server.py; skipped, saying why, otherwise)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pg_server import fresh_postgres_url, postgres_url  # noqa: F401  (fixtures used by name)

import boardstate.judge as judge

LEFT_OPEN = """
import atexit, gc, sqlite3, sys
def survey():  # (registered first: it runs last, after every other exit handler)
    gc.unfreeze()
    left = []
    for o in gc.get_objects():
        if isinstance(o, sqlite3.Connection):
            try:
                o.total_changes  # (a closed connection refuses it)
                left.append("sqlite3")
            except sqlite3.ProgrammingError:
                pass
        elif "psycopg" in sys.modules and isinstance(o, sys.modules["psycopg"].Connection):
            if not o.closed:
                left.append("psycopg")
    print("left open:", sorted(left), file=sys.stderr)
atexit.register(survey)
sys.argv = ["boardstate", *sys.argv[1:]]
from boardstate.cli import main
main()
"""


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        return str(tmp_path / "judge.sqlite")
    return request.getfixturevalue("fresh_postgres_url")


def _run(tmp_path, *argv: str, status: int = 0) -> str:
    config = {"XDG_CONFIG_HOME": str(tmp_path / "config")}  # (the judge's key made here)
    command = [sys.executable, "-c", LEFT_OPEN, *argv]
    done = subprocess.run(
        command, capture_output=True, text=True, cwd=tmp_path, env=os.environ | config
    )
    assert done.returncode == status, (argv, done.stderr)
    said = done.stderr.rsplit("left open: ", 1)[1].strip()
    assert said == "[]", (argv, done.stderr)
    return done.stdout


def test_each_judge_command_closes_its_store(tmp_path, store):
    (tmp_path / "in").mkdir()
    _run(tmp_path, "key", "new", "judge")
    players = ["--player", "ann=a@x.example", "--player", "ben=b@x.example"]
    made = _run(tmp_path, "judge", "new", "jedi-duel", *players, "--store", store, "--key", "judge")
    mail = ["--inbox", "dir:in", "--outbox", "dir:out", "--once"]
    sent = _run(tmp_path, "judge", "run", "--store", store, "--key", "judge", *mail)
    assert sent.startswith("2 mails sent"), sent
    refused = ["judge", "publish", "00", "--store", store, "--key", "judge", "-o", "x.msgpack"]
    _run(tmp_path, *refused, status=2)  # (no such game: refused with the store open)
    _run(tmp_path, "judge", "list", "--store", store)
    if not store.startswith("postgresql"):
        assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("judge.")) == [
            "judge.sqlite",
            "judge.sqlite-locks",  # (the claims' lock file: kept, by design)
        ]
    with judge.open_store(store, create=False) as opened:
        assert [g.hex() for g in opened.game_ids()] == [made.split()[2].rstrip(":")]
