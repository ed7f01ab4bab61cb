"""The judge's mail transports: where ``Mail`` comes from and where ``Outgoing`` goes.

Inboxes (``fetch`` then ``done``) and outboxes (``send``) over the usual ways mail reaches a
program: a Maildir a mail server or fetchmail delivers into, an IMAP account, an SMTP relay,
and plain folders for local play.  ``fetch`` never marks anything: a mail is marked only by
``done``, after the store has committed what it caused, so a crash in between re-reads it (the
store recognises it by ``Mail.digest``).  Only the standard library speaks the protocols.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import email.utils
import hashlib
import imaplib
import itertools
import os
import re
import smtplib
import ssl as _ssl
from collections.abc import Iterator
from email.message import EmailMessage, Message
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

import attrs

from .._armor import BEGIN, END
from .._errors import BoardstateError
from ._types import Mail, Outgoing

MOVE_TYPE = "application/vnd.boardstate+msgpack"
MAX_MAIL_BYTES = 1 << 20  # a mail's size: a request is at most 64 KiB (armored: 90 KB)
MAX_PARTS = 64  # MIME parts (leaves and containers) in one mail
HEADER_BYTES = 1 << 16  # what is read of a mail refused for its size: its sender is in there
MAX_HEADER_CHARS = 4096  # a header longer than this is not parsed (taken as absent)
_MOVE_TYPES = {"application/octet-stream", "application/x-msgpack", MOVE_TYPE}


class TransportError(BoardstateError):
    """A mailbox or mail server cannot be used: a bad URL, a refused login, a lost connection.

    Not a ``GameFileError``: nothing is wrong with any game file, the way to it is.  The message
    is one line (server replies are folded) and never contains a password.
    """

    code = "transport"


def _one_line(exc: BaseException) -> str:
    """A server's error as one line: smtplib and imaplib errors carry bytes and newlines."""
    if isinstance(exc, smtplib.SMTPResponseException):
        text = exc.smtp_error
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        text = f"{exc.smtp_code} {text}"
    elif isinstance(exc, smtplib.SMTPRecipientsRefused):
        text = "; ".join(
            f"{rcpt}: {code} {msg.decode('utf-8', 'replace')}"
            for rcpt, (code, msg) in exc.recipients.items()
        )
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


# -- reading a message ----------------------------------------------------------------------


def armored_blocks(text: str) -> list[str]:
    """Each armored move in ``text``, from its BEGIN line to its END line inclusive.

    Quoted lines stay as they are (``dearmor`` strips ``>``).  A block whose END is missing
    runs to the next BEGIN (or the end of the text), so that ``dearmor`` reports it as such
    to the sender instead of the move vanishing silently.
    """
    blocks = []
    start = text.find(BEGIN)
    while start >= 0:
        following = text.find(BEGIN, start + len(BEGIN))
        end = text.find(END, start + len(BEGIN))
        if end >= 0 and (following < 0 or end < following):
            stop = end + len(END)
        else:
            stop = following if following >= 0 else len(text)
        blocks.append(text[start:stop])
        start = text.find(BEGIN, stop)
    return blocks


def _header(msg: Message, name: str) -> str:
    """A header as one line of text, '' if absent or unparseable (a garbage header is no reason
    to lose the moves of the mail)."""
    try:
        for key, raw in msg.raw_items():  # (unparsed: a huge header is not parsed at all)
            if key.lower() == name.lower():
                if len(raw) > MAX_HEADER_CHARS:
                    return ""
                value = msg.policy.header_fetch_parse(key, raw)
                return " ".join(str(value).split())
        return ""
    except Exception:
        return ""


def _decoded(part: Message) -> bytes:
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


def _text(part: Message) -> str:
    """A text part's content: an unknown or lying charset gives replacement characters."""
    data = _decoded(part)
    charset = part.get_content_charset() or "utf-8"
    try:
        text = data.decode(charset, "replace")
    except LookupError:
        text = data.decode("utf-8", "replace")
    return text.replace("\r\n", "\n")


def _is_attachment(part: Message) -> bool:
    return (
        part.get_filename() is not None
        or part.get_content_disposition() == "attachment"
        or part.get_content_type() in _MOVE_TYPES
    )


