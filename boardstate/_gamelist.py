"""A player's list of games: the game files in some folders, each in one row that says what it
is, whose move it is as its viewer sees it, since when, what it waits for and how it ended.

Files are told apart by their first bytes, before any is read as a game: a move file, a
request for a judge (kept: it says that a hosted copy waits for the judge's answer), a key or
any other file is left out; a file that starts as a game file and cannot be read is listed with
the one-line reason.  A game is read as ``show`` reads it (``load_game``).
"""

from __future__ import annotations

import datetime as _dt
import os
import time
from pathlib import Path

import attrs

from ._armor import dearmor, is_armored
from ._deadline import stamp_words
from ._errors import BoardstateError, GameFileError
from ._fileformat import read_raw
from ._hosted import MAX_REQUEST_BYTES, decode_request, is_request
from ._loading import load_game
from ._module import Choice
from ._words import acting_words, outcome_line

_PREFIX_BYTES = 4096  # enough to see a header's format and kind, or an armored text's marker
_BOARDSTATE = b"\xa6format\xaaboardstate"  # every header and request starts with this pair
_MOVE_KIND = b"\xa4kind\xa4move"
_GIST_GROUPS = 4  # the kinds of command named in what a move waits for


@attrs.frozen
class ListedGame:
    """One row of the list: a game file, or a game file that cannot be read (``error``)."""

    path: str
    modified: float  # the file's modification time (seconds since the epoch)
    now: float  # when the list was made: the age is counted to it
    error: str | None = None
    game_id: str | None = None
    module: str | None = None  # the module's id
    module_name: str | None = None
    edition: str | None = None
    trust: str | None = None
    copy: str | None = None  # full | player | view | invitation
    players: tuple[str, ...] = ()
    you: str | None = None  # the seat the row is seen from: the copy's viewer, or --as
    whose: str | None = None  # yours | theirs | judge | nobody (None: seen from no seat)
    to_act: tuple[str, ...] = ()
    turn: str = ""  # whose move, in words
    waits: str = ""  # what the game waits for, in words
    result: str | None = None  # the outcome line, when the game is over
    deadline: str | None = None  # a judge's game with a deadline: when the mover's time runs out

    @property
    def yours(self) -> bool:
        return self.whose == "yours"

    @property
    def age_seconds(self) -> int:
        return max(0, int(self.now - self.modified))

    @property
    def age(self) -> str:
        return age_words(self.age_seconds)

    @property
    def since(self) -> str:
        """The modification time as a local date and time (to the minute)."""
        return _dt.datetime.fromtimestamp(self.modified).astimezone().strftime("%Y-%m-%d %H:%M")

    def to_json(self) -> dict:
        """The row with stable keys (every key present; null when it does not apply)."""
        return {
            "file": self.path,
            "error": self.error,
            "game_id": self.game_id,
            "module": self.module,
            "module_name": self.module_name,
            "edition": self.edition,
            "trust": self.trust,
            "copy": self.copy,
            "players": list(self.players),
            "you": self.you,
            "whose": self.whose,
            "to_act": list(self.to_act),
            "turn": self.turn,
            "waits": self.waits,
            "result": self.result,
            "deadline": self.deadline,
            "since": _dt.datetime.fromtimestamp(self.modified)
            .astimezone()
            .isoformat("T", "seconds"),
            "age": self.age,
            "age_seconds": self.age_seconds,
        }


