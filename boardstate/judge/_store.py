"""The judge's store: games, their record rows, answered messages and the outbox, in one database.

Why a database rather than files: the judge accepts a move, notes its message as answered and
queues the answers in ONE transaction.  A crash at any moment (SIGKILL, power cut) leaves all of
that or none of it, so no mail is lost and none is answered twice.

Two backends, one schema and one set of statements: SQLite (the default: a file, no set-up) and
PostgreSQL.  Several judge processes may share one store (SQLite: on one machine; PostgreSQL:
anywhere): ``claim`` takes a named lock that only one process holds at a time and that its
process's death releases (SQLite: a byte-range lock in a file beside the store; PostgreSQL: a
session advisory lock), and the judge claims a game while it judges it and a queued mail while
it sends it.  Only connecting, the transaction
bracket, two column types and the parameter mark differ.  Every rule (no gaps in a game's
records, a message answered once) is checked in the shared code, inside the write transaction;
primary keys enforce the same rules again for writers that race past the check.

Rows, headers and message digests are opaque bytes: the store knows nothing of games.  Beside
them it keeps what the judge decides about its mail: a game's ``mail`` setting (``digest``: a
player is mailed when the game needs them, every record since their last mail in one move file;
``every-record``: every player, every record, as it happens), and per player the last record
they were sent (``sent``), written in the same transaction as the mail that carries it.

A store made by an older boardstate is brought up to date when opened (``_MIGRATIONS``: one
transaction, under the same lock as the schema's creation); one made by a newer is refused.
"""

from __future__ import annotations

import datetime as _dt
import errno
import hashlib
import os
import re
import sqlite3
import struct
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

import msgpack

from .._errors import GameFileError
from ._types import Outgoing

SCHEMA_VERSION = 2  # 2: a game's mail setting and last change; each player's last record sent
MAIL_MODES = ("digest", "every-record")
BUSY_SECONDS = 30.0  # how long a SQLite writer waits for another process's transaction

# ``{blob}`` and ``{serial}`` are the only words the dialects spell differently.  ``serial`` is
# an ascending key: creation order for games, queue order for the outbox.
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS games ("
    " n {serial}, game_id {blob} NOT NULL UNIQUE, header {blob} NOT NULL,"
    " mail TEXT NOT NULL DEFAULT 'digest', changed TEXT)",
    "CREATE TABLE IF NOT EXISTS records ("
    " game_id {blob} NOT NULL REFERENCES games (game_id), seq INTEGER NOT NULL,"
    " data {blob} NOT NULL, PRIMARY KEY (game_id, seq))",
    "CREATE TABLE IF NOT EXISTS players ("
    " game_id {blob} NOT NULL REFERENCES games (game_id), seat INTEGER NOT NULL,"
    " name TEXT NOT NULL, address TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT -1,"
    " PRIMARY KEY (game_id, seat))",
    "CREATE TABLE IF NOT EXISTS answered (digest {blob} PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS outbox ("
    " id {serial}, mail {blob} NOT NULL, sent INTEGER NOT NULL DEFAULT 0)",
    # Sent mail stays (a record of what went out); the queue reads only what is left to send.
    "CREATE INDEX IF NOT EXISTS outbox_unsent ON outbox (id) WHERE sent = 0",
    # Whether a sender is a player somewhere (a refusal is mailed to players only).
    "CREATE INDEX IF NOT EXISTS players_address ON players (lower(address))",
)

# What brings a store of version N-1 to N (its tables exist: ``_SCHEMA`` created none of them).
_MIGRATIONS = {
    2: (
        "ALTER TABLE games ADD COLUMN mail TEXT NOT NULL DEFAULT 'digest'",
        "ALTER TABLE games ADD COLUMN changed TEXT",
        "ALTER TABLE players ADD COLUMN sent INTEGER NOT NULL DEFAULT -1",
        # (a version-1 judge mailed every record to every player: each has been sent them all)
        "UPDATE players SET sent ="
        " (SELECT count(*) FROM records WHERE records.game_id = players.game_id) - 1",
    ),
}


class StoreError(GameFileError):
    """The store cannot be opened or used, or lacks what was asked for.  ``str()`` is one line."""

    code = "store"


class StoreConflict(StoreError):
    """A write collides with what is stored (perhaps by another judge just now); nothing written."""

    code = "store-conflict"


