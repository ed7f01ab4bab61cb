"""A header found within the installed module's limits is remembered (``_header._installed``:
the games of one set-up share what the check reads), and the remembered verdict is the
check's: a header that differs in any field the check reads is checked again, refused where
the check refuses it, before and after a good one was kept."""

from __future__ import annotations

import attrs
import pytest

import boardstate as bs
from boardstate import _header
from boardstate._errors import BoardstateError
from boardstate._header import _check_against, _installed
from boardstate._header_fields import _Bad

DOTF = "duel-of-the-forces"


def _header_of_a_game():
    module = bs.get_module(DOTF)
    game = bs.Game.new(module, ["alice", "bob"], {}, seed=b"kept", created="2026-01-01")
    return module, game.header


def _variants(header):
    """Headers differing from ``header`` in one field the check reads (each one it refuses,
    but the first, which is good: another player count)."""
    events = header.events
    return [
        attrs.evolve(header, players=("alice", "bob", "carol")),
        attrs.evolve(header, module_version="99.0"),  # newer than installed
        attrs.evolve(header, revision=99),  # a revision the module does not know
        attrs.evolve(header, events=((events[0][0], 99),) + events[1:]),  # a newer schema
        attrs.evolve(header, events=(("dotf.no-such-event", 1),) + events[1:]),
        attrs.evolve(header, events=events + (("dotf.newer", 1),)),  # more than installed
        attrs.evolve(header, players=("alice",)),  # too few
        attrs.evolve(header, players=tuple(f"p{i}" for i in range(9))),  # too many
        attrs.evolve(header, options=header.options + (("edition", "no-such-edition"),)),
    ]


def _verdict(check, module, header) -> str:
    try:
        check(module, header, "f.msgpack")
    except (BoardstateError, _Bad) as exc:  # (_Bad: the header reader's, made a one-line error)
        return f"refused {type(exc).__name__}: {exc}"
    return "ok"


@pytest.mark.parametrize("first", [False, True], ids=["cold", "after a good header"])
def test_a_kept_verdict_is_the_checks(first):
    module, header = _header_of_a_game()
    _header._CHECKED.clear()
    if first:
        assert _verdict(_installed, module, header) == "ok"
        assert _header._CHECKED  # (kept)
    variants = _variants(header)
    wants = [_verdict(_check_against, module, v) for v in variants]
    assert wants[0] == "ok" and all(w.startswith("refused") for w in wants[1:])
    for _ in range(2):  # read first, and read again
        assert [_verdict(_installed, module, v) for v in variants] == wants
        assert _verdict(_installed, module, header) == "ok"


def test_headers_kept_are_bounded():
    module, header = _header_of_a_game()
    _header._CHECKED.clear()
    for i in range(3 * _header._CHECKED_KEPT):
        _installed(module, attrs.evolve(header, created=f"2026-01-01T00:00:{i % 60:02d}"), "f")
        _installed(module, attrs.evolve(header, players=("alice", f"p{i}")), "f")
    assert 0 < len(_header._CHECKED) <= _header._CHECKED_KEPT


def test_a_verdict_is_kept_for_one_module_object():
    """Two versions of a game in one process (the judge, a batch, a test's older revision):
    a header one of them takes is checked again against the other, in either order."""
    module, header = _header_of_a_game()
    spec = module.spec
    older = bs.Module(attrs.evolve(spec, revision=1, oldest_revision=1), module.rules)
    assert header.revision > 1
    for first, second in ((module, older), (older, module)):
        _header._CHECKED.clear()
        wants = [_verdict(_check_against, m, header) for m in (first, second)]
        assert [_verdict(_installed, m, header) for m in (first, second)] == wants
    assert wants[0].startswith("refused FutureVersion") and wants[1] == "ok"  # (older, newer)


def test_a_compact_headers_verdict_is_not_a_full_ones():
    """A compact move file's header is checked for its version only (the rest is its game's):
    a full header with the same fields is checked in full."""
    module, header = _header_of_a_game()
    bare = attrs.evolve(header, players=(), events=(), options=())
    compact = attrs.evolve(bare, given_id=header.game_id)
    _header._CHECKED.clear()
    assert _verdict(_installed, module, compact) == "ok"
    assert _verdict(_installed, module, bare) == _verdict(_check_against, module, bare) != "ok"
