"""What a shared-deck copy checks of the deal records it is handed (``SharedDeckTrust``'s
part, apart so that the mode's class stays small): other players' public shares of the cards
they did not draw, the letters that tell one reader a share, the claims that commit to a card
held, the proofs of cards played, and at the end-of-game audit each claim read with every key
share (docs/trust.md, "Shared-deck mode")."""

from __future__ import annotations

import hashlib
import hmac

from .. import _mental as mental
from .._secrets import Secret, make_secret
from ._deck import Card, bad, checked, substituted

_NONE = object()


class DeckChecks:
    """The deal records' checks, for ``SharedDeckTrust`` (its deck, keys and bookkeeping:
    ``cards``, ``elgamal``, ``tells``, ``shown``, ``unclaimed``, ``places``, ``opens``,
    ``audit_secrets``, ``share_context``, ``read``, ``claim_secret``)."""

    def check_share_of(self, game, card: Card, seat: int, given, code: str, what: str) -> None:
        """``given`` is ``(share, proof)``: ``seat``'s partial decryption of ``card``."""
        share, proof = given
        context = self.share_context(game, card, seat)
        checked(
            mental.check_share,
            self.elgamal[seat],
            card.cipher,
            share,
            proof,
            context,
            code=code,
            what=what,
        )

    def card(self, game, index) -> Card:
        if type(index) is not int or not 0 <= index < len(self.cards):
            raise bad(f"no card {index!r} in this game", "bad-deal")
        return self.cards[index]

    def check_shares(self, game, seat: int, items, proofs: bool = False):
        for item in items:
            if type(item) is not tuple or len(item) != 3:
                raise bad("malformed share", "bad-share")
            card = self.card(game, item[0])
            if card.first is None or card.first == seat or card.revealed is not None:
                raise bad(
                    f"a share of card {card.index}, which asks none of {game.name_of(seat)}",
                    "bad-share",
                )
            if seat in card.shares:
                raise bad(f"{game.name_of(seat)}'s share of card {card.index} again", "replayed")
            what = f"{game.name_of(seat)}'s share of card {card.index}"
            if proofs:
                self.check_share_of(game, card, seat, item[1:], "bad-share", what)
        return game.state

    def check_tells(self, game, seat: int, items, proofs: bool = False):
        me = game.header.viewer
        for item in items:
            if type(item) is not tuple or len(item) != 3 or type(item[2]) is not Secret:
                raise bad("malformed letter of a share", "bad-share")
            card = self.card(game, item[0])
            reader, secret = item[1], item[2]
            if self.tells.get((card.index, reader)) != seat or secret.owners != 1 << reader:
                raise bad(
                    f"a letter of card {card.index} nobody asked of {game.name_of(seat)}",
                    "bad-share",
                )
            if proofs and secret.known and me == reader:  # (the reader checks what it was told)
                value = secret.value
                if type(value) is not tuple or len(value) != 2:
                    raise bad("malformed letter of a share", "bad-share")
                what = f"the share of card {card.index} told to {game.name_of(reader)}"
                self.check_share_of(game, card, card.first, value, "bad-share", what)
                shown = self.shown.get((card.index, reader), _NONE)
                if shown is not _NONE and self.read_told(game, card, value[0]) != shown:
                    raise bad(
                        f"{game.name_of(seat)} showed {game.name_of(reader)} {shown!r}, but "
                        f"card {card.index} of the shared deck is another",
                        "bad-share",
                    )
        return game.state

    def read_told(self, game, card: Card, first_share: bytes):
        """The card, with every public share and the first drawer's (None: another point)."""
        shares = [card.shares[s][0] for s in card.shares if s != card.first] + [first_share]
        if len(shares) != len(game.players):
            return None
        try:
            return mental.card_of(mental.decrypt(card.cipher, shares), card.values)
        except mental.BadProof:
            return None

    def check_claims(self, game, seat: int, items):
        swap = {}
        me = game.header.viewer
        for item in items:
            if type(item) is not tuple or len(item) != 2:
                raise bad("malformed claim", "bad-claim")
            placeholder, commitment = item
            held = self.unclaimed.get(placeholder)
            if held is None or held[1] != seat:
                raise bad(f"a claim of a card {game.name_of(seat)} does not hold", "bad-claim")
            if (
                type(commitment) is not bytes
                or len(commitment) != 32
                or (commitment in self.places or commitment in game.committed)
            ):
                raise bad("a claim made before in this game (replayed)", "replayed")
            secret = Secret(commitment, 1 << seat)
            if len(self.audit_secrets) == len(game.players):  # (the audit: every key is known)
                secret = self.audit_claim(game, seat, placeholder, commitment, self.cards[held[0]])
            elif me == seat and game.header.peer_secret is not None:
                value = self.read(game, self.cards[held[0]], me)
                made = self.claim_secret(game, placeholder, value, me)
                if made.commitment == commitment:
                    secret = made
            swap[placeholder] = secret
        return substituted(game.state, swap)

    def audit_claim(self, game, seat: int, placeholder, commitment, card: Card) -> Secret:
        """The end-of-game audit, every player's secret published: the card is read with every
        key share, and the claim must commit to it with the claimer's salt (a claim of another
        card than the one drawn is caught here, played or not).  Returns the claimed card
        opened, as its claimer's copy holds it: the audit makes every player's records as their
        copy did, and a record that shows or gives the card (Force Sense's show, a swap) commits
        to its value anew, which a sealed card does not have."""
        gid = game.header.game_id
        shares = [
            mental.decryption_share(mental.key_share(self.audit_secrets[s], gid)[0], card.cipher)
            for s in range(len(game.players))
        ]
        value = mental.card_of(mental.decrypt(card.cipher, shares), card.values)
        salt = hmac.digest(self.audit_secrets[seat], b"claim" + gid + placeholder, hashlib.sha256)
        opened = make_secret(value, salt[:16], 1 << seat)
        if opened.commitment != commitment:
            raise bad(
                f"{game.name_of(seat)} claimed card {card.index} of the shared deck as another "
                f"card than the one drawn ({value!r})",
                "bad-claim",
            )
        return opened

    def check_opens(self, game, seat: int, items, proofs: bool = False):
        for item in items:
            if type(item) is not tuple or len(item) != 3:
                raise bad("malformed proof of a played card", "bad-reveal")
            card = self.card(game, item[0])
            owed = self.opens.get(card.index)
            if owed is None or owed[0] != seat:
                raise bad(f"a proof of card {card.index} nobody asked for", "bad-reveal")
            if not proofs:
                continue
            what = f"the proof of {game.name_of(seat)}'s card {card.index}"
            self.check_share_of(game, card, card.first, item[1:], "bad-reveal", what)
            shares = [card.shares[s][0] for s in sorted(card.shares)] + [item[1]]
            point = mental.decrypt(card.cipher, shares)
            if len(card.shares) + 1 != len(game.players) or point != mental.card_point(owed[1]):
                raise bad(
                    f"{game.name_of(seat)} played {owed[1]!r}, but the card drawn is another "
                    f"(card {card.index} of the shared deck)",
                    "bad-reveal",
                )
        return game.state
