"""The hosted mode's judge: many games, referee'd by mail (docs/trust.md, "Hosted mode").

``Judge`` judges requests onto its store (``open_store``: SQLite or PostgreSQL); ``serve_once``
runs one pass between an inbox and an outbox (``open_inbox`` / ``open_outbox``: Maildir, IMAP,
SMTP, or a directory).
"""

from ._judge import Judge, send_queued, serve_once
from ._mime import parse_mail
from ._store import StoreConflict, StoreError, open_store
from ._transport import open_inbox, open_outbox
from ._transport_error import TransportError
from ._types import Mail, Outgoing

__all__ = [
    "Judge",
    "Mail",
    "Outgoing",
    "StoreConflict",
    "StoreError",
    "TransportError",
    "open_inbox",
    "open_outbox",
    "open_store",
    "parse_mail",
    "send_queued",
    "serve_once",
]
