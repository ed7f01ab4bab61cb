"""The shared-deck mode: the peer mode (no third party, every record signed, public randomness
from every player's chain of links, letters) with one deck that no player can see, shuffled by
every player and dealt into private hands without a dealer: mental poker (Barnett & Smart
2003; the cryptography is ``boardstate._mental``, the bookkeeping ``_deck``;
docs/trust.md, "Shared-deck mode").

Besides the peer mode's joins and links, the players make these deal records (kind 5, its
``sealed`` a tagged tuple, signed like every deal):

- ``("shuffle", deck, proof)``: when the rules shuffle, every player in turn permutes and
  re-masks the deck, with a cut-and-choose proof (the decision waits: ``due`` "shuffle");
- ``("shares", ((card, share, proof), ...))``: the partial decryptions of cards another player
  drew, public, each with a Chaum–Pedersen proof;
- ``("tell", ((card, reader, Secret), ...))``: the first drawer's share of a card, to one
  reader only (a letter: a card put back on the deck and drawn by another, a card shown or
  given to a player);
- ``("claim", ((placeholder, commitment), ...))``: a player who can read a card they hold
  commits to it; the commitment takes the placeholder's place in the table;
- ``("open", ((card, share, proof), ...))``: the share that proves a card just played to be
  the card drawn.

A player's shares ride on the mail they send after their own moves; the game waits only for
what the player to act needs now (their cards' shares and claims, a played card's proof).
"""

from __future__ import annotations

from .. import _mental as mental
from .._peer import LINK_BYTES, UNMADE, chain_of, exchange_public
from .._records import Kind, sealed_values
from .._secrets import Reveal
from ._dealer import DeckDealer
from ._deck import (
    DUE_WORDS,
    Card,
    DeckRng,
    bad,
    checked,
    deal_words,
    event_fields,
    pairs,
)
from ._deck_checks import DeckChecks
from ._signed import Pending
from .peer import PeerTrust

_MINE = ("shuffle", "shares", "tell", "claim", "open")


