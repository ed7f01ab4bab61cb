"""Play by email, end to end: every player keeps their own copy; only move files travel."""
from __future__ import annotations

import random
from collections import deque

import pytest

import boardstate as bs
from boardstate._fileformat import encode_file, encode_moves, parse_raw

from conftest import all_modules, player_names

MODULES = all_modules()


@pytest.mark.parametrize("module", MODULES, ids=[m.spec.id for m in MODULES])
@pytest.mark.parametrize("players", [2, 3])
def test_copies_agree_to_the_end_and_never_hold_anothers_sealed_choice(module, players):
    if players > module.spec.max_players:
        pytest.skip("too many players")
    first = bs.Game.new(module, player_names(players), {}, seed=b"pbem",
                        created="2026-01-01T00:00:00+00:00")
    start = encode_file(first.header, first.records)
    copies = [bs.load_game(parse_raw(start, f"copy{i}")) for i in range(players)]
    pick = random.Random(players)
    mail: deque = deque()  # (sender, move file bytes), delivered to everyone else in order
    turns = 0

    def deliver(sender: int, data: bytes) -> None:
        for seat, copy in enumerate(copies):
            if seat != sender:
                bs.apply_moves(copy, parse_raw(data, "move"))
                applied = copy.seq - 1
                if copy.reveal_held():  # this copy's own reveal is due: it mails it on
                    mail.append((seat, encode_moves(copy, applied)))

    while mail or copies[0].outcome() is None:
        if mail:
            deliver(*mail.popleft())
            continue
        seat = min(copies[0].to_act())  # pass the moves around in seat order
        mine = copies[seat]
        base = mine.seq - 1
        mine.play(seat, pick.choice(mine.legal(seat)))
        mail.append((seat, encode_moves(mine, base)))
        for holder, copy in enumerate(copies):  # an unrevealed choice lives in its owner's copy
            phase = copy.phase()
            for owner, secret in (phase.commits.items() if phase else ()):
                if owner not in phase.revealed:
                    assert secret.known == (owner == holder)
        turns += 1
        assert turns < 5000
    assert all(c.state == copies[0].state and c.seq == copies[0].seq for c in copies)
    assert all(c.outcome() == copies[0].outcome() is not None for c in copies)
    for c in copies:
        verdict = bs.verify(parse_raw(encode_file(c.header, c.records), "copy"))
        assert verdict.ok, verdict.failure
