"""Epic Duels, rules revisions: a game created under an older revision plays and verifies
exactly as before the next came, record for record.

tests/fixtures/epic-duels-revision-2/ and -revision-3/ hold the sample games made under those
revisions (the samples in replays/ are made under the newest revision); revision 3 is tested in
test_epic_duels_revision_3.py, revision 4's 'draw 2' in test_epic_duels_draw_two.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import boardstate as bs
from conftest import assert_replays_to_the_same_records

OLDER = {
    revision: sorted(
        (Path(__file__).parent / "fixtures" / f"epic-duels-revision-{revision}").glob("*.msgpack")
    )
    for revision in (2, 3)
}
FIXTURES = OLDER[2] + OLDER[3]
IDS = [f"{p.parent.name[-10:]}/{p.name}" for p in FIXTURES]


@pytest.mark.parametrize("revision", sorted(OLDER))
def test_there_is_an_older_sample_for_every_battle_scene_and_variant(revision):
    assert len(OLDER[revision]) == 10
    for path in OLDER[revision]:
        assert bs.load_game(path).header.revision == revision


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_an_older_sample_verifies_unchanged(path):
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.rederived == verdict.records and verdict.outcome is not None
    revision = int(path.parent.name[-1])
    assert verdict.game.header.revision == revision == verdict.game.state.revision


@pytest.mark.parametrize("path", FIXTURES, ids=IDS)
def test_an_older_game_replays_its_commands_to_identical_records(path):
    assert_replays_to_the_same_records(path)


def test_the_samples_in_replays_are_made_under_the_newest_revision():
    samples = sorted((Path(__file__).parent.parent / "replays").glob("epic-duels-*.msgpack"))
    assert len(samples) == 10
    for path in samples:
        assert bs.load_game(path).header.revision == bs.get_module("epic-duels").spec.revision
