"""The peer mode (no third party): every player signs their records, the randomness comes from
every player's share when it is used, and a value shown to some players only travels in a
letter that its commitment in the signed record binds (docs/trust.md)."""

from __future__ import annotations

import os

import attrs

from .. import keys
from .._decider import ENGINE_RULE
from .._errors import GameFileError, IllegalCommand, InvalidCommand
from .._peer import LINK_BYTES, PeerRng, share_of, signed_message, write_letters
from .._records import NO_ACTOR, Kind
from ._signed import Pending, SignedTrust


class PeerTrust(SignedTrust):
    """Each copy makes its own player's records, signed; no copy holds a seed."""

    rebuilt_by_rederiving = True  # what waits for whom is known by re-running the rules only
    keeps_canonical_order = True  # copies that part merge into one log (docs/trust.md)
    randomness_from_others = True  # every player's link keys an epoch
    reveals_are_checked_against_the_game = True  # no copy holds every value: each reveal
    # must open a commitment the game or the record holds
    checked_in_part = (
        "checked in part: they hold other players' cards this copy cannot open; after the "
        "end, 'verify FILE --with OTHER-COPIES' audits them"
    )

    @staticmethod
    def creators_copy(header, seat: int | None, peer_secret: bytes | None):
        """A peer game is made by one of its players: their copy, with their private secret."""
        if seat is None or not 0 <= seat < len(header.players):
            raise InvalidCommand(
                "a peer game is made by one of its players (--as)", code="unknown-player"
            )
        return attrs.evolve(header, viewer=seat, peer_secret=peer_secret or os.urandom(LINK_BYTES))

    def __init__(self) -> None:
        super().__init__()
        self.last_record = None  # the last record that is not an engine word
        self.reveals: dict[int, tuple] = {}  # seat -> (number, signature) of its last reveal

    def seed(self, game) -> bytes | None:
        return None

    def waiting_rng(self, game, pending: Pending):
        return PeerRng(pending.supplies, pending.seq, self.mine(game, pending.actor))

    def decide(self, game, moves, openings=None) -> tuple:
        """The events the rules give before they need what the players have to supply."""
        actor = moves[0][0] if len(moves) == 1 else NO_ACTOR
        out = self.advance(game, Pending(game.seq, tuple(moves), game.state, openings, actor))
        self.reply_shares(game)
        return out

    def reply_shares(self, game) -> None:
        """Protocol 2, two players: a reveal is forced on its player (it opens their
        commitment, and nothing but it may come first).  When it asks for randomness before
        anything else, one player's share of that first epoch is a signature already made, and
        the other player's link completes it (docs/trust.md, "Shares that ride on mails sent
        anyway"):

        - a choice turned over (face down): the share is the signature of the other player's
          last record, the reply that forced the reveal, so the revealer completes the epoch at
          once; the epoch is named by the reply;
        - the reveal that resolves a sealed round: the round's reveals commute, so whose share
          it is must not depend on their order: it is the signature of the reveal that every
          copy's order puts first (the last seat's: the last to commit in that order), and the
          first seat's link completes the epoch; the epoch is named by the round's first
          record.

        Either way, engine words written before a reveal change nothing."""
        _seq, pending = self.next_pending
        if (
            pending is None
            or pending.need != ("links", 0)
            or game.header.protocol < 2
            or len(game.players) != 2
            or not game.reveal_due()
        ):
            return
        phase, last = game.round, self.last_record
        if phase is not None:
            sharer, pending.reply = max(phase.seats), phase.start
            made = self.reveals.get(sharer)
            signature = made[1] if made is not None and made[0] >= phase.start else None
        else:
            acting = game.to_act()
            if last is None or len(acting) != 1 or last.actor != 1 - acting[0]:
                return
            sharer, pending.reply, signature = last.actor, last.seq, last.signature
        pending.sharer = sharer
        if signature:  # (else the sharer's share is the reveal being made: ``on_append``)
            pending.links[sharer] = share_of(signature)

    def on_append(self, game, record) -> None:
        super().on_append(game, record)
        self.last_record = record
        if record.kind == Kind.REVEAL:
            self.reveals[record.actor] = (record.seq, record.signature)
        pending = self.pending
        if pending is not None and pending.sharer == record.actor and pending.seq == record.seq:
            pending.links.setdefault(record.actor, share_of(record.signature))

    def seal(self, game, record):
        """This copy's player's records are signed, with letters for the values some players
        only may see."""
        header = game.header
        if record.kind == Kind.SETUP or header.viewer != record.actor:
            return record
        if game.signer is None:
            raise GameFileError(
                f"{game.players[record.actor]}'s records are signed: no key to sign with (make "
                f"one with 'boardstate key new NAME', or give --key NAME)",
                code="no-key",
            )
        letters = write_letters(header.peer_secret, self.exchange, header.game_id, record)
        return record._replace(
            signature=game.signer(signed_message(header.game_id, record)),
            letters=tuple(tuple(letter) for letter in letters),
        )

    def remade(self, game, record):
        """A record made again at a new place keeps its signature (what its actor signed
        holds no record number); this copy's own get their letters written for the new number
        (letters need the copy's private secret, not its player's key)."""
        header = game.header
        if header.peer_secret is not None and header.viewer == record.actor:
            letters = write_letters(header.peer_secret, self.exchange, header.game_id, record)
            record = record._replace(letters=tuple(tuple(letter) for letter in letters))
        return record

    def check_signature(self, game, record) -> None:
        """The record carries its actor's valid signature, under the key they joined with."""
        if record.kind == Kind.SETUP:
            return
        seat = record.actor
        key = record.sealed[0] if record.kind == Kind.JOIN else self.keys.get(seat)
        name = game.name_of(seat)
        if key is None:
            raise IllegalCommand(f"{name} acts before joining", code="not-joined", rule=ENGINE_RULE)
        if not record.signature:
            raise IllegalCommand(
                f"the record is not signed by {name}", code="unsigned", rule=ENGINE_RULE
            )
        if not keys.verifies(key, record.signature, signed_message(self.game_id(game), record)):
            raise IllegalCommand(
                f"{name}'s signature does not verify (key {key.hex()[:16]}): the record was "
                f"changed, or made by someone else",
                code="bad-signature",
                rule=ENGINE_RULE,
            )
