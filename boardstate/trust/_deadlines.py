"""The hosted mode's deadlines, as its plug keeps them (``_deadline``: the clock and its
checks; docs/trust.md, "Deadlines"): the judge's time on each record it makes, whom the game
waits for and since when, and the deadline record, made by the judge alone and checked by
every copy from the times in the log and the policy in the header."""

from __future__ import annotations

from .._deadline import DeadlineClock
from .._decider import ENGINE_RULE
from .._errors import IllegalCommand
from .._records import Kind
from .._talk import FORFEIT, canonical
from ._signed import SignedTrust


class DeadlineKeeping:
    """What ``HostedTrust`` does for a game with a deadline (``clock``, ``now``, ``pinned``
    and ``answering`` are the plug's own fields)."""

    def asked(self, game, record) -> tuple:
        """``(the player's request, the judge's time)`` of a record: a game with a deadline
        stamps the judge's time last (None: no deadline, or the setup); a deadline record
        answers no request (``()``)."""
        request = record.request
        if game.header.deadline is None or record.kind == Kind.SETUP or not request:
            return request, None
        return request[:-1], request[-1]

    def clock_of(self, game) -> DeadlineClock:
        if self.clock is None:
            self.clock = DeadlineClock(game.header.deadline, game.header.created)
        return self.clock

    def observed_clock(self, game) -> DeadlineClock:
        """The clock, with the seats the game waits for after its last record noted."""
        clock = self.clock_of(game)
        clock.observe(game.last_seq, self.acting(game))
        return clock

    def acting(self, game) -> tuple[int, ...]:
        """The seats a deadline runs for: those the game waits for to act (not to join, and
        never this copy's own wait for the judge's answer: every copy counts the same)."""
        if game.outcome() is not None or SignedTrust.waits(self, game):
            return ()
        return game.facts()[1] if game.round is None else game.round.acting

    def deadlines(self, game) -> dict[int, int]:
        """Seat -> when its time runs out, for each seat the game waits for (a game with a
        deadline; empty otherwise)."""
        if game.header.deadline is None:
            return {}
        clock = self.observed_clock(game)
        return {seat: clock.due(seat) for seat in clock.acting}

    def check_forfeit(self, game, seat: int) -> None:
        """A forfeit needs the forfeit policy and a seat the game waits for (the deadline
        itself is checked with the record's time, ``check_deadline``)."""
        deadline = game.header.deadline
        if deadline is None or deadline.policy != "forfeit":
            super().check_forfeit(game, seat)
        if seat not in self.acting(game):
            raise IllegalCommand(
                f"{game.name_of(seat)} cannot forfeit: the game does not wait for them",
                code="bad-deadline",
                rule=ENGINE_RULE,
            )

    def check_deadline(self, game, kind: int, seat: int, command: str, stamp: int) -> None:
        """A record the judge made with no player's request: a deadline record, which the
        header's policy makes, for a seat the game waits for, at or after its deadline (an
        open move: a forfeit, or the bot's command, which the rules then check as the seat's)."""
        clock = self.clock_of(game) if game.header.deadline is not None else None
        forfeit = command == FORFEIT
        if clock is None or kind != Kind.MOVE or (not forfeit and canonical(command) is not None):
            raise IllegalCommand(
                f"the record carries no request from {game.name_of(seat)}",
                code="unsigned",
                rule=ENGINE_RULE,
            )
        clock.check_record(game.players, seat, stamp, forfeit)

    def judge_deadline(self, game, seat: int, command: str) -> list:
        """The judge's copy makes the deadline record for ``seat`` (``forfeit``, or the bot's
        command), checked as every copy will check it, at the judge's time now."""
        stamp = self.time_now(game)
        self.observed_clock(game)
        self.check_deadline(game, Kind.MOVE, seat, command, stamp)
        if command != FORFEIT and not game.open_move_due():
            raise IllegalCommand(
                f"{game.name_of(seat)}'s choice is sealed or face down: no bot makes it for "
                f"them (their reveal is their own signed word)",
                code="bad-deadline",
                rule=ENGINE_RULE,
            )
        start = game.seq
        self.answering, self.pinned = (), stamp
        try:
            game.play(seat, command)
        finally:
            self.answering = self.pinned = None
        return game.records[start:]

    def time_now(self, game) -> int:
        """The judge's time for its next record: its clock, never before the last record's."""
        import time

        now = int((self.now or time.time)())
        return max(now, self.clock_of(game).last)
