"""The judge keeps its games' deadlines: a reminder before a player's time runs out, and at the
end the policy the game's header names (``_deadline``): ``wait`` (the player is told their time
is up, and the game waits), ``forfeit`` (the judge's deadline record: the late player loses),
``bot`` (a bot chooses the late player's command from that player's view alone, and the judge
records it as a deadline record).

Each step is done once: a reminder or a "time is up" mail is answered in the store under a name
made of the game, the seat and the time its wait began (``Store.answer``: a second judge, or a
second pass, finds it answered); a deadline record goes in with its mail in one transaction
(``Store.accept``), like a judged request.  The judge's clock is the ``Judge``'s (``clock``):
tests give one they move by hand.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import msgpack

from .._deadline import duration_words, stamp_words
from .._errors import BoardstateError
from .._fileformat import encode_game, parse_raw
from .._talk import FORFEIT
from ._digest import TAG, Names, answers
from ._store import StoreConflict
from ._types import Outgoing


def keep_deadlines(judge) -> Counter:
    """One pass over the judge's games with a deadline: what it did, by kind (``reminder``,
    ``time up``, ``forfeit``, ``bot move``)."""
    done: Counter = Counter()
    for game_id in judge.store.game_ids():
        if not _has_deadline(judge.store, game_id):
            continue
        claim = b"game " + game_id
        if not judge.store.claim(claim):
            continue  # (another judge holds the game now: the next pass sees it)
        try:
            done += _keep(judge, game_id)
        finally:
            judge.store.release(claim)
    return done


def _has_deadline(store, game_id: bytes) -> bool:
    """Whether the stored header names a deadline (read without the game: most have none)."""
    header = msgpack.unpackb(store.header(game_id), raw=False)
    return type(header) is dict and "deadline" in header


def _keep(judge, game_id: bytes) -> Counter:
    game = judge.game(game_id, fresh=True)
    deadline = game.header.deadline
    done: Counter = Counter()
    if deadline is None or game.outcome() is not None:
        return done
    now = int(judge.clock())
    players = judge.store.players(game_id)
    for seat, due in sorted(game.trust.deadlines(game).items()):
        since = due - deadline.seconds
        if now >= due and deadline.policy != "wait":
            done += _late(judge, game_id, game, seat, players)
            if game.outcome() is not None or game.seq != judge.store.head(game_id):
                break  # (the game went on: the others' times are counted again next pass)
            game = judge.game(game_id, fresh=True)
            continue
        if now >= due:
            what, mail = "time up", _time_up(game, seat, players[seat][1], due)
        elif deadline.remind and now >= due - deadline.remind:
            what, mail = "reminder", _reminder(game, seat, players[seat][1], due)
        else:
            continue
        if _once(judge.store, game_id, seat, since, what, mail):
            done[what] += 1
    return done


def _once(store, game_id: bytes, seat: int, since: int, what: str, mail: Outgoing) -> bool:
    """Queue ``mail`` unless this seat's wait that began at ``since`` has had it already."""
    name = hashlib.sha256(b"boardstate-%s %d %d " % (what.encode(), seat, since) + game_id).digest()
    if store.answered(name):
        return False
    try:
        store.answer(name, [mail])
    except StoreConflict:  # (another judge queued it first)
        return False
    return True


def _late(judge, game_id: bytes, game, seat: int, players) -> Counter:
    """The deadline record for ``seat`` (a forfeit, or a bot's command), stored with its mail;
    under the bot policy a choice no bot may make (sealed) gets the ``wait`` policy's mail."""
    deadline = game.header.deadline
    command = FORFEIT if deadline.policy == "forfeit" else None
    start, before = game.seq, set(game.to_act())
    try:
        if command is None:
            command = bot_command(game, seat, deadline.level)
        game.trust.judge_deadline(game, seat, command)
    except Exception as exc:  # (refused, or the bot failed: the player is told, the game waits)
        judge.forget(game_id)  # (the cached copy may hold a part: read it again)
        why = exc.reason if isinstance(exc, BoardstateError) else f"{type(exc).__name__}: {exc}"
        due = game.trust.deadlines(game).get(seat) if game.seq == start else None
        mail = _time_up(game, seat, players[seat][1], due, why=" ".join(why.split())[:200])
        since = (due or 0) - deadline.seconds
        sent = _once(judge.store, game_id, seat, since, "time up", mail)
        return Counter({"time up": 1} if sent else {})
    rows = judge.rows(game, start)
    settings = judge.store.settings(game_id)
    mails, mailed = answers(
        game, before, {seat}, players, judge.store.mailed(game_id), settings["mail"]
    )
    name = hashlib.sha256(b"boardstate-deadline %d " % start + game_id).digest()
    try:
        judge.store.accept(game_id, start, rows, name, mails, mailed)
    except StoreConflict:  # (another judge moved the game meanwhile: read it again)
        judge.forget(game_id)
        return Counter()
    return Counter({"forfeit" if command == FORFEIT else "bot move": 1})


def bot_command(game, seat: int, level: str) -> str:
    """The command a bot at ``level`` chooses for ``seat`` from that seat's view alone: the
    judge's copy written as the player's view (no seed, no other seat's secrets) and read
    back, as ``move --bot`` reads the player's own copy."""
    from .._loading import load_game
    from ..bots import Bot

    view = load_game(parse_raw(encode_game(game, viewer=seat), f"{game.players[seat]}'s view"))
    return Bot(level, seed=game.seq).choose(view, seat)


def _reminder(game, seat: int, address: str, due: int) -> Outgoing:
    return _mail(
        game,
        seat,
        address,
        f"your time runs out at {stamp_words(due)}",
        f"A reminder: the game waits for your move, and your time runs out at "
        f"{stamp_words(due)} ({duration_words(game.header.deadline.seconds)} a move). "
        f"{_then(game)}",
    )


def _time_up(game, seat: int, address: str, due, why: str = "") -> Outgoing:
    said = f" ({why})" if why else ""
    return _mail(
        game,
        seat,
        address,
        "your time is up",
        f"Your time for this move ran out at {stamp_words(due) if due else 'the deadline'}; "
        f"the game waits for your move{said}.",
    )


def _then(game) -> str:
    deadline = game.header.deadline
    return {
        "wait": "Then the game waits for you, and the judge tells you your time is up.",
        "forfeit": "Then you forfeit the game.",
        "bot": f"Then a bot ({deadline.level}) makes the move for you.",
    }[deadline.policy]


def _mail(game, seat: int, address: str, subject: str, text: str) -> Outgoing:
    header = game.header
    names = Names.of(header.module, header.game_id)
    name = game.players[seat]
    request = names.request(name, game.seq)
    return Outgoing(
        address,
        f"{TAG} {header.module} {header.game_id.hex()[:12]}: {subject}",
        f"{header.module} game {header.game_id.hex()[:12]}, {name}: {text}\n\n"
        f"Your last mail from the judge holds the game so far; choose your move and mail the "
        f"request to this address:\n\n"
        f"    boardstate legal {names.copy(name)} --as {name}\n"
        f"    boardstate move {names.copy(name)} --as {name} COMMAND -o {request}\n",
        (),
        "reminder",
    )
