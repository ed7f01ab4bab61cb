"""What the judge's transports and store exchange: a mail in, a mail out.

Kept apart from both so that neither imports the other: a transport makes ``Mail`` and sends
``Outgoing``; the store queues ``Outgoing`` in the same transaction as the move it answers.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Mail:
    """One incoming message, as a transport read it.

    ``key`` names it in its transport (a Maildir key, an IMAP UID, a file name) so that it can
    be marked done once the store has committed what it caused; ``digest`` (SHA-256 of the raw
    message) names it across re-deliveries.  ``sender`` is where answers go: it authenticates
    nothing (a move is accepted only if its player's signature verifies).  ``moves`` holds the
    move files found in it: attachments, and armored text in the body, in the order found.
    ``refused`` is why the transport would not read it (too large, too many parts): then it
    holds no moves, and the judge answers that reason.
    """

    key: str
    digest: bytes
    sender: str
    subject: str
    text: str
    moves: tuple[bytes, ...]
    refused: str = ""


@attrs.frozen
class Outgoing:
    """One message to send: to one address, with files attached (``(filename, bytes)``: move
    files, and a digest's pictures, ``.png`` shown inline and ``.svg``).  ``kind`` says what
    it is, for the judge's report of what it sent: ``invitation``, ``digest`` (a player's
    records since their last mail), ``moves`` (the records of one request, in a game that
    mails every record) or ``refusal``.  ``picture``: the name, less ``.svg``, of an attached
    SVG that is drawn as the mail's PNG when it is sent (``_digest.drawn``), not when the
    request is judged: the store queues the SVG, and drawing costs a request nothing."""

    to: str
    subject: str
    text: str
    attachments: tuple[tuple[str, bytes], ...] = ()
    kind: str = ""
    picture: str = ""