def parse_mail(raw: bytes, key: str) -> Mail:
    """The ``Mail`` in a raw message: sender, subject, body text and every move file in it.

    Moves are the attachments (as bytes) and the armored blocks of the plain-text body (as the
    block's text encoded in UTF-8, for ``dearmor``), in the order found.  It never raises: the
    judge reads whatever strangers send, and a mail it cannot make sense of is a mail with no
    moves (the judge may still answer its sender), not a reason to stop.  A mail over the
    limits (``MAX_MAIL_BYTES``, ``MAX_PARTS``) is refused before it is parsed: the count of
    lines that may open a MIME part (``--``) is an upper bound of its parts, taken first.
    """
    digest = hashlib.sha256(raw).digest()
    if len(raw) > MAX_MAIL_BYTES:
        return oversized(raw[:HEADER_BYTES], key, digest, len(raw))
    if raw.startswith(b"--") + raw.count(b"\n--") > 4 * MAX_PARTS:  # (a boundary per part)
        return _headers_only(raw, key, digest, _too_many_parts())
    texts: list[str] = []
    moves: list[bytes] = []
    try:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:
        return Mail(key, digest, "", "", "", ())
    parts: list[Message] = []
    try:
        for part in itertools.islice(msg.walk(), MAX_PARTS + 1):
            parts.append(part)
    except Exception:
        pass  # a structure broken past this point: keep what was read before it
    if len(parts) > MAX_PARTS:
        return _headers_only(raw, key, digest, _too_many_parts(), msg)
    for part in parts:
        _read_part(part, texts, moves)
    sender = email.utils.parseaddr(_header(msg, "Reply-To") or _header(msg, "From"))[1]
    return Mail(key, digest, sender, _header(msg, "Subject"), "\n".join(texts), tuple(moves))


def oversized(head: bytes, key: str, digest: bytes, size: int) -> Mail:
    """A mail of ``size`` bytes, over the limit, from its first bytes ``head`` (its headers)."""
    why = (
        f"the mail is {size:,} bytes; the judge reads mails of at most {MAX_MAIL_BYTES:,} bytes"
        " (send the request alone, as an attachment or its armored text)"
    )
    return _headers_only(head, key, digest, why)


def read_bounded(path: Path) -> tuple[bytes, bytes, int]:
    """``(data, digest, size)`` of a file: all of it when it holds at most ``MAX_MAIL_BYTES``,
    else its first ``HEADER_BYTES`` (the rest is hashed in pieces, never held)."""
    with open(path, "rb") as f:
        data = f.read(MAX_MAIL_BYTES + 1)
        digest = hashlib.sha256(data)
        size = len(data)
        if size <= MAX_MAIL_BYTES:
            return data, digest.digest(), size
        data = data[:HEADER_BYTES]
        while piece := f.read(1 << 20):
            digest.update(piece)
            size += len(piece)
    return data, digest.digest(), size


def _too_many_parts() -> str:
    return f"the mail has more than {MAX_PARTS} MIME parts (send the request alone)"


def _headers_only(raw: bytes, key: str, digest: bytes, why: str, msg=None) -> Mail:
    """A refused mail: its sender and subject (from its headers alone), no moves."""
    try:
        if msg is None:
            head = raw.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0]
            msg = email.message_from_bytes(head + b"\n\n", policy=email.policy.default)
        sender = email.utils.parseaddr(_header(msg, "Reply-To") or _header(msg, "From"))[1]
        subject = _header(msg, "Subject")
    except Exception:
        sender = subject = ""
    return Mail(key, digest, sender, subject, "", (), why)


def _read_part(part: Message, texts: list[str], moves: list[bytes]) -> None:
    """Add a leaf part's text or move; one broken part does not hide the others."""
    try:
        if part.is_multipart():
            return
        if _is_attachment(part):
            data = _decoded(part)
            if data:
                moves.append(data)
        elif part.get_content_type() == "text/plain":
            text = _text(part)
            texts.append(text)
            moves.extend(block.encode() for block in armored_blocks(text))
    except Exception:
        return


