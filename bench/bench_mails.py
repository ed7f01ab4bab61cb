#!/usr/bin/env python3
"""Mails per turn by mail (issue 26, item 3: "Fewer round trips in the peer mode").

Whole games played by two scripted players who exchange move files, counted mail by mail, for
Duel of the Forces, Jedi Duel and Epic Duels, in the peer mode (the protocol a new game is made
with, and protocol 1, the one before shares rode on mails sent anyway) and, for comparison, by
mail in the open mode and through a judge (the hosted mode).

A *mail* is one move file sent by one player to the others.  Each player keeps their own copy
and plays the way ``boardstate move`` and ``apply`` do, in process (``take_seat``,
``Game.play``, ``referee_moves``, ``add_owed``, ``encode_moves``): when a mail reaches them they
apply it (their copy adds the reveals and deals it owes), then play every command they can
(the scripted player: ``--script random``, a uniformly random legal command, seeded;
``--script policy``, the bots' rollout policy for the game, where it has one that chooses;
``random-aware`` and ``policy-aware``, the same heeding ``legal``'s word on round trips:
``Game.round_trips``, chosen only when nothing else is legal),
then mail the others one move file holding everything they lack, if the game waits for them.
A player whose copy put records the others hold in another order (the canonical order of
records that commute) mails that reply first, by itself, before they play on: a move file that builds a move on records the receiver
holds in another order is a fork (only a bid made on the setup's joins and deals would merge:
at most one mail a game that protocol 1 is charged for and might be spared).  The creator's
first file (the invitation, or the open game's file) counts as a mail.  Every key, secret,
salt and seed comes from the game's number, so a run plays the same games every time.

Through a judge: each request is a mail to the judge (one command a request), and the judge
mails a player its digest when the game needs them (as ``boardstate judge`` does by default).

A *turn*: a player's turn in Epic Duels and Jedi Duel (``turn-began`` events), a round of bids
in Duel of the Forces (``bids-revealed``).  Setup mails: those sent before the first move.
"Shares alone": mails that hold nothing new but deals (a player's share of the randomness),
sent only because the other player waits for it: what waiting for a share costs.

"Replies held": replies (a copy's own reveals and deals, added on applying a mail) mailed with
the player's next moves instead of alone, as ``apply`` says they may be.

Usage: python bench/bench_mails.py [--games 10] [--seed 1] [--game epic-duels ...]
       [--script random|policy|random-aware|policy-aware ...] [--mode peer|open|hosted ...]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import random
import statistics
import sys
import time

import attrs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import boardstate as bs
from boardstate._header import PEER_PROTOCOLS
from boardstate._hosted import decode_request
from boardstate.bots import Policy, policy_for

NAMES = ("alice", "bob", "carol", "dave")
CREATED = "2026-01-01T00:00:00+00:00"
TURNS = {  # what a turn is, per game: the event that begins (or ends) one
    "duel-of-the-forces": "dotf.bids-revealed",
    "jedi-duel": "jedi.turn-began",
    "epic-duels": "epic.turn-began",
}


def _public(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fixed(tag: str, what: str) -> bytes:
    """32 bytes for one game's ``what`` (a key, a secret, a seed), the same on every run."""
    return hashlib.sha256(f"{tag}:{what}".encode()).digest()


def key(tag: str, who: str) -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(fixed(tag, f"key:{who}"))


@attrs.define
class Played:
    """One game's count."""

    mails: int
    turns: int
    setup: int  # mails sent before the first move
    records: int
    shares: int = 0  # mails that hold nothing new but shares of the randomness (a reply to them)
    held: int = 0  # replies ``apply`` wrote that went in one mail with the player's next moves


# --------------------------------------------------------------------------- the scripts
class RandomScript:
    """A uniformly random legal command: a player who does everything the rules allow as
    often as anything else (draws in the middle of a turn far more than people do)."""

    def __init__(self, rng: random.Random, aware: bool = False) -> None:
        self.rng = rng
        self.aware = aware  # (heeds ``legal``'s word on round trips)

    def commands(self, game: bs.Game, seat: int) -> list[str]:
        """What the player chooses from: every legal command, or, for a player who heeds what
        ``legal`` says, those after which they need not wait for the other's share before they
        go on, whenever there is one (``Game.round_trips``: draw last, not first)."""
        legal = game.legal(seat)
        if not self.aware:
            return legal
        trips = set(game.round_trips(seat))
        return [c for c in legal if c not in trips] or legal

    def __call__(self, game: bs.Game, seat: int) -> str:
        return self.rng.choice(self.commands(game, seat))


