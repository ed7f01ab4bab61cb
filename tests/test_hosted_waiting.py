"""A hosted player's copy that sent a request waits for the judge's answer: nothing is legal
meanwhile, a second request is refused with a reason, the engine's words (a note, a
resignation) may still be said, and the judge's answer ends the wait."""

from __future__ import annotations

import pytest
from test_hosted import Hosted

import boardstate as bs
from boardstate._hosted import decode_request


def test_a_copy_waits_for_the_judges_answer_and_the_answer_ends_the_wait():
    table = Hosted(2, module="jedi-duel", seed=5)
    seat = table.judge.to_act()[0]
    copy = table.copies[seat]
    command = copy.legal(seat)[0]
    request = copy.request(seat, command)
    assert copy.due() == "judge" and copy.legal(seat) == []
    assert bs.next_line(copy).startswith(f"sent: {command}")
    with pytest.raises(bs.IllegalCommand) as info:
        copy.request(seat, command)
    assert info.value.code == "waiting"
    assert copy.request(seat, "note sorry, slow day").command == "note sorry, slow day"
    table.judge.judge(decode_request(request.encode(), "request"))
    table.deliver(copy.last_seq)
    assert copy.due() != "judge"