class SharedDeckTrust(DeckChecks, DeckDealer, PeerTrust):
    """A peer game whose shuffles and private draws need no dealer."""

    # (joins and links cross in the mail and merge as in the peer mode; the deck's own deals
    # follow one another: the game asks them of one player at a time)
    checked_in_part = (
        "checked in part: they hold cards of other players this copy cannot read; every "
        "shuffle, share and played card is proven; after the end, 'verify FILE --with "
        "OTHER-COPIES' audits the rest"
    )

    def __init__(self) -> None:
        super().__init__()
        self.elgamal: dict[int, bytes] = {}  # seat -> public key share
        self.cards: list[Card] = []
        self.places: dict[bytes, int] = {}  # a secret's commitment -> the card it is
        self.decks: dict[tuple, dict[int, tuple]] = {}  # (seq, k) -> seat -> deck after it
        self.results: dict[tuple, list[int]] = {}  # (seq, k) -> the cards of the final deck
        self.unclaimed: dict[bytes, tuple[int, int]] = {}  # placeholder -> (card, holder)
        self.opens: dict[int, tuple[int, object]] = {}  # card -> (player, value) to prove
        self.tells: dict[tuple[int, int], int] = {}  # (card, reader) -> who owes the letter
        self.shown: dict[tuple[int, int], object] = {}  # (card, reader) -> value (this copy)
        self.derived = None  # (seq, events, made, its decision's seq) of the last decision
        self.recorded: dict[tuple, bytes] = {}  # (decision, k) -> the commitment of the k-th
        # secret another copy made for it, as its record holds it
        self._rng = None

    # -------------------------------------------------------------------- keys
    def key_of(self, game) -> tuple[bytes, bytes]:
        """This copy's player's ElGamal key share ``(x, X)``."""
        return mental.key_share(game.header.peer_secret, game.header.game_id)

    @property
    def joint(self) -> bytes:
        return mental.joint_key(self.elgamal[s] for s in sorted(self.elgamal))

    def join(self, game, seat: int, public_key: bytes) -> list:
        start = game.seq
        secret = game.header.peer_secret
        x, public = self.key_of(game)
        proof = mental.prove_key(x, public, (game.header.game_id, seat))
        sealed = (public_key, chain_of(secret)[0], exchange_public(secret), public, proof)
        events, state = self.check_join(game, seat, sealed)
        game.append(game.make(Kind.JOIN, seat, "", sealed, events), state)
        game.deal_held()  # (the plug the join leaves: a last join may re-derive the copy)
        return game.records[start:]

    def check_join(self, game, seat: int, sealed) -> tuple:
        """A join: the peer mode's keys and chain tip, and an ElGamal key share with its
        proof of knowledge (no player can pick a share that cancels another's)."""
        if not 0 <= seat < len(game.players) or seat in self.keys:
            raise bad(f"{game.name_of(seat)} has already joined", "bad-join")
        if (
            type(sealed) is not tuple
            or len(sealed) != 5
            or not all(type(v) is bytes and len(v) == LINK_BYTES for v in sealed[:4])
        ):
            raise bad(
                "malformed join (not [public key, chain tip, exchange key, key share, proof])",
                "bad-join",
            )
        checked(
            mental.check_key,
            sealed[3],
            sealed[4],
            (game.header.game_id, seat),
            code="bad-join",
            what=f"{game.name_of(seat)}'s key share",
        )
        return self.last_join(game, seat, sealed)

    # -------------------------------------------------------------------- randomness
    def waiting_rng(self, game, pending: Pending):
        self._rng = DeckRng(
            pending.supplies, pending.seq, self.mine(game, pending.actor), self, game.header.game_id
        )
        return self._rng

    def advance(self, game, pending: Pending, rng=None) -> tuple:
        out = super().advance(game, pending, rng)
        self.derived = (game.seq, out[0], dict(self._rng.made), pending.seq)
        return out

    def shuffle_result(self, seq: int, index: int):
        return self.results.get((seq, index))

    def card_at(self, commitment: bytes):
        return self.places.get(commitment)

    # -------------------------------------------------------------------- waiting
    def waits(self, game) -> bool:
        return super().waits(game) or bool(self.owed(game))

    def due(self, game) -> str:
        pending = self.pending
        if self.joined(game) and pending is not None and pending.need[0] == "shuffle":
            return "shuffle"
        out = super().due(game)
        if out or pending is not None:
            return out
        owed = self.owed(game)
        return owed[0] if owed else ""

    def due_words(self, due: str) -> str:
        """The deals this mode waits for, in words (``Game.waiting_text``)."""
        return DUE_WORDS[due]

    deal_words = staticmethod(deal_words)  # (its deals in words, as 'log' and 'apply' say them)

    def waiting_for(self, game) -> tuple[int, ...]:
        due = self.due(game)
        if due == "shuffle":
            return (self.next_shuffler(game),)
        if due in _MINE:
            return (self.owed(game)[1],)
        return super().waiting_for(game)

    def shufflers(self, game, pending) -> list[int]:
        """Who shuffles, in order: the player whose move asked first (the setup: seat 0)."""
        n = len(game.players)
        first = max(pending.actor, 0)
        return [(first + k) % n for k in range(n)]

    def next_shuffler(self, game) -> int:
        pending = self.pending
        done = self.decks.get((pending.seq, pending.need[1]), {})
        return next(s for s in self.shufflers(game, pending) if s not in done)

    def owed(self, game):
        """``(kind, seat)``: the deal the game waits for before anyone may act (a played card's
        proof; what the player to act needs to read their cards), or None."""
        if self.pending is not None or not self.joined(game):
            return None
        for card in sorted(self.opens):
            return ("open", self.opens[card][0])
        if game.outcome() is not None:
            return None
        for seat in game.facts()[1]:
            need = self.needs_of(game, seat)
            if need:
                return need
        return None

    def needs_of(self, game, seat: int):
        """What ``seat`` needs before it can read every card it holds: a share, a letter, or
        its own claim; None when it reads them all."""
        held = [(c, p) for p, (c, holder) in self.unclaimed.items() if holder == seat]
        if not held:
            for (_card, reader), sender in sorted(self.tells.items()):
                if reader == seat:
                    return ("tell", sender)
            return None
        for index, _ in sorted(held):
            card = self.cards[index]
            if card.first == seat:
                missing = [
                    s for s in range(len(game.players)) if s != seat and s not in card.shares
                ]
                if missing:
                    return ("shares", missing[0])
            elif (index, seat) in self.tells:
                return ("tell", self.tells[(index, seat)])
        return ("claim", seat)

    # -------------------------------------------------------------------- what this copy deals
    def deal_held(self, game) -> list:
        """Deal what is due from this copy's player; after its own move, also every share,
        letter and claim it owes (they ride on the mail it sends anyway)."""
        start = game.seq
        me = game.header.viewer
        if game.header.peer_secret is None or me is None:
            return []
        while True:
            plug = game.trust  # (not self: a deal that completes a step puts the copy's
            # records in canonical order, re-derived by a new plug, ``Game.truncate``)
            due = plug.due(game)
            sealed = None
            if due and due != "join" and me in plug.waiting_for(game):
                sealed = plug.supply(game, me)
            elif not due and game.records and game.records[-1].actor == me:
                sealed = plug.eager(game, me)
            if sealed is None:
                return game.records[start:]
            events, state = plug.check_deal(game, me, sealed)
            game.append(game.make(Kind.DEAL, me, "", sealed, events), state)

    def supply(self, game, seat: int):
        due = self.due(game)
        if due in ("link", "arrange"):
            return super().supply(game, seat)
        if due == "shuffle":
            return self.my_shuffle(game, seat)
        return self.eager(game, seat, due)

    # -------------------------------------------------------------------- what a copy checks
    def check_signature(self, game, record) -> None:
        """The signature, and the proofs a deal carries (a shuffle's, the shares' and a played
        card's), whenever a copy reads a record checked (``verify``, ``load_checked``); never
        when it reads its own file unchecked.  The copy's own shuffle is made again instead of
        proven (``is_my_shuffle``)."""
        super().check_signature(game, record)
        sealed = record.sealed
        if record.kind != Kind.DEAL or type(sealed) is not tuple or not sealed:
            return
        if sealed[0] == "shuffle" and self.due(game) == "shuffle" and len(sealed) == 3:
            pending = self.pending
            _, index, items = pending.need
            seat = record.actor  # (whether it is their turn to shuffle: check_deal says)
            deck_in = self.deck_before(game, pending, index, items, seat)
            context = (game.header.game_id, pending.seq, index, seat)
            mine = seat == game.header.viewer and type(sealed[1]) is tuple
            if mine and self.is_my_shuffle(game, pending.seq, index, deck_in, sealed[1]):
                return
            checked(
                mental.check_shuffle,
                deck_in,
                list(sealed[1]) if type(sealed[1]) is tuple else sealed[1],
                list(sealed[2]) if type(sealed[2]) is tuple else sealed[2],
                self.joint,
                context,
                code="bad-shuffle",
                what=f"{game.name_of(seat)}'s shuffle",
            )
        proven = {"shares": self.check_shares, "tell": self.check_tells, "open": self.check_opens}
        if sealed[0] in proven and len(sealed) == 2 and type(sealed[1]) is tuple:
            proven[sealed[0]](game, record.actor, sealed[1], proofs=True)

    def check_deal(self, game, seat: int, sealed) -> tuple:
        tag = sealed[0] if type(sealed) is tuple and len(sealed) >= 2 else None
        if tag not in _MINE:
            return super().check_deal(game, seat, sealed)
        if not self.joined(game) or (tag != "shuffle" and self.pending is not None):
            raise bad(f"no {tag} deal is due from {game.name_of(seat)} now", "early-deal")
        if tag == "shuffle":
            return self.check_shuffle(game, seat, sealed)
        items = sealed[1]
        if type(items) is not tuple or not items or len(sealed) != 2:
            raise bad(f"malformed {tag} deal", "bad-deal")
        check = {
            "shares": self.check_shares,
            "tell": self.check_tells,
            "claim": self.check_claims,
            "open": self.check_opens,
        }[tag]
        return (), check(game, seat, items)

    def check_shuffle(self, game, seat: int, sealed) -> tuple:
        if self.due(game) != "shuffle" or seat != self.next_shuffler(game):
            raise bad(f"no shuffle is due from {game.name_of(seat)} now", "early-deal")
        pending = self.pending.copy()
        _, index, items = pending.need
        deck = sealed[1] if len(sealed) == 3 else None
        if type(deck) is not tuple or len(deck) != len(items):
            raise bad("malformed shuffle (not the deck's cards)", "bad-shuffle")
        if not all(type(c) is bytes and len(c) == mental.CIPHER_BYTES for c in deck):
            raise bad("malformed shuffle (a card is not a ciphertext)", "bad-shuffle")
        decks = self.decks.setdefault((pending.seq, index), {})
        decks[seat] = deck
        order = self.shufflers(game, pending)
        if any(s not in decks for s in order):
            self.next_pending = (game.seq, pending)
            return (), game.state
        key = (pending.seq, index)
        if key not in self.results:  # (the cards of the deck every player has shuffled)
            cards = []
            for cipher in decks[order[-1]]:
                cards.append(len(self.cards))
                self.cards.append(Card(len(self.cards), cipher, tuple(items)))
            self.results[key] = cards
        return self.advance(game, pending)

    # -------------------------------------------------------------------- what a record teaches
    def on_append(self, game, record) -> None:
        super().on_append(game, record)
        kind, seat, sealed = record.kind, record.actor, record.sealed
        if kind == Kind.JOIN:
            self.elgamal[seat] = sealed[3]
            return
        if kind == Kind.DEAL and type(sealed) is tuple and sealed and sealed[0] in _MINE:
            self.dealt(game, seat, sealed)
        derived = self.derived
        if derived is not None and derived[0] == record.seq and record.events:
            self.placed(game, record, derived[1], derived[2], derived[3])
        if kind == Kind.MOVE:
            for value in sealed_values(record):
                index = self.places.get(value.commitment) if type(value) is Reveal else None
                if index is not None and self.cards[index].revealed is None:
                    self.opens[index] = (seat, value.value)

    def placed(self, game, record, derived, made, decision: int) -> None:
        """Where the record put the cards: every secret the rules made of a card (a place of a
        deck, a card drawn, a card shown or given), mapped to its card."""
        me = game.header.viewer
        for want, have in zip(derived, record.events):
            for d, r in pairs(event_fields(want), event_fields(have)):
                if d.commitment.startswith(UNMADE) and r.commitment != d.commitment:
                    counter = int.from_bytes(d.commitment[len(UNMADE) :], "big")
                    self.recorded[(decision, counter)] = r.commitment
                found = made.get(d.commitment)
                if found is None:
                    continue
                index, asked = found
                card = self.cards[index]
                self.places[r.commitment] = index
                if asked == 0:  # (a card of a deck)
                    continue
                if asked > 0:  # (a card drawn: its holder reads it, then claims it)
                    drawer = asked.bit_length() - 1
                    self.unclaimed[r.commitment] = (index, drawer)
                    if card.first is None:
                        card.first, card.drawn_at = drawer, record.seq
                    elif card.first != drawer and not self.told(card, drawer):
                        self.tells[(index, drawer)] = card.first
                    continue
                for reader in range(len(game.players)):  # (shown or given by the record's player)
                    if not r.owners >> reader & 1 or reader in (record.actor, card.first):
                        continue
                    if not self.told(card, reader):
                        self.tells[(index, reader)] = record.actor
                    if reader == me and r.known:
                        self.shown[(index, reader)] = r.value

    def told(self, card: Card, reader: int) -> bool:
        return reader in card.told_to

    def dealt(self, game, seat: int, sealed) -> None:
        tag, items = sealed[0], sealed[1]
        me = game.header.viewer
        if tag == "shares":
            for index, share, proof in items:
                self.cards[index].shares[seat] = (share, proof)
        elif tag == "tell":
            for index, reader, secret in items:
                card = self.cards[index]
                card.told_to.add(reader)
                self.tells.pop((index, reader), None)
                if reader == me and secret.known:
                    card.known_by[reader] = tuple(secret.value)
        elif tag == "claim":
            for placeholder, commitment in items:
                index, _holder = self.unclaimed.pop(placeholder)
                self.places[commitment] = index
                game.committed.add(commitment)
        elif tag == "open":
            for index, share, proof in items:
                card = self.cards[index]
                card.shares[card.first] = (share, proof)
                card.revealed = self.opens.pop(index)[1]

    def seed(self, game) -> bytes | None:
        return None
