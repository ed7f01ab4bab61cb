"""The armored text form of a move file: base64 between markers, to paste into a mail body.

::

    -----BEGIN BOARDSTATE MOVE-----
    Game: duel-of-the-forces 26654233cc12, records 1-1: alice commits a sealed choice
    3gAHpmZvcm1hdKpib2FyZHN0YXRlp3ZlcnNpb24BpGtpbmSkbW92ZaRnYW1lxCAmZUIzzBJFXO7
    ...
    Check: 5f3a9c21
    -----END BOARDSTATE MOVE-----

The summary line is for people (the file's own records say what happened); ``Check`` is the
first 4 bytes of the SHA-256 of the decoded bytes, so a line lost or mangled in transit is a
one-line error, not a confusing decode failure.  Lines a mail program quotes (``> ``, or
``>> `` and ``> > `` a reply or two later) or indents are read back as they were; a mail may
hold several blocks (``armored_blocks``: a reply quoting the old one, a reveal and the next
bid), each read on its own.
"""

from __future__ import annotations

import hashlib
import re

from ._errors import CorruptFile, GameFileError

BEGIN = "-----BEGIN BOARDSTATE MOVE-----"
END = "-----END BOARDSTATE MOVE-----"
WIDTH = 76
_QUOTED = r"^[\s>]*"  # a mail program's quoting, at any depth (never base64)


def armor(data: bytes, summary: str) -> str:
    import base64  # (here and in dearmor: not every command's, issue 29)

    encoded = base64.b64encode(data).decode("ascii")
    lines = [encoded[i : i + WIDTH] for i in range(0, len(encoded), WIDTH)]
    check = hashlib.sha256(data).hexdigest()[:8]
    summary = " ".join(summary.split())
    return "\n".join([BEGIN, f"Game: {summary}", *lines, f"Check: {check}", END]) + "\n"


def is_armored(prefix: bytes) -> bool:
    return BEGIN.encode() in prefix


def armored_blocks(text: str) -> list[str]:
    """Each armored move in ``text``, from its BEGIN line to its END line inclusive, in the
    order found (quoted or not: ``dearmor`` reads quoted lines).

    A block whose END is missing runs to the next BEGIN (or the end of the text), so that
    ``dearmor`` reports it as such instead of the move vanishing silently.
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


def dearmor(text: bytes | str, name: str) -> bytes:
    """The move file's bytes from its armored text (anywhere in a mail body).  A text of
    several moves is refused: ``apply`` and ``inspect`` read each (``armored_blocks``), and
    a move file is one of them (never the first, silently)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    count = len(armored_blocks(text))
    if count > 1:
        raise GameFileError(
            f"{name}: holds {count} armored moves; 'boardstate apply' and 'boardstate inspect' "
            f"read each of them, other commands take one move",
            code="several-moves",
        )
    start = text.find(BEGIN)
    end = text.find(END, start)
    if start < 0 or end < 0:
        raise CorruptFile(
            f"{name}: an armored move without its {'END' if start >= 0 else 'BEGIN'} line"
        )
    body, check = [], None
    for raw in text[start + len(BEGIN) : end].splitlines():
        line = re.sub(_QUOTED, "", raw).strip()
        if not line or line.startswith("Game:"):
            continue
        if line.startswith("Check:"):
            check = line[len("Check:") :].strip().lower()
            continue
        body.append(line)
    import base64
    import binascii

    try:
        data = base64.b64decode("".join(body), validate=True)
    except (binascii.Error, ValueError):
        raise CorruptFile(f"{name}: the armored move's text is damaged (not base64)") from None
    if check is None:
        raise CorruptFile(f"{name}: the armored move has no Check line")
    if hashlib.sha256(data).hexdigest()[:8] != check:
        raise CorruptFile(
            f"{name}: the armored move's check does not match (a line lost or changed in the mail)"
        )
    return data
