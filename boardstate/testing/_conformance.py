"""The conformance suite every module must pass (docs/writing-a-module.md, "Testing"; the
shared design's quality bars), shipped with the package so a plugin author runs it on an
installed module: ``boardstate check MODULE``, or ``check_module(MODULE)`` from a test.

Each check is a function ``check_x(module, seeds) -> int`` that raises ``AssertionError`` with a
message naming the first problem, and returns how many things it checked (never zero: a check
that found nothing to check has not checked anything, and says so).
"""

from __future__ import annotations

import random
from collections import deque

import attrs

from .._determinize import determinize
from .._errors import BoardstateError, GameFileError
from .._fileformat import encode_file, encode_game, encode_moves, parse_raw
from .._game import Game
from .._loading import load_game
from .._records import chain, make_record, pack, sealed_values
from .._referee import apply_moves, verify
from .._registry import registered
from .._secrets import Reveal, Secret
from ..rules._parts import resolve_parts
from ._contract import check_hidden_information
from ._play import CREATED, player_names, players_for, random_game


def _require(condition, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def _verdict(data: bytes, fast: bool = True):
    return verify(parse_raw(data, "<test>"), fast=fast)


def check_every_part_is_found(module, seeds) -> int:
    """Every part of the rules is there to call: those ``on_first_use`` names are imported
    and found now (``rules._parts.resolve_parts``), so a misspelt module or function fails
    here, naming the part, and not in the first command that draws a table."""
    try:
        return len(resolve_parts(module.rules))
    except ImportError as wrong:
        raise AssertionError(str(wrong)) from wrong


def check_random_games_end_and_verify(module, seeds) -> int:
    """Every seed and player count: the game ends, and ``verify`` re-derives every record, with
    the referee's fast paths on and off alike."""
    for seed in seeds:
        game = random_game(module, seed)
        outcome = game.outcome()
        _require(outcome is not None, f"seed {seed}: the game did not end")
        _require(len(outcome.scores) == len(game.players), f"seed {seed}: scores per seat")
        _require(
            outcome.winners and set(outcome.winners) <= set(range(len(game.players))),
            f"seed {seed}: winners are not seats",
        )
        data = encode_file(game.header, game.records)
        for fast in (True, False):
            verdict = _verdict(data, fast)
            _require(verdict.ok, f"seed {seed}: verify (fast={fast}) fails: {verdict.failure}")
            _require(
                verdict.rederived == len(game.records),
                f"seed {seed}: only {verdict.rederived} of {len(game.records)} re-derived",
            )
            _require(verdict.outcome == outcome, f"seed {seed}: verify finds another outcome")
    return len(seeds)


def check_legal_and_rules_agree(module, seeds) -> int:
    """Every listed command is accepted (and its notation round-trips); commands seen elsewhere
    but not listed are refused by the engine; the fast single-command check equals ``legal``."""
    pool: set[str] = set()
    counts = [0, 0]

    def check(game: Game):
        state, rules = game.state, game.rules
        for seat in range(len(game.players)):
            listed = game.legal(seat)
            pool.update(listed)
            _require(
                bool(listed) == (seat in game.to_act()),
                f"{game.players[seat]}: legal commands exactly when acting",
            )
            for text in listed:
                _require(game.is_legal(seat, text), f"listed {text!r} is refused")
                if game.reveal_due():
                    continue
                command = rules.parse(state, seat, text)
                game.decider.validate(state, seat, command)
                _require(
                    rules.notation(state, seat, command) == text,
                    f"{text!r} does not round-trip through parse and notation",
                )
                counts[0] += 1
            sample = random.Random(len(pool) + seat).sample(sorted(pool), min(12, len(pool)))
            for text in sample:
                if text in listed:
                    continue
                _require(not game.is_legal(seat, text), f"unlisted {text!r} is accepted")
                try:
                    game.check_turn(seat)
                    game.checked(seat, text)
                except BoardstateError:
                    counts[1] += 1
                else:
                    raise AssertionError(
                        f"{game.players[seat]}: unlisted {text!r} passes the engine's checks"
                    )

    for seed in seeds:
        random_game(module, seed, check_each=check)
    _require(
        counts[0] > 0 and counts[1] > 0,
        f"too little to compare: {counts[0]} accepted, {counts[1]} refused",
    )
    return sum(counts)


def check_fast_check_equals_legal(module, seeds) -> int:
    """A module's own fast ``is_legal`` (if it has one) says what ``legal`` says."""
    fast = getattr(module.rules, "is_legal", None)
    if fast is None:
        return 1  # nothing to hold equal: the engine uses ``legal`` itself
    checked = 0
    pool: dict[str, object] = {}  # commands seen anywhere in the games, by repr

    def check(game: Game):
        nonlocal checked
        if game.reveal_due():
            return
        state, rules = game.state, game.rules
        for seat in game.to_act():
            listed = list(rules.legal(state, seat))
            pool.update((repr(c), c) for c in listed)
            for command in listed:
                _require(fast(state, seat, command), f"is_legal refuses listed {command!r}")
                checked += 1
            sample = random.Random(checked).sample(sorted(pool), min(20, len(pool)))
            for key in sample:
                other = pool[key]
                _require(
                    fast(state, seat, other) == (other in listed),
                    f"is_legal and legal differ on {other!r}",
                )
                checked += 1

    for seed in seeds:
        random_game(module, seed, check_each=check)
    return checked


def check_fast_pick_equals_legal(module, seeds) -> int:
    """A module's own ``legal_pick`` (if it has one: random self-play asks it instead of the
    whole list) asks ``below`` once, the list's length, and gives the listed command there."""
    fast = getattr(module.rules, "legal_pick", None)
    if fast is None:
        return 1  # nothing to hold equal: self-play picks from ``legal`` itself
    checked = 0

    def check(game: Game):
        nonlocal checked
        if game.reveal_due():
            return
        for seat in game.to_act():
            listed = list(game.rules.legal(game.state, seat))
            for i in sorted({0, len(listed) // 2, len(listed) - 1}) if listed else ():
                asked: list[int] = []
                got = fast(game.state, seat, lambda n, i=i, asked=asked: asked.append(n) or i)
                _require(asked == [len(listed)], f"legal_pick asked below{asked}, not the length")
                _require(
                    got == listed[i], f"legal_pick gave {got!r} where legal lists {listed[i]!r}"
                )
                checked += 1

    for seed in seeds:
        random_game(module, seed, check_each=check)
    return checked


def _each_decision(module, seeds, look) -> int:
    """Play random games and hand every decision to ``look(game, folds, state)``: ``folds`` the
    state after each of its events in turn (``evolve`` applied by hand), ``state`` what the
    decision handed the engine.  How many decisions were looked at."""
    looked = [0]

    class Watched(Game):
        def decide(self, moves, openings=None):
            events, state = super().decide(moves, openings)
            folds, folded = [], self.state
            for ev in events:
                folded = self.decider.evolve(folded, ev)
                folds.append(folded)
            look(self, events, folds, state)
            looked[0] += 1
            return events, state

    for seed in seeds:
        random_game(module, seed, game_class=Watched)
    _require(looked[0] > 0, "no decision to check")
    return looked[0]


def check_decide_state_is_the_fold(module, seeds) -> int:
    """The state every decision hands the engine is the fold of its events (``evolve`` is the
    one fold; the table only applies it as it goes)."""

    def look(game, events, folds, state):
        folded = folds[-1] if folds else game.state
        _require(state == folded, f"record {game.seq}: the decided state is not the fold")

    return _each_decision(module, seeds, look)


def check_nothing_after_the_end(module, seeds) -> int:
    """No event follows the one that ends the game: once ``outcome`` names a result, the
    decision has nothing left to say (a card that would destroy two main characters decides
    the game at the first)."""

    def look(game, events, folds, state):
        for i, folded in enumerate(folds):
            if game.decider.outcome(folded) is not None:
                after = events[i + 1 :]
                _require(
                    not after,
                    f"record {game.seq}: {len(after)} event(s) after the end of the game, "
                    f"the first {type(after[0]).__name__ if after else ''}",
                )
                return

    return _each_decision(module, seeds, look)


def check_every_option_choice(module, seeds) -> int:
    """Each choice of each option (the others at their defaults): games end, verify, and keep
    the hidden-information contract."""
    games = 0
    few = seeds[: max(1, len(seeds) // 8)]
    for option in module.spec.options:
        for value in option.choices:
            if value == option.default:
                continue
            for seed in few:
                players = players_for(module, seed, {option.key: value})
                game = random_game(module, seed, players, options={option.key: value})
                verdict = _verdict(encode_file(game.header, game.records))
                _require(verdict.ok, f"{option.key}={value}, seed {seed}: {verdict.failure}")
                games += 1
            check_hidden_information(module, few, options={option.key: value})
    return games + 1


def check_save_load_fold(module, seeds) -> int:
    """save -> load -> fold equals the live state, at many points of many games."""
    checked = 0
    for seed in seeds:
        snapshots = []

        def check(game: Game, snapshots=snapshots):
            if game.seq % 7 == 0:
                snapshots.append(
                    (encode_file(game.header, game.records), game.state, game.to_act())
                )

        final = random_game(module, seed, check_each=check)
        snapshots.append((encode_file(final.header, final.records), final.state, final.to_act()))
        for data, state, to_act in snapshots:
            loaded = load_game(parse_raw(data, "<test>"))
            _require(loaded.state == state, f"seed {seed}: the loaded state differs")
            _require(loaded.to_act() == to_act, f"seed {seed}: who acts differs after loading")
            checked += 1
    return checked


def check_views_leak_nothing(module, seeds) -> int:
    """A view's bytes hold no salt of a secret its player may not know, and no seed; a view
    folds to that player's knowledge; a move file carries no opening at all."""
    checked = 0
    for seed in seeds:
        game = random_game(module, seed, stop_after=3 + seed * 5)
        secrets: dict[bytes, Secret] = {}
        revealed: set[bytes] = set()
        for rec in game.records:
            for value in sealed_values(rec):
                if type(value) is Secret:
                    secrets[value.commitment] = value
                else:
                    revealed.add(value.commitment)
        hidden = [s for c, s in secrets.items() if c not in revealed and s.known]
        for seat in range(len(game.players)):
            data = encode_game(game, viewer=seat)
            _require(game.header.seed not in data, "a view holds the seed")
            for secret in hidden:
                if not secret.owned_by(seat):
                    _require(secret.salt not in data, f"the view of seat {seat} leaks a secret")
                    checked += 1
            view = load_game(parse_raw(data, "<view>"))
            _require(
                view.rules.view(view.state, seat) == view.state,
                "a view's state shows more than the player's view",
            )
            _require(
                view.state == game.rules.view(game.state, seat),
                "a view file does not fold to the player's view",
            )
        move = encode_moves(game, max(0, game.seq - 4))
        for secret in hidden:
            _require(secret.salt not in move, "a move file carries an opening")
    return checked + len(seeds)


def check_choices_hidden_until_due(module, seeds) -> int:
    """A sealed or face-down choice: no other player's view and no move file shows it (its
    salt never appears) until it is revealed."""
    checked = 0
    for seed in seeds:
        game = random_game(module, seed, stop_after=1 + seed % 9)
        pending = dict(game.round.commits) if game.round is not None else {}
        pending.update({s: f.secret for s, f in game.face_down.items()})
        for committer, secret in pending.items():
            if game.round is not None and committer in game.round.revealed:
                continue
            move = encode_moves(game, 0)
            _require(secret.salt not in move, "a move file carries a pending choice")
            for seat in range(len(game.players)):
                if seat != committer:
                    _require(
                        secret.salt not in encode_game(game, viewer=seat),
                        f"seat {seat}'s view shows {game.players[committer]}'s choice",
                    )
                    checked += 1
    return checked + len(seeds)


def check_single_byte_corruption(module, seeds) -> int:
    """Every byte of a short game, flipped two ways: verify fails, or the log is unchanged."""
    game = random_game(
        module, seeds[0] if len(seeds) else 7, players=module.spec.min_players, stop_after=6
    )
    data = encode_file(game.header, game.records)
    original = [(r.body, r.hash) for r in game.records]
    refused = 0
    for pos in range(len(data)):
        for flip in (0x01, 0x80):
            bad = bytearray(data)
            bad[pos] ^= flip
            try:
                verdict = _verdict(bytes(bad))
            except GameFileError:
                refused += 1
                continue
            if not verdict.ok:
                refused += 1
                continue
            same = [(r.body, r.hash) for r in verdict.game.records] == original
            _require(same, f"byte {pos} ^ {flip:#x} changes the log but verifies")
    _require(refused > len(data), "most corruptions must be refused outright")
    return 2 * len(data)


def check_tampered_records(module, seeds) -> int:
    """A forger who rewrites a record's events and recomputes the chain is caught."""
    checked = 0
    for seed in seeds[:5]:
        game = random_game(module, 11 + seed, players=module.spec.min_players, stop_after=10)
        target = next((r for r in game.records[1:] if r.events), None)
        if target is None:
            continue
        events = target.events[:-1] if len(target.events) > 1 else target.events * 2
        forged = forge(game, target.seq, events=events)
        verdict = _verdict(encode_file(game.header, forged))
        _require(
            not verdict.ok and verdict.failure.seq == target.seq,
            f"a tampered record {target.seq} is not caught there",
        )
        _require(verdict.failure.code == "not-derived", f"caught as {verdict.failure.code}")
        checked += 1
    _require(checked > 0, "no record with events to tamper with")
    return checked


JUNK = [
    None,
    -1,
    0,
    1,
    7,
    2**70,
    "",
    "play 1",
    "keep",
    "x" * 50,
    b"\x00" * 32,
    (),
    (1,),
    ((0, 1),),
    (("nope",),),
    Secret(b"\x01" * 32, 1),
    Reveal(b"\x02" * 32, b"\x00" * 16, "x"),
    ((0,),),
    ((99, 1, 2),),
]


def check_forged_records_never_crash(module, seeds) -> int:
    """Records rewritten with junk and re-chained: verify names a failing record or, if it
    accepts, the log is the original one.  Never an unexpected error."""
    game = random_game(module, 21, players=module.spec.min_players, stop_after=12)
    rng = random.Random(5)
    original = [(r.body, r.hash) for r in game.records]
    refused = tried = 0
    for _ in range(40 * len(seeds) // 4 + 60):
        index = rng.randrange(len(game.records))
        rec = game.records[index]
        fields = [
            rec.seq,
            rec.kind,
            rec.actor,
            rec.command,
            rec.sealed,
            tuple(game.codes.encode(e) for e in rec.events),
        ]
        fields[rng.randrange(6)] = rng.choice(JUNK)
        try:
            body = pack(fields)
        except (TypeError, ValueError):
            continue
        forged = rechain(
            game,
            game.records[:index] + [rec._replace(body=body)] + game.records[index + 1 :],
            index,
        )
        try:
            verdicts = [
                _verdict(encode_file(game.header, forged, openings_for=None), fast)
                for fast in (True, False)
            ]
        except GameFileError:
            continue
        tried += 1
        _require(
            _same_verdict(*verdicts),
            f"fast and slow referees disagree: {verdicts[0].failure} / {verdicts[1].failure}",
        )
        if verdicts[0].ok:
            _require(
                [(r.body, r.hash) for r in verdicts[0].game.records] == original,
                "a forged log verifies",
            )
        else:
            refused += 1
    _require(refused > tried // 2, f"only {refused} of {tried} forgeries refused")
    return tried


def _same_verdict(a, b) -> bool:
    if a.ok or b.ok:
        return a.ok == b.ok
    return (a.failure.seq, a.failure.code) == (b.failure.seq, b.failure.code)


def check_play_by_mail(module, seeds) -> int:
    """Separate copies per player, only move files travel: the copies agree to the end, and an
    unrevealed choice lives only in its owner's copy."""
    counts = range(module.spec.min_players, min(module.spec.max_players, 3) + 1)
    for players in counts:
        _play_by_mail(module, players)
    return len(counts)


def _play_by_mail(module, players: int) -> None:
    first = Game.new(module, player_names(players), {}, seed=b"pbem", created=CREATED)
    start = encode_file(first.header, first.records)
    copies = [load_game(parse_raw(start, f"copy{i}")) for i in range(players)]
    pick = random.Random(players)
    mail: deque = deque()  # (sender, move file bytes), delivered to everyone else in order

    def deliver(sender: int, data: bytes) -> None:
        for seat, copy in enumerate(copies):
            if seat != sender:
                apply_moves(copy, parse_raw(data, "move"))
                applied = copy.last_seq
                if copy.reveal_held():  # this copy's own reveal is due: it mails it on
                    mail.append((seat, encode_moves(copy, applied)))

    turns = 0
    while mail or copies[0].outcome() is None:
        if mail:
            deliver(*mail.popleft())
            continue
        seat = min(copies[0].to_act())  # pass the moves around in seat order
        mine = copies[seat]
        base = mine.last_seq
        mine.play(seat, pick.choice(mine.legal(seat)))
        mail.append((seat, encode_moves(mine, base)))
        for holder, copy in enumerate(copies):
            pending = dict(copy.round.commits) if copy.round is not None else {}
            pending.update({s: f.secret for s, f in copy.face_down.items()})
            for owner, secret in pending.items():
                if copy.round is None or owner not in copy.round.revealed:
                    _require(
                        secret.known == (owner == holder),
                        "an unrevealed choice is held by a copy not its owner's",
                    )
        turns += 1
        _require(turns < 5000, "the game by mail does not end")
    _require(
        all(c.state == copies[0].state and c.seq == copies[0].seq for c in copies),
        "the copies disagree",
    )
    for c in copies:
        verdict = _verdict(encode_file(c.header, c.records))
        _require(verdict.ok, f"a copy does not verify: {verdict.failure}")


def check_contract(module, seeds) -> int:
    """The hidden-information contract (see ``boardstate.testing.check_hidden_information``)."""
    return check_hidden_information(module, seeds)


def check_determinized_views_play_on(module, seeds) -> int:
    """``boardstate.rules.determinize``: every seat's view of games stopped part way, filled
    in, folds back to that very view, gives the seat the commands its view gives it, and
    random play goes on from it to the end (the others' face-down commands as guessed, the
    seat's own as laid)."""
    from ..bots import Sim, playout

    rules, sim = module.rules, Sim(module)
    checked = 0
    for seed in seeds[: max(2, len(seeds) // 4)]:
        game = random_game(module, seed, stop_after=1 + seed * 7 % 40)
        if game.outcome() is not None:
            continue
        for seat in range(len(game.players)):
            view = rules.view(game.state, seat)
            pick = random.Random(seed * 31 + seat)
            where = f"seed {seed}, seat {seat}, record {game.seq}"
            try:
                made = determinize(module, view, seat, pick)
            except Exception as exc:  # (a module's own determinize: any fault is a finding)
                raise AssertionError(f"{where}: determinize fails: {exc!r}") from exc
            _require(rules.view(made.state, seat) == view, f"{where}: another view")
            _require(
                set(made.face_down) <= set(game.face_down) - {seat},
                f"{where}: a face-down command guessed where none lies",
            )
            if seat in rules.to_act(view) and seat in game.to_act():
                _require(
                    list(rules.legal(made.state, seat)) == list(rules.legal(view, seat)),
                    f"{where}: the seat's own commands differ",
                )
            face_down = dict(made.face_down)
            if seat in game.face_down:
                laid = game.face_down[seat]
                face_down[seat] = rules.parse(laid.state, seat, laid.secret.value)
            try:
                _, outcome = playout(sim, made.state, face_down, _any, pick, 20000)
            except Exception as exc:
                raise AssertionError(
                    f"{where}: play from the filled-in view fails: {exc!r}"
                ) from exc
            _require(outcome is not None, f"{where}: play from the filled-in view does not end")
            checked += 1
    _require(checked > 0, "no game under way to determinize")
    return checked


def _any(state, seat, commands, rng):
    return commands[rng.randrange(len(commands))]


CHECKS = (
    check_every_part_is_found,
    check_random_games_end_and_verify,
    check_every_option_choice,
    check_legal_and_rules_agree,
    check_fast_check_equals_legal,
    check_fast_pick_equals_legal,
    check_decide_state_is_the_fold,
    check_nothing_after_the_end,
    check_save_load_fold,
    check_views_leak_nothing,
    check_choices_hidden_until_due,
    check_single_byte_corruption,
    check_tampered_records,
    check_forged_records_never_crash,
    check_play_by_mail,
    check_contract,
    check_determinized_views_play_on,
)


# ---------------------------------------------------------------------------------- forging
def forge(game: Game, index: int, **changes) -> list:
    """The game's records with record ``index`` rebuilt with ``changes`` (any of kind, actor,
    command, sealed, events) and the chain recomputed after it: what a forger can do."""
    rec = game.records[index]
    fields = {
        "kind": rec.kind,
        "actor": rec.actor,
        "command": rec.command,
        "sealed": rec.sealed,
        "events": rec.events,
    } | changes
    prev = game.header.game_id if index == 0 else game.records[index - 1].hash
    forged = make_record(
        game.codes,
        prev,
        index,
        fields["kind"],
        fields["actor"],
        fields["command"],
        fields["sealed"],
        tuple(fields["events"]),
    )
    return rechain(game, game.records[:index] + [forged] + game.records[index + 1 :], index)


def append_forged(game: Game, kind, actor: int, command: str = "", sealed=None, events=()) -> list:
    """The game's records plus one forged record at the end."""
    rec = make_record(
        game.codes, game.head_hash, game.seq, kind, actor, command, sealed, tuple(events)
    )
    return list(game.records) + [rec]


def rechain(game: Game, records: list, start: int) -> list:
    """``records`` with every hash from ``start`` on recomputed over its body."""
    out = list(records[:start])
    for rec in records[start:]:
        prev = game.header.game_id if not out else out[-1].hash
        out.append(rec._replace(hash=chain(prev, rec.body)))
    return out


# ---------------------------------------------------------------------------------- driver
@attrs.frozen
class Report:
    total: int
    failures: tuple  # ((check name, message), ...)


def check_module(module, *, seeds=40, echo=None) -> Report:
    """Run every conformance check on ``module``; a report (and a line per check to ``echo``)."""
    seed_range = range(seeds) if isinstance(seeds, int) else seeds
    with registered(module):  # (files name their module: a module under test must be found)
        return _run_checks(module, seed_range, echo)


def _run_checks(module, seed_range, echo) -> Report:
    failures = []
    for check in CHECKS:
        name = check.__name__.removeprefix("check_").replace("_", " ")
        try:
            count = check(module, seed_range)
        except AssertionError as exc:
            failures.append((name, str(exc)))
            if echo:
                echo(f"FAIL {name}: {exc}")
            continue
        if echo:
            echo(f"ok   {name} ({count})")
    return Report(len(CHECKS), tuple(failures))
