"""Sealed choices by mail without deadlock: commitments (and reveals) of one round commute.

Players who commit on the same base and mail each other at once get copies that merge the other's
file into one canonical log; any order of delivery gives every copy the same log.  Forks that
really conflict stay refused, with the way to recover.
"""

from __future__ import annotations

import random

import pytest

import boardstate as bs
from boardstate.testing import CREATED

DOTF = bs.installed_modules()["duel-of-the-forces"]
RPS = bs.installed_modules()["rock-paper-scissors"]


class Player:
    """One player's copy of the game, and the move files it has written."""

    def __init__(self, data: bytes, seat: int) -> None:
        self.game = bs.load_game(bs.parse_raw(data, "copy"))
        self.seat = seat

    def move(self, text: str) -> bytes:
        base = self.game.seq - 1
        self.game.play(self.seat, text)
        return bs.encode_moves(self.game, base)

    def apply(self, data: bytes) -> bytes | None:
        """Apply a move file; the reply (this copy's reveals now due), if any."""
        bs.referee_moves(self.game, bs.parse_raw(data, "mail"))
        base = self.game.seq - 1
        if self.game.reveal_held():
            return bs.encode_moves(self.game, base)
        return None


def copies(module, names, bids, seed=b"merge"):
    game = bs.Game.new(module, list(names), {}, seed=seed, created=CREATED)
    data = bs.encode_game(game)
    return [Player(data, seat) for seat in range(len(names))], bids


def play_round(players, bids, order: random.Random):
    """Everyone bids on the same base and mails everyone; mail arrives in a random order (a
    file that arrives before the one it follows waits, as a player would apply it later)."""
    mail = []  # (to, from, data)
    for p, bid in zip(players, bids):
        out = p.move(bid)
        mail.extend((q, p, out) for q in players if q is not p)
    steps = 0
    while mail:
        steps += 1
        assert steps < 500, "the round does not settle"
        i = order.randrange(len(mail))
        to, sender, data = mail.pop(i)
        try:
            reply = to.apply(data)
        except bs.MoveRefused as exc:
            if exc.code == "gap":  # (a later file first: keep it for later)
                mail.append((to, sender, data))
                continue
            if exc.code == "stale":
                continue
            raise
        if reply is not None:
            mail.extend((q, to, reply) for q in players if q is not to)


@pytest.mark.parametrize("seed", range(25))
def test_any_order_of_mail_gives_every_copy_the_same_log(seed):
    order = random.Random(seed)
    n = 2 + seed % 3  # 2, 3 or 4 players
    names = ["ann", "ben", "cat", "dan"][:n]
    bids = ["play luke 5", "play han 3", "play leia 7", "play yoda 2"][:n]
    players, bids = copies(DOTF, names, bids, seed=b"m%d" % seed)
    play_round(players, bids, order)
    logs = {tuple(r.hash for r in p.game.records) for p in players}
    assert len(logs) == 1
    game = players[0].game
    kinds = [r.kind for r in game.records[1:]]
    assert kinds == [bs.Kind.COMMIT] * n + [bs.Kind.REVEAL] * n  # every bid in, and resolved
    assert game.records[-1].events  # the last reveal resolved the round
    assert bs.verify(bs.parse_raw(bs.encode_game(game), "merged")).ok


def test_the_merged_order_is_canonical_commits_in_seat_order():
    players, bids = copies(RPS, ["ann", "ben"], ["rock", "paper"])
    a = players[0].move("rock")
    b = players[1].move("paper")
    players[0].apply(b)
    players[1].apply(a)
    for p in players:
        kinds = [(r.kind, r.actor) for r in p.game.records[1:3]]
        assert kinds == [(bs.Kind.COMMIT, 0), (bs.Kind.COMMIT, 1)]


def test_a_move_file_applied_twice_after_a_merge_is_stale():
    players, _ = copies(RPS, ["ann", "ben"], [])
    players[0].move("rock")
    b = players[1].move("paper")
    players[0].apply(b)
    with pytest.raises(bs.MoveRefused) as info:
        players[0].apply(b)
    assert info.value.code in ("stale", "fork")


def test_two_different_choices_of_one_seat_stay_refused_and_say_how_to_recover():
    game = bs.Game.new(RPS, ["ann", "ben"], {}, seed=b"x", created=CREATED)
    data = bs.encode_game(game)
    first, second = Player(data, 0), Player(data, 0)  # two copies of ann's: two choices
    first.move("rock")
    other = second.move("paper")
    with pytest.raises(bs.MoveRefused) as info:
        first.apply(other)
    why = str(info.value)
    assert info.value.code == "fork" and "two different sealed choices" in why
    assert "boardstate export" in why
    assert first.game.seq == 2  # (nothing was changed)


def test_open_moves_that_fork_stay_refused():
    game = bs.Game.new(RPS, ["ann", "ben"], {"mode": "face-down"}, seed=b"x", created=CREATED)
    data = bs.encode_game(game)
    first, second = Player(data, 0), Player(data, 0)
    first.move("rock")
    other = second.move("paper")
    with pytest.raises(bs.MoveRefused) as info:
        first.apply(other)
    assert info.value.code == "fork"
