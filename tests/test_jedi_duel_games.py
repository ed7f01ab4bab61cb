"""Jedi Duel through the engine: whole random games recorded, saved, verified and viewed.

The shared conformance suite runs every module; these tests hold Jedi Duel to the same bars on
its own, with its own seeds, so a failure points here first.
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest

import boardstate as bs
from boardstate import Reveal, Secret
from boardstate.modules.jedi_duel import MODULE, SPEC
from boardstate.modules.jedi_duel._state import SHOW, Awaiting, HandSeen
from boardstate.testing import ContractBroken, check_hidden_information, sealed_values, validate

RULES = MODULE.rules
# The module as it was before rules revision 2: what made the sample games kept in
# tests/fixtures/jedi-duel-revision-1/ (the samples in replays/ are made under the newest).
REVISION_1 = bs.Module(attrs.evolve(SPEC, revision=1), MODULE.rules)


def play_random(players, seed: int, options=None, limit: int = 5000, module=MODULE) -> bs.Game:
    game = bs.Game.new(module, players, dict(options or {}), seed=b"jedi-%d" % seed)
    pick = random.Random(seed)
    for _ in range(limit):
        if game.outcome() is not None:
            return game
        (seat,) = game.to_act()
        game.play(seat, pick.choice(game.legal(seat)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("module", [MODULE, REVISION_1], ids=["newest", "revision-1"])
@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (2, 6), (6, 7)])
def test_a_random_game_saves_loads_and_verifies(tmp_path, n, seed, module):
    game = play_random([f"p{i}" for i in range(n)], seed, module=module)
    path = tmp_path / "g.msgpack"
    bs.save_game(game, path)
    assert bs.load_game(path).state == game.state
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert verdict.rederived == len(game.records)
    assert verdict.outcome == game.outcome()


@pytest.mark.parametrize("n,seed", [(2, 11), (4, 12), (6, 13)])
def test_a_view_file_holds_no_opening_of_another_players_card(tmp_path, n, seed):
    game = play_random([f"p{i}" for i in range(n)], seed)
    revealed = {
        r.commitment for rec in game.records for r in sealed_values(rec) if isinstance(r, Reveal)
    }
    for viewer in range(n):
        path = tmp_path / f"view{viewer}.msgpack"
        bs.save_game(game, path, viewer=viewer)
        data = path.read_bytes()
        hidden = [
            s
            for rec in game.records
            for s in sealed_values(rec)
            if isinstance(s, Secret) and not s.owned_by(viewer) and s.commitment not in revealed
        ]
        assert hidden
        for secret in hidden:
            assert secret.salt not in data
        view = bs.load_game(path)
        # A copy without the seed and the others' cards still checks what it can, and accepts.
        verdict = bs.verify(path)
        assert verdict.ok, verdict.failure
        assert 0 < verdict.rederived < len(game.records)
        # The view folds to the player's knowledge: what the engine's view of the full state says.
        assert view.state == RULES.view(game.state, viewer)


@pytest.mark.parametrize("seed", range(8))
def test_legal_and_validate_agree_both_ways(seed):
    """Every listed command is accepted and round-trips its notation; near misses are refused."""
    game = bs.Game.new(MODULE, ["ann", "ben", "cy", "dee"], {}, seed=b"agree-%d" % seed)
    pick = random.Random(seed)
    steps = 0
    while game.outcome() is None and steps < 400:
        state = game.state
        (seat,) = game.to_act()
        listed = RULES.legal(state, seat)
        assert listed and len(set(listed)) == len(listed)
        for command in listed:
            validate(MODULE, state, seat, command)
            text = RULES.notation(state, seat, command)
            assert RULES.parse(state, seat, text) == command, text
        for other in (s for s in range(4) if s != seat):
            assert RULES.legal(state, other) == []
        for command in _near_misses(state, seat):
            if command not in listed:
                with pytest.raises(bs.IllegalCommand):
                    validate(MODULE, state, seat, command)
        game.play(seat, RULES.notation(state, seat, pick.choice(listed)))
        steps += 1


def _near_misses(state, seat):
    """Commands shaped like legal ones with every card of the deck and every seat."""
    for card in range(54):
        for area in (-1, 0, 1, 2):
            yield ("stance", card, area)
            for target in range(4):
                yield ("attack", target, card, area)
        for verb in ("heal", "push", "discard", "defend"):
            yield (verb, card)
        for target in range(4):
            yield ("sense", target, card)
        yield ("force-defend", card, -1)
        yield ("force-defend", card, (card + 1) % 54)
    for i in range(-1, 7):
        yield ("return", i)
        for j in range(-1, 7):
            yield ("swap", i, j)
    yield ("take",)
    yield ("keep",)
    yield ("show",)
    yield ("lightning", (52, 53))
    yield ("lightning", (10, 11, 12, 23))


@pytest.mark.parametrize("options", [{"fumble-stance": "area"}, {"queen-vs-lightning": "no"}])
def test_the_options_play_to_the_end(options):
    for seed in range(5):
        _state, outcome, actions = bs.random_playout(
            MODULE, ["a", "b", "c", "d", "e"], options, seed=b"opt-%d" % seed, bot_seed=seed
        )
        assert outcome.winners and actions > 0


def test_many_fast_games_end_under_both_conditions():
    reasons = set()
    for seed in range(300):
        n = 2 + seed % 5
        state, outcome, _ = bs.random_playout(
            MODULE, [f"p{i}" for i in range(n)], seed=b"end-%d" % seed, bot_seed=seed
        )
        alive = [f for f in state.fatigue if f > 0]
        if len(alive) == 1:
            reasons.add("survivor")
            assert outcome.winners == (state.fatigue.index(alive[0]),)
        else:
            reasons.add("deck")
            assert state.passes == n
            assert outcome.winners == tuple(
                i for i, f in enumerate(state.fatigue) if f == max(state.fatigue)
            )
    assert reasons == {"survivor", "deck"}


def test_verify_rejects_a_tampered_record(tmp_path):
    game = play_random(["ann", "ben"], 21, limit=5000)
    path = tmp_path / "g.msgpack"
    bs.save_game(game, path)
    data = bytearray(path.read_bytes())
    # Change one byte in the middle of the log: the chain or a re-derivation must fail.
    data[len(data) // 2] ^= 0x01
    tampered = tmp_path / "t.msgpack"
    tampered.write_bytes(bytes(data))
    try:
        verdict = bs.verify(tampered)
    except bs.GameFileError:
        return
    assert not verdict.ok


SAMPLES = Path(__file__).resolve().parent.parent / "replays"
REVISION_1_SAMPLES = Path(__file__).resolve().parent / "fixtures" / "jedi-duel-revision-1"


# ------------------------------------------------------------------ rules revisions
def test_new_games_are_played_under_revision_2():
    game = bs.Game.new(MODULE, ["ann", "ben"], {}, seed=b"rev")
    assert SPEC.revision == 2 and game.header.revision == 2 and game.state.revision == 2
    assert len(SPEC.changes_since(1)) == 3


def test_revision_2_keeps_the_hidden_information_contract():
    """Every decision comes out the same on the deciding player's own copy of the game."""
    assert check_hidden_information(MODULE, range(20)) > 1000