def age_words(seconds: int) -> str:
    """``under a minute``, ``5 minutes``, ``1 hour``, ``3 days``."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return "under a minute"


def list_games(
    folders, *, recursive: bool = False, player: str | None = None, now: float | None = None
) -> list[ListedGame]:
    """The game files in ``folders`` (their subfolders too with ``recursive``), one row each:
    the games whose move is yours first, then the oldest first.  ``player``: the seat a game
    file without a viewer (an open game, an invitation) is seen from.  A folder that does not
    exist is a ``GameFileError``; a game file that cannot be read is a row with its reason."""
    now = time.time() if now is None else now
    folders = [Path(f) for f in folders]
    for folder in folders:
        try:
            is_folder = folder.is_dir()
        except OSError as exc:  # (a name too long, no permission: what pathlib does not hide)
            raise GameFileError(
                f"{folder}: cannot read ({exc.strerror})", code="no-folder"
            ) from None
        if not is_folder:
            missing = not os.path.exists(folder)
            said = "no such folder" if missing else "not a folder"
            raise GameFileError(f"{folder}: {said}", code="no-folder")
    games, requests = [], []
    for path in _files(folders, recursive):
        kind = _kind(path)
        if kind == "game":
            games.append(path)
        elif kind == "request":
            requests.append(path)
    asked = _requests(requests)
    rows = [r for r in (_row(path, now, player, asked) for path in games) if r is not None]
    mine = {r.game_id for r in rows if r.copy in ("player", "view")}
    rows = [r for r in rows if not (r.copy == "invitation" and r.game_id in mine)]
    return sorted(rows, key=lambda r: (not r.yours, r.modified, r.path))


# ------------------------------------------------------------------------- finding the files
def _files(folders, recursive: bool):
    """Each regular file once, hidden names left out, in name order; then each subfolder that
    cannot be listed (no permission), to be listed with that reason, not passed over."""
    seen = set()
    unlisted = []
    for folder in folders:
        walk = (
            os.walk(folder, onerror=unlisted.append)
            if recursive
            else [(str(folder), [], _names(folder))]
        )
        for where, subfolders, names in walk:
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(names):
                path = Path(where) / name
                if name.startswith(".") or not path.is_file():
                    continue
                key = os.path.realpath(path)
                if key not in seen:
                    seen.add(key)
                    yield path
    yield from (Path(exc.filename) for exc in unlisted)


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError as exc:
        raise GameFileError(f"{folder}: cannot read ({exc.strerror})", code="unreadable") from None


def _kind(path: Path) -> str:
    """``game`` (or a file that starts as one), ``request``, or ``other`` (a move file, a key,
    anything else), from the file's first bytes."""
    try:
        with open(path, "rb") as f:
            prefix = f.read(_PREFIX_BYTES)
    except OSError:
        return "game"  # (listed with the reason it cannot be read)
    if is_armored(prefix):  # (a move or request pasted as text: never a game file)
        return "request" if _armored_request(path) is not None else "other"
    if _BOARDSTATE not in prefix[:64]:
        return "other"
    if is_request(prefix):
        return "request"
    return "other" if _MOVE_KIND in prefix[:64] else "game"