def open_store(where: str, *, create: bool = True) -> Store:
    """``postgresql://...`` or ``postgres://...``: PostgreSQL; ``sqlite:PATH`` or a bare PATH: a
    SQLite file, created if missing (its directory must exist) unless ``create`` is false: then
    a missing file is refused, so a mistyped path never leaves an empty store behind."""
    if where.startswith(("postgresql://", "postgres://")):
        return _Postgres(where)
    if where.startswith("sqlite:"):
        where = where[len("sqlite:") :]
    elif scheme := re.match(r"([A-Za-z][A-Za-z0-9+.-]*)://", where):
        # Taken as a file name this would fail later and more obscurely (no such directory).
        raise StoreError(
            f"unknown store URL scheme {scheme[1]!r}: use postgresql://..., sqlite:PATH or a path",
            code="bad-url",
        )
    if not where:
        raise StoreError("no store path given (sqlite:PATH)", code="bad-url")
    if not create and not os.path.exists(where):
        raise StoreError(f"no judge store {where} (judge new makes one)", code="no-store")
    return _Sqlite(where)


class Store:
    """One judge's database.  Made by ``open_store``; both backends share all of this.

    Every call is one transaction of its own, so a caller never holds one open between calls.
    """

    _qmark = True  # parameters are written ``?``; a backend that takes ``%s`` says so
    _types: dict[str, str]
    _schema_lock = ""  # a statement that serializes schema creation, where DDL races
    _conflicts: type[Exception] | tuple[type[Exception], ...]
    _failures: type[Exception] | tuple[type[Exception], ...]

    def __init__(self, where: str, conn: Any) -> None:
        self._where, self._conn = where, conn
        try:
            self._create_schema()
        except BaseException:
            conn.close()
            raise

    # -- games ----------------------------------------------------------------------------

    def add_game(
        self,
        game_id: bytes,
        header: bytes,
        rows: Sequence[bytes],
        players: Sequence[tuple[str, str]],
        outgoing: Sequence[Outgoing] = (),
        *,
        mail: str = "digest",
    ) -> None:
        """Store a new game with its first record rows and its players, in seat order, and
        queue ``outgoing`` (the invitations, which carry every row) in the same transaction.
        ``mail`` is the game's mail setting (``MAIL_MODES``)."""
        if mail not in MAIL_MODES:
            raise StoreError(
                f"no mail setting {mail!r} (settings: {', '.join(MAIL_MODES)})", code="bad-mail"
            )
        with self._tx() as tx:
            if tx.one("SELECT 1 FROM games WHERE game_id = ?", (game_id,)):
                raise StoreConflict(f"game {_short(game_id)} already exists")
            tx.run(
                "INSERT INTO games (game_id, header, mail, changed) VALUES (?, ?, ?, ?)",
                (game_id, header, mail, _now()),
            )
            _put_rows(tx, game_id, 0, rows)
            sent = len(rows) - 1
            tx.many(
                "INSERT INTO players (game_id, seat, name, address, sent) VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seat, name, address, sent)
                    for seat, (name, address) in enumerate(players)
                ],
            )
            _queue(tx, outgoing)

    def game_ids(self) -> list[bytes]:
        """Every game, oldest first."""
        with self._tx(write=False) as tx:
            return [bytes(g) for (g,) in tx.all("SELECT game_id FROM games ORDER BY n")]

    def load(self, game_id: bytes) -> tuple[bytes, list[bytes]]:
        """The game's header and its record rows in seq order."""
        with self._tx(write=False) as tx:
            found = tx.one("SELECT header FROM games WHERE game_id = ?", (game_id,))
            if found is None:
                raise self._unknown(game_id)
            rows = tx.all("SELECT data FROM records WHERE game_id = ? ORDER BY seq", (game_id,))
            return bytes(found[0]), [bytes(r) for (r,) in rows]

    def header(self, game_id: bytes) -> bytes:
        """The game's header alone (its rows are not read)."""
        with self._tx(write=False) as tx:
            found = tx.one("SELECT header FROM games WHERE game_id = ?", (game_id,))
            if found is None:
                raise self._unknown(game_id)
            return bytes(found[0])

    def players(self, game_id: bytes) -> list[tuple[str, str]]:
        """``(name, mail address)`` per seat, in seat order."""
        with self._tx(write=False) as tx:
            found = tx.all(
                "SELECT name, address FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
            )
            if not found and not tx.one("SELECT 1 FROM games WHERE game_id = ?", (game_id,)):
                raise self._unknown(game_id)
            return [(name, address) for name, address in found]

    def settings(self, game_id: bytes) -> dict:
        """What the judge keeps of a game besides its log: ``mail`` (its mail setting) and
        ``changed`` (when its last records were stored, UTC ISO 8601; None in a store from
        before it was kept, until the game's next move)."""
        with self._tx(write=False) as tx:
            found = tx.one("SELECT mail, changed FROM games WHERE game_id = ?", (game_id,))
            if found is None:
                raise self._unknown(game_id)
            return {"mail": found[0], "changed": found[1]}

    def mailed(self, game_id: bytes) -> list[int]:
        """Per seat, in seat order: the last record that player has been mailed."""
        with self._tx(write=False) as tx:
            found = tx.all("SELECT sent FROM players WHERE game_id = ? ORDER BY seat", (game_id,))
            if not found and not tx.one("SELECT 1 FROM games WHERE game_id = ?", (game_id,)):
                raise self._unknown(game_id)
            return [int(sent) for (sent,) in found]

    def head(self, game_id: bytes) -> int:
        """How many records the game has in the store now (its next record's seq)."""
        with self._tx(write=False) as tx:
            return self._head(tx, game_id)

    def _head(self, tx: _Tx, game_id: bytes) -> int:
        """How many records the game has (rows are numbered from 0 without gaps:
        ``_check_follows``); an unknown game is refused."""
        found = tx.one(
            "SELECT (SELECT count(*) FROM records WHERE game_id = ?) FROM games WHERE game_id = ?",
            (game_id, game_id),
        )
        if found is None:
            raise self._unknown(game_id)
        return int(found[0])

    def is_player(self, address: str) -> bool:
        """Whether ``address`` (any case) is a player's in some game of the store."""
        with self._tx(write=False) as tx:
            found = tx.one(
                "SELECT 1 FROM players WHERE lower(address) = ? LIMIT 1", (address.lower(),)
            )
            return found is not None

    def set_address(self, game_id: bytes, seat: int, address: str) -> None:
        """Send a seat's mail somewhere else from now on."""
        with self._tx() as tx:
            changed = tx.run(
                "UPDATE players SET address = ? WHERE game_id = ? AND seat = ?",
                (address, game_id, seat),
            ).rowcount
            if changed == 0:
                raise StoreError(f"game {_short(game_id)} has no seat {seat}", code="unknown-seat")

    # -- messages -------------------------------------------------------------------------

    def accept(
        self,
        game_id: bytes,
        first_seq: int,
        rows: Sequence[bytes],
        message: bytes,
        outgoing: Sequence[Outgoing],
        mailed: dict[int, int] | None = None,
    ) -> None:
        """Append rows at ``first_seq``, ``first_seq + 1``, ...; mark the message answered; queue
        the mail, and note for each seat in ``mailed`` the last record that mail carries to it.
        All in one transaction: on a conflict nothing of it is written."""
        with self._tx() as tx:
            _mark_answered(tx, message)
            _check_follows(game_id, first_seq, self._head(tx, game_id))
            _put_rows(tx, game_id, first_seq, rows)
            tx.run("UPDATE games SET changed = ? WHERE game_id = ?", (_now(), game_id))
            tx.many(
                "UPDATE players SET sent = ? WHERE game_id = ? AND seat = ?",
                [(seq, game_id, seat) for seat, seq in sorted((mailed or {}).items())],
            )
            _queue(tx, outgoing)

    def answer(self, message: bytes, outgoing: Sequence[Outgoing]) -> None:
        """Answer a message that changes no game (refused, a duplicate move): one transaction."""
        with self._tx() as tx:
            _mark_answered(tx, message)
            _queue(tx, outgoing)

    def answered(self, message: bytes) -> bool:
        with self._tx(write=False) as tx:
            return tx.one("SELECT 1 FROM answered WHERE digest = ?", (message,)) is not None

    # -- outbox ---------------------------------------------------------------------------

    def outbox(self) -> list[tuple[int, Outgoing]]:
        """Mail queued and not yet marked sent, oldest first, with the id to pass to ``sent``."""
        with self._tx(write=False) as tx:
            found = tx.all("SELECT id, mail FROM outbox WHERE sent = 0 ORDER BY id")
            return [(mail_id, _unpack(mail)) for mail_id, mail in found]

    def unsent(self, mail_id: int) -> bool:
        """Whether the mail is still to send (another judge may have sent it meanwhile)."""
        return mail_id in self.still_unsent([mail_id])

    def still_unsent(self, mail_ids: Sequence[int]) -> set[int]:
        """Those of the mails still to send, in one query (another judge may have sent some)."""
        if not mail_ids:
            return set()
        with self._tx(write=False) as tx:
            marks = ", ".join("?" * len(mail_ids))
            found = tx.all(f"SELECT id FROM outbox WHERE sent = 0 AND id IN ({marks})", mail_ids)
            return {int(mail_id) for (mail_id,) in found}

    def sent(self, mail_id: int) -> None:
        """Take a mail off the queue.  Again is harmless: a sender may crash before noting it."""
        self.sent_together([mail_id])

    def sent_together(self, mail_ids: Sequence[int], *, durable: bool = True) -> None:
        """Take several mails off the queue in one transaction.  ``durable=False``: the commit
        does not wait for the disk (SQLite: WAL frames not synced; PostgreSQL: asynchronous
        commit).  It stays atomic and in order: the store's next durable commit makes it
        durable too, and a power cut before that loses it whole, so its mails are sent again;
        only for a sender whose files are synced and that writes a mail sent again over itself
        (``DirectoryOutbox.send_all``)."""
        wanted = sorted(set(mail_ids))
        if not wanted:
            return
        with self._tx(durable=durable) as tx:
            marks = ", ".join("?" * len(wanted))
            found = tx.run(f"UPDATE outbox SET sent = 1 WHERE id IN ({marks})", wanted).rowcount
            if found != len(wanted):
                known = {
                    int(i)
                    for (i,) in tx.all(f"SELECT id FROM outbox WHERE id IN ({marks})", wanted)
                }
                missing = ", ".join(str(i) for i in wanted if i not in known)
                raise StoreError(f"no mail {missing} in the outbox", code="unknown-mail")

    # -- several judges -------------------------------------------------------------------

    def claim(self, name: bytes) -> bool:
        """Take the lock ``name`` for this store object, without waiting: False if another
        holds it.  Held until ``release`` (or until this process ends, however it ends)."""
        raise NotImplementedError

    def release(self, name: bytes) -> None:
        raise NotImplementedError

    # -- connection -----------------------------------------------------------------------

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- shared machinery -----------------------------------------------------------------

    def _create_schema(self) -> None:
        """Create what is missing and bring a store from an older boardstate up to date
        (``_MIGRATIONS``); refuse a store written by a newer boardstate (its tables may mean
        something this code would corrupt)."""
        with self._tx() as tx:
            if self._schema_lock:
                tx.run(self._schema_lock)
            tx.run("CREATE TABLE IF NOT EXISTS store_version (version INTEGER NOT NULL)")
            (version,) = tx.one("SELECT max(version) FROM store_version")
            if version is not None and version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._where}: store schema version {version} is newer than this"
                    f" boardstate's ({SCHEMA_VERSION}); upgrade boardstate",
                    code="future-version",
                )
            for statement in _SCHEMA:
                tx.run(statement.format(**self._types))
            if version is not None:  # (a store from before: its tables lack what came since)
                for step in range(version + 1, SCHEMA_VERSION + 1):
                    for statement in _MIGRATIONS[step]:
                        tx.run(statement)
            if version != SCHEMA_VERSION:
                tx.run("DELETE FROM store_version")
                tx.run("INSERT INTO store_version (version) VALUES (?)", (SCHEMA_VERSION,))

    @contextmanager
    def _tx(self, write: bool = True, *, durable: bool = True) -> Iterator[_Tx]:
        """One transaction; the database's own errors become one-line ``StoreError``s.
        ``durable=False``: its commit does not wait for the disk (``sent_together``)."""
        try:
            with self._transaction(write, durable) as cursor:
                yield _Tx(cursor, self._qmark)
        except self._conflicts as exc:  # a racing writer passed the same checks first
            raise StoreConflict(f"{self._where}: {_one_line(exc)}") from None
        except self._failures as exc:
            raise StoreError(f"{self._where}: {_one_line(exc)}") from None

    def _transaction(self, write: bool, durable: bool = True) -> Any:
        raise NotImplementedError

    def _unknown(self, game_id: bytes) -> StoreError:
        return StoreError(f"no game {_short(game_id)} in {self._where}", code="unknown-game")