def compose(
    out: Outgoing,
    sender: str,
    *,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
) -> EmailMessage:
    """The message for ``out``: its text, and its move files attached under their names.

    The subject is folded to one line (it may quote a player's subject).  The Message-ID's
    domain is the sender's, so composing never waits on a DNS look-up of this host's name.
    """
    msg = EmailMessage()
    try:
        msg["From"] = sender
        msg["To"] = out.to
        msg["Subject"] = " ".join(out.subject.split())
        if reply_to:
            msg["Reply-To"] = reply_to
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = in_reply_to
    except ValueError as exc:  # a line break in an address: refuse, never inject a header
        raise TransportError(f"cannot compose a mail to {out.to!r}: {_one_line(exc)}") from None
    msg["Date"] = email.utils.formatdate(localtime=True)
    domain = sender.rpartition("@")[2].strip("<> ") or "boardstate.invalid"
    msg["Message-ID"] = email.utils.make_msgid("boardstate", domain=domain)
    msg.set_content(out.text)
    maintype, subtype = MOVE_TYPE.split("/")
    for filename, data in out.attachments:
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return msg


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
            raise TransportError(f"maildir {self.path}: cannot read: {_one_line(exc)}") from None
        for _, key, path in sorted(waiting):
            try:
                data, digest, size = read_bounded(path)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TransportError(
                    f"maildir {self.path}: cannot read: {_one_line(exc)}"
                ) from None
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
                f"maildir {self.path}: cannot mark {mail.key}: {_one_line(exc)}"
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
        return TransportError(f"{where}: cannot {doing}: {_one_line(exc)}")

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


# -- SMTP -----------------------------------------------------------------------------------


class SmtpOutbox:
    """An SMTP relay: one connection, kept open between sends and checked with NOOP first."""

    def __init__(
        self,
        host: str,
        port: int,
        sender: str,
        *,
        user: str | None = None,
        password: str | None = None,
        starttls: bool = False,
        ssl: bool = False,
        timeout: float = 60,
    ) -> None:
        self.host, self.port, self.sender = host, port, sender
        self.user, self._password = user, password
        self.starttls, self.ssl, self.timeout = starttls, ssl, timeout
        self._smtp: smtplib.SMTP | None = None

    def _connection(self) -> smtplib.SMTP:
        if self._smtp is not None:
            try:
                if self._smtp.noop()[0] == 250:
                    return self._smtp
            except (smtplib.SMTPException, OSError):
                pass
            self.close()
        if self.ssl:
            context = _ssl.create_default_context()
            smtp = smtplib.SMTP_SSL(self.host, self.port, timeout=self.timeout, context=context)
        else:
            smtp = smtplib.SMTP(self.host, self.port, timeout=self.timeout)
        self._smtp = smtp
        if self.starttls:
            smtp.starttls(context=_ssl.create_default_context())
        if self.user:
            smtp.login(self.user, self._password or "")
        return smtp

    def send(self, out: Outgoing) -> None:
        msg = compose(out, self.sender)
        try:
            self._connection().send_message(msg)
        except (smtplib.SMTPException, OSError) as exc:
            self.close()
            raise TransportError(
                f"smtp {self.host}:{self.port}: cannot send to {out.to}: {_one_line(exc)}"
            ) from None

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()


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
            raise TransportError(f"folder {self.path}: cannot read: {_one_line(exc)}") from None
        for _, name in sorted(found):
            try:
                data, digest, size = read_bounded(self.path / name)
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise TransportError(f"folder {self.path}: cannot read: {_one_line(exc)}") from None
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
                f"folder {self.path}: cannot move {mail.key} to done/: {_one_line(exc)}"
            ) from None


class DirectoryOutbox:
    """Mail written to files: ``PATH/<address>/<NNNN>-<subject>.eml`` with each attachment
    beside it as ``<NNNN>-<filename>``.

    Every file is written under a hidden temporary name, synced, then renamed, so a reader
    never sees part of one; the attachments go first and the ``.eml`` last, so a message
    that is visible is complete.  Numbers increase per address; a writer numbers and writes
    a message holding ``flock`` on ``PATH/.lock``, so several judges on one machine may
    share the folder.
    """

    def __init__(self, path: str | os.PathLike, sender: str = "judge@localhost") -> None:
        self.path = Path(path)
        self.sender = sender
        self.path.mkdir(parents=True, exist_ok=True)

    def send(self, out: Outgoing) -> None:
        import fcntl

        message = compose(out, self.sender).as_bytes()
        folder = self.path / _safe(out.to.lower())
        try:
            with open(self.path / ".lock", "ab") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # (released when closed)
                folder.mkdir(exist_ok=True)
                names = os.listdir(folder)
                numbers = [int(m.group(1)) for m in map(_NUMBERED.match, names) if m]
                prefix = f"{max(numbers, default=0) + 1:04d}"
                for filename, data in out.attachments:
                    name = f"{prefix}-{_safe(os.path.basename(filename))}"
                    _write_atomic(folder / name, data)
                _write_atomic(folder / f"{prefix}-{_safe(out.subject)[:60]}.eml", message)
        except OSError as exc:
            raise TransportError(f"{folder}: cannot write the mail: {_one_line(exc)}") from None


