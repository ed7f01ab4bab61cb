"""The shared-deck mode's bookkeeping: which card of the shared deck each face-down secret of
the table is, who has given their decryption share of it, and the randomness that follows the
cards themselves (``DeckRng``).  ``shared_deck.SharedDeckTrust`` is the plug; the cryptography
is ``boardstate._mental``.

A card is one ElGamal ciphertext of the deck after every player's shuffle (``Card``).  The
module's secrets stand for cards: a face-down deck card and a card just drawn are
*placeholders* (a commitment nobody can open, made alike by every copy from the card and the
record), and a card its holder has *claimed* is a salted commitment the holder made once they
could read it.  A claim replaces the placeholder in the table (``substituted``): from then on
the card is revealed like any secret, and its reveal is followed by the proof that the value
is what the ciphertext holds.
"""

from __future__ import annotations

import hashlib

import attrs

from .. import _mental as mental
from .._errors import IllegalCommand
from .._peer import NeedsInput, PeerRng
from .._records import pack
from .._secrets import Secret

_PLACE = b"boardstate-place"


class Card:
    """One card of the shared deck: its ciphertext, the values it may be (the deck it was
    shuffled from), its public decryption shares, and whose share is kept private (its first
    drawer's: whoever holds that share, and only they, can read the card)."""

    __slots__ = (
        "index",
        "cipher",
        "values",
        "shares",
        "first",
        "drawn_at",
        "told_to",
        "known_by",
        "revealed",
    )

    def __init__(self, index: int, cipher: bytes, values: tuple) -> None:
        self.index = index
        self.cipher = cipher
        self.values = values
        self.shares: dict[int, tuple[bytes, bytes]] = {}  # seat -> (share, proof), public
        self.first: int | None = None  # the seat whose share stays private
        self.drawn_at = -1  # the record that first drew it (its shares' proofs name it)
        self.told_to: set[int] = set()  # who has been sent the first's share in a letter
        self.known_by: dict[int, tuple[bytes, bytes]] = {}  # reader -> the first's (share, proof)
        self.revealed = None  # the value, once it was played and proven


class Slot:
    """A place of a shuffled deck (what ``DeckRng.shuffled`` gives the rules for a value)."""

    __slots__ = ("card",)

    def __init__(self, card: int) -> None:
        self.card = card

    def __repr__(self) -> str:
        return f"Slot({self.card})"


def placeholder(game_id: bytes, seq: int, count: int, card: int, owners: int) -> bytes:
    """The commitment of a card in a place (a deck, a hand just drawn): the same in every copy,
    and opened by nobody (no value and salt hash to it)."""
    return hashlib.sha256(_PLACE + game_id + pack([seq, count, card, owners])).digest()


class DeckRng(PeerRng):
    """``PeerRng`` whose shuffles are the players' joint shuffles and whose face-down cards are
    followed from place to place (``passed``)."""

    __slots__ = ("_deck", "_game_id", "_shuffles", "_places", "made")

    def __init__(self, supplies, seq: int, mine, deck, game_id: bytes) -> None:
        super().__init__(supplies, seq, mine)
        self._deck = deck  # the plug (its cards and places)
        self._game_id = game_id
        self._shuffles = 0
        self._places = 0
        self.made: dict[bytes, tuple] = {}  # commitment -> (card, owners asked; -1: shown or
        # given by this record's player), for the secrets made here

    def shuffled(self, items) -> tuple:
        """The ``k``-th shuffle of this decision is the players' joint shuffle of ``items``: it
        waits for every player's, then gives the places of the deck it made."""
        index = self._shuffles
        self._shuffles += 1
        cards = self._deck.shuffle_result(self._seq, index)
        if cards is None:
            raise NeedsInput(("shuffle", index, tuple(items)))
        return tuple(Slot(c) for c in cards)

    def secret(self, value, owners: int = 0) -> Secret:
        if type(value) is Slot:  # (a face-down card of the deck just shuffled)
            return self._place(value.card, owners)
        recorded = self._deck.recorded.get((self._seq, self._salts + 1))
        if self._mine is None and owners and recorded is not None:
            self._salts += 1  # (a secret another copy made, in a record of this decision
            return Secret(recorded, owners)  # already in: the decision, re-run, takes it)
        return super().secret(value, owners)

    def passed(self, card: Secret, owners: int) -> Secret:
        made = self.made.get(card.commitment)  # (a card placed by this very decision)
        index = made[0] if made is not None else self._deck.card_at(card.commitment)
        if index is None:  # (a value the rules made themselves: a plain secret)
            return super().passed(card, owners)
        if owners == 0 or card.owners == 0:  # drawn from a deck, or put back on one
            return self._place(index, owners)
        out = super().secret(card.value, owners)  # (shown or given: the holder's copy makes
        self.made[out.commitment] = (index, -1)  # it, the others take it from the record)
        return out

    def _place(self, card: int, owners: int) -> Secret:
        """A card in a deck, or just drawn by ``owners``: a placeholder owned by nobody yet
        (nobody can read it before the other players' shares are in; its holder's claim takes
        its place)."""
        self._places += 1
        commitment = placeholder(self._game_id, self._seq, self._places, card, owners)
        self.made[commitment] = (card, owners)
        return Secret(commitment, 0)


