"""Deadlines of a hosted game: a time per move, and what the judge does when it runs out.

The header names the deadline (``Deadline``: the seconds a player has to act, how long before
the end the judge reminds them, and the policy at the end: ``wait``, ``forfeit`` or ``bot``).
In such a game every record the judge makes carries the judge's time (Unix seconds), signed
with the record (``_hosted.judged_message``).  A player's time runs from the first record after
which the game waits for them (``DeadlineClock``): every copy folds the same log to the same
times, so every copy can check a *deadline record*, the one record the judge makes with no
player's request: ``forfeit`` (the engine's word: the late player loses, the others win) or,
under the ``bot`` policy, a command a bot chose for the late player.  A copy takes it only if
the header names that policy, the game waits for that seat, and the record's time is at or past
that seat's deadline (docs/trust.md, "Deadlines").
"""

from __future__ import annotations

import datetime as _dt
import re

import attrs

from ._decider import ENGINE_RULE
from ._errors import IllegalCommand, OptionError

POLICIES = ("wait", "forfeit", "bot")
DEADLINE_POLICIES = POLICIES  # (the façade's name for them)
BOT_LEVELS = ("random", "easy", "normal", "strong")  # (boardstate.bots.LEVELS, by name)
MAX_SECONDS = 366 * 86400  # a year: longer is a typo
_LAST_TIME = 1 << 40  # (Unix seconds: about the year 36812)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
_DURATION = r"\s*([0-9]{1,7})\s*([smhdw])\s*"  # (compiled when first read, by re: issue 29)


def parse_duration(text: str, what: str = "--deadline") -> int:
    """Seconds of ``3d``, ``12h``, ``90m``, ``45s``, ``2w`` (``OptionError`` otherwise)."""
    found = re.fullmatch(_DURATION, str(text).lower())
    if found is None:
        raise OptionError(
            f"{what} {text!r}: expected a number and a unit (s, m, h, d, w), e.g. 3d or 12h",
            code="bad-deadline",
        )
    return int(found[1]) * _UNITS[found[2]]


