"""The judge's inboxes: where ``Mail`` comes from (``fetch`` or ``mails``, then ``done``).

A Maildir a mail server or fetchmail delivers into, an IMAP folder, and a plain folder for local
play.  ``fetch`` never marks anything: a mail is marked only by ``done``, after the store has
committed what it caused, so a crash in between re-reads it (the store recognises it by
``Mail.digest``).  Every inbox reads a mail within the limits of ``_mime``.
"""

from __future__ import annotations

import contextlib
import hashlib
import imaplib
import os
import re
import ssl as _ssl
from collections.abc import Iterator
from pathlib import Path

import attrs

from ._mime import HEADER_BYTES, MAX_MAIL_BYTES, armored_blocks, oversized, parse_mail, read_bounded
from ._transport_error import TransportError, one_line
from ._types import Mail

# -- Maildir --------------------------------------------------------------------------------


class MaildirInbox:
    """A Maildir that a mail server, procmail or fetchmail delivers into.

    Handled mails are moved to ``cur/`` with the Seen flag, the Maildir way to say "read", so a
    mail program shows them read and a restarted judge skips them.  Files are renamed directly
    (one atomic rename) rather than through ``mailbox.Maildir``, whose update rewrites the
    message and whose listing would parse every handled mail on every poll.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        for sub in ("tmp", "new", "cur"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)

    def _files(self) -> list[tuple[str, Path]]:
        """``(key, path)`` of every message file, in new/ then cur/."""
        files = []
        for sub in ("new", "cur"):
            with os.scandir(self.path / sub) as entries:
                for entry in entries:
                    if not entry.name.startswith(".") and entry.is_file():
                        files.append((entry.name.split(":", 1)[0], Path(entry.path)))
        return files

    def fetch(self) -> list[Mail]:
        return list(self.mails())

    def mails(self) -> Iterator[Mail]:
        """Every unseen mail, oldest first, read when it is reached.  A file gone between
        listing and reading was marked or moved by someone else meanwhile (a mail program,
        another judge): if it is still unseen, the next pass finds it."""
        waiting = []
        try:
            for key, path in self._files():
                if "S" not in _maildir_flags(path.name):
                    with contextlib.suppress(FileNotFoundError):
                        waiting.append((path.stat().st_mtime_ns, key, path))
        except OSError as exc:
            raise TransportError(f"maildir {self.path}: cannot read: {one_line(exc)}") from None
        for _, key, path in sorted(waiting):
            try:
                data, digest, size = read_bounded(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TransportError(f"maildir {self.path}: cannot read: {one_line(exc)}") from None
            if size > MAX_MAIL_BYTES:
                yield oversized(data, key, digest, size)
            else:
                yield parse_mail(data, key)

    def done(self, mail: Mail) -> None:
        try:
            for key, path in self._files():
                if key == mail.key:
                    flags = _maildir_flags(path.name)
                    if path.parent.name != "cur" or "S" not in flags:
                        flags = "".join(sorted(set(flags) | {"S"}))
                        with contextlib.suppress(FileNotFoundError):  # (marked meanwhile)
                            os.replace(path, self.path / "cur" / f"{key}:2,{flags}")
                    return
        except OSError as exc:
            raise TransportError(
                f"maildir {self.path}: cannot mark {mail.key}: {one_line(exc)}"
            ) from None


def _maildir_flags(name: str) -> str:
    """The flags of a Maildir file name ``KEY:2,FLAGS`` ('' for a new mail)."""
    _, sep, info = name.partition(":2,")
    return info if sep else ""


# -- IMAP -----------------------------------------------------------------------------------


class ImapInbox:
    """An IMAP folder: unseen mails in, ``\\Seen`` set when done.

    Bodies are fetched with ``BODY.PEEK`` so that reading does not mark them.  A mail's key is
    ``UIDVALIDITY/UID``: should the server renumber the folder between fetch and done, done
    marks nothing rather than the wrong mail (the next fetch reads it again).  The connection
    is kept and checked with NOOP before use; a broken one is reopened on the next call.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        *,
        folder: str = "INBOX",
        ssl: bool = True,
        starttls: bool = False,
        timeout: float = 60,
    ) -> None:
        self.host, self.port, self.user, self._password = host, port, user, password
        self.folder, self.ssl, self.starttls, self.timeout = folder, ssl, starttls, timeout
        self._conn: imaplib.IMAP4 | None = None
        self._validity = ""

    def _fail(self, doing: str, exc: BaseException) -> TransportError:
        self.close()
        where = f"imap {self.user}@{self.host}:{self.port}/{self.folder}"
        return TransportError(f"{where}: cannot {doing}: {one_line(exc)}")

    def _connection(self) -> imaplib.IMAP4:
        if self._conn is not None:
            try:
                self._conn.noop()
                return self._conn
            except (imaplib.IMAP4.error, OSError):
                self.close()
        try:
            if self.ssl:
                conn = imaplib.IMAP4_SSL(
                    self.host,
                    self.port,
                    ssl_context=_ssl.create_default_context(),
                    timeout=self.timeout,
                )
            else:
                conn = imaplib.IMAP4(self.host, self.port, timeout=self.timeout)
            self._conn = conn
            if self.starttls:
                conn.starttls(_ssl.create_default_context())
            conn.login(self.user, self._password)
            typ, data = conn.select(_imap_quote(self.folder))
            if typ != "OK":
                raise imaplib.IMAP4.error(_imap_text(data))
            self._validity = _imap_text(conn.response("UIDVALIDITY")[1])
        except (imaplib.IMAP4.error, OSError) as exc:
            raise self._fail("open the folder", exc) from None
        return conn

    def fetch(self) -> list[Mail]:
        return list(self.mails())

    def mails(self) -> Iterator[Mail]:
        """Every unseen mail, oldest first, fetched when it is reached: its size first, and
        only the header of one over ``MAX_MAIL_BYTES``."""
        conn = self._connection()
        try:
            typ, data = conn.uid("SEARCH", None, "UNSEEN")
            if typ != "OK":
                raise imaplib.IMAP4.error(_imap_text(data))
            uids = sorted(int(n) for n in (data[0] or b"").split())
        except (imaplib.IMAP4.error, OSError) as exc:
            raise self._fail("fetch", exc) from None
        for uid in uids:
            try:
                mail = self._mail(self._connection(), uid)
            except (imaplib.IMAP4.error, OSError) as exc:
                raise self._fail("fetch", exc) from None
            if mail is not None:  # None: expunged meanwhile
                yield mail

    def _mail(self, conn: imaplib.IMAP4, uid: int) -> Mail | None:
        key = f"{self._validity}/{uid}"
        typ, data = conn.uid("FETCH", str(uid), "(RFC822.SIZE)")
        found = re.search(
            rb"RFC822\.SIZE (\d+)", b" ".join(d for d in data if isinstance(d, bytes))
        )
        if typ != "OK" or found is None:
            return None
        size = int(found[1])
        part = "BODY.PEEK[]" if size <= MAX_MAIL_BYTES else "BODY.PEEK[HEADER]"
        typ, data = conn.uid("FETCH", str(uid), f"({part})")
        raw = next((item[1] for item in data if isinstance(item, tuple)), None)
        if typ != "OK" or raw is None:
            return None
        if size <= MAX_MAIL_BYTES:
            return parse_mail(raw, key)
        head = raw[:HEADER_BYTES]
        digest = hashlib.sha256(b"%d %s" % (size, head)).digest()  # (names it: not its body)
        return oversized(head, key, digest, size)

    def done(self, mail: Mail) -> None:
        validity, _, uid = mail.key.rpartition("/")
        conn = self._connection()
        if validity != self._validity:
            return
        try:
            typ, data = conn.uid("STORE", uid, "+FLAGS.SILENT", r"(\Seen)")
            if typ != "OK":
                raise imaplib.IMAP4.error(_imap_text(data))
        except (imaplib.IMAP4.error, OSError) as exc:
            raise self._fail(f"mark {uid} seen", exc) from None

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                conn.logout()
            except (imaplib.IMAP4.error, OSError):
                pass


