"""A player takes their seat in a game by mail: the invitation becomes their own copy.

The copy gets its viewer and its own private secret, and then joins the way its trust plug
says: in the peer mode the join record (and the deals due from it) is made here and mailed to
the others; in the hosted mode the join is a request the judge makes the record of.  The CLI
writes what this returns; it never asks which mode the game is in.
"""

from __future__ import annotations

import os

import attrs

from ._decider import ENGINE_RULE
from ._errors import IllegalCommand, InvalidCommand


@attrs.frozen
class Seated:
    """What taking a seat made: the records to mail (from ``base``), or a request to send."""

    seat: int
    base: int  # the last record the others hold: the reply's move file follows it
    records: tuple = ()  # the join and the deals due (the peer mode)
    request: object = None  # the join request for the judge (the hosted mode)


def take_seat(game, player: str, public_key: bytes, signer, *, secret: bytes | None = None):
    """``player`` joins ``game`` (an invitation, checked) as its copy's viewer; ``signer``
    signs with the key whose public half is ``public_key``.  ``secret``: the copy's private
    secret (default: random)."""
    if not game.trust.joins:
        raise InvalidCommand(
            "this is an open game: nobody joins it (it is played from the creator's file)",
            code="not-joinable",
        )
    seat = game.seat(player)
    if seat in game.keys:
        raise IllegalCommand(
            f"{player} has already joined this game", code="bad-join", rule=ENGINE_RULE
        )
    game.header = attrs.evolve(game.header, viewer=seat, peer_secret=secret or os.urandom(32))
    game.mark_shared(game.last_seq)  # (the invitation: every copy holds it)
    game.signer = signer
    if game.trust.joins_by_request:
        return Seated(seat, game.last_seq, request=game.join_request(seat, public_key))
    base = game.mail_base(game.last_seq)
    game.keep_canonical = True
    records = game.join(seat, public_key)
    game.keep_in_canonical_order()
    return Seated(seat, base, tuple(records))


__all__ = ["Seated", "take_seat"]
