"""Records that commute in canonical order: a peer copy keeps the records it has not settled
with the others (joins, deals, a sealed round's commitments and reveals) in one order that every
copy computes alike, whatever order they were made and mailed in (``canonical_region``); a merge
of crossing mail makes the log again in that order (``rebuild``).  Works on a game through its
own checks; imports no ``Game``.
"""

from __future__ import annotations

from ._errors import (
    BoardstateError,
    MoveRefused,
)
from ._records import Kind, pack


def canonical_region(game, start: int | None = None) -> None:
    """A peer copy keeps the records it has not settled with the others (from ``start``,
    default ``Game.region_start``) in canonical order (``rebuild``), so that every copy that
    holds the same records holds the same log and hashes, whatever order they were made and
    mailed in.  Records of one player alone are in that player's order already."""
    start = game.region_start if start is None else start
    records = game.records[start:]
    if not game.trust.keeps_canonical_order or len({r.actor for r in records}) < 2:
        return
    pool = [(r.kind, r.actor, r.sealed, r.signature, r.letters) for r in records]
    keep, game.keep_canonical = game.keep_canonical, False
    try:
        rebuild(game, start, pool, conflict_at(game, "this copy", start), where="this copy")
    except MoveRefused:  # (this copy's own records, already checked: left in their order)
        pass
    finally:
        game.keep_canonical = keep


def content_key(kind, seat, sealed) -> bytes:
    return pack([kind, seat, sealed])


def conflict_at(game, path: str, at: int):
    def conflict(why: str) -> MoveRefused:
        return MoveRefused(
            f"fork at record {at}: {why}; this copy and {path} cannot both stand. To "
            f"recover, drop {path} and take back this copy's unsent move ('boardstate undo "
            f"FILE --as PLAYER'), or keep the copy the others have received and re-export from "
            f"it ('boardstate export FILE --after {max(at - 1, 0)} -o NEW')",
            code="fork",
        )

    return conflict


def rebuild(game, start: int, pool, conflict, *, where: str) -> None:
    """Make the log again from record ``start`` with the commuting records of ``pool``
    (``(kind, seat, sealed, signature, letters)``, this copy's first: their openings are held
    here), in the canonical order: whenever joins or deals are due, the lowest seat's first;
    in a sealed round, commitments in seat order, then reveals as the round lists them (the
    last to commit first, then seat order).  A record held twice counts once; one seat's two
    different choices of a round are a conflict.  Refused (``MoveRefused``), the copy is left
    as it was."""
    queues: dict = {}  # (kind, seat) -> [(sealed, signature, letters), ...] in order, distinct
    seen: set = set()
    for kind, seat, sealed, signature, letters in pool:
        if kind not in (Kind.JOIN, Kind.DEAL, Kind.COMMIT, Kind.REVEAL):
            raise conflict(
                f"{where} holds a {Kind(kind).name.lower()} record, which does not commute"
            )
        content = content_key(kind, seat, sealed)
        if content in seen:
            continue
        seen.add(content)
        queue = queues.setdefault((kind, seat), [])
        if kind in (Kind.COMMIT, Kind.REVEAL) and queue:
            raise conflict(f"{game.players[seat]} made two different sealed choices")
        queue.append((sealed, signature, letters))
    before = dict(game.__dict__)  # (truncate replaces these: a refusal puts them back)
    game.truncate(start)

    def take(kind, seat, check) -> None:
        queue = queues[(kind, seat)]
        sealed, signature, letters = queue.pop(0)
        if not queue:
            del queues[(kind, seat)]
        events, state = check(seat, sealed)
        record = game.remade(kind, seat, sealed, events, signature, letters)
        game.check_signature(record)
        game.append(record, state)

    try:
        while queues:
            due = game.due()
            if due:
                kind = Kind.JOIN if due == "join" else Kind.DEAL
                check = game.check_join if due == "join" else game.check_deal
                seat = next(
                    (
                        s
                        for s in game.waiting_for()
                        if queues.get((kind, s))
                        and (due == "join" or queues[(kind, s)][0][0][0] == due)
                    ),
                    None,
                )
                if seat is None:
                    raise conflict(
                        f"a record that is not due while the game is {game.waiting_text()}"
                    )
                take(kind, seat, check)
                continue
            phase = game.phase()
            if phase is None:
                raise conflict("the copies parted outside a round of sealed choices")
            if not phase.all_committed:
                seat = next(
                    (
                        s
                        for s in phase.seats
                        if s not in phase.commits and (Kind.COMMIT, s) in queues
                    ),
                    None,
                )
                if seat is None:
                    raise conflict("a reveal before every choice is committed")
                take(Kind.COMMIT, seat, game.commit_events)
                continue
            seat = next((s for s in game.to_act() if (Kind.REVEAL, s) in queues), None)
            if seat is None:
                raise conflict("a reveal that is not due once every choice is in")
            take(Kind.REVEAL, seat, game.check_reveal)
    except MoveRefused:
        game.__dict__.update(before)
        raise
    except BoardstateError as exc:
        game.__dict__.update(before)
        raise conflict(f"the merged choices do not stand ({exc.reason})") from None
