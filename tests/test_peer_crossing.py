"""Peer games by mail whose mails cross, through the command line, to the end and the audit.

Issue 24, item 1: when two players' sealed bids cross in the mail, or several players join from
the same invitation, or their shares of the randomness cross, each ``apply`` must merge.  Here
every player acts as soon as their own copy lets them (so mails cross), every mail goes to every
other player, and mail is delivered in a random order (a file that follows records its reader
does not hold yet waits, as a player would apply it later; a file whose records are all held
already is stale).  Every step is a ``boardstate`` command; only the choice of a random legal
command reads a copy directly.  Every game is played to its end, every copy must then hold the
same log, and ``verify --with`` audits it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from peer_draw import MODULE as DRAW

import boardstate as bs
from boardstate import _referee
from boardstate._registry import registered
from boardstate.cli import cli

NAMES = ("alice", "bob", "carol", "dave")


def run(*args) -> tuple[int, str]:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    return result.exit_code, result.output


class Table:
    """The players' copies and a mail bag delivered in a random order."""

    def __init__(self, folder: Path, players, rng: random.Random) -> None:
        self.folder = folder
        self.players = players
        self.rng = rng
        self.bag: list[tuple[str, Path]] = []  # (to, move file)
        self.count = 0
        self.merges = 0  # (counted by ``counting_merges``)
        self.waits = 0
        self._read: dict = {}  # files applied later, once the records they follow were in

    def copy(self, player: str) -> Path:
        return self.folder / f"{player}.msgpack"

    def outgoing(self, player: str) -> Path:
        self.count += 1
        return self.folder / f"mail-{self.count:05d}-{player}.msgpack"

    def send(self, player: str, path: Path) -> None:
        if path.exists():
            self.bag.extend((other, path) for other in self.players if other != player)

    def deliver(self) -> None:
        to, mail = self.bag.pop(self.rng.randrange(len(self.bag)))
        reply = self.outgoing(to)
        rc, out = run("apply", self.copy(to), mail, "-o", reply)
        if rc != 0 and "[gap]" in out:
            self.waits += 1
            self.bag.append((to, mail))  # (later: the records it follows are still in the post)
            return
        assert rc == 0 or "[stale]" in out, out
        self.send(to, reply)

    def game(self, player: str):
        """``player``'s copy as it stands (read again only when a command changed it)."""
        path = self.copy(player)
        stamp = path.stat().st_mtime_ns, path.stat().st_size
        if self._read.get(player, (None,))[0] != stamp:
            self._read[player] = (stamp, bs.load_game(path))
        return self._read[player][1]

    def can_act(self, player: str):
        game = self.game(player)
        seat = self.players.index(player)
        if game.outcome() is not None or game.due() or seat not in game.to_act():
            return None
        legal = game.legal(seat)
        return None if legal in ([], ["reveal"]) else legal

    def act(self, player: str, legal) -> None:
        command = self.rng.choice(legal)
        out_file = self.outgoing(player)
        rc, out = run("move", self.copy(player), "--as", player, command, "-o", out_file)
        assert rc == 0, out
        self.send(player, out_file)


def play(tmp_path, monkeypatch, module: str, n: int, seed: int, options=()) -> Table:
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    rng = random.Random(seed)
    players = NAMES[:n]
    for p in players:
        assert run("key", "new", p)[0] == 0
    table = Table(tmp_path, players, rng)
    real = _referee.merge_sealed

    def counting(*args, **kwargs):  # (the copies parted, and a mail merged them)
        out = real(*args, **kwargs)
        table.merges += 1
        return out

    monkeypatch.setattr(_referee, "merge_sealed", counting)
    creator = players[rng.randrange(n)]  # (any seat creates: the joins still merge in order)
    extra = [a for o in options for a in ("--option", o)]
    seats = [a for p in players for a in ("--player", p)]
    rc, out = run("new", module, *seats, *extra, "--as", creator, "-o", table.copy(creator))
    assert rc == 0, out
    invite = tmp_path / f"{creator}-invite.msgpack"
    for p in players:  # everyone joins from the same invitation, at once
        if p != creator:
            reply = table.outgoing(p)
            rc, out = run("join", invite, "--as", p, "-o", table.copy(p), "--reply", reply)
            assert rc == 0, out
            table.send(p, reply)
    for _ in range(5000):
        ready = {p: legal for p in players if (legal := table.can_act(p))}
        if ready and (not table.bag or rng.random() < 0.3):
            # every player whose copy lets them acts before any mail arrives: mails cross
            for p in rng.sample(sorted(ready), len(ready)):
                table.act(p, ready[p])
            continue
        if table.bag:
            table.deliver()
            continue
        copies = [table.game(p) for p in players]
        heads = {c.head_hash for c in copies}
        assert len(heads) == 1, "every mail delivered, yet the copies differ"
        assert copies[0].outcome() is not None, copies[0].waiting_text() or copies[0].to_act()
        return table
    raise AssertionError("the game did not end")


