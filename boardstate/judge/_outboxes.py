"""The judge's outboxes: where ``Outgoing`` goes (``send``): an SMTP relay, or files in a
folder for local play.  Each message is made by ``_mime.compose``."""

from __future__ import annotations

import os
import re
import smtplib
import ssl as _ssl
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
            raise TransportError(f"{folder}: cannot write the mail: {one_line(exc)}") from None


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
