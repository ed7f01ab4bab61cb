"""Letters cannot be stripped (issue 24, item 3).

A letter carries the opening of a value shown to some players only (``show NAME`` in the test
game: a card shown to one other player).  The value's commitment is in the record's signed,
hashed body, so it binds what the letter holds: a reader's copy refuses a record in which a value
shown to it arrives without a letter that opens it (dropped or damaged by a relay or by its
maker), and the end-of-game audit opens every letter of every copy with the published secrets.
"""

from __future__ import annotations

import pytest
from peer_draw import MODULE
from test_peer import NAMES, Table

import boardstate as bs
from boardstate._audit import audit
from boardstate._fileformat import encode_game, encode_moves, parse_raw
from boardstate._referee import referee_moves
from boardstate._registry import registered
from boardstate.trust import peer as peer_plug


@pytest.fixture(autouse=True)
def _module():
    with registered(MODULE):
        yield


def _show(table: Table):
    """The player to act shows their first card to the next player; ``(maker's seat, reader,
    a function: the move file as mailed, its letters changed by a relay)``."""
    table.settle()
    (seat,) = table.copies[0].to_act()
    reader = (seat + 1) % len(table.copies)
    maker = table.copies[seat]
    base = maker.seq - 1
    maker.play(seat, f"show {NAMES[reader]}")

    def mailed(change=None) -> bytes:
        record = maker.records[-1]
        if change is not None:  # (letters travel beside the body: a relay can touch them)
            maker.records[-1] = record._replace(letters=change(record.letters))
        try:
            return encode_moves(maker, base)
        finally:
            maker.records[-1] = record

    return seat, reader, mailed


def _garble(letters):
    return tuple((i, r, box[:-1] + bytes([box[-1] ^ 1])) for i, r, box in letters)


@pytest.mark.parametrize("change", [lambda letters: (), _garble], ids=["dropped", "damaged"])
def test_a_reader_refuses_a_record_whose_letter_was_dropped_or_damaged(change):
    table = Table(3, rng_seed=11)
    seat, reader, mailed = _show(table)
    copy = table.copies[reader]
    saved = encode_game(copy, viewer=reader)  # (the copy's file: a refusal writes nothing)
    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(copy, parse_raw(mailed(change), "mail"))
    assert info.value.code == "missing-letter"
    assert NAMES[seat] in str(info.value) and "send the move file again" in str(info.value)
    fresh = bs.load_game(parse_raw(saved, "copy"))  # the intact file, sent again, applies
    referee_moves(fresh, parse_raw(mailed(), "mail"))
    assert fresh.state.shown[-1][2].known


def test_a_third_player_takes_the_record_without_a_letter_for_them():
    table = Table(3, rng_seed=11)
    seat, reader, mailed = _show(table)
    third = table.copies[3 - seat - reader]
    referee_moves(
        third, parse_raw(mailed(lambda letters: ()), "mail")
    )  # (nothing is owed to the third player)


def test_a_maker_who_writes_no_letter_is_refused_by_the_reader(monkeypatch):
    monkeypatch.setattr(peer_plug, "write_letters", lambda *a, **k: [])
    table = Table(3, rng_seed=11)
    seat, reader, mailed = _show(table)
    with pytest.raises(bs.VerificationFailed) as info:
        referee_moves(table.copies[reader], parse_raw(mailed(), "mail"))
    assert info.value.code == "missing-letter"


def _finished(n: int, seed: int):
    table = Table(n, rng_seed=seed)
    table.play_out()
    copies = [encode_game(c, viewer=i) for i, c in enumerate(table.copies)]
    shown = [
        i
        for i, r in enumerate(table.copies[0].records)
        if r.command.startswith("show ") and r.letters
    ]
    assert shown, "nobody showed a card"
    return copies, shown[0]


def _tampered(copies, seq, change):
    out = []
    for i, data in enumerate(copies):
        raw = parse_raw(data, f"copy {i}")
        records = raw.records
        item = records[seq]
        records[seq] = item._replace(letters=change(item.letters))
        out.append(raw)
    return out


@pytest.mark.parametrize(
    ("change", "code"),
    [(lambda letters: (), "missing-letter"), (_garble, "bad-letter")],
    ids=["dropped", "damaged"],
)
def test_the_audit_checks_every_letter(change, code):
    copies, seq = _finished(3, 11)
    honest = audit([parse_raw(d, f"copy {i}") for i, d in enumerate(copies)])
    assert honest.ok, honest.failure
    report = audit(_tampered(copies, seq, change))
    assert not report.ok and report.failure.code == code and report.failure.seq == seq


def test_the_audit_names_a_letter_to_a_player_the_value_is_not_for():
    copies, seq = _finished(3, 11)
    report = audit(
        _tampered(copies, seq, lambda letters: tuple((i, (r + 1) % 3, b) for i, r, b in letters))
    )
    assert not report.ok and report.failure.code in ("shown", "bad-letter", "missing-letter")
