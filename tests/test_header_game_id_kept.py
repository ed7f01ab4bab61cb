"""A header's game id is hashed once and kept beside its fields (``Header.game_id``, a cached
property of the frozen class): never one of them, so a header whose id was read is equal to,
hashed, shown and pickled as the same header unread; and a header made from another
(``attrs.evolve``) names its own game, not the one it was made from."""

from __future__ import annotations

import pickle

import attrs
import pytest

import boardstate as bs


def _fresh(header):
    """The same header, made anew: its id not read yet."""
    return type(header)(**attrs.asdict(header, recurse=False))


@pytest.fixture(scope="module")
def header():
    module = bs.get_module("duel-of-the-forces")
    return bs.Game.new(module, ["alice", "bob"], {}, seed=b"id", created="2026-01-01").header


def test_an_id_read_changes_nothing_of_the_header(header):
    read, unread = _fresh(header), _fresh(header)
    game_id = read.game_id
    assert read == unread and hash(read) == hash(unread) and repr(read) == repr(unread)
    assert pickle.dumps(read) == pickle.dumps(unread)
    assert attrs.asdict(read) == attrs.asdict(unread)
    again = pickle.loads(pickle.dumps(read))
    assert again.game_id == game_id == unread.game_id


@pytest.mark.parametrize(
    "change",
    [
        {"players": ("alice", "carol")},
        {"options": ()},
        {"created": "2026-01-02"},
        {"revision": 1},
        {"events": ()},
        {"module_version": "9.9"},
        {"given_id": b"g" * 32},
    ],
    ids=lambda change: next(iter(change)),
)
def test_a_header_made_from_another_names_its_own_game(header, change):
    read = _fresh(header)
    assert read.game_id == header.game_id
    made = attrs.evolve(read, **change)
    assert made.game_id == _fresh(made).game_id != read.game_id