class _Sqlite(Store):
    _types = {"blob": "BLOB", "serial": "INTEGER PRIMARY KEY"}  # a rowid: never reused here
    _conflicts = sqlite3.IntegrityError
    _failures = sqlite3.Error

    def __init__(self, path: str) -> None:
        try:
            # isolation_level=None: no implicit transactions; each call brackets its own.
            conn = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open store {path}: {_one_line(exc)}") from None
        try:
            # WAL + FULL: a commit is on disk when it returns, and a crash mid-write is rolled
            # back on the next open.  Foreign keys are off in SQLite unless asked for.
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot open store {path}: {_one_line(exc)}") from None
        super().__init__(path, conn)
        self._locks = _LockFile(None if _in_memory(path) else f"{path}-locks")

    def claim(self, name: bytes) -> bool:
        try:
            return self._locks.claim(name)
        except OSError as exc:
            raise StoreError(f"{self._where}: cannot lock: {_one_line(exc)}") from None

    def release(self, name: bytes) -> None:
        try:
            self._locks.release(name)
        except OSError as exc:
            raise StoreError(f"{self._where}: cannot unlock: {_one_line(exc)}") from None

    def close(self) -> None:
        self._locks.close()
        super().close()

    @contextmanager
    def _transaction(self, write: bool, durable: bool = True) -> Iterator[sqlite3.Cursor]:
        # (WAL with synchronous=NORMAL: the commit's frames are synced by the next FULL one)
        if not durable:
            self._conn.execute("PRAGMA synchronous=NORMAL")
        try:
            # IMMEDIATE takes the write lock first: the checks and the writes see the same data.
            self._conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield self._conn.cursor()
                self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
                raise
        finally:
            if not durable:
                self._conn.execute("PRAGMA synchronous=FULL")


