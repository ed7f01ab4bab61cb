"""The judge's outboxes: where ``Outgoing`` goes (``send``): an SMTP relay, or files in a
folder for local play.  Each message is made by ``_mime.compose``."""

from __future__ import annotations

import functools
import os
import re
import smtplib
import ssl as _ssl
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ._mime import compose
from ._transport_error import TransportError, one_line
from ._types import Outgoing

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
                f"smtp {self.host}:{self.port}: cannot send to {out.to}: {one_line(exc)}"
            ) from None

    def close(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()


# -- plain folders --------------------------------------------------------------------------


class DirectoryOutbox:
    """Mail written to files: ``PATH/<address>/<NNNN>-<subject>.eml`` with each attachment
    beside it as ``<NNNN>-<filename>``.

    Every file is written under a hidden temporary name and renamed, so a reader never sees
    part of one; the attachments go first and the ``.eml`` last, so a message that is visible
    is complete.  Numbers increase per address; a writer numbers and writes holding ``flock``
    on ``PATH/.lock``, so several judges on one machine may share the folder.

    ``send`` syncs each file of its one mail.  ``send_all`` writes many mails and syncs them
    all once (the judge's queue: ``send_queued``); each of its mails has a key, noted in
    ``PATH/.keys`` with the mail's number before its files appear, so a mail sent again (by a
    judge stopped before the store noted it sent) is written over itself, never twice.
    """

    def __init__(self, path: str | os.PathLike, sender: str = "judge@localhost") -> None:
        self.path = Path(path)
        self.sender = sender
        self.path.mkdir(parents=True, exist_ok=True)
        self._keys: dict[str, tuple[str, str]] = {}  # key -> (folder, number), from .keys
        self._keys_read = 0  # how far .keys has been read (other judges append to it)
        self._highest: dict[str, int] = {}  # per folder, the highest number in .keys

    def send(self, out: Outgoing) -> None:
        message = compose(out, self.sender).as_bytes()
        folder = self.path / _safe(out.to.lower())
        try:
            with self._locked():
                folder.mkdir(exist_ok=True)
                _write_mail(folder, self._next_number(folder), out, message, _write_synced)
        except OSError as exc:
            raise TransportError(f"{folder}: cannot write the mail: {one_line(exc)}") from None

    def send_all(self, mails: Sequence[tuple[str, Outgoing]]) -> None:
        """Write every ``(key, mail)``, then one sync for all their files (``_sync_files``):
        when it returns, every one is on disk.  A key already noted in ``.keys`` is written
        again under its number, over what is there (a crash may have left its files torn)."""
        messages = [(key, out, compose(out, self.sender).as_bytes()) for key, out in mails]
        written: list[Path] = []
        folder = self.path
        try:
            with self._locked(), open(self.path / ".keys", "ab") as keys:
                known = self._known_keys()
                for key, out, message in messages:
                    name = _safe(out.to.lower())
                    folder = self.path / name
                    folder.mkdir(exist_ok=True)
                    where = known.get(key)
                    number = where[1] if where and where[0] == name else self._next_number(folder)
                    keys.write(f"\n{key}\t{name}\t{number}\n".encode())
                    keys.flush()  # (noted before the files appear)
                    self._note(key, name, number)
                    written += _write_mail(folder, number, out, message, _write_unsynced)
                _sync_files(self.path, [*written, self.path / ".keys"])
        except OSError as exc:
            raise TransportError(f"{folder}: cannot write the mail: {one_line(exc)}") from None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        import fcntl

        with open(self.path / ".lock", "ab") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released when closed)
            yield

    def _known_keys(self) -> dict[str, tuple[str, str]]:
        """``.keys`` read on from where this outbox stopped (another judge may have added)."""
        try:
            with open(self.path / ".keys", "rb") as f:
                f.seek(self._keys_read)
                data = f.read()
        except FileNotFoundError:
            return self._keys
        whole = data[: data.rfind(b"\n") + 1]  # (a line being written is read next time)
        self._keys_read += len(whole)
        for line in whole.decode("utf-8", "replace").split("\n"):
            fields = line.split("\t")
            if len(fields) == 3 and _NUMBER.fullmatch(fields[2]):  # (a torn line is skipped)
                self._note(*fields)
        return self._keys

    def _note(self, key: str, folder: str, number: str) -> None:
        self._keys[key] = (folder, number)
        self._highest[folder] = max(self._highest.get(folder, 0), int(number))

    def _next_number(self, folder: Path) -> str:
        """The next number in a folder: past its files' and past those noted in ``.keys`` (a
        mail noted whose files a crash kept from appearing keeps its number)."""
        self._known_keys()
        numbers = [int(m.group(1)) for m in map(_NUMBERED.match, os.listdir(folder)) if m]
        return f"{max(numbers + [self._highest.get(folder.name, 0)]) + 1:04d}"


_NUMBERED = re.compile(r"(\d{4,})-")
_NUMBER = re.compile(r"\d{4,}")


def _safe(text: str) -> str:
    """A file name from an address or subject: no separators, no leading dot, never empty."""
    return re.sub(r"[^A-Za-z0-9@._+-]+", "_", text).lstrip(".") or "_"


def _write_mail(folder: Path, number: str, out: Outgoing, message: bytes, write) -> list[Path]:
    """A mail's files, attachments first and the ``.eml`` last; the paths written."""
    paths = [folder / f"{number}-{_safe(os.path.basename(name))}" for name, _ in out.attachments]
    paths.append(folder / f"{number}-{_safe(out.subject)[:60]}.eml")
    for path, data in zip(paths, [data for _, data in out.attachments] + [message], strict=True):
        write(path, data)
    return paths


def _write_synced(path: Path, data: bytes) -> None:
    _write_renamed(path, data, sync=True)


def _write_unsynced(path: Path, data: bytes) -> None:
    _write_renamed(path, data, sync=False)


def _write_renamed(path: Path, data: bytes, *, sync: bool) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _sync_files(top: Path, paths: Sequence[Path]) -> None:
    """Everything written under ``top`` onto the disk with one call, ``syncfs(2)`` (Linux),
    which also makes their renames durable; elsewhere each file and its folder fsynced."""
    syncfs = _syncfs()
    if syncfs is not None:
        import ctypes

        fd = os.open(top, os.O_RDONLY)
        try:
            if syncfs(fd) != 0:
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err))
        finally:
            os.close(fd)
        return
    for path in [*paths, *{path.parent for path in paths}]:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


@functools.cache
def _syncfs():
    """libc's ``syncfs``, looked up when the first batch is synced (None: not Linux)."""
    import ctypes

    try:
        return ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError):
        return None
