"""Jedi Duel by mail in the shared-deck mode, through the command line, to the end, then the
audit (issue 31).  Every step a player takes is a ``boardstate`` command (in process, through
click): make a key, create or join, apply what came in the mail (which deals what is due and
writes the reply), and move; only the choice of a random legal command reads the copy."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from shared_deck_table import fast_proofs

import boardstate as bs
from boardstate.cli import cli

NAMES = ("ann", "ben", "cat")


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


class Post:
    """Each player's copy and inbox; what a command writes goes to every other inbox."""

    def __init__(self, folder: Path, players) -> None:
        self.folder = folder
        self.players = players
        self.inbox = {p: [] for p in players}
        self.count = 0
        self.mails = 0  # mails sent (one file to every other player)
        self.senders: list[str] = []  # who sent each
        self.sizes: list[int] = []

    def copy(self, player: str) -> Path:
        return self.folder / f"{player}.msgpack"

    def outgoing(self, player: str) -> Path:
        self.count += 1
        return self.folder / f"mail-{self.count:05d}-{player}.msgpack"

    def send(self, player: str, path: Path) -> None:
        if path.exists():
            self.mails += 1
            self.senders.append(player)
            self.sizes.append(path.stat().st_size)
            for other in self.players:
                if other != player:
                    self.inbox[other].append(path)

    def letters(self) -> int:
        """The mails a player sends by hand: files written one after another by one player,
        before anyone else answers, go in one mail (a reply of deals and the move after it)."""
        runs = [p for i, p in enumerate(self.senders) if i == 0 or self.senders[i - 1] != p]
        return len(runs)

    def deliver(self, player: str) -> bool:
        if not self.inbox[player]:
            return False
        mail = self.inbox[player].pop(0)
        reply = self.outgoing(player)
        rc, out = run("apply", self.copy(player), mail, "-o", reply)
        assert rc == 0 or "stale" in out, out
        self.send(player, reply)
        return True


def choose(rng: random.Random, legal: list[str]) -> str:
    """Mostly attacks (a game of a few dozen turns: every command is a program run that reads
    the whole copy again), sometimes anything legal (Force powers, discards, the low stance)."""
    if rng.random() < 0.75:
        for word in ("attack", "lightning", "take", "stance"):
            picks = [c for c in legal if c.startswith(word)]
            if picks:
                return rng.choice(picks)
    return rng.choice(legal)


def play_by_mail(tmp_path, monkeypatch, n: int, *, seed: int = 1):
    """A game of ``n`` players to the end; ``(post, the first copy, mails at set-up)``."""
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    players = NAMES[:n]
    for p in players:
        assert run("key", "new", p)[0] == 0
    post = Post(tmp_path, players)
    opts = [a for p in players for a in ("--player", p)]
    rc, out = run(
        "new", "jedi-duel", *opts, "--trust", "shared-deck", "--as", "ann", "-o", post.copy("ann")
    )
    assert rc == 0, out
    post.mails = 1  # (the invitation)
    invite = tmp_path / "ann-invite.msgpack"
    for p in players[1:]:
        reply = post.outgoing(p)
        rc, out = run("join", invite, "--as", p, "-o", post.copy(p), "--reply", reply)
        assert rc == 0, out
        post.send(p, reply)
    rng = random.Random(seed)
    setup = None
    for _ in range(20000):
        if any(post.deliver(p) for p in players):
            continue
        copies = {p: bs.load_game(post.copy(p)) for p in players}
        game = copies["ann"]
        assert len({c.head_hash for c in copies.values()}) == 1  # (all mail delivered)
        if setup is None:
            setup = post.mails
        if game.outcome() is not None:
            return post, game, setup
        assert not game.due(), game.waiting_text()
        seat = game.to_act()[0]
        player = players[seat]
        command = choose(rng, copies[player].legal(seat))
        out_file = post.outgoing(player)
        rc, out = run("move", post.copy(player), "--as", player, command, "-o", out_file)
        assert rc == 0, out
        post.send(player, out_file)
    raise AssertionError("the game did not end")


def audit(post: Post, game) -> None:
    players = post.players
    for p in players:
        rc, out = run("verify", post.copy(p))
        assert rc == 0 and out.startswith("ok: "), out
    others = [a for p in players[1:] for a in ("--with", post.copy(p))]
    rc, out = run("verify", post.copy(players[0]), *others)
    assert rc == 0 and out.startswith(f"audit ok: {game.seq} records"), out
    assert ", 0 checked in part" in out, out  # (every copy given: every record re-derived)


@pytest.mark.parametrize("players", [2, 3])
def test_jedi_duel_by_mail_in_the_shared_deck_mode_to_the_end_and_the_audit(
    tmp_path, monkeypatch, players
):
    fast_proofs(monkeypatch)  # (the protocol's plumbing: 8 rounds; the next test, 80)
    post, game, _setup = play_by_mail(tmp_path, monkeypatch, players, seed=players)
    audit(post, game)


def test_the_set_up_by_mail_with_the_real_proofs(tmp_path, monkeypatch):
    """80 rounds: the set-up takes at most 5 mails (the peer mode's 3, and 2 more), the two
    shuffles' proofs with their decks are well under 1 MiB, and every copy verifies."""
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    for p in ("ann", "ben"):
        assert run("key", "new", p)[0] == 0
    post = Post(tmp_path, ("ann", "ben"))
    rc, out = run(
        "new",
        "jedi-duel",
        "--player",
        "ann",
        "--player",
        "ben",
        "--trust",
        "shared-deck",
        "--as",
        "ann",
        "-o",
        post.copy("ann"),
    )
    assert rc == 0, out
    reply = post.outgoing("ben")
    rc, out = run(
        "join", "ann-invite.msgpack", "--as", "ben", "-o", post.copy("ben"), "--reply", reply
    )
    assert rc == 0, out
    post.send("ben", reply)
    while any(post.deliver(p) for p in post.players):
        pass
    game = bs.load_game(post.copy("ann"))
    assert not game.due() and game.to_act(), game.waiting_text()
    mails = 1 + post.letters()  # (the invitation, then the replies; the last one, when its
    mails -= post.senders[-1] == game.players[game.to_act()[0]]  # player acts next, goes
    assert mails <= 5, post.senders  # with their first move)
    shuffles = [
        sum(map(len, r.sealed[1])) + sum(map(len, r.sealed[2]))
        for r in game.records
        if r.kind == 5 and r.sealed[0] == "shuffle"
    ]
    assert len(shuffles) == 2 and sum(shuffles) < 1 << 20, shuffles
    for p in post.players:
        rc, out = run("verify", post.copy(p))
        assert rc == 0 and out.startswith("ok: "), out