class _Postgres(Store):
    _qmark = False
    _types = {"blob": "BYTEA", "serial": "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"}
    # Two judges opening a new database at once would race on CREATE TABLE IF NOT EXISTS.
    _schema_lock = "SELECT pg_advisory_xact_lock(7152411601)"

    def __init__(self, url: str) -> None:
        shown = _without_password(url)
        self._held: set[bytes] = set()  # the claims this object holds
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                f"cannot open store {shown}: PostgreSQL needs psycopg;"
                " install boardstate[postgres]",
                code="missing-driver",
            ) from None
        self._conflicts = psycopg.errors.IntegrityError
        self._failures = psycopg.Error
        try:
            conn = psycopg.connect(url, autocommit=True)  # transactions only where bracketed
        except psycopg.Error as exc:
            raise StoreError(f"cannot open store {shown}: {_one_line(exc)}") from None
        super().__init__(shown, conn)

    @contextmanager
    def _transaction(self, write: bool, durable: bool = True) -> Iterator[Any]:
        with self._conn.transaction(), self._conn.cursor() as cursor:
            if not durable:  # (PostgreSQL keeps the order: a later synced commit syncs it too)
                cursor.execute("SET LOCAL synchronous_commit TO OFF")
            yield cursor

    def claim(self, name: bytes) -> bool:
        if name in self._held:  # (PostgreSQL's own locks nest within a session: these do not)
            return False
        with self._tx(write=False) as tx:
            if not tx.one("SELECT pg_try_advisory_lock(?)", (_lock_key(name),))[0]:
                return False
        self._held.add(name)
        return True

    def release(self, name: bytes) -> None:
        if name in self._held:
            self._held.discard(name)
            with self._tx(write=False) as tx:
                tx.one("SELECT pg_advisory_unlock(?)", (_lock_key(name),))


