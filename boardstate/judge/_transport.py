"""The judge's transports, chosen by URL: ``open_inbox`` (``maildir:``, ``dir:``, ``imap://``,
``imaps://``) and ``open_outbox`` (``dir:``, ``smtp://``, ``smtps://``).

The inboxes are in ``_inboxes``, the outboxes in ``_outboxes``, reading and composing a mail's
MIME in ``_mime``.  Only the standard library speaks the protocols.  An error names the URL
with its password replaced.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, unquote, urlsplit

from ._inboxes import DirectoryInbox, ImapInbox, MaildirInbox
from ._outboxes import DirectoryOutbox, SmtpOutbox
from ._transport_error import TransportError


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


def _local(make, url: str, scheme: str, *args):
    """A folder's transport, ``make(PATH, *args)``, which makes its folder if need be: a path
    that cannot be one (a file, no permission) is a ``TransportError``, one line."""
    path = _local_path(url, scheme)
    try:
        return make(path, *args)
    except OSError as exc:
        raise TransportError(
            f"{scheme}:{path}: cannot use it as a folder ({exc.strerror})"
        ) from None


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
        return _local(MaildirInbox, url, scheme)
    if scheme == "dir":
        return _local(DirectoryInbox, url, scheme)
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
        return _local(DirectoryOutbox, url, scheme, sender)
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
