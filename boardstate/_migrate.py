"""Migration: rewrite a game under the installed event schemas.

A file written under older event schemas reads (its events are upcast) and verifies, but nothing
can be appended to it: a record must be encoded under the schemas its header names.  ``migrate``
rewrites every record with the installed encoding.  The result is deterministic, so every player
who migrates their copy of a game gets the same new game id and hash chain, and move files flow
again between migrated copies (not between a migrated and an unmigrated one).
"""

from __future__ import annotations

import attrs

from ._events import EventCodes
from ._game import Game
from ._records import make_record


def migrate(old: Game) -> Game:
    """A new game holding ``old``'s records re-encoded under the installed event schemas."""
    spec = old.module.spec
    codes = EventCodes(spec.events)
    header = attrs.evolve(old.header, events=tuple(codes.file_table))
    game = Game(old.module, header, codes=codes)
    for rec in old.records:
        game.append(
            make_record(
                codes,
                game.head_hash,
                rec.seq,
                rec.kind,
                rec.actor,
                rec.command,
                rec.sealed,
                rec.events,
            )
        )
    return game