def test_revision_1_reads_other_players_cards_so_it_is_only_for_the_open_mode():
    with pytest.raises(ContractBroken, match="secret"):
        check_hidden_information(REVISION_1, range(1))


def test_in_revision_2_the_sensed_player_answers_with_their_own_record():
    seen = 0
    for seed in range(40):
        game = play_random(["ann", "ben", "cy"], seed)
        for before, rec in zip(game.records, game.records[1:]):
            if rec.command == "show":
                assert any(isinstance(e, Awaiting) and e.phase == SHOW for e in before.events)
                (look,) = [e for e in rec.events if isinstance(e, HandSeen)]
                assert look.target == rec.actor and look.seat != rec.actor
                seen += 1
    assert seen


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_revision_1_game_still_plays_as_before(players):
    """The sample games' commands, given again to a new revision-1 game with the same seed,
    make the very same records (the header now lists one more event type, so the game id and
    the chain differ; every record's body is the same)."""
    sample = bs.load_game(REVISION_1_SAMPLES / f"jedi-duel-{players}p.msgpack")
    assert sample.header.revision == 1
    header = sample.header
    game = bs.Game.new(REVISION_1, header.players, {}, seed=header.seed, created=header.created)
    assert dict(header.options) == dict(game.header.options)
    assert game.records[0].body == sample.records[0].body
    for rec in sample.records[1:]:
        (made,) = game.play(rec.actor, rec.command)
        assert made.body == rec.body, rec.seq
    assert game.outcome() == sample.outcome()


def test_an_unfinished_revision_1_game_goes_on_under_revision_1(tmp_path):
    """A file written before revision 2 lacks the new event type in its header: it verifies and
    takes new moves as it is (revision 1 never emits that event), and a migrated copy stays
    under the rules it was created with."""
    before = bs.Module(
        attrs.evolve(SPEC, revision=1, version="1.0", events=SPEC.events[:-1]), MODULE.rules
    )
    game = bs.Game.new(before, ["ann", "ben"], {}, seed=b"unfinished")
    for _ in range(6):
        (seat,) = game.to_act()
        game.play(seat, game.legal(seat)[0])
    path = tmp_path / "old.msgpack"
    bs.save_game(game, path)
    assert bs.verify(path).ok
    loaded = bs.load_game(path)
    (seat,) = loaded.to_act()
    migrated = bs.migrate(loaded)
    loaded.play(seat, loaded.legal(seat)[0])
    assert loaded.header.revision == 1 and bs.verify(bs.parse_raw(bs.encode_game(loaded))).ok
    assert migrated.header.revision == 1 and migrated.state.revision == 1
    migrated.play(seat, migrated.legal(seat)[0])


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("folder", [SAMPLES, REVISION_1_SAMPLES], ids=["newest", "revision-1"])
def test_the_sample_games_verify_to_their_end(players, folder):
    path = folder / f"jedi-duel-{players}p.msgpack"
    if folder == SAMPLES:
        assert bs.load_game(path).header.revision == SPEC.revision
    verdict = bs.verify(path)
    assert verdict.ok, verdict.failure
    assert len(verdict.game.players) == players and verdict.outcome is not None
    assert verdict.rederived == verdict.records
