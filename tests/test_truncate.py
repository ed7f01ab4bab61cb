"""A peer copy's log cut short in memory (``Game.truncate``) is the copy its own file would
give back: the differential test against writing the shortened log and reading it again
(what truncate did before it re-derived the records in memory)."""

from __future__ import annotations

import attrs
import pytest
from peer_draw import MODULE
from test_peer import Table

from boardstate import Game
from boardstate._fileformat import encode_file, parse_raw
from boardstate._registry import registered


@pytest.fixture(autouse=True)
def _module():
    with registered(MODULE):
        yield


def _by_writing(game: Game, count: int) -> Game:
    header = game.header
    if header.shared is not None and header.shared >= count:
        header = attrs.evolve(header, shared=count - 1 if count else None)
    fresh = Game.rederived(parse_raw(encode_file(header, game.records[:count]), "this copy"))
    fresh.header = attrs.evolve(fresh.header, shared=game.header.shared)
    return fresh


def _same(a: Game, b: Game) -> None:
    assert [r.hash for r in a.records] == [r.hash for r in b.records]
    assert a.records == b.records  # (values as a file gives them back: tuples, not lists)
    assert a.state == b.state
    assert a.header == b.header
    assert a.to_act() == b.to_act() and a.waiting_text() == b.waiting_text()
    assert a.region_start == b.region_start


@pytest.mark.parametrize("players", [2, 3])
def test_truncate_in_memory_equals_the_copy_written_and_read_again(players):
    table = Table(players, rng_seed=11 + players)
    table.play_out()
    for seat, copy in enumerate(table.copies):
        total = copy.seq
        for count in sorted({1, 2, players, players + 1, total // 3, total // 2, total - 1}):
            expected = _by_writing(copy, count)
            shortened = _by_writing(copy, total)  # (a fresh copy to cut, the original kept)
            shortened.signer = copy.signer
            shortened.truncate(count)
            _same(shortened, expected)
            assert shortened.seq == count, (seat, count)