def audit(table: Table) -> None:
    game = bs.load_game(table.copy(table.players[0]))
    for p in table.players:
        rc, out = run("verify", table.copy(p))
        assert rc == 0 and out.startswith("ok: "), out
    others = [a for p in table.players[1:] for a in ("--with", table.copy(p))]
    rc, out = run("verify", table.copy(table.players[0]), *others)
    assert rc == 0 and out.startswith(f"audit ok: {game.seq} records"), out
    assert "0 checked in part" in out


@pytest.mark.parametrize(("n", "seed"), [(2, 0), (2, 3), (3, 4)])
def test_sealed_bids_cross_in_the_mail_and_merge_to_the_end(tmp_path, monkeypatch, n, seed):
    table = play(tmp_path, monkeypatch, "duel-of-the-forces", n, seed)
    assert table.merges, "no mails crossed"
    audit(table)


@pytest.mark.parametrize(("n", "seed"), [(2, 100), (3, 101)])
def test_private_draws_and_shares_cross_in_the_mail(tmp_path, monkeypatch, n, seed):
    """With three players the shares cross and merge.  With two nothing crosses: one player
    acts at a time, and (protocol 2) the shares of an epoch are kept in the order they are
    dealt, the first dealer's first, so the copy that completes an epoch never puts them in
    another order than the other copy holds (which a merge would have to mend)."""
    with registered(DRAW):
        table = play(tmp_path, monkeypatch, DRAW.spec.id, n, seed)
        if n == 2:
            assert table.merges == 0, "two copies parted"
        else:
            assert table.merges, "no mails crossed"
        audit(table)


def test_crossing_bids_through_the_cli_merge_without_a_key_and_export_applies(
    tmp_path, monkeypatch
):
    """The issue's own steps: two bids on one base mailed at once; each apply merges (the
    signatures stand; the key signs only the reveal that falls due), an exported copy of the
    same records applies, and the mail itself is then stale."""
    monkeypatch.setenv("BOARDSTATE_KEYS", str(tmp_path / "keys"))
    monkeypatch.chdir(tmp_path)
    for p in ("alice", "bob"):
        assert run("key", "new", p)[0] == 0
    steps = [
        ("new", "duel-of-the-forces", "--player", "alice", "--player", "bob", "--as", "alice",
         "-o", "alice.msgpack"),
        ("join", "alice-invite.msgpack", "--as", "bob", "-o", "bob.msgpack", "--reply", "j1"),
        ("apply", "alice.msgpack", "j1", "-o", "j2"),
        ("apply", "bob.msgpack", "j2", "-o", "j3"),
        ("move", "alice.msgpack", "--as", "alice", "play", "luke", "2", "-o", "a1"),
        ("move", "bob.msgpack", "--as", "bob", "play", "han", "3", "-o", "b1"),
    ]  # fmt: skip
    for step in steps:
        rc, out = run(*step)
        assert rc == 0, out
    rc, out = run("export", "bob.msgpack", "--after", "4", "-o", "b1-again")
    assert rc == 0, out
    rc, out = run("apply", "alice.msgpack", "b1-again", "--key", "alice", "-o", "a2")
    assert rc == 0 and "alice reveals: play luke 2" in out, out
    rc, out = run("apply", "alice.msgpack", "b1", "-o", "a2-again")
    assert rc == 1 and "[stale]" in out, out
    rc, out = run("apply", "bob.msgpack", "a1", "-o", "b2")
    assert rc == 0 and "bob reveals: play han 3" in out, out
    rc, out = run("apply", "alice.msgpack", "b2", "-o", "a3")
    assert rc == 0 and "alice reveals: play luke 2" in out, out
    # bob takes what alice mailed: her reveal (a2, written when it fell due), then her reply to
    # b2, if the round asked her for anything (a3: her share of the randomness; a round whose
    # card asks bob first leaves her nothing to send)
    rc, out = run("apply", "bob.msgpack", "a2", "-o", "b3")
    assert rc == 0 and "alice reveals: play luke 2" in out, out
    if (tmp_path / "a3").exists():
        rc, out = run("apply", "bob.msgpack", "a3", "-o", "b4")
        assert rc == 0, out
    a, b = bs.load_game(tmp_path / "alice.msgpack"), bs.load_game(tmp_path / "bob.msgpack")
    assert a.records[-1].hash == b.records[-1].hash or a.due() or b.due()
