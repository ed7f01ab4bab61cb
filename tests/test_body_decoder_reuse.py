"""A body decoder reuses its two unpackers (a body's, a revealed value's) from body to body:
after a body it refuses, whatever was half read is gone, and the next body reads as a new
decoder reads it (``_records.BodyDecoder._reset``)."""

from __future__ import annotations

import pytest

from boardstate._fileformat import LIMITS
from boardstate._records import EXT_REVEAL, SALT_SIZE, BodyDecoder, pack
from boardstate._secrets import make_secret, reveal

SECRET = make_secret(("card", 7), b"s" * SALT_SIZE, 1)


def _body(sealed, command="play 3") -> bytes:
    return pack([4, 2, 0, command, sealed, [[0, "x" * 5000]]])


def _reveal_body(value_bytes: bytes) -> bytes:
    """A body whose reveal carries ``value_bytes`` as its packed value (broken on purpose)."""
    good = _body(reveal(SECRET))
    packed_value = pack(SECRET.value)
    opening = SECRET.commitment + SECRET.salt
    assert good.count(opening + packed_value) == 1
    ext = opening + value_bytes
    header = bytes((0xC7, len(ext), EXT_REVEAL))  # ext 8: its length in one byte
    old_header = bytes((0xC7, len(opening + packed_value), EXT_REVEAL))
    return good.replace(old_header + opening + packed_value, header + ext)


REFUSED = {
    "half a body": _body(SECRET)[:40],
    "a body and more": _body(SECRET) + b"\x01",
    "half a revealed value": _reveal_body(pack(SECRET.value)[:3]),
    "a revealed value and more": _reveal_body(pack(SECRET.value) + b"\x92"),
}


@pytest.mark.parametrize("refused", REFUSED, ids=list(REFUSED))
def test_a_refused_body_leaves_nothing_for_the_next(refused):
    goods = [_body(SECRET, "play 5"), _body(reveal(SECRET), "play 6")]
    wants = [BodyDecoder((), LIMITS).fields(good) for good in goods]
    decoder = BodyDecoder((), LIMITS)
    for good, want in zip(goods, wants):
        with pytest.raises(ValueError):
            decoder.fields(REFUSED[refused])
        assert decoder.fields(good) == want
