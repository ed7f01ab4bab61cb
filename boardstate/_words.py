"""The game in words, in one place: the outcome line, where a game stands, whom it waits for,
and the rules-revision note.  The CLI, the notebook, the replay page and the judge all say
these things, so each is written here once.  The judge's mail to a player says it as that
player sees it: the records since their last mail, their turn, their table."""

from __future__ import annotations

from ._records import Kind
from ._takeback import asked_line, states_since, takeback_words


def winners_words(players, outcome) -> str:
    """``ann and cat`` (``nobody``: a game with no winner)."""
    return " and ".join(players[w] for w in outcome.winners) or "nobody"


def outcome_line(players, outcome) -> str:
    """``Game over (reason). Scores: ann 3, ben 1. Winner: ann``."""
    scores = ", ".join(f"{p} {s}" for p, s in zip(players, outcome.scores))
    return (
        f"Game over ({outcome.reason}). Scores: {scores}. Winner: {winners_words(players, outcome)}"
    )


def acting_words(game) -> str:
    """Who is to act: names, or ``the judge`` (a hosted copy waiting for the answer to its
    player's request: nobody may act in it first), or ``nobody``."""
    names = ", ".join(game.players[s] for s in game.to_act())
    return names or ("the judge" if game.due() == "judge" else "nobody")


def asked_words(kind: int, command: str, base: int) -> str:
    """A hosted copy's request sent and not answered yet: ``sent: stance 8H (made on record
    41); waiting for the judge's answer``."""
    if kind == Kind.JOIN:
        what = "your join"
    elif kind == Kind.COMMIT:
        what = f"your sealed choice ({command})" if command else "your sealed choice"
    else:
        what = command
    return f"sent: {what} (made on record {base}); waiting for the judge's answer"


def status_lines(game, viewer: int | None) -> list[str]:
    """Where the game stands, as ``viewer`` may know it: the outcome line; or the sealed round
    (who has committed, the viewer's own choice), whom a peer or hosted game waits for, and
    who is to act."""
    outcome = game.outcome()
    if outcome is not None:
        return [outcome_line(game.players, outcome)]
    lines = []
    phase = game.phase()
    if phase is not None:
        done = [game.players[s] for s in phase.commits]
        lines.append(
            "Sealed choices: "
            + (", ".join(done) + " committed" if done else "nobody has committed yet")
        )
        mine = game.pending_choice(viewer) if viewer is not None else None
        if mine:
            lines.append(f"Your sealed choice: {mine}")
    waiting = game.waiting_text()
    if waiting:
        lines.append(waiting[0].upper() + waiting[1:])
    asked = asked_line(game)
    if asked:
        lines.append(asked)
    lines.append(f"To act: {acting_words(game)}")
    return lines


def next_line(game) -> str:
    """What a command says after it has added to a game: the outcome line, whom the game waits
    for, or ``to act: ...``."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome_line(game.players, outcome)
    if game.due():
        return game.waiting_text()
    return f"to act: {acting_words(game)}"


def round_trip_note(game, seat: int, commands) -> str:
    """What ``legal`` adds when some of ``seat``'s commands (``Game.round_trips``) leave them
    waiting for another player's share of the randomness before they can go on."""
    if not commands:
        return ""
    shown = ", ".join(f"'{c}'" for c in commands[:4])
    if len(commands) > 4:
        shown += f" and {len(commands) - 4} more"
    others = " and ".join(p for s, p in enumerate(game.players) if s != seat)
    return (
        f"note: after {shown} you wait for {others} to add their share of the randomness "
        "before you go on, a mail there and back (what leaves you nothing more to do this "
        "turn, done last, needs no mail of its own)"
    )