class PolicyScript(RandomScript):
    """The bots' rollout policy for the game (``boardstate.bots``; Epic Duels': attack when
    in line, lay the strongest attack card and defend with the strongest defence card, draw
    on a short hand, ...), choosing from the seat's view: a player who plays like people do,
    at a fraction of a millisecond a command (a searching bot costs up to a second)."""

    def __init__(self, rng: random.Random, aware: bool = False) -> None:
        super().__init__(rng, aware)
        self.policies: dict[str, Policy] = {}  # module id -> its policy (it caches moves)

    def __call__(self, game: bs.Game, seat: int) -> str:
        allowed = self.commands(game, seat)
        if len(allowed) == 1:  # (a reveal, a forced answer)
            return allowed[0]
        module = game.module
        policy = self.policies.setdefault(module.spec.id, policy_for(module))
        rules, state = game.rules, game.state
        commands = list(rules.legal(state, seat))
        if len(allowed) < len(commands):  # (heeding ``legal``: the round trips left out)
            allowed = set(allowed)
            commands = [c for c in commands if rules.notation(state, seat, c) in allowed]
        command = policy.pick(game.decider.view(state, seat), seat, commands, self.rng)
        return rules.notation(state, seat, command)


SCRIPTS = {
    "random": RandomScript,
    "policy": PolicyScript,
    "random-aware": functools.partial(RandomScript, aware=True),
    "policy-aware": functools.partial(PolicyScript, aware=True),
}


def scripted(module) -> list[str]:
    """The scripts that play ``module`` differently: the policy only where the game has a
    rollout policy of its own (elsewhere it is the random script)."""
    own = type(policy_for(module)).pick is not Policy.pick
    return [name for name in SCRIPTS if own or not name.startswith("policy")]


# --------------------------------------------------------------------------- players by mail
class Player:
    """A player's copy, their inbox, and what they know each other copy holds (the records
    they mailed it, and those it mailed them)."""

    def __init__(self, seat: int, copy: bs.Game, others, start: list[bytes]) -> None:
        self.seat = seat
        self.copy = copy
        self.inbox: list[tuple[int, bytes]] = []
        self.held = {other: list(start) for other in others}  # other -> their log's hashes

    def hashes(self) -> list[bytes]:
        return [r.hash for r in self.copy.records]

    def common(self, other: int) -> int:
        """How many records of this copy the other holds (in the same order)."""
        mine, theirs = self.copy.records, self.held[other]
        n = 0
        while n < min(len(mine), len(theirs)) and mine[n].hash == theirs[n]:
            n += 1
        return n

    def unsent(self) -> bool:
        """Does this copy hold a record another copy lacks (or holds elsewhere)?"""
        return any(self.common(o) < len(self.copy.records) for o in self.held)

    def reordered(self) -> bool:
        """Does another copy hold a record this copy now holds elsewhere (or not at all)?"""
        return any(self.common(o) < len(theirs) for o, theirs in self.held.items())

    def may_play(self) -> bool:
        game = self.copy
        return (
            game.outcome() is None
            and not game.due()
            and self.seat in game.to_act()
            and not game.reveal_due()
        )


