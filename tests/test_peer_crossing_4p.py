"""Four players by mail whose mails cross, through the command line, to the end and the audit
(the two- and three-player games are in test_peer_crossing.py, with the harness)."""

from __future__ import annotations

from peer_draw import MODULE as DRAW
from test_peer_crossing import audit, play

from boardstate._registry import registered


def test_four_players_bids_cross_in_the_mail_and_merge_to_the_end(tmp_path, monkeypatch):
    table = play(tmp_path, monkeypatch, "duel-of-the-forces", 4, 8)
    assert table.merges, "no mails crossed"
    audit(table)


def test_four_players_draws_and_shares_cross_in_the_mail(tmp_path, monkeypatch):
    with registered(DRAW):
        table = play(tmp_path, monkeypatch, DRAW.spec.id, 4, 105)
        assert table.merges, "no mails crossed"
        audit(table)
