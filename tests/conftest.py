"""Shared fixtures: the installed modules; the random-game driver ships with the package.
And the list of the slow tests, which the fast run leaves out (SLOW, below)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

import boardstate as bs
from boardstate.testing import player_names, random_game  # noqa: F401  (used by test modules)


def all_modules():
    return list(bs.installed_modules().values())


def pytest_configure(config):
    """The user's cache folder is never written by the tests, not even while they are collected
    (importing a game module parses its data files, kept in that folder: _datacache.py)."""
    import os
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="boardstate-cache-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    os.environ["BOARDSTATE_CACHE"] = folder


@pytest.fixture(scope="session", autouse=True)
def _checked_memory_of_the_run(tmp_path_factory):
    """What the commands remember having checked (boardstate/_checked.py) is kept in a folder
    of the test run, never in the user's cache (commands run by the tests inherit it)."""
    import os

    os.environ["BOARDSTATE_CACHE"] = str(tmp_path_factory.mktemp("checked-memory"))


@pytest.fixture(scope="session")
def modules():
    return all_modules()


def replayed(sample: bs.Game, upto: int | None = None) -> bs.Game:
    """A new game with ``sample``'s header (module, revision, seed), given the sample's commands
    again (up to record ``upto``): each sealed or face-down choice with its own salt, each open
    move as written.  The reveals follow by themselves, as they did when the sample was
    played."""
    from boardstate.testing import Kind

    game = bs.Game(sample.module, sample.header)
    events, state = game.decider.start(game.state, game.rng(0))
    game.append(game.make(Kind.SETUP, -1, "", None, events), state)
    for rec in sample.records[1:upto]:
        if rec.kind == Kind.COMMIT:
            salt = rec.sealed.salt
            game.play(rec.actor, rec.sealed.value, entropy=lambda n, salt=salt: salt)
        elif rec.kind == Kind.MOVE:
            game.play(rec.actor, rec.command)
    return game


def assert_replays_to_the_same_records(path) -> None:
    """A sample made under an older rules revision, given its commands again, makes the very
    same records (body and hash) and the same outcome."""
    sample = bs.load_game(path)
    game = replayed(sample)
    assert len(game.records) == len(sample.records)
    for made, recorded in zip(game.records, sample.records):
        assert made == recorded, made.seq  # body and hash: the very same bytes
    assert game.outcome() == sample.outcome()