class ByMail:
    """Two or more copies exchanging move files; ``play_out`` counts the mails."""

    def __init__(self, copies: list[bs.Game], pick: random.Random, script: str) -> None:
        n = len(copies)
        start = [r.hash for r in copies[0].records]
        self.players = [
            Player(s, c, [o for o in range(n) if o != s], start) for s, c in enumerate(copies)
        ]
        for copy in copies:  # (as the CLI's copies: each step completed in canonical order)
            copy.keep_in_canonical_order()
        self.pick = pick
        self.choose = SCRIPTS[script](pick)
        self.mails = 1  # the creator's first file to the others
        self.setup = None
        self.shares = 0
        self.held = 0

    @classmethod
    def peer(cls, module, n: int, tag: str, protocol: int, script: str) -> ByMail:
        keys = [key(tag, name) for name in NAMES[:n]]
        first = bs.Game.new(
            module,
            NAMES[:n],
            {},
            None,
            CREATED,
            seed_salt=fixed(tag, "game"),  # (a peer game's name)
            trust="peer",
            seat=0,
            peer_secret=fixed(tag, "secret:alice"),
            protocol=protocol,
        )
        first.signer = keys[0].sign
        first.join(0, _public(keys[0]))
        invite = bs.encode_public(first)
        copies = [first] + [bs.verify(bs.parse_raw(invite, "invitation")).game for _ in range(1, n)]
        table = cls(copies, random.Random(tag), script)
        for seat in range(1, n):  # (everyone joins from the invitation, and mails their join)
            secret = fixed(tag, f"secret:{NAMES[seat]}")
            bs.take_seat(
                copies[seat], NAMES[seat], _public(keys[seat]), keys[seat].sign, secret=secret
            )
            table.send(table.players[seat])
        return table

    @classmethod
    def open(cls, module, n: int, tag: str, script: str) -> ByMail:
        first = bs.Game.new(module, NAMES[:n], {}, fixed(tag, "seed"), CREATED)
        data = bs.encode_game(first)  # (the creator mails the game file: every copy holds it)
        copies = [first] + [bs.load_game(bs.parse_raw(data, "game")) for _ in range(1, n)]
        return cls(copies, random.Random(tag), script)

    def send(self, player: Player) -> bool:
        """``player`` mails the others one move file with every record one of them lacks."""
        game = player.copy
        common = min(player.common(o) for o in player.held)
        base = game.mail_base(common - 1)
        if base >= game.last_seq:
            return False
        data = bs.encode_moves(game, base)
        self.shares += all(r.kind == bs.Kind.DEAL for r in game.records[common:])
        hashes = player.hashes()
        for other in player.held:
            self.players[other].inbox.append((player.seat, data))
            player.held[other] = hashes
        self.mails += 1
        return True

    def receive(self, player: Player) -> bool:
        """``player`` applies every mail in their inbox (and adds what their copy owes)."""
        game, busy = player.copy, False
        while player.inbox:
            sender, data = player.inbox.pop(0)
            move = bs.parse_raw(data, f"from {NAMES[sender]}")
            base = move.header.base_seq
            known = player.hashes()[: base + 1] + [row.hash for row in move.records]
            try:
                bs.referee_moves(game, move)
            except bs.MoveRefused as exc:
                if exc.code != "stale":
                    raise
            player.held[sender] = known
            if game.add_owed():
                game.keep_in_canonical_order()
            busy = True
        return busy

    def step(self, player: Player) -> bool:
        busy = self.receive(player)
        if player.may_play() and player.reordered():
            busy |= self.send(player)  # (the reply first: see the module's docstring)
        elif player.may_play() and player.unsent():
            self.held += 1  # (the reply ``apply`` wrote goes in one mail with the moves)
        while player.may_play():
            game = player.copy
            if self.setup is None:
                self.setup = self.mails
            command = self.choose(game, player.seat)
            game.play(player.seat, command, entropy=self.pick.randbytes)  # (a bid's salt too)
            game.keep_in_canonical_order()
            busy = True
        return self.send(player) or busy

    def play_out(self) -> bs.Game:
        for _ in range(1_000_000):
            if not any([self.step(p) for p in self.players]):
                break
        copies = [p.copy for p in self.players]
        if len({c.head_hash for c in copies}) != 1 or copies[0].outcome() is None:
            raise AssertionError(f"the copies did not finish alike: {copies[0].waiting_text()}")
        return copies[0]


# --------------------------------------------------------------------------- through a judge
def hosted(module, n: int, tag: str, script: str) -> tuple[bs.Game, int, int]:
    """``(judge's copy, mails, setup mails)``: the invitations, every request (a mail to the
    judge), and the judge's answers, mailed as its digests are (``boardstate.judge._digest``:
    to a player when the game is over, or when they are to act now and were not before, or
    asked)."""
    judge_key = key(tag, "judge")
    judge = bs.Game.new(
        module,
        NAMES[:n],
        {},
        fixed(tag, "seed"),
        CREATED,
        seed_salt=fixed(tag, "salt"),
        trust="hosted",
        peer_secret=fixed(tag, "secret:judge"),
        judge_key=_public(judge_key),
    )
    judge.signer = judge_key.sign
    invite = bs.encode_public(judge)
    mails = n  # the invitations
    copies = []
    for seat in range(n):
        copy = bs.load_game(bs.parse_raw(invite, "invitation"))
        mine = key(tag, NAMES[seat])
        secret = fixed(tag, f"secret:{NAMES[seat]}")
        seated = bs.take_seat(copy, NAMES[seat], _public(mine), mine.sign, secret=secret)
        copies.append(copy)
        judge.judge(decode_request(seated.request.encode(), "request"))
        mails += 1
    mails += _answer(judge, copies, 0, (), range(n))
    setup = mails
    choose = SCRIPTS[script](random.Random(tag))
    while judge.outcome() is None:
        seat = judge.to_act()[0]
        copy = copies[seat]
        request = copy.request(seat, choose(copy, seat))
        base, before = judge.last_seq, judge.to_act()
        judge.judge(decode_request(request.encode(), "request"))
        mails += 1 + _answer(judge, copies, base, before, (seat,))
    return judge, mails, setup


