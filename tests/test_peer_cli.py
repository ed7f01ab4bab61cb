"""Peer-mode games by mail through the command line, to the end, then the audit (issue 13).

Every step a player takes is a ``boardstate`` command (in process, through click): make a key,
create or join, apply what came in the mail (which deals and reveals what is due and writes
the reply), and move.  Only the choice of a random legal command reads the copy directly.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import boardstate as bs
from boardstate.cli import cli

PLAYERS = ("alice", "bob")


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


class Post:
    """Each player's copy and inbox; what a command writes goes to the others' inboxes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.inbox = {p: [] for p in PLAYERS}
        self.count = 0
        self.mails = 0

    def copy(self, player: str) -> Path:
        return self.folder / f"{player}.msgpack"

    def outgoing(self, player: str) -> Path:
        self.count += 1
        return self.folder / f"mail-{self.count:05d}-{player}.msgpack"

    def send(self, player: str, path: Path) -> None:
        if path.exists():
            self.mails += 1
            for other in PLAYERS:
                if other != player:
                    self.inbox[other].append(path)

    def deliver(self, player: str) -> bool:
        """Apply the oldest mail in ``player``'s inbox; mail back what the copy added."""
        if not self.inbox[player]:
            return False
        mail = self.inbox[player].pop(0)
        reply = self.outgoing(player)
        rc, out = run("apply", self.copy(player), mail, "-o", reply)
        assert rc == 0 or "stale" in out, out
        self.send(player, reply)
        return True


def _play_by_mail(tmp_path, monkeypatch, module: str, options=(), *, seed: int = 1):
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    for p in PLAYERS:
        assert run("key", "new", p)[0] == 0
    post = Post(tmp_path)
    extra = [a for o in options for a in ("--option", o)]
    rc, out = run(
        "new",
        module,
        "--player",
        "alice",
        "--player",
        "bob",
        *extra,
        "--as",
        "alice",
        "-o",
        post.copy("alice"),
    )
    assert rc == 0, out
    invite = tmp_path / "alice-invite.msgpack"
    reply = post.outgoing("bob")
    rc, out = run("join", invite, "--as", "bob", "-o", post.copy("bob"), "--reply", reply)
    assert rc == 0, out
    post.send("bob", reply)
    rng = random.Random(seed)
    for _ in range(20000):
        if any(post.deliver(p) for p in PLAYERS):
            continue
        copies = {p: bs.load_game(post.copy(p)) for p in PLAYERS}
        game = copies["alice"]
        assert len({c.head_hash for c in copies.values()}) == 1  # (all mail delivered)
        if game.outcome() is not None:
            return post, game
        assert not game.due(), game.waiting_text()
        seat = game.to_act()[0]
        player = PLAYERS[seat]
        mine = copies[player]
        command = rng.choice(mine.legal(seat))
        out_file = post.outgoing(player)
        rc, out = run("move", post.copy(player), "--as", player, command, "-o", out_file)
        assert rc == 0, out
        post.send(player, out_file)
    raise AssertionError("the game did not end")


def _audit(post: Post, game) -> None:
    for p in PLAYERS:
        rc, out = run("verify", post.copy(p))
        assert rc == 0 and out.startswith("ok: "), out
        # a referee holding only the file names who signed: every player, by key
        assert "every record after the setup is signed by its player: alice (key " in out
        assert ", bob (key " in out
    rc, out = run("verify", post.copy("alice"), "--with", post.copy("bob"))
    assert rc == 0 and out.startswith(f"audit ok: {game.seq} records"), out
    assert "0 checked in part" in out


@pytest.mark.parametrize("edition", ["ravensburger-2015", "parlett-original"])
def test_duel_of_the_forces_by_mail_in_the_peer_mode(tmp_path, monkeypatch, edition):
    post, game = _play_by_mail(tmp_path, monkeypatch, "duel-of-the-forces", [f"edition={edition}"])
    assert game.header.peer and game.header.seed is None
    _audit(post, game)
    # the move files held no opening and no private secret: nobody's card before its time
    for mail in tmp_path.glob("mail-*.msgpack"):
        raw = bs.read_raw(mail)
        assert raw.header.peer_secret is None
        assert all(not item[2] for item in raw.records)


def test_epic_duels_by_mail_in_the_peer_mode(tmp_path, monkeypatch):
    post, game = _play_by_mail(tmp_path, monkeypatch, "epic-duels", seed=2)
    _audit(post, game)
    bob = bs.load_game(post.copy("bob"))
    alice = bs.load_game(post.copy("alice"))
    hidden = [c for c in bob.records if c.kind == bs.Kind.DEAL and c.sealed[0] == "arrange"]
    assert hidden, "the piles were arranged by their owners"
    assert alice.head_hash == bob.head_hash