# ------------------------------------------------------------------------- the slow tests
# The fast run (README, "Set-up") is ``python -m pytest -m "not slow" -n 2``: it leaves out
# the tests listed here, each a second or more of CPU (measured on the 2-core CI machine; the
# figures are in the README).  One list rather than decorators in twenty files: a case of a
# parametrized test is named by its id, and the list says at a glance what the fast run
# leaves to the full one (CI, the README's test command).  A line is a test's id under
# tests/: a function (every case of it), or one case, where ``*`` matches any characters.
SLOW = """
# Whole games played by mail, through the peer mode, the judge or the command line
test_peer_cli.py::test_epic_duels_by_mail_in_the_peer_mode
test_peer_cli.py::test_duel_of_the_forces_by_mail_in_the_peer_mode
test_peer.py::test_epic_duels_for_three_in_the_peer_mode_mail_in_any_order
test_peer.py::test_a_peer_game_by_mail_plays_to_the_end_and_every_copy_agrees[4]
test_peer_crossing.py::test_sealed_bids_cross_in_the_mail_and_merge_to_the_end
test_peer_crossing.py::test_private_draws_and_shares_cross_in_the_mail
test_peer_crossing_4p.py::test_four_players_bids_cross_in_the_mail_and_merge_to_the_end
test_peer_crossing_4p.py::test_four_players_draws_and_shares_cross_in_the_mail
test_hosted.py::test_jedi_duel_is_played_to_the_end_through_the_judge[5]
test_hosted.py::test_jedi_duel_is_played_to_the_end_through_the_judge[6]
test_hosted.py::test_sealed_and_face_down_choices_are_played_through_the_judge[duel-of-the-forces-4-*]
test_hosted.py::test_sealed_and_face_down_choices_are_played_through_the_judge[epic-duels-*]
test_judge_mail.py::test_jedi_duel_by_email_through_the_judge
test_epic_duels_copies.py::test_every_decision_of_random_games_is_rederived_on_every_copy[2]
test_epic_duels_copies.py::test_every_decision_of_random_games_is_rederived_on_every_copy[3]
test_wording.py::test_an_audit_without_a_players_copy_says_which_copies_it_had
test_cli.py::test_play_by_email_round_trip
test_shared_deck_crypto.py::test_a_full_shuffle_proof_checks_and_a_forged_one_fails
test_shared_deck.py::test_jedi_duel_plays_to_the_end_and_every_copy_agrees
test_shared_deck_cli.py::test_jedi_duel_by_mail_in_the_shared_deck_mode_to_the_end_and_the_audit
test_shared_deck_cli.py::test_the_set_up_by_mail_with_the_real_proofs

# The conformance suite on the shipped games (the example's stays in: the suite itself)
test_conformance.py::test_module_conforms[duel-of-the-forces-*]
test_conformance.py::test_module_conforms[epic-duels-*]
test_conformance.py::test_module_conforms[jedi-duel-*]
test_duel_of_the_forces_revisions.py::test_the_newest_revision_passes_the_conformance_suite
test_jedi_duel_games.py::test_legal_and_validate_agree_both_ways
test_referee.py::test_corpus_and_forgeries_alike_with_and_without_fast_paths[epic-duels]
test_epic_duels_piles.py::test_no_secret_is_owned_by_nobody_in_random_games[4]
test_epic_duels_piles.py::test_the_contract_holds_with_the_draw_pile_searches[options0]
test_epic_duels_revision_3.py::test_random_team_games_never_list_an_attack_on_a_team_mate[master-4]
test_geometry_sight.py::test_walk_equals_shapely_table_on_any_grid_size

# A program per command or a process killed mid-write (real PostgreSQL where it runs)
test_judge_crash.py::test_a_judge_killed_at_any_moment_loses_nothing_and_does_nothing_twice
test_judge_store.py::test_kill_9_loses_nothing_and_tears_nothing
test_judge_shared.py::test_several_judges_on_one_store_and_inbox_make_what_one_judge_makes
test_no_data_loss.py::test_two_moves_at_once_on_one_file_both_keep_their_update
test_no_data_loss.py::test_no_command_writes_its_output_over_the_game_it_reads
test_no_data_loss.py::test_an_existing_game_file_is_replaced_only_with_force
test_no_data_loss.py::test_a_locked_game_waits_then_refuses_with_a_clear_message
test_readme.py::test_walkthrough_runs_as_written
test_readme.py::test_judge_walkthrough_runs_as_written
test_cli.py::test_export_rebuilds_a_lost_move_file
test_cli.py::test_illegal_and_malformed_commands
test_cli.py::test_undo_takes_back_only_what_no_move_file_has_carried
test_cli.py::test_replay_steps_and_jumps

# Fuzzing, and the memory bounds measured on whole games
test_fuzz_readers.py::test_every_command_refuses_or_accepts_a_mutated_file
test_fuzz_readers.py::test_every_reader_refuses_or_accepts_a_mutated_file
test_fuzz_readers.py::test_the_replay_page_of_a_mutated_file_stays_within_the_memory_bound
test_fuzz_peer.py::test_fuzzed_crossing_shares_never_crash_a_merge
test_fuzz_judge_mail.py::test_fuzzed_request_mails_are_answered_once_or_refused_and_change_nothing
test_fuzz_peer.py::test_fuzzed_letters_never_crash_and_never_leave_a_value_sealed
test_judge_input.py::test_large_mails_are_read_one_at_a_time_and_refused_unread
test_hardening_files.py::test_memory_bound_holds_for_a_real_game
test_hardening_files.py::test_what_a_game_keeps_stays_within_a_multiple_of_the_file_size

# Every picture and page of whole games; Chromium stepping through the replay page
test_replay_html.py::test_the_page_holds_no_value_the_viewer_never_saw[epic-duels-*]
test_replay_html.py::test_the_page_is_well_formed_and_needs_nothing_else[epic-duels-*]
test_replay_html.py::test_the_page_is_well_formed_and_needs_nothing_else[jedi-duel-3p-*]
test_replay_html.py::test_the_page_holds_no_value_the_viewer_never_saw[jedi-duel-3p-*]
test_replay_html.py::test_every_record_is_in_the_move_list_with_what_it_settled[epic-duels-*]
test_duel_of_the_forces_svg.py::test_every_edition_and_revision_draws[parlett-*]
test_jedi_duel_svg.py::test_the_viewer_sees_their_own_hand_and_nothing_hidden
test_browser.py::test_an_epic_duel_seen_by_a_spectator_draws_every_step
test_browser.py::test_stepping_through_a_jedi_duel_as_a_player
test_browser.py::test_without_javascript_the_first_position_and_every_move_are_shown
test_browser.py::test_no_spoilers_until_the_end_or_until_asked
test_browser.py::test_the_largest_sample_page_is_small_and_each_step_takes_under_a_second
"""


def _slow_patterns() -> list[tuple[str, re.Pattern]]:
    """Each line of SLOW: the file it names, and the ids it matches (a function's cases too)."""
    patterns = []
    for line in SLOW.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            exact = re.escape(line).replace(r"\*", ".*")
            cases = "" if "[" in line else r"(\[.*\])?"
            patterns.append((line, re.compile(f"{exact}{cases}")))
    return patterns


@pytest.hookimpl(tryfirst=True)  # (before -m chooses by the marks)
def pytest_collection_modifyitems(config, items) -> None:
    """Mark the tests SLOW names; warn of a line that names nothing in a file that was
    collected whole (a test renamed or gone: the line is to be changed with it)."""
    patterns = _slow_patterns()
    given = [Path(arg).resolve() for arg in config.args if "::" not in arg]
    used: set[str] = set()
    whole = set()  # the files collected whole (named, or in a folder named)
    for item in items:
        name = item.nodeid.removeprefix("tests/")
        if any(item.path.is_relative_to(path) for path in given):
            whole.add(name.split("::", 1)[0])
        for line, pattern in patterns:
            if pattern.fullmatch(name):
                item.add_marker(pytest.mark.slow)
                used.add(line)
    for line, _ in patterns:
        if line not in used and line.split("::", 1)[0] in whole:
            warnings.warn(
                pytest.PytestWarning(f"tests/conftest.py, SLOW: {line!r} names no test"),
                stacklevel=1,
            )
