"""A mail's MIME: reading one within the judge's limits (``parse_mail``), composing one
(``compose``).

Reading never raises: the judge reads whatever strangers send.  A mail over ``MAX_MAIL_BYTES``
or ``MAX_PARTS`` is refused unparsed (its sender and subject are still read, so the judge can
say why); its moves are its attachments and the armored blocks of its plain text.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import itertools
from email.message import EmailMessage, Message
from pathlib import Path

from .._armor import armored_blocks
from ._transport_error import TransportError, one_line
from ._types import Mail, Outgoing

MOVE_TYPE = "application/vnd.boardstate+msgpack"
MAX_MAIL_BYTES = 1 << 20  # a mail's size: a request is at most 64 KiB (armored: 90 KB)
MAX_PARTS = 64  # MIME parts (leaves and containers) in one mail
HEADER_BYTES = 1 << 16  # what is read of a mail refused for its size: its sender is in there
MAX_HEADER_CHARS = 4096  # a header longer than this is not parsed (taken as absent)
_MOVE_TYPES = {"application/octet-stream", "application/x-msgpack", MOVE_TYPE}
# A digest's pictures: the PNG shown in the mail (inline), the SVG beside it.
_PICTURE_TYPES = {".png": ("image", "png", "inline"), ".svg": ("image", "svg+xml", "attachment")}


# -- reading a message ----------------------------------------------------------------------


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


# -- composing a message --------------------------------------------------------------------


def compose(
    out: Outgoing,
    sender: str,
    *,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
) -> EmailMessage:
    """The message for ``out``: its text, and its files attached under their names (move
    files as ``MOVE_TYPE``; a ``.png`` picture inline, so a mail reader shows it in the mail;
    an ``.svg`` as an image attachment).

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
        raise TransportError(f"cannot compose a mail to {out.to!r}: {one_line(exc)}") from None
    msg["Date"] = email.utils.formatdate(localtime=True)
    domain = sender.rpartition("@")[2].strip("<> ") or "boardstate.invalid"
    msg["Message-ID"] = email.utils.make_msgid("boardstate", domain=domain)
    msg.set_content(out.text)
    maintype, subtype = MOVE_TYPE.split("/")
    for filename, data in out.attachments:
        picture = _PICTURE_TYPES.get(Path(filename).suffix.lower())
        if picture is None:
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
        else:
            kind, sub, disposition = picture
            msg.add_attachment(
                data, maintype=kind, subtype=sub, filename=filename, disposition=disposition
            )
    return msg