def _armored_request(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as f:
            data = dearmor(f.read(4 * MAX_REQUEST_BYTES), str(path))
    except (OSError, BoardstateError):
        return None
    return data if is_request(data) else None


def _requests(paths) -> set[tuple[bytes, int, int]]:
    """``(game id, seat, base)`` of each readable request: what a hosted copy has asked of the
    judge (a request whose base is the copy's last record is still unanswered)."""
    asked = set()
    for path in paths:
        try:
            data = _armored_request(path)
            if data is None:
                with open(path, "rb") as f:
                    data = f.read(MAX_REQUEST_BYTES + 1)
            request = decode_request(data, str(path))
        except (OSError, BoardstateError):
            continue
        asked.add((request.game_id, request.actor, request.base))
    return asked


# ------------------------------------------------------------------------- one row
def _row(path: Path, now: float, player: str | None, asked) -> ListedGame | None:
    try:
        modified = path.stat().st_mtime
    except OSError:
        modified = now
    try:
        raw = read_raw(path)
        if raw.header.kind != "game":  # (a move file that did not say so in its first bytes)
            return None
        game = load_game(raw)
        return _described(game, ListedGame(str(path), modified, now), player, asked)
    except BoardstateError as exc:
        why = str(exc)
    except MemoryError:
        why = "out of memory: this file needs more memory than the process may use"
    except Exception as exc:  # (a bug: said in the row, the rest of the list goes on)
        why = f"internal error: {type(exc).__name__}: {exc} (please report this)"
    prefix = f"{path}: "
    why = why[len(prefix) :] if why.startswith(prefix) else why
    return ListedGame(str(path), modified, now, error=" ".join(why.split()))


def _described(game, row: ListedGame, player: str | None, asked) -> ListedGame:
    header = game.header
    you = header.viewer
    if you is None and player in header.players:
        you = header.players.index(player)
    outcome = game.outcome()
    acting = game.to_act()
    whose, turn = _whose(game, you, acting, outcome, asked)
    edition = header.option_map.get("edition")
    return attrs.evolve(
        row,
        game_id=header.game_id.hex(),
        module=header.module,
        module_name=game.module.spec.name,
        edition=edition if type(edition) is str else None,
        trust=header.trust,
        copy=_copy(header),
        players=tuple(header.players),
        you=None if you is None else header.players[you],
        whose=whose,
        to_act=() if outcome is not None else tuple(header.players[s] for s in acting),
        turn=turn,
        waits="" if outcome is not None else _waits(game, you, acting, whose),
        result=None if outcome is None else outcome_line(header.players, outcome),
        deadline=_deadline(game, you),
    )


def _deadline(game, you: int | None) -> str | None:
    """When the time runs out for the move the game waits for (yours if it waits for you, else
    the first to run out), as the copy's own log says it (``game.trust.deadlines``), with the
    policy: ``2026-11-27T10:00:00Z (then forfeit)``; None in a game with no deadline."""
    deadline = game.header.deadline
    if deadline is None or game.outcome() is not None:
        return None
    due = game.trust.deadlines(game)
    when = due.get(you) if you in due else min(due.values(), default=None)
    return None if when is None else f"{stamp_words(when)} (then {deadline.policy})"


def _copy(header) -> str:
    """What the file is: the ``full`` log, a ``player``'s own copy (peer, hosted), a player's
    ``view`` (``boardstate view``), or an ``invitation`` (no viewer, no seed)."""
    if header.viewer is not None:
        return "player" if header.signed else "view"
    if header.signed and header.seed is None:
        return "invitation"
    return "full"


def _whose(game, you, acting, outcome, asked) -> tuple[str | None, str]:
    """Whose move it is as seat ``you`` sees it: ``(key, words)``."""
    if outcome is not None:
        return "nobody", "nobody"
    if you is None:
        return None, acting_words(game)
    if _asked_judge(game, you, asked):
        return "judge", "the judge's"
    if you in acting:
        return "yours", "yours"
    return "theirs", f"theirs: {acting_words(game)}"


def _asked_judge(game, you: int, asked) -> bool:
    """A hosted player's copy waits for the judge's answer to its request: its join (made
    with the copy, which holds no join until the answer), or a request in the listed folders
    made on the copy's last record."""
    header = game.header
    if not header.hosted or header.viewer != you:
        return False
    return you not in game.keys or (header.game_id, you, game.last_seq) in asked


def _waits(game, you, acting, whose) -> str:
    """What the game waits for, in words: the judge's answer, joins and shares of the
    randomness (the trust mode's words), a reveal, sealed or face-down choices, a move (and
    the kinds of command it may be, where this copy may list them)."""
    if whose == "judge":
        return f"waiting for the judge's answer to {game.players[you]}'s request"
    waiting = game.waiting_text()
    if waiting:
        return waiting
    names = acting_words(game)
    if game.reveal_due():
        return f"waiting for {names} to reveal"
    phase = game.phase()
    if phase is not None:
        done = ", ".join(game.players[s] for s in phase.commits)
        return f"waiting for {names} to choose, sealed" + (f" ({done} committed)" if done else "")
    if game.facts()[2] == Choice.FACE_DOWN:
        return f"waiting for {names} to lay a choice face down"
    gist = _gist(game, you, acting)
    return f"waiting for {names} to move" + (f": {gist}" if gist else "")


def _gist(game, you, acting) -> str:
    """The kinds of command the acting seats may give, grouped by their first word
    (``defend …, no defence``), where this copy may list them: its viewer's own, or anyone's
    in a file that holds every secret."""
    header = game.header
    seats = [you] if header.viewer is not None else ([] if header.signed else list(acting))
    groups: dict[str, list[str]] = {}
    try:
        for seat in seats:
            if seat in acting:
                for command in game.legal(seat):
                    groups.setdefault(command.split(" ", 1)[0], []).append(command)
    except BoardstateError:
        return ""
    said = [c[0] if len(c) == 1 else f"{c[0].split(' ', 1)[0]} …" for c in groups.values()]
    return ", ".join(said[:_GIST_GROUPS]) + (", …" if len(said) > _GIST_GROUPS else "")
