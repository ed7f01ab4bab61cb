"""A header's options read once a process (``_header_fields._options``: options seen before, by
their msgpack bytes, are not walked again) give what the walk gives, value and refusal alike,
for options of every shape a file can hold, read first and read again."""

from __future__ import annotations

import msgpack
import pytest

from boardstate._header_fields import _Bad, _options, _options_checked


def _deep(depth: int):
    value = 1
    for _ in range(depth):
        value = (value,)
    return value


SHAPES = [
    (),
    (("deck", (1, 2, 3)), ("seats", 2)),
    (("a", True), ("b", 1)),  # true and 1 are equal in Python, not in msgpack
    (("a", 1), ("b", True)),
    (("a", 1),),
    (("a", 1.0),),  # a float, equal to 1: not an option's leaf
    (("a", {"k": 1}),),  # a map
    (("a", msgpack.ExtType(1, b"x")),),  # equal to the tuple (1, b"x"), which is native
    (("a", (1, b"x")),),
    (("a", None), ("b", b"bytes"), ("c", "text")),
    (("b", 1), ("a", 2)),  # not sorted
    (("a", 1), ("a", 2)),  # not distinct
    (("a", 1, 2),),  # not a pair
    ((1, 2),),  # a key not a string
    "options",  # not an array
    (("a", _deep(16)),),
    (("a", _deep(17)),),  # past the depth an option may have
    (("a", _deep(600)),),  # past the packer's own limit
]


def _as_read(value):
    """``value`` as a file's header gives it back (sequences become tuples)."""
    try:
        return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False, use_list=False)
    except ValueError:  # (nested past the packer's limit: as given)
        return value


def _verdict(read, value) -> str:
    """What ``read`` gives, its types too (True and 1 are equal values, not equal options)."""
    try:
        return f"ok {read(value)!r}"
    except _Bad as exc:
        return f"refused {exc}"


@pytest.mark.parametrize("value", SHAPES, ids=range(len(SHAPES)))
def test_options_read_again_give_what_the_walk_gives(value):
    as_read = _as_read(value)
    want = _verdict(_options_checked, as_read)
    assert _verdict(_options, as_read) == want  # read first
    assert _verdict(_options, as_read) == want  # read again (kept, if it could be packed)
    for other in SHAPES:  # every other shape read after it still gets its own verdict
        other = _as_read(other)
        assert _verdict(_options, other) == _verdict(_options_checked, other)


def test_large_options_are_walked_every_time_not_kept():
    """A header may hold a megabyte of options: such options are not kept (the walk again)."""
    from boardstate import _header_fields

    large = (("deck", tuple(range(20_000))),)
    _header_fields._OPTIONS_READ.clear()
    assert _options(large) == _options_checked(large)
    assert _header_fields._OPTIONS_READ == {}
    small = (("seats", 2),)
    assert _options(small) == _options_checked(small)
    assert len(_header_fields._OPTIONS_READ) == 1