def duration_words(seconds: int) -> str:
    """``3 days``, ``12 hours``, ``1 day 6 hours`` (at most two units, the largest first)."""
    parts = []
    for name, size in (("week", 604800), ("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and len(parts) < 2:
            n, seconds = divmod(seconds, size)
            parts.append(f"{n} {name}{'s' if n != 1 else ''}")
    if seconds and len(parts) < 2 or not parts:
        parts.append(f"{seconds} second{'s' if seconds != 1 else ''}")
    return " ".join(parts)


@attrs.frozen
class Deadline:
    """A hosted game's time per move (in its header, so in its id): ``seconds`` per move,
    a reminder ``remind`` seconds before the end (0: none), and the ``policy`` at the end; a
    bot's ``level`` (the ``bot`` policy only, else '')."""

    seconds: int
    policy: str
    remind: int = 0
    level: str = ""

    @classmethod
    def of(cls, seconds: int, policy: str, remind: int | None = None, level: str = "") -> Deadline:
        """A new game's deadline, checked (``OptionError``); ``remind`` by default a quarter of
        the time before the end; ``level`` by default ``easy`` under the bot policy."""
        if policy not in POLICIES:
            raise OptionError(
                f"no deadline policy {policy!r} (policies: {', '.join(POLICIES)})",
                code="bad-deadline",
            )
        if policy == "bot":
            level = level or "easy"
        elif level:
            raise OptionError("a bot level goes with the bot policy only", code="bad-deadline")
        remind = seconds // 4 if remind is None else remind
        deadline = cls(seconds, policy, remind, level)
        why = deadline.problem()
        if why:
            raise OptionError(why, code="bad-deadline")
        return deadline

    def problem(self) -> str:
        """What is wrong with this deadline ('' nothing): the one check of its fields."""
        if type(self.seconds) is not int or not 60 <= self.seconds <= MAX_SECONDS:
            return "the time per move must be a minute to a year"
        if self.policy not in POLICIES:
            return f"no deadline policy {self.policy!r}"
        if type(self.remind) is not int or not 0 <= self.remind < self.seconds:
            return "the reminder goes before the deadline (0 to the time per move)"
        if type(self.level) is not str or (self.level in BOT_LEVELS) != (self.policy == "bot"):
            return "a bot level goes with the bot policy, and only with it"
        return ""

    def to_list(self) -> list:
        return [self.seconds, self.policy, self.remind, self.level]

    @classmethod
    def read(cls, value) -> Deadline:
        """A header's ``deadline`` field (``ValueError`` with the reason otherwise)."""
        if type(value) not in (tuple, list) or len(value) != 4:
            raise ValueError("deadline: not [seconds, policy, remind, level]")
        deadline = cls(*value)
        why = deadline.problem()
        if why:
            raise ValueError(f"deadline: {why}")
        return deadline

    @classmethod
    def in_header(cls, m: dict, version: int) -> Deadline | None:
        """A header map's deadline: in every file of format ``version`` and in no other."""
        if ("deadline" in m) != (m["version"] == version):
            raise ValueError(f"deadline: a hosted game's, in file format v{version} (every one)")
        return cls.read(m["deadline"]) if "deadline" in m else None

    def words(self) -> str:
        """``3 days a move; a reminder 18 hours before; then forfeit``."""
        then = {
            "wait": "then reminders only",
            "forfeit": "then the late player forfeits",
            "bot": f"then a bot ({self.level}) moves for the late player",
        }[self.policy]
        remind = f"; a reminder {duration_words(self.remind)} before" if self.remind else ""
        return f"{duration_words(self.seconds)} a move{remind}; {then}"


def stamp_words(stamp: int) -> str:
    """A judge's time in words (UTC, ISO 8601)."""
    return _dt.datetime.fromtimestamp(stamp, _dt.UTC).isoformat().replace("+00:00", "Z")


def created_stamp(created: str) -> int:
    """The header's creation time as the game's first time (a setup record carries none)."""
    when = _dt.datetime.fromisoformat(created)
    if when.tzinfo is None:
        when = when.replace(tzinfo=_dt.UTC)
    return int(when.timestamp())


class DeadlineClock:
    """The judge's times in a log, and since when the game has waited for each seat.

    ``observe`` is called with the seats the game waits for after each record (before the
    next one is taken): a seat that starts waiting then starts its time at the last record's
    time.  Every copy folds the same records, so every copy holds the same times."""

    __slots__ = ("deadline", "last", "observed", "acting", "since")

    def __init__(self, deadline: Deadline, created: str) -> None:
        self.deadline = deadline
        self.last = created_stamp(created)  # the time of the last record
        self.observed = -1  # the record after which the seats waited for were last noted
        self.acting: tuple[int, ...] = ()
        self.since: dict[int, int] = {}  # seat -> when the game began to wait for it

    def observe(self, seq: int, acting: tuple[int, ...]) -> None:
        """The seats the game waits for after record ``seq`` (noted once per record)."""
        if seq == self.observed:
            return
        self.observed = seq
        self.since = {s: self.since.get(s, self.last) for s in acting}
        self.acting = acting

    def check_time(self, stamp) -> None:
        """A record's time: an int, never before the last record's (``IllegalCommand``)."""
        if type(stamp) is not int or not self.last <= stamp < _LAST_TIME:
            shown = stamp_words(stamp) if type(stamp) is int and 0 <= stamp < _LAST_TIME else "?"
            raise IllegalCommand(
                f"the judge's time of the record ({shown}) is not a time at or after the last "
                f"record's ({stamp_words(self.last)})",
                code="bad-time",
                rule=ENGINE_RULE,
            )

    def due(self, seat: int) -> int | None:
        """When ``seat``'s time runs out (None: the game does not wait for it)."""
        since = self.since.get(seat)
        return None if since is None else since + self.deadline.seconds

    def check_record(self, players, seat: int, stamp: int, forfeit: bool) -> None:
        """A deadline record for ``seat`` at ``stamp``: the header's policy makes one of its
        kind, the game waits for that seat, and its time has run out (``IllegalCommand``)."""
        policy = self.deadline.policy
        who = players[seat] if 0 <= seat < len(players) else f"seat {seat}"
        if policy != ("forfeit" if forfeit else "bot"):
            made = "a forfeit" if forfeit else "a move for a late player"
            raise _refused(
                f"a deadline record ({made}) where the header's policy is {policy!r}",
            )
        due = self.due(seat)
        if due is None:
            raise _refused(f"a deadline record for {who}, whom the game does not wait for")
        if stamp < due:
            raise _refused(
                f"a deadline record for {who} at {stamp_words(stamp)}, before their time runs "
                f"out ({stamp_words(due)})"
            )


def _refused(why: str) -> IllegalCommand:
    return IllegalCommand(why, code="bad-deadline", rule=ENGINE_RULE)
