"""The hosted mode's judge: many games, referee'd by mail (docs/trust.md, "Hosted mode").

``Judge`` judges requests onto its store (``open_store``: SQLite or PostgreSQL); ``serve_once``
runs one pass between an inbox and an outbox (``open_inbox`` / ``open_outbox``: Maildir, IMAP,
SMTP, or a directory) and says what it did (``Pass``); ``game_lines`` lists the store's games,
``write_site`` writes them as a club's web site (spectators' replay pages).
A game's ``mail`` setting (``MAIL_MODES``) says when its players are mailed; a game's
``Deadline`` (``parse_duration`` reads ``3d``) is a time per move the judge keeps in each pass.
"""

from .._deadline import Deadline, parse_duration
from ._judge import Judge, Pass, send_queued, serve_once
from ._listing import game_lines
from ._mime import parse_mail
from ._site import write_site
from ._store import MAIL_MODES, StoreConflict, StoreError, open_store
from ._transport import open_inbox, open_outbox
from ._transport_error import TransportError
from ._types import Mail, Outgoing

__all__ = [
    "MAIL_MODES",
    "Deadline",
    "Judge",
    "Mail",
    "Outgoing",
    "Pass",
    "StoreConflict",
    "StoreError",
    "TransportError",
    "game_lines",
    "open_inbox",
    "open_outbox",
    "open_store",
    "parse_duration",
    "parse_mail",
    "send_queued",
    "serve_once",
    "write_site",
]
