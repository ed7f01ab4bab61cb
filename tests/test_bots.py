"""The bots (``boardstate.bots``): they play from their seat's view alone, legally, the same
way from the same seed; ``play --bot NAME:LEVEL``, ``move --bot LEVEL`` and ``hint``.

Small fixed budgets (iterations, no clock) keep these fast and repeatable; how well the levels
play is measured by bench/bench_bots.py (docs/bots.md), never timed here.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.bots import LEVELS, Bot, Search, Sim, policy_for
from boardstate.cli import cli
from boardstate.rules import determinize
from boardstate.testing import random_game


def other_hidden_cards(module, state, seat: int, k: int = 0):
    """A whole table ``seat`` cannot tell from ``state``: the same view, the others' hidden
    cards dealt anew."""
    view = module.rules.view(state, seat)
    return determinize(module, view, seat, random.Random(1000 + k)).state


@pytest.mark.parametrize(
    "game_id, stop, level",
    [
        ("jedi-duel", 9, "normal"),
        ("epic-duels", 40, "normal"),
        ("jedi-duel", 31, "normal"),
        ("jedi-duel", 31, "strong"),  # (its informed rollouts)
    ],
)
def test_the_same_seed_makes_the_same_move_whatever_the_others_hold(game_id, stop, level):
    module = bs.get_module(game_id)
    game = random_game(module, 5, 2, stop_after=stop)
    (seat,) = game.to_act()
    real = game.state
    other = other_hidden_cards(module, real, seat)
    assert other != real and module.rules.view(other, seat) == module.rules.view(real, seat)
    bot = Bot(level, seed=3, iterations=40, seconds=None)
    chosen = bot.command(module, real, seat, 2, game.seq)
    assert bot.command(module, other, seat, 2, game.seq) == chosen
    assert chosen in module.rules.legal(real, seat)


def test_a_sealed_bid_is_chosen_blind_and_hinted_with_chances():
    module = bs.get_module("duel-of-the-forces")
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"bots")
    game.play(1, "play han 8")  # ben has bid: ann's bot cannot know what
    bot = Bot("easy", seed=1)
    assert bot.choose(game, 0) in game.legal(0)
    hints = Bot("normal", seed=1, iterations=200, seconds=None).hints(game, 0, top=3)
    assert len(hints) == 3 and all(h.command in game.legal(0) for h in hints)
    assert all(0.0 <= h.chance <= 1.0 for h in hints) and hints[0].visits >= hints[1].visits


def test_a_bot_defends_against_an_attack_card_it_cannot_see():
    module = bs.get_module("epic-duels")

    class Stopped(Exception):
        pass

    def look(game):
        if game.face_down:
            raise Stopped(game)

    try:
        random_game(module, 0, 2, check_each=look)
    except Stopped as stop:
        game = stop.args[0]
    (seat,) = game.to_act()
    assert seat not in game.face_down
    assert Bot("normal", 2, iterations=30, seconds=None).choose(game, seat) in game.legal(seat)


def test_bots_play_a_whole_game_that_verifies(tmp_path):
    module = bs.get_module("jedi-duel")
    game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"two bots")
    bots = [Bot("easy", 1, iterations=8), Bot("random", 2)]
    while game.outcome() is None:
        seat = game.to_act()[0]
        game.play(seat, bots[seat].choose(game, seat))
    bs.save_game(game, tmp_path / "g.msgpack")
    assert bs.verify(tmp_path / "g.msgpack").ok


def test_the_search_keeps_statistics_per_seat_and_a_budget():
    module = bs.get_module("jedi-duel")
    game = random_game(module, 2, 2, stop_after=12)
    (seat,) = game.to_act()
    view = module.rules.view(game.state, seat)
    search = Search(module, policy_for(module), 2, seed=4).run(view, seat, iterations=50)
    assert search.iterations == 50 and search.root.n == 50
    assert sum(n for _, n, _ in search.stats(seat)) == 50
    with pytest.raises(ValueError):
        search.run(view, seat)


def test_informed_rollouts_outplay_uniform_ones_in_jedi_duel():
    """The strong level's Jedi Duel rollouts (``policy_for(..., informed=True)``) against the
    normal level's uniform ones, played to the end from dealt tables: the informed seat wins
    most (it takes the damaging attacks and the saving defences), and a rollout stays a
    legal game."""
    module = bs.get_module("jedi-duel")
    informed, uniform = policy_for(module, informed=True), policy_for(module)
    assert type(informed) is not type(uniform) and informed.depth == uniform.depth
    assert type(policy_for(bs.get_module("duel-of-the-forces"), informed=True)) is type(
        policy_for(bs.get_module("duel-of-the-forces"))
    )  # (a game without informed rollouts keeps its own)
    sim, rng, won = Sim(module, b"informed"), random.Random(7), 0.0
    for g in range(40):
        game = bs.Game.new(module, ["ann", "ben"], {}, seed=b"informed-%d" % g)
        state, mine = game.state, g % 2
        while (result := sim.outcome(state)) is None:
            (seat,) = sim.to_act(state)
            policy = informed if seat == mine else uniform
            state = sim.step(
                state, ((seat, policy.pick(state, seat, sim.legal(state, seat), rng)),)
            )
        won += mine in result.winners and 1 / len(result.winners)
    assert won >= 28, won  # (uniform against uniform: half)


def test_the_levels():
    assert list(LEVELS) == ["random", "easy", "normal", "strong"]
    assert tuple(LEVELS) == bs.BOT_LEVELS  # (the names a judge's deadline header may give)
    assert LEVELS["normal"].seconds <= 1.0
    assert LEVELS["strong"].informed and not LEVELS["normal"].informed
    with pytest.raises(bs.InvalidCommand, match="no bot level 'hard'"):
        Bot("hard")


# ---------------------------------------------------------------------------------- the CLI
def run(tmp_path, *args):
    """A command in ``tmp_path`` (its files named there)."""
    return CliRunner().invoke(
        cli, [str(tmp_path / a) if a.endswith(".msgpack") else a for a in args]
    )


TWO = ("--player", "ann", "--player", "ben")


def test_play_with_bots_at_every_seat_to_the_end(tmp_path):
    bots = ("--bot", "ann:easy", "--bot", "ben", "--seed", "s", "-o", "g.msgpack")
    result = run(tmp_path, "play", "duel-of-the-forces", *TWO, *bots)
    assert result.exit_code == 0, result.output
    assert bs.verify(tmp_path / "g.msgpack").ok
    refused = run(tmp_path, "play", "duel-of-the-forces", *TWO, "--bot", "ann:hard")
    assert refused.exit_code == 2 and "no bot level 'hard'" in refused.output


def test_move_lets_a_bot_choose_and_hint_advises(tmp_path):
    made = run(
        tmp_path, "new", "jedi-duel", "--player", "ann", "--player", "ben", "-o", "game.msgpack"
    )
    assert made.exit_code == 0, made.output
    game = bs.load_game(tmp_path / "game.msgpack")
    first = game.players[game.to_act()[0]]
    hint = run(tmp_path, "hint", "game.msgpack", "--as", first, "--level", "easy", "--top", "2")
    assert hint.exit_code == 0, hint.output
    lines = hint.output.splitlines()
    assert len(lines) == 2 and all("% to win" in line for line in lines)
    moved = run(tmp_path, "move", "game.msgpack", "--as", first, "--bot", "easy")
    assert moved.exit_code == 0, moved.output
    assert f"{first} (easy bot): " in moved.output
    assert bs.load_game(tmp_path / "game.msgpack").seq == game.seq + 1
    both = run(tmp_path, "move", "game.msgpack", "--as", first, "take", "--bot", "easy")
    assert both.exit_code == 2 and "not both" in both.output
