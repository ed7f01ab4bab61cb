"""Epic Duels' choices of several cards: ``Multisets`` (counted without being made, for the
random pick) is ``multisets`` item for item, and its count is the list's length."""

from __future__ import annotations

import random
from itertools import combinations, product

import pytest

from boardstate.modules.epic_duels._multisets import Multisets, multiset_count, multisets


def hands(count: int, seed: int = 5):
    """Hands of 0 to 12 cards of 1 to 8 kinds (repeats likely, as in a real hand)."""
    rng = random.Random(seed)
    for _ in range(count):
        kinds = rng.randint(1, 8)
        yield tuple(rng.randrange(kinds) for _ in range(rng.randint(0, 12)))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_the_count_is_the_lists_length(n):
    for hand in hands(400, seed=n):
        assert multiset_count(hand, n) == len(multisets(hand, n)), (hand, n)


def test_the_count_is_the_number_of_distinct_choices():
    """Held against the definition too, not only the list: distinct sorted combinations."""
    for hand in hands(200, seed=11):
        for n in range(4):
            assert multiset_count(hand, n) == len({tuple(sorted(c)) for c in combinations(hand, n)})


def test_the_sequence_is_the_list_with_its_head():
    for hand in hands(200, seed=3):
        for n in range(4):
            listed = multisets(hand, n)
            bare = Multisets(hand, n)
            assert len(bare) == len(listed) and list(bare) == listed
            assert [bare[i] for i in range(len(bare))] == listed
            headed = Multisets(hand, n, ("draw-two", 1))
            assert len(headed) == len(listed)
            assert list(headed) == [("draw-two", 1, m) for m in listed]
            assert [headed[i] for i in range(len(listed))] == list(headed)
            if listed:
                with pytest.raises(IndexError):
                    headed[len(listed)]


def test_each_item_asked_alone_is_the_lists_every_small_hand():
    """Every hand of up to 6 cards of 4 kinds, each choice of 0 to 2 cards: the item at each
    index (and each negative one) asked of a new sequence, before any other ask made its list
    (``Multisets.__getitem__`` makes one or two cards alone), is the list's; past the end,
    IndexError."""
    for size in range(7):
        for hand in product(range(4), repeat=size):
            for n in (0, 1, 2):
                listed = multisets(hand, n)
                for head in (None, ("draw-two", 0)):
                    items = listed if head is None else [(*head, m) for m in listed]
                    for i in range(-len(items), len(items)):
                        assert Multisets(hand, n, head)[i] == items[i], (hand, n, head, i)
                    with pytest.raises(IndexError):
                        Multisets(hand, n, head)[len(items)]


def test_a_slice_of_a_new_sequence_is_the_lists():
    """A slice asked first is the list's slice, as a list's is (the one-or-two-card path takes
    a whole number only)."""
    hand = (3, 1, 3, 2, 0)
    for n in (1, 2, 3):
        listed = multisets(hand, n)
        for part in (slice(1, 4), slice(None, None, -2), slice(-3, None)):
            assert Multisets(hand, n)[part] == listed[part], (n, part)


def test_in_is_membership_in_the_list():
    """``in`` answers from the values, the list not made: as the list answers, for every choice
    of every hand (held or not, ascending or not), choices of other sizes, types and shapes,
    with and without a head."""
    for hand in hands(150, seed=17):
        for n in range(4):
            for head in (None, ("draw-two", 1)):
                listed = list(Multisets(hand, n, head))
                asked = [c if head is None else (*head, c) for c in product(range(5), repeat=n)]
                asked += [(*c[:-1], tuple(map(float, c[-1]))) for c in listed[:2] if head]
                asked += [tuple(map(float, c)) for c in listed[:2] if head is None]
                asked += [("draw-two", 2, ()), ("draw", 1, ()), (), None, [0] * n, (0,) * (n + 1)]
                for item in asked:
                    assert (item in Multisets(hand, n, head)) == (item in listed), (hand, n, item)
