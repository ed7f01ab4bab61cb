"""``secret_of`` and ``reveal_of`` (a ``Secret``, a ``Reveal``, their slots set directly, for
the referee's loop) make the same objects as ``Secret(...)`` and ``Reveal(...)``: equal,
hashed, shown, pickled, encoded alike, and as frozen."""

from __future__ import annotations

import pickle

import attrs
import pytest

from boardstate._records import pack
from boardstate._secrets import (
    UNKNOWN,
    Reveal,
    Secret,
    committed_form,
    make_secret,
    reveal,
    reveal_of,
    secret_of,
)

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
    _same_object(made, want)
    assert made.known == want.known and made.sealed() == want.sealed()
    assert committed_form(made) == committed_form(want)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.owners = 7


def _same_object(made, want) -> None:
    """Of the class, equal field by field, hashed, shown, encoded (as a record's body holds
    it) and pickled alike."""
    assert type(made) is type(want)
    assert attrs.astuple(made, recurse=False) == attrs.astuple(want, recurse=False)
    assert made == want and hash(made) == hash(want) and repr(made) == repr(want)
    assert pack([made]) == pack([want])
    again = pickle.loads(pickle.dumps(made))
    assert again == want and type(again) is type(want)


def test_make_secret_is_the_class_secret_of_its_commitment():
    made = make_secret(("card", 7), b"s" * 16, 3)
    assert made == Secret(made.commitment, 3, ("card", 7), b"s" * 16)
    assert type(made) is Secret


REVEALS = [
    (b"c" * 32, b"s" * 16, "play han 2"),
    (b"d" * 32, b"t" * 16, (1, ("a", b"x"))),
    (b"e" * 32, b"u" * 16, None),
]


@pytest.mark.parametrize("args", REVEALS, ids=range(len(REVEALS)))
def test_reveal_of_is_the_reveal_the_class_makes(args):
    made, want = reveal_of(*args), Reveal(*args)
    _same_object(made, want)
    assert made.checks() == want.checks()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.value = "x"


def test_a_secret_revealed_opens_its_commitment():
    secret = make_secret("play luke 3", b"s" * 16, 1)
    opened = reveal(secret)
    assert opened == Reveal(secret.commitment, b"s" * 16, "play luke 3") and opened.checks()
