"""``boardstate.audit`` audits what was published as its mode requires: a hosted game with
the judge's log (found among the files, in any position), a peer game with the players'
copies; a hosted game without the judge's log is refused, saying what to give."""

from __future__ import annotations

import pytest
from test_hosted import Hosted

import boardstate as bs
from boardstate._fileformat import encode_game, parse_raw


@pytest.fixture(scope="module")
def finished():
    table = Hosted(2, module="jedi-duel", seed=3)
    table.play()
    assert table.judge.outcome() is not None
    return table


def _copies(table):
    return [parse_raw(encode_game(c), f"copy {i}") for i, c in enumerate(table.copies)]


def test_the_judges_log_is_found_among_the_copies(finished):
    log = parse_raw(encode_game(finished.judge), "judge")
    report = bs.audit([*_copies(finished)[:1], log, *_copies(finished)[1:]])
    assert report.ok and report.judges_log and report.copies == 2
    assert report.line().startswith(f"audit ok: {finished.judge.seq} records of the judge's log")


def test_a_hosted_game_without_the_judges_log_is_refused(finished):
    with pytest.raises(bs.GameFileError) as info:
        bs.audit(_copies(finished))
    assert info.value.code == "bad-audit" and "judge publish" in info.value.reason
