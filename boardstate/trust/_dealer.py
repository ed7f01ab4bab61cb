"""What a shared-deck copy deals for its own player (``shared_deck.SharedDeckTrust``): its
shuffle of the deck with the proof, its shares of the cards others drew, the letters of a
card's first share to a reader, its claims of the cards it can read, and the proofs of the
cards it plays.  Every value comes from the player's private secret, so the copy makes the
same deals again when it reads its own file."""

from __future__ import annotations

import hashlib
import hmac

from .. import _mental as mental
from .._records import pack
from .._secrets import Secret, make_secret
from ._deck import Card


class DeckDealer:
    """The deals a copy makes (a mixin of the plug: it reads the plug's cards and keys)."""

    def eager(self, game, me: int, only: str | None = None):
        """The first deal this copy owes (``only``: of that kind), or None."""
        for kind, make in (
            ("open", self.my_opens),
            ("shares", self.my_shares),
            ("tell", self.my_tells),
            ("claim", self.my_claims),
        ):
            if only is None or only == kind:
                items = make(game, me)
                if items:
                    return (kind, tuple(items))
        return None

    def my_shuffle(self, game, me: int):
        pending = self.pending
        _, index, items = pending.need
        deck_in = self.deck_before(game, pending, index, items, me)
        key = self.shuffle_key(game, pending.seq, index)
        deck_out, perm, rhos = mental.shuffle(deck_in, self.joint, key)
        context = (game.header.game_id, pending.seq, index, me)
        proof = mental.prove_shuffle(deck_in, deck_out, perm, rhos, self.joint, key, context)
        return ("shuffle", tuple(deck_out), tuple(proof))

    def shuffle_key(self, game, decision: int, index: int) -> bytes:
        """The secret this copy's player shuffles with (its permutation, masks and proof)."""
        gid = game.header.game_id
        return hmac.digest(
            game.header.peer_secret, b"shuffle" + gid + pack([decision, index]), hashlib.sha256
        )

    def is_my_shuffle(self, game, decision: int, index: int, deck_in, deck_out) -> bool:
        """Whether ``deck_out`` is the shuffle of ``deck_in`` this copy's player makes: what a
        copy checks of its own shuffle when it reads its file again (the same deck, made again
        at a 54th of the proof's cost, shows the same as the proof would)."""
        if game.header.peer_secret is None:
            return False
        made = mental.shuffle(deck_in, self.joint, self.shuffle_key(game, decision, index))[0]
        return list(deck_out) == made

    def deck_before(self, game, pending, index: int, items, seat: int) -> list[bytes]:
        """The deck ``seat`` shuffles: the one the player before them made, or the cards
        encrypted openly (anyone can check it)."""
        order = self.shufflers(game, pending)
        at = order.index(seat)
        if at == 0:
            return mental.opened_deck(items, self.joint)
        return list(self.decks[(pending.seq, index)][order[at - 1]])

    def share_context(self, game, card: Card, seat: int) -> tuple:
        return (game.header.game_id, card.drawn_at, card.index, seat)

    def my_share(self, game, card: Card, me: int) -> tuple:
        x, public = self.key_of(game)
        share, proof = mental.prove_share(
            x, public, card.cipher, self.share_context(game, card, me)
        )
        return share, proof

    def my_shares(self, game, me: int) -> list:
        return [
            (c.index, *self.my_share(game, c, me))
            for c in self.cards
            if c.first is not None and c.first != me and me not in c.shares and c.revealed is None
        ]

    def first_share(self, game, card: Card, me: int):
        """The first drawer's share of ``card`` as this copy holds it (its own, or a letter's)."""
        if card.first == me:
            return self.my_share(game, card, me)
        return card.known_by.get(me)

    def my_tells(self, game, me: int) -> list:
        out = []
        for (index, reader), sender in sorted(self.tells.items()):
            card = self.cards[index]
            held = self.first_share(game, card, me)
            if sender != me or held is None:
                continue
            salt = hmac.digest(
                game.header.peer_secret,
                b"tell" + game.header.game_id + pack([index, reader, game.seq]),
                hashlib.sha256,
            )[:16]
            out.append((index, reader, make_secret(list(held), salt, 1 << reader)))
        return out

    def my_opens(self, game, me: int) -> list:
        out = []
        for index, (player, _value) in sorted(self.opens.items()):
            card = self.cards[index]
            held = self.first_share(game, card, me)
            if player == me and held is not None:
                out.append((index, *held))
        return out

    def my_claims(self, game, me: int) -> list:
        out = []
        for placeholder, (index, holder) in sorted(self.unclaimed.items()):
            if holder != me:
                continue
            value = self.read(game, self.cards[index], me)
            if value is not None:
                out.append(
                    (placeholder, self.claim_secret(game, placeholder, value, me).commitment)
                )
        return out

    def claim_secret(self, game, placeholder: bytes, value, me: int) -> Secret:
        salt = hmac.digest(
            game.header.peer_secret, b"claim" + game.header.game_id + placeholder, hashlib.sha256
        )[:16]
        return make_secret(value, salt, 1 << me)

    def read(self, game, card: Card, me: int):
        """The value of ``card`` if this copy can read it (every share but its own is in)."""
        shares = []
        for seat in range(len(game.players)):
            if seat == me:
                shares.append(mental.decryption_share(self.key_of(game)[0], card.cipher))
            elif seat in card.shares:
                shares.append(card.shares[seat][0])
            elif seat == card.first and me in card.known_by:
                shares.append(card.known_by[me][0])
            else:
                return None
        try:
            return mental.card_of(mental.decrypt(card.cipher, shares), card.values)
        except mental.BadProof:
            return None
