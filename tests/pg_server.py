"""A real PostgreSQL server for the tests, started once per session when one is installed.

Import the fixtures into a test module (``from pg_server import postgres_url, fresh_postgres_url``)
or into ``conftest.py``.  ``postgres_url`` is the server's own database; ``fresh_postgres_url``
is a new, empty database per test, so tests never see each other's tables.  Under pytest-xdist
each worker starts its own server (its own directory and port).

When no server can be started (not installed, no unprivileged user to run it as, start-up
fails), the tests that ask for one are skipped with the reason.  Set
``BOARDSTATE_TEST_POSTGRES=require`` (CI, where the ``postgresql`` package is installed) to make
that a failure instead, so the PostgreSQL tests cannot silently stop running.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator

import pytest

SUPERUSER = "postgres"  # the role initdb creates; trust auth, so no password
DATABASE = "boardstate"
_fresh = itertools.count()


def _give_up(reason: str) -> None:
    """Skip (or fail, when CI requires PostgreSQL) with a one-line reason."""
    reason = f"PostgreSQL tests not run: {reason}"
    if os.environ.get("BOARDSTATE_TEST_POSTGRES") == "require":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def _bin_dir() -> str | None:
    """Debian keeps the server binaries off PATH, one directory per major version: the newest."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        newest = max(found, key=lambda p: int(p.split("/")[-3].split(".")[0]))
        return os.path.dirname(newest)
    initdb = shutil.which("initdb")
    return os.path.dirname(initdb) if initdb else None


def _runner() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that runs the server unprivileged: PostgreSQL refuses to run as root."""
    if os.geteuid() != 0:
        return [], None
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        _give_up("running as root and there is no 'postgres' user to run the server as")
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", user.pw_name, "--"], user
    return ["su", user.pw_name, "-s", "/bin/sh", "-c", '"$0" "$@"'], user


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(cmd: list[str], what: str, log: str = "", *, retry_on: str = "") -> bool:
    """Run a server tool; on failure give up with its last word (the server's, if it logged),
    or return False when it said ``retry_on`` (the caller tries again)."""
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        said = done.stderr or done.stdout
        if log and os.path.exists(log):
            with open(log, errors="replace") as f:
                said = f.read() or said
            os.remove(log)  # (a second try logs afresh)
        if retry_on and retry_on in said:
            return False
        lines = said.strip().splitlines() or ["no output"]
        _give_up(f"{what} failed: {lines[-1]}")
    return True


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """Start a throw-away server on 127.0.0.1 (trust auth, data in a temp dir); yield its URL."""
    try:
        import psycopg
    except ImportError:
        _give_up("psycopg is not installed (pip install boardstate[postgres])")
    bin_dir = _bin_dir()
    if bin_dir is None:
        _give_up("initdb not found (apt-get install postgresql)")
    prefix, user = _runner()
    # Not pytest's tmp_path: its parent is private to root, and the server user must reach it.
    top = tempfile.mkdtemp(prefix="boardstate-pg-")
    data, log = os.path.join(top, "data"), os.path.join(top, "server.log")
    if user is not None:
        os.chown(top, user.pw_uid, user.pw_gid)
    pg_ctl = [*prefix, os.path.join(bin_dir, "pg_ctl"), "-D", data]
    try:
        initdb = [os.path.join(bin_dir, "initdb"), "-D", data, "-U", SUPERUSER, "-A", "trust"]
        _run([*prefix, *initdb, "-E", "UTF8", "--no-sync"], "initdb")
        # The port is free when chosen, not reserved: under pytest-xdist each worker starts its
        # own server, and another may take the port first.  Then a new port (three tries).
        # fsync off: the tests kill judges, never the server, whose data is thrown away.
        for attempt in range(3):
            port = _free_port()
            options = f"-c listen_addresses=127.0.0.1 -p {port} -k {top} -c fsync=off"
            start = [*pg_ctl, "-l", log, "-w", "-t", "60", "-o", options, "start"]
            taken = "Address already in use" if attempt < 2 else ""
            if _run(start, "pg_ctl start", log, retry_on=taken):
                break
        server = f"postgresql://{SUPERUSER}@127.0.0.1:{port}"
        with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {DATABASE}")
        yield f"{server}/{DATABASE}"
    finally:
        if os.path.exists(os.path.join(data, "postmaster.pid")):  # even a start that timed out
            # Immediate: no shutdown checkpoint (the data is thrown away next).
            stop = [*pg_ctl, "-m", "immediate", "-w", "stop"]
            subprocess.run(stop, capture_output=True, check=False)
        shutil.rmtree(top, ignore_errors=True)


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> str:
    """A new empty database on the session's server, for one test (left for the server's end)."""
    import psycopg

    name = f"test_{os.getpid()}_{next(_fresh)}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return postgres_url.rsplit("/", 1)[0] + "/" + name
