"""The sample games in replays/: made by the project's own commands, verified here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

ROOT = Path(__file__).parent.parent
REPLAYS = sorted((ROOT / "replays").glob("*.msgpack"))


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


@pytest.mark.parametrize("path", REPLAYS, ids=[p.name for p in REPLAYS])
def test_every_sample_is_made_under_its_games_newest_rules_revision(path):
    game = bs.load_game(path)
    assert game.header.revision == game.module.spec.revision
    assert game.revision_note() == ""


def test_the_readmes_first_replay_opens_with_no_note_of_an_older_revision():
    """A newcomer's first contact: the README's replay of a sample."""
    readme = (ROOT / "README.md").read_text()
    samples = re.findall(r"boardstate replay (replays/\S+\.msgpack)", readme)
    assert samples
    for sample in samples:
        result = CliRunner().invoke(cli, ["replay", str(ROOT / sample), "--no-step"])
        assert result.exit_code == 0, result.output
        assert "revision" not in result.output and "note:" not in result.output