class _LockFile:
    """Named locks for the processes of one machine: one byte each of a lock file, at an
    offset hashed from the name, locked with ``fcntl``.  Open file description locks where the
    system has them (Linux): two store objects in one process exclude each other too, and
    closing one never drops another's locks; else POSIX record locks (per process).  A process
    that dies, however, holds none.  ``path`` None (an in-memory store, which no other process
    can open): locks within this object only."""

    def __init__(self, path: str | None) -> None:
        self._path, self._fd, self._held = path, None, set()

    def _file(self) -> int:
        if self._fd is None:
            self._fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        return self._fd

    def claim(self, name: bytes) -> bool:
        if name in self._held:
            return False
        if self._path is not None and not self._lock(name, True):
            return False
        self._held.add(name)
        return True

    def release(self, name: bytes) -> None:
        if name in self._held:
            self._held.discard(name)
            if self._path is not None:
                self._lock(name, False)

    def _lock(self, name: bytes, take: bool) -> bool:
        import fcntl

        offset = int.from_bytes(hashlib.sha256(name).digest()[:6], "big")
        kind = fcntl.F_WRLCK if take else fcntl.F_UNLCK
        try:
            if hasattr(fcntl, "F_OFD_SETLK"):  # struct flock; l_pid must be 0
                request = struct.pack("hhqqi4x", kind, os.SEEK_SET, offset, 1, 0)
                fcntl.fcntl(self._file(), fcntl.F_OFD_SETLK, request)
            else:
                how = (fcntl.LOCK_EX | fcntl.LOCK_NB) if take else fcntl.LOCK_UN
                fcntl.lockf(self._file(), how, 1, offset, os.SEEK_SET)
        except OSError as exc:
            if take and exc.errno in (errno.EACCES, errno.EAGAIN):
                return False
            raise
        return True

    def close(self) -> None:
        fd, self._fd = self._fd, None
        self._held.clear()
        if fd is not None:
            os.close(fd)