def _imap_quote(name: str) -> str:
    """A folder name as an IMAP quoted string (imaplib sends it as given)."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _imap_text(data) -> str:
    return " ".join(
        item.decode("utf-8", "replace") if isinstance(item, bytes) else str(item)
        for item in data or ()
    )


# -- plain folders --------------------------------------------------------------------------

_DROPPED = (".msgpack", ".txt", ".eml")


class DirectoryInbox:
    """Files dropped into a folder, for local play and tests without a mail server.

    ``NAME.msgpack`` is one move file, ``NAME.txt`` a text with armored moves, ``NAME.eml`` a
    whole message.  The sender of the first two is the part of NAME before ``--``
    (``alice@example.org--move3.msgpack``), else none.  Hidden files are skipped, so a writer
    can drop a file atomically as ``.NAME.part`` renamed to ``NAME``.  Handled files move to
    ``done/``.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        self.path.mkdir(parents=True, exist_ok=True)

    def fetch(self) -> list[Mail]:
        return list(self.mails())

    def mails(self) -> Iterator[Mail]:
        """Every dropped file, oldest first, read when it is reached (a file taken away
        meanwhile, by another judge, is skipped)."""
        found = []
        try:
            with os.scandir(self.path) as entries:
                for entry in entries:
                    if entry.name.endswith(_DROPPED) and not entry.name.startswith("."):
                        with contextlib.suppress(FileNotFoundError):  # taken away meanwhile
                            if entry.is_file():
                                found.append((entry.stat().st_mtime_ns, entry.name))
        except OSError as exc:
            raise TransportError(f"folder {self.path}: cannot read: {one_line(exc)}") from None
        for _, name in sorted(found):
            try:
                data, digest, size = read_bounded(self.path / name)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TransportError(f"folder {self.path}: cannot read: {one_line(exc)}") from None
            yield self._mail(name, data, digest, size)

    @staticmethod
    def _mail(name: str, data: bytes, digest: bytes | None = None, size: int = 0) -> Mail:
        if digest is None:
            digest, size = hashlib.sha256(data).digest(), len(data)
        if name.endswith(".eml") and size > MAX_MAIL_BYTES:
            return oversized(data, name, digest, size)
        if name.endswith(".eml"):
            return parse_mail(data, name)
        sender = name.split("--", 1)[0] if "--" in name else ""
        if size > MAX_MAIL_BYTES:
            return attrs.evolve(oversized(b"", name, digest, size), sender=sender)
        if name.endswith(".msgpack"):
            return Mail(name, digest, sender, "", "", (data,))
        text = data.decode("utf-8", "replace").replace("\r\n", "\n")
        moves = tuple(block.encode() for block in armored_blocks(text))
        return Mail(name, digest, sender, "", text, moves)

    def done(self, mail: Mail) -> None:
        source = self.path / mail.key
        if not source.is_file():
            return
        done = self.path / "done"
        target, n = done / mail.key, 1
        while target.exists():  # a file dropped twice: keep both copies
            target, n = done / f"{mail.key}.{n}", n + 1
        try:
            done.mkdir(exist_ok=True)
            os.replace(source, target)
        except FileNotFoundError:  # (another judge on this inbox moved it first)
            return
        except OSError as exc:
            raise TransportError(
                f"folder {self.path}: cannot move {mail.key} to done/: {one_line(exc)}"
            ) from None
