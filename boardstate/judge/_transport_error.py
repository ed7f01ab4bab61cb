"""The judge's transports' one error: a mailbox or mail server that cannot be used."""

from __future__ import annotations

import smtplib

from .._errors import BoardstateError


class TransportError(BoardstateError):
    """A mailbox or mail server cannot be used: a bad URL, a refused login, a lost connection.

    Not a ``GameFileError``: nothing is wrong with any game file, the way to it is.  The message
    is one line (server replies are folded) and never contains a password.
    """

    code = "transport"


def one_line(exc: BaseException) -> str:
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