_NUMBERED = re.compile(r"(\d{4,})-")


def _safe(text: str) -> str:
    """A file name from an address or subject: no separators, no leading dot, never empty."""
    return re.sub(r"[^A-Za-z0-9@._+-]+", "_", text).lstrip(".") or "_"


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# -- URLs -----------------------------------------------------------------------------------


def _redacted(url: str) -> str:
    """The URL for an error message: its password replaced, since errors end up in logs."""
    match = re.match(r"([A-Za-z0-9+.-]*://)([^/?#]*)(.*)", url, re.DOTALL)
    if not match or "@" not in match[2]:
        return url
    userinfo, _, host = match[2].rpartition("@")
    user, colon, _ = userinfo.partition(":")
    return f"{match[1]}{user}{':***' if colon else ''}@{host}{match[3]}"


def _local_path(url: str, scheme: str) -> str:
    path = url[len(scheme) + 1 :]
    if path.startswith("///"):  # maildir:///var/mail/judge, in the style of file:///
        path = path[2:]
    if not path:
        raise TransportError(f"{scheme}: needs a path: {scheme}:PATH")
    return path


def _server(url: str, schemes: dict[str, int]):
    """``(parts, port, options)`` of ``scheme://[user:pass@]host[:port]/...?k=1``."""
    parts = urlsplit(url)
    try:
        port = parts.port or schemes[parts.scheme]
    except ValueError as exc:
        raise TransportError(f"{_redacted(url)}: bad port: {exc}") from None
    if not parts.hostname:
        raise TransportError(f"{_redacted(url)}: no host")
    options = {}
    for name, values in parse_qs(parts.query, keep_blank_values=True).items():
        if name != "starttls" or values[-1] not in ("0", "1"):
            raise TransportError(f"{_redacted(url)}: unknown option {name!r} (only starttls=0/1)")
        options[name] = values[-1] == "1"
    return parts, port, options


def open_inbox(url: str) -> MaildirInbox | ImapInbox | DirectoryInbox:
    """An inbox from a URL: ``maildir:PATH``, ``dir:PATH``,
    ``imap://user:pass@host[:port]/FOLDER`` or ``imaps://`` (TLS; ``?starttls=1`` for imap)."""
    scheme = url.partition(":")[0].lower()
    if scheme == "maildir":
        return MaildirInbox(_local_path(url, scheme))
    if scheme == "dir":
        return DirectoryInbox(_local_path(url, scheme))
    if scheme in ("imap", "imaps"):
        parts, port, options = _server(url, {"imap": 143, "imaps": 993})
        if parts.username is None or parts.password is None:
            raise TransportError(f"{_redacted(url)}: needs user:password@ before the host")
        return ImapInbox(
            parts.hostname,
            port,
            unquote(parts.username),
            unquote(parts.password),
            folder=unquote(parts.path.strip("/")) or "INBOX",
            ssl=scheme == "imaps",
            starttls=options.get("starttls", False),
        )
    raise TransportError(f"{_redacted(url)}: not an inbox URL (maildir:, dir:, imap://, imaps://)")


def open_outbox(url: str, sender: str) -> SmtpOutbox | DirectoryOutbox:
    """An outbox from a URL: ``dir:PATH``, ``smtp://[user:pass@]host[:port]`` or ``smtps://``
    (TLS; ``?starttls=1`` for smtp).  ``sender`` is the From address."""
    scheme = url.partition(":")[0].lower()
    if scheme == "dir":
        return DirectoryOutbox(_local_path(url, scheme), sender)
    if scheme in ("smtp", "smtps"):
        parts, port, options = _server(url, {"smtp": 25, "smtps": 465})
        if parts.path.strip("/"):
            raise TransportError(f"{_redacted(url)}: an SMTP URL has no path")
        return SmtpOutbox(
            parts.hostname,
            port,
            sender,
            user=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            starttls=options.get("starttls", False),
            ssl=scheme == "smtps",
        )
    raise TransportError(f"{_redacted(url)}: not an outbox URL (dir:, smtp://, smtps://)")