def substituted(value, swap: dict):
    """``value`` (a module's state) with every secret whose commitment ``swap`` names replaced
    by ``swap[commitment]`` (its claim); the rest as it was (the same objects where nothing
    changed)."""
    kind = type(value)
    if kind is Secret:
        return swap.get(value.commitment, value)
    if isinstance(value, tuple):
        items = [substituted(v, swap) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return kind._make(items) if hasattr(kind, "_fields") else kind(items)
    if isinstance(value, (list, frozenset, set)):
        items = [substituted(v, swap) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else kind(items)
    if isinstance(value, dict):
        out = {substituted(k, swap): substituted(v, swap) for k, v in value.items()}
        same = all(a is b for a, b in zip(out.values(), value.values()))
        return value if same and list(out) == list(value) else out
    if hasattr(kind, "__attrs_attrs__"):
        changes = {}
        for a in kind.__attrs_attrs__:
            old = getattr(value, a.name)
            new = substituted(old, swap)
            if new is not old:
                changes[a.name] = new
        return attrs.evolve(value, **changes) if changes else value
    return value


def pairs(derived, recorded):
    """``(derived secret, recorded secret)`` at the same places of two events' fields."""
    if type(derived) is Secret and type(recorded) is Secret:
        yield derived, recorded
    elif isinstance(derived, tuple) and isinstance(recorded, tuple):
        for a, b in zip(derived, recorded):
            yield from pairs(a, b)


def event_fields(event) -> tuple:
    return type(event).__event_fields__(event)


DUE_WORDS = {  # the deals the game waits for, in words (``Game.waiting_text``)
    "shuffle": "to shuffle the deck (a deal record, with its proof)",
    "shares": "to add their shares of the cards another player drew (a deal record)",
    "tell": "to send the share of a card to the player who now holds it (a letter)",
    "claim": "to read and claim the cards they drew (a deal record)",
    "open": "to prove the card they played (a deal record)",
}


def deal_words(record) -> tuple[str, str]:
    """A deal of this mode in words (``_words``): what a run of them is, and what one did."""
    tag, items = record.sealed[0], record.sealed[1]
    n = len(items) if type(items) is tuple else 0
    cards = f"{n} card" + ("s" * (n != 1))
    return {
        "shuffle": ("shuffles of the deck", f"shuffles the deck ({cards}), with its proof"),
        "shares": ("decryption shares", f"gives decryption shares of {cards} drawn by others"),
        "tell": ("letters of a share", f"sends the share of {cards} in a letter"),
        "claim": ("claims of cards drawn", f"reads and claims {cards} drawn"),
        "open": ("proofs of cards played", f"proves {cards} played"),
    }[tag]


def bad(why: str, code: str) -> IllegalCommand:
    from .._decider import ENGINE_RULE

    return IllegalCommand(why, code=code, rule=ENGINE_RULE)


def checked(proof_check, *args, code: str, what: str):
    """Run one of ``_mental``'s checks; a failure is ``IllegalCommand`` naming ``what``."""
    try:
        return proof_check(*args)
    except mental.BadProof as exc:
        raise bad(f"{what}: {exc}", code) from None
