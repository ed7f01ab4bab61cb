"""Quiet, exact output (issue 26): the trust mode's own records (joins, shares of the
randomness) are one line a run unless asked for in full, and what a decision settled is said
once, when it is new."""

from __future__ import annotations

import pytest
from peer_draw import MODULE
from test_peer import Table

import boardstate as bs
from boardstate._registry import registered
from boardstate.testing import random_game
from cli._common import echo_after


@pytest.fixture
def peer_game():
    with registered(MODULE):
        table = Table(2, rng_seed=4)
        table.play_out()
        yield table.copies[0]


def test_a_run_of_joins_and_shares_is_one_line(peer_game):
    game = peer_game
    lines = bs.records_said(game, game.records, 0)
    full = bs.records_said(game, game.records, 0, protocol=True)
    protocol = [r for r in game.records if r.kind in (bs.Kind.JOIN, bs.Kind.DEAL)]
    assert protocol and len(full) == len(game.records)
    assert len(lines) < len(full) - len(protocol) // 2
    assert not any("adds a share of the randomness" in line for line in lines)
    assert sum("adds a share of the randomness" in line for line in full) == sum(
        r.kind == bs.Kind.DEAL and r.sealed[0] == "link" for r in protocol
    )
    joins = next(line for line in lines if "joins:" in line)
    assert joins.startswith("records 1-6: joins: alice, bob; face-down piles arranged"), joins
    # every record is in exactly one line: the runs' spans and the single records tile the log
    covered = []
    for line in lines:
        span = line.split(":", 1)[0].split(" ", 1)[1]
        first, _, last = span.partition("-")
        covered += range(int(first), int(last or first) + 1)
    assert covered == [r.seq for r in game.records]


def test_what_a_decision_settled_is_said_only_when_new():
    game = random_game(bs.get_module("duel-of-the-forces"), 3, players=2)
    report = game.decider.report(game.state)
    assert report  # (the last round's result)
    said: list[str] = []
    echo_after(game, None, said.append, before=game.state)  # (nothing new since)
    assert said == [bs.next_line(game)]
    said.clear()
    echo_after(game, None, said.append)
    assert said == [report, bs.next_line(game)]


def test_log_shows_the_protocol_in_full_only_when_asked():
    from pathlib import Path

    from click.testing import CliRunner

    from boardstate.cli import cli

    copy = sorted(Path(__file__).parent.glob("fixtures/peer-before-redesign/*.msgpack"))[0]
    short = CliRunner().invoke(cli, ["log", str(copy)])
    full = CliRunner().invoke(cli, ["log", str(copy), "--protocol"])
    assert short.exit_code == 0 == full.exit_code, short.output + full.output
    assert "adds a share of the randomness" in full.output
    assert "adds a share of the randomness" not in short.output
    assert "shares of the randomness:" in short.output
    assert len(short.output.splitlines()) < len(full.output.splitlines())
    assert short.output.splitlines()[-1] == full.output.splitlines()[-1]  # (the same ending)