def standing(game) -> str:
    """How the game ended, or where it stands after its last record (one line)."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome_line(game.players, outcome)
    return f"The game goes on (after record {game.last_seq}); to act: {acting_words(game)}"


def turn_line(game, seat: int) -> str:
    """Whose turn, said to ``seat``: the outcome line, ``Your turn, ann (to act: ann)`` or
    ``To act: ben``."""
    outcome = game.outcome()
    if outcome is not None:
        return outcome_line(game.players, outcome)
    if seat in game.to_act():
        return f"Your turn, {game.players[seat]} (to act: {acting_words(game)})"
    return f"To act: {acting_words(game)}"


def records_lines(game, first: int, last: int, viewer: int | None) -> list[str]:
    """Records ``first``..``last`` described as ``viewer`` sees them (``records_said``)."""
    return records_said(game, game.records[first : last + 1], viewer)


def records_said(game, records, viewer: int | None, *, protocol: bool = False) -> list[str]:
    """Records described as ``viewer`` sees them, one line each (``record 12: ben: stance
    8H``); a run of the trust mode's own records (joins, shares of the randomness, piles
    arranged) is one line (``records 3-5: shares of the randomness: ann, ben``) unless
    ``protocol`` asks for each."""
    return [
        (f"record {first}: " if first == last else f"records {first}-{last}: ")
        + (f"{words} — {'; '.join(story)}" if story else words)
        for first, last, words, story in records_grouped(game, records, viewer, protocol=protocol)
    ]


def records_grouped(game, records, viewer: int | None, *, protocol: bool = False) -> list:
    """``(first seq, last seq, words, told)`` for each record, or each run of the trust mode's
    own records (``protocol``: each of those on its own): the record in words and what its
    events did, line by line (``describe`` says both in one line)."""
    out: list[tuple[int, int, str, tuple[str, ...]]] = []
    run: list = []
    for record in [*records, None]:
        if record is not None and not protocol and record.kind in _PROTOCOL:
            run.append(record)
            continue
        if run:  # (the peer mode's shares complete a decision: what it did is theirs to tell)
            said = tuple(line for r in run for line in told(game, r, viewer))
            out.append((run[0].seq, run[-1].seq, _protocol_words(game, run), said))
            run = []
        if record is not None:
            out.append(
                (
                    record.seq,
                    record.seq,
                    record_words(game, record, viewer),
                    told(game, record, viewer),
                )
            )
    return out


_PROTOCOL = (Kind.JOIN, Kind.DEAL)


def _protocol_words(game, run) -> str:
    """A run of joins and deals in one line: what each kind was, and from whom."""
    kinds: dict[str, list[str]] = {}
    for record in run:
        kind = (
            "joins"
            if record.kind == Kind.JOIN
            else "shares of the randomness"
            if record.sealed[0] == "link"
            else "face-down piles arranged"
            if record.sealed[0] == "arrange"
            else game.trust.deal_words(record)[0]  # (a mode's own deals: the shared deck's)
        )
        who = game.players[record.actor]
        if who not in kinds.setdefault(kind, []):
            kinds[kind].append(who)
    return "; ".join(f"{k}: {', '.join(w)}" for k, w in kinds.items())


def table_text(game, seat: int | None) -> str:
    """The table as ``seat`` sees it, as ``boardstate show --as`` prints it: the module's
    text, what the last decision settled, where the game stands (no one else's secret)."""
    position = game.position(seat=seat)
    lines = [position.text()]
    report = game.decider.report(position.viewed)
    if report:
        lines.append(report)
    return "\n".join(lines + status_lines(game, seat))


def stage_line(game) -> str:
    """Where a game stands, for a list of games: ``waiting for joins: ann, ben``, ``in play:
    to act: ben`` or ``over: Game over (...). Scores: .... Winner: ann``."""
    outcome = game.outcome()
    if outcome is not None:
        return f"over: {outcome_line(game.players, outcome)}"
    if game.due() == "join":
        return "waiting for joins: " + ", ".join(game.players[s] for s in game.waiting_for())
    return f"in play: to act: {acting_words(game)}"


def revision_note(spec, revision: int) -> str:
    """Which rules revision an older game is played under and what changed since ("played
    under ... rules revision N (newest: M; changed since: ...)"); empty for the newest."""
    if revision == spec.revision:
        return ""
    changes = "; ".join(spec.changes_since(revision))
    return (
        f"played under {spec.id} rules revision {revision} (newest: {spec.revision}; "
        f"changed since: {changes})"
    )


def describe(game, record, viewer: int | None = None) -> str:
    """A record in words as ``viewer`` sees it (None: a spectator), e.g. ``alice: play luke 5``
    or ``bob commits a sealed choice`` (its owner also sees the choice), and after `` — ``
    what its events did as ``viewer`` may know it (``told``: ``vader: take — vader: fatigue
    21 → 16 (5 damage); you draw 7H, QS``)."""
    said = record_words(game, record, viewer)
    story = told(game, record, viewer)
    return f"{said} — {'; '.join(story)}" if story else said


def told(game, record, viewer: int | None = None) -> tuple[str, ...]:
    """What ``record``'s events did, in the module's words (its ``tell``), as ``viewer`` may
    know it: die rolls, the cards ``viewer`` saw drawn (``you draw Force Push``; ``ben draws a
    card``), results.  Empty for a record not in ``game`` (undone) or without events."""
    if not record.events:
        return ()
    before = _state_before(game, record)
    if before is None:
        return ()
    return game.decider.tell(before, record.events, viewer)


_KEPT: dict = {}  # "last": (the game, its length and last hash, the states after each record
# from the one given last, that record)


def _state_before(game, record):
    """The state before ``record`` as ``game`` folds it (a takeback's acceptance: the state put
    back), or None when ``record`` is not in ``game``.  The states of the last game asked
    about are kept, so a caller describing every record folds the game once."""
    records, seq = game.records, record.seq
    if not 0 <= seq < len(records) or records[seq].hash != record.hash:
        return None
    if seq == 0:
        header = game.header
        return game.decider.initial(header.options, header.players, header.revision)
    key = (len(records), records[-1].hash)
    kept = _KEPT.get("last")
    if kept is None or kept[0]() is not game or kept[1] != key or seq - 1 < kept[3]:
        import weakref

        kept = _KEPT["last"] = (weakref.ref(game), key, *_states(game, seq))
    return kept[2][seq - 1 - kept[3]]


def _states(game, seq: int) -> tuple[list, int]:
    """``(the state after each record from one on, that record)``: from the state a
    log left in its file keeps (``_filelog.FileLog.folded``) when ``seq`` is after it, so that
    the records in the file are not read back; else from the setup."""
    folded = getattr(game.records, "folded", None)
    if folded is not None and folded[0] < seq:
        at, state = folded
        states = states_since(game, at + 1, state, game.records[at + 1 :])
        if states is not None:
            return [state, *states], at
    return game.states(), 0


def record_words(game, record, viewer: int | None = None) -> str:
    """A record in words as ``viewer`` sees it, without what its events did (``describe``)."""
    if record.kind == Kind.SETUP:
        return "setup"
    who = game.players[record.actor]
    if record.kind == Kind.COMMIT:
        mine = viewer is not None and viewer == record.actor
        held = f" ({record.sealed.value})" if record.sealed.known and mine else ""
        if record.events:
            return f"{who} lays a choice face down{held}"
        return f"{who} commits a sealed choice{held}"
    if record.kind == Kind.REVEAL:
        return f"{who} reveals: {record.sealed.value}"
    if record.kind == Kind.JOIN:
        from .keys import fingerprint

        return f"{who} joins (key {fingerprint(record.sealed[0])})"
    if record.kind == Kind.DEAL:
        if record.sealed[0] == "link":
            return f"{who} adds a share of the randomness"
        if record.sealed[0] == "arrange":
            return f"{who} arranges a face-down pile of {len(record.sealed[1])} cards"
        return f"{who} {game.trust.deal_words(record)[1]}"
    return takeback_words(game, record, viewer) or f"{who}: {record.command}"