def _in_memory(path: str) -> bool:
    return path in ("", ":memory:") or path.startswith("file::memory:")


def _lock_key(name: bytes) -> int:
    """A PostgreSQL advisory lock key (a signed 64-bit integer) for a lock's name."""
    return int.from_bytes(hashlib.sha256(name).digest()[:8], "big", signed=True)


class _Tx:
    """One transaction's cursor, taking ``?`` parameters whichever the backend's style."""

    def __init__(self, cursor: Any, qmark: bool) -> None:
        self._cursor, self._qmark = cursor, qmark

    def _sql(self, sql: str) -> str:
        return sql if self._qmark else sql.replace("?", "%s")

    def run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self._cursor.execute(self._sql(sql), params)

    def many(self, sql: str, params: list[Sequence[Any]]) -> None:
        if params:
            self._cursor.executemany(self._sql(sql), params)

    def one(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.run(sql, params).fetchone()

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return self.run(sql, params).fetchall()


def _check_follows(game_id: bytes, first_seq: int, have: int) -> None:
    """The no-gaps rule: new rows start right after the game's last one."""
    if first_seq < have:
        raise StoreConflict(
            f"game {_short(game_id)} has {have} records: record {first_seq} is taken"
        )
    if first_seq > have:
        raise StoreConflict(
            f"game {_short(game_id)} has {have} records: record {first_seq} would leave a gap"
        )


def _put_rows(tx: _Tx, game_id: bytes, first_seq: int, rows: Sequence[bytes]) -> None:
    tx.many(
        "INSERT INTO records (game_id, seq, data) VALUES (?, ?, ?)",
        [(game_id, first_seq + i, row) for i, row in enumerate(rows)],
    )


def _mark_answered(tx: _Tx, message: bytes) -> None:
    """The answer-once rule: a re-delivered message must not cause a second answer."""
    if tx.one("SELECT 1 FROM answered WHERE digest = ?", (message,)):
        raise StoreConflict(f"message {_short(message)} was already answered")
    tx.run("INSERT INTO answered (digest) VALUES (?)", (message,))


def _queue(tx: _Tx, outgoing: Sequence[Outgoing]) -> None:
    tx.many("INSERT INTO outbox (mail) VALUES (?)", [(_pack(mail),) for mail in outgoing])


def _pack(mail: Outgoing) -> bytes:
    attachments = [[name, bytes(data)] for name, data in mail.attachments]
    fields = [mail.to, mail.subject, mail.text, attachments, mail.kind, mail.picture]
    return msgpack.packb(fields, use_bin_type=True)


def _unpack(blob: bytes) -> Outgoing:
    fields = msgpack.unpackb(bytes(blob), raw=False)
    to, subject, text, attachments = fields[:4]
    kind = fields[4] if len(fields) > 4 else ""  # (queued by a version-1 judge: no kind)
    picture = fields[5] if len(fields) > 5 else ""  # (queued with its PNG already drawn)
    files = tuple((name, data) for name, data in attachments)
    return Outgoing(to, subject, text, files, kind, picture)


def _now() -> str:
    return _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()


def _short(key: bytes) -> str:
    """A digest or game id, recognisable in one line."""
    shown = bytes(key).hex()
    return shown if len(shown) <= 16 else shown[:16] + "..."


def _one_line(exc: BaseException) -> str:
    """Drivers' messages may span lines (PostgreSQL adds DETAIL and HINT): keep the first."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _without_password(url: str) -> str:
    """The URL as it may appear in a message or a log."""
    url = re.sub(r"([?&]password=)[^&]*", r"\1***", url)
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
        return parts._replace(netloc=netloc).geturl()
    except ValueError:  # a malformed port: hide whatever precedes the host
        scheme, _, rest = url.partition("://")
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}" if "@" in rest else url
