"""Epic Duels, rules revisions: a game created under revision 2 plays and verifies exactly as
before revision 3 came, record for record.

tests/fixtures/epic-duels-revision-2/ holds the sample games made under revision 2 (the samples
in replays/ are made under the newest revision); revision 3 is tested in
test_epic_duels_revision_3.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import boardstate as bs
from conftest import assert_replays_to_the_same_records

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "epic-duels-revision-2").glob("*.msgpack"))
IDS = [p.name for p in FIXTURES]


def test_there_is_a_revision_2_sample_for_every_battle_scene_and_variant():
    assert len(FIXTURES) == 10


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_a_revision_2_sample_verifies_unchanged(path):
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.rederived == verdict.records and verdict.outcome is not None
    assert verdict.game.header.revision == 2 and verdict.game.state.revision == 2


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_a_revision_2_game_replays_its_commands_to_identical_records(path):
    assert_replays_to_the_same_records(path)


def test_the_samples_in_replays_are_made_under_revision_3():
    samples = sorted((Path(__file__).parent.parent / "replays").glob("epic-duels-*.msgpack"))
    assert len(samples) == 10
    for path in samples:
        assert bs.load_game(path).header.revision == 3
