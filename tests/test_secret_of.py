"""``secret_of`` (a ``Secret`` with its slots set directly, for the referee's loop) makes the
same object as ``Secret(...)``: equal, hashed, shown, pickled, compared by the log's committed
form alike, and as frozen."""

from __future__ import annotations

import pickle

import attrs
import pytest

from boardstate._records import pack
from boardstate._secrets import UNKNOWN, Secret, committed_form, make_secret, secret_of

CASES = [
    (b"c" * 32, 0),
    (b"c" * 32, 5),
    (b"c" * 32, 1, "play han 2", b"s" * 16),
    (b"d" * 32, 2, (1, ("a", b"x")), b"t" * 16),
    (b"e" * 32, 3, None, b"u" * 16),
    (b"f" * 32, 1, UNKNOWN, None),
]


@pytest.mark.parametrize("args", CASES, ids=range(len(CASES)))
def test_secret_of_is_the_secret_the_class_makes(args):
    made, want = secret_of(*args), Secret(*args)
    assert type(made) is Secret
    assert attrs.astuple(made, recurse=False) == attrs.astuple(want, recurse=False)
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    assert made.known == want.known and made.sealed() == want.sealed()
    assert committed_form(made) == committed_form(want)
    assert pack([made]) == pack([want])  # (as a record's body holds it)
    again = pickle.loads(pickle.dumps(made))
    assert again == want and type(again) is Secret
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.owners = 7


def test_make_secret_is_the_class_secret_of_its_commitment():
    made = make_secret(("card", 7), b"s" * 16, 3)
    assert made == Secret(made.commitment, 3, ("card", 7), b"s" * 16)
    assert type(made) is Secret
