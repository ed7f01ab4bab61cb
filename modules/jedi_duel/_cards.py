"""The 54-card deck as small ints, so hot loops compare numbers, not objects.

A card is ``suit * 13 + rank - 1`` for the 52 suited cards (suits ♣ ♦ ♥ ♠ = 0..3, ranks
A=1 .. K=13) and 52 / 53 for the red and black Joker.  Each of ♦ ♥ ♠ names one area (and stance):
♦ high, ♥ middle, ♠ low; ♣ is the wild suit and names no area of its own.
"""

from __future__ import annotations

import functools
import re

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RED_JOKER, BLACK_JOKER = 52, 53
DECK = tuple(range(54))
HAND_SIZE = 5

HIGH, MIDDLE, LOW = 0, 1, 2
AREAS = (HIGH, MIDDLE, LOW)
AREA_NAMES = ("high", "middle", "low")
NO_AREA = -1

SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

# Lookup tables (index by card) so the rules never divide in their loops.
SUIT = tuple(c // 13 for c in range(52)) + (-1, -1)
RANK = tuple(c % 13 + 1 for c in range(52)) + (0, 0)
IS_JOKER = tuple(c >= 52 for c in DECK)
IS_ROYAL = tuple(11 <= RANK[c] <= 13 for c in DECK)
IS_CLUB = tuple(SUIT[c] == CLUBS for c in DECK)
# The area a card's suit names: ♦ high, ♥ middle, ♠ low; ♣ and Jokers name none.
AREA_OF = tuple(SUIT[c] - 1 if SUIT[c] in (DIAMONDS, HEARTS, SPADES) else NO_AREA for c in DECK)
# The suit of a stance, by area.
STANCE_SUIT = (DIAMONDS, HEARTS, SPADES)


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank - 1


def name(c: int) -> str:
    """Canonical text of a card: ``7H``, ``10D``, ``QC``, ``RJ`` (red Joker), ``BJ``."""
    if c == RED_JOKER:
        return "RJ"
    if c == BLACK_JOKER:
        return "BJ"
    return RANK_NAMES[RANK[c]] + SUIT_LETTERS[SUIT[c]]


def pretty(c: int) -> str:
    """A card for people: ``7♥``, ``Q♣``, ``red Joker``."""
    if c == RED_JOKER:
        return "red Joker"
    if c == BLACK_JOKER:
        return "black Joker"
    return RANK_NAMES[RANK[c]] + SUIT_SYMBOLS[SUIT[c]]


JOKER_WORD = -2  # "joker" typed without saying which: the rules pick the one held
_CARD_RE = re.compile(r"(10|[2-9]|[atjqk1])([cdhs♣♦♥♠])")
_RANK_WORDS = {"a": 1, "1": 1, "t": 10, "10": 10, "j": 11, "q": 12, "k": 13}
_JOKERS = {
    "rj": RED_JOKER,
    "bj": BLACK_JOKER,
    "joker": JOKER_WORD,
    "jk": JOKER_WORD,
    "jo": JOKER_WORD,
}


@functools.lru_cache(maxsize=512)
def parse(word: str) -> int | None:
    """A card from text (case-insensitive; ``T`` or ``10``; suit letters or symbols), else None.

    ``joker`` without a colour gives ``JOKER_WORD``.  (Cached: the referee reads a card word in
    nearly every command of a log, and there are few of them.)
    """
    w = word.strip().lower()
    if w in _JOKERS:
        return _JOKERS[w]
    m = _CARD_RE.fullmatch(w)
    if not m:
        return None
    rank_text, suit_text = m.groups()
    rank = _RANK_WORDS.get(rank_text) or int(rank_text)
    suit = "cdhs♣♦♥♠".index(suit_text) % 4
    return card(rank, suit)


def area_word(word: str) -> int | None:
    w = word.strip().lower()
    if w in ("high", "h", "top"):
        return HIGH
    if w in ("middle", "medium", "mid", "m"):
        return MIDDLE
    if w in ("low", "l", "bottom"):
        return LOW
    return None


def matches(a: int, b: int) -> bool:
    """Suits match for a fatigue discard: the same suit, or either is the wild ♣; Jokers never."""
    if IS_JOKER[a] or IS_JOKER[b]:
        return False
    return SUIT[a] == SUIT[b] or IS_CLUB[a] or IS_CLUB[b]
