"""``IdentityMemo`` (boardstate.rules): the one statement of the hot paths' answers kept by the
very value asked about (the fast path's reveals, Epic Duels' hands read and views)."""

import weakref

import pytest

from boardstate.rules import IdentityMemo


def _value(n: int) -> tuple:
    """A new tuple each call (built at run time: never a shared constant)."""
    return tuple(range(n, n + 3))


def test_the_very_value_is_answered_an_equal_one_is_not():
    memo = IdentityMemo(8)
    value = _value(1)
    assert memo.get(value) is None
    answer = ("its answer",)
    assert memo.keep(value, answer) is answer
    assert memo.get(value) is answer
    twin = _value(1)
    assert twin == value and twin is not value
    assert memo.get(twin) is None  # equal but another object: asked again


def test_the_value_is_held_so_its_id_is_not_reused():
    """Kept, the value lives on even when the caller drops it: no new object can take its id
    and be given its answer."""
    memo = IdentityMemo(1 << 12)
    for n in range(2000):
        value = _value(n)
        memo.keep(value, n)
        del value
        fresh = _value(-n - 10)  # (the dropped tuple's memory would be reused here)
        assert memo.get(fresh) is None, n


def test_full_it_starts_again():
    memo = IdentityMemo(3)
    values = [_value(n) for n in range(4)]
    for n, value in enumerate(values[:3]):
        memo.keep(value, n)
    assert len(memo) == 3
    assert [memo.get(v) for v in values[:3]] == [0, 1, 2]
    memo.keep(values[3], 3)  # the fourth: the table cleared first
    assert len(memo) == 1
    assert [memo.get(v) for v in values] == [None, None, None, 3]


class _Held:
    """A value a weak reference can watch (a tuple cannot be)."""

    __slots__ = ("__weakref__",)


def test_full_it_lets_its_values_go():
    """Starting again drops the values held with the answers: the memory stays bounded (the
    values outlive their answers by nothing)."""
    memo = IdentityMemo(2)
    first = _Held()
    watched = weakref.ref(first)
    memo.keep(first, 1)
    del first
    memo.keep(_Held(), 2)
    assert watched() is not None  # (held while its answer is kept)
    memo.keep(_Held(), 3)  # the third: the table cleared first
    assert watched() is None


def test_a_bound_below_one_is_refused():
    with pytest.raises(ValueError):
        IdentityMemo(0)
