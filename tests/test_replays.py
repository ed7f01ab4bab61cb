"""The sample games in replays/: made by the project's own commands, verified here."""

from __future__ import annotations

from pathlib import Path

import pytest

import boardstate as bs

REPLAYS = sorted((Path(__file__).parent.parent / "replays").glob("*.msgpack"))


def test_there_are_samples_for_every_edition_and_player_count():
    names = {p.name for p in REPLAYS}
    for edition in ("ravensburger-2015", "parlett-english", "parlett-original"):
        for n in (2, 3, 4):
            assert f"duel-of-the-forces-{edition}-{n}p.msgpack" in names


def test_there_is_an_epic_duels_sample_for_every_battle_scene_and_variant():
    from boardstate.modules.epic_duels.boards import SCENES

    names = {p.name for p in REPLAYS}
    for scene in SCENES:
        assert f"epic-duels-{scene}.msgpack" in names
    for variant in ("team-4p", "team-6p", "free-for-all-3p", "random-draw-5p", "master-2p"):
        assert f"epic-duels-{variant}.msgpack" in names


@pytest.mark.parametrize("path", REPLAYS, ids=[p.name for p in REPLAYS])
def test_sample_verifies_to_a_finished_game(path):
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.rederived == verdict.records
    assert verdict.outcome is not None
    game = bs.load_game(path)
    assert game.state == verdict.game.state
    assert game.rules.outcome(game.state) == verdict.outcome
    for seat in range(len(game.players)):
        assert game.rules.render(game.rules.view(game.state, seat), seat)