def _answer(judge: bs.Game, copies, base: int, before, askers) -> int:
    """Every copy takes the judge's new records; the count of players a digest is mailed to."""
    for seat, copy in enumerate(copies):
        data = bs.encode_moves(judge, base, reader=seat)
        bs.referee_moves(copy, bs.parse_raw(data, f"to {NAMES[seat]}"))
    acting, over = judge.to_act(), judge.outcome() is not None
    return sum(
        over or (s in acting and (s not in before or s in askers)) for s in range(len(copies))
    )


# --------------------------------------------------------------------------- the table
def turns(game: bs.Game) -> int:
    name = TURNS[game.header.module]
    return sum(1 for r in game.records for e in r.events if type(e).__event_name__ == name)


def play(module, mode: str, n: int, tag: str, script: str) -> Played:
    """One game of ``module`` in ``mode`` played by ``script``; ``tag`` names it (its keys,
    secrets and seed, and the scripted players' choices)."""
    if mode == "hosted":
        game, mails, setup = hosted(module, n, tag, script)
        return Played(mails, turns(game), setup, game.seq)
    if mode == "open":
        table = ByMail.open(module, n, tag, script)
    else:
        table = ByMail.peer(module, n, tag, int(mode.split()[-1]), script)
    game = table.play_out()
    return Played(table.mails, turns(game), table.setup, game.seq, table.shares, table.held)


def modes_for(module) -> list[str]:
    """The peer mode under every protocol (if the game plays without a dealer), then open and
    hosted."""
    peer = []
    try:
        bs.Game.new(module, NAMES[:2], {}, None, CREATED, trust="peer", seat=0)
        peer = [f"peer, protocol {p}" for p in PEER_PROTOCOLS]
    except bs.OptionError:  # (a shared deck dealt into private hands needs a dealer)
        pass
    return peer + ["open", "hosted"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", action="append", choices=sorted(TURNS), help="(default: all)")
    parser.add_argument(
        "--script", action="append", choices=sorted(SCRIPTS), help="who plays (default: all)"
    )
    parser.add_argument(
        "--mode", action="append", help="only the modes that begin so: peer, open, hosted"
    )
    args = parser.parse_args()
    print(
        f"# bench_mails: {args.games} games a row, {args.players} players, seed {args.seed}, "
        f"Python {sys.version.split()[0]}\n"
    )
    print(
        "| game | players | mode | games | turns/game | mails/game | **mails/turn** | "
        "mails/turn, min–max | of them shares alone | replies held | setup mails | records/game | "
        "s/game |"
    )
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game_id in args.game or sorted(TURNS):
        module = bs.get_module(game_id)
        modes = [m for m in modes_for(module) if not args.mode or m.startswith(tuple(args.mode))]
        scripts = [s for s in scripted(module) if not args.script or s in args.script]
        for script, mode in ((s, m) for s in scripts for m in modes):
            rows, seconds = [], time.perf_counter()
            for g in range(args.games):  # (the same scripts, seed by seed, in every mode)
                rows.append(play(module, mode, args.players, f"{args.seed}-{g}", script))
            seconds = (time.perf_counter() - seconds) / args.games
            per = [r.mails / max(r.turns, 1) for r in rows]
            mails = sum(r.mails for r in rows)
            turns_ = sum(r.turns for r in rows)
            print(
                f"| {game_id} | {script} | {mode} | {len(rows)} | {turns_ / len(rows):.1f} | "
                f"{mails / len(rows):.1f} | **{mails / turns_:.2f}** | "
                f"{min(per):.2f}–{max(per):.2f} | {sum(r.shares for r in rows) / turns_:.2f} | "
                f"{sum(r.held for r in rows) / turns_:.2f} | "
                f"{statistics.mean(r.setup for r in rows):.1f} | "
                f"{statistics.mean(r.records for r in rows):.0f} | {seconds:.1f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
