"""What the judge mails a player, and when.

A game's ``mail`` setting (in the store, chosen when the game is made) decides when: with
``digest`` (the default) a player is mailed when the game needs them (they are among those to
act next: a move, a defence, a reveal, a choice) or when it ends, and then once, with every
record since their last mail in one move file; with ``every-record`` every player is mailed the
records of every request as they are made.

Each mail says what happened since the player's last mail (``_words``, as that player sees it),
whose turn it is, the player's table as text and as a picture (a PNG shown in the mail, drawn
with cairosvg from the module's SVG, which is attached too), and the commands to type, with the
real names of the files: the player's copy as the invitation named it and the attachment's.

The PNG is drawn when the mail is sent (``drawn``), not when its request is judged: drawing
costs 50-100 ms of CPU a picture, twenty times the judging, so the store queues the mail with
its SVG in the request's transaction (all a crash needs to send it again) and the sender draws.
"""

from __future__ import annotations

import attrs

from .._deadline import stamp_words
from .._errors import GameFileError
from .._fileformat import encode_game, encode_moves, encode_public
from .._png import svg_to_png
from .._words import records_lines, table_text, turn_line
from ._types import Outgoing

TAG = "[boardstate]"


@attrs.frozen
class Names:
    """The file names the judge's mails use for one game: every name starts with the module
    and the game id's first 8 hex digits, so two games' files never meet in one folder."""

    stem: str

    @classmethod
    def of(cls, module: str, game_id: bytes) -> Names:
        return cls(f"{module}-{game_id.hex()[:8]}")

    @property
    def invite(self) -> str:
        return f"{self.stem}-invite.msgpack"

    @property
    def log(self) -> str:
        return f"{self.stem}-log.msgpack"

    def copy(self, name: str) -> str:
        """The player's own copy, as the invitation tells them to name it."""
        return f"{self.stem}-{name}.msgpack"

    def join(self, name: str) -> str:
        return f"{self.stem}-{name}-join.request"

    def request(self, name: str, seq: int) -> str:
        return f"{self.stem}-{name}-{seq:04d}.request"

    def moves(self, name: str, first: int, last: int) -> str:
        return f"{self.stem}-{name}-{first:04d}-{last:04d}.msgpack"

    def pictures(self, name: str, last: int) -> str:
        """The table's pictures after record ``last``: this, then ``.png`` or ``.svg``."""
        return f"{self.stem}-{name}-{last:04d}"


def check_pictures() -> None:
    """The judge draws each mail's picture with cairosvg (and Debian's libcairo2): say so
    in one line when it cannot."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as exc:  # (OSError: the library libcairo2 is missing)
        why = " ".join(str(exc).split())[:120]
        raise GameFileError(
            f"the judge draws its mails' pictures with cairosvg, which does not load ({why}): "
            f"install boardstate[judge] and Debian's libcairo2",
            code="missing-driver",
        ) from None


def invitations(game, players) -> list[Outgoing]:
    """Each player's invitation: the game to join from, and the command that joins it."""
    header = game.header
    names = Names.of(header.module, header.game_id)
    invite = encode_public(game)
    return [
        Outgoing(
            address,
            f"{TAG} {header.module} {header.game_id.hex()[:12]}: you are invited as {name}",
            f"You are invited to a {header.module} game refereed by this judge, as {name}.\n"
            f"Join it from the attached invitation and mail the request back:\n\n"
            f"    boardstate join {names.invite} --as {name} -o {names.copy(name)} "
            f"--reply {names.join(name)}\n\n"
            f"The judge mails you again when the game needs you (your move, a defence, a "
            f"choice) and when it ends.\n",
            ((names.invite, invite),),
            "invitation",
        )
        for name, address in players
    ]


def answers(game, before, askers, players, mailed, mode: str) -> tuple[list, dict[int, int]]:
    """The mail for the records just made (after record ``mailed`` of each seat, to the
    game's last): ``(mails, {seat: the last record mailed to it now})``.

    ``before`` is who was to act before the records, ``askers`` the seats whose requests made
    them.  ``digest``: a seat is mailed when the game is over, or when it is to act now and
    either was not before or asked (it must act again: a new time, with what its move gave).
    ``every-record``: every seat, every time."""
    last = game.last_seq
    over = game.outcome() is not None
    acting = set(game.to_act())
    mails, sent = [], {}
    for seat, (_name, address) in enumerate(players):
        if mailed[seat] >= last:
            continue
        needed = seat in acting and (seat not in before or seat in askers)
        if mode == "every-record" or over or needed:
            kind = "moves" if mode == "every-record" else "digest"
            mails.append(digest(game, seat, address, mailed[seat], kind))
            sent[seat] = last
    return mails, sent


def digest(game, seat: int, address: str, base: int, kind: str = "digest") -> Outgoing:
    """One player's mail: the records after ``base`` to the game's last, in one move file."""
    header = game.header
    names = Names.of(header.module, header.game_id)
    name = game.players[seat]
    first, last = base + 1, game.last_seq
    copy, moves = names.copy(name), names.moves(name, first, last)
    over = game.outcome() is not None
    turn = turn_line(game, seat)
    text = [
        f"{header.module} game {header.game_id.hex()[:12]}, records {first}-{last} "
        f"(since your last mail), as {name} sees them:",
        "",
        *(f"  {line}" for line in records_lines(game, first, last, seat)),
        "",
        turn,
        "",
        "Apply the attached move file to your copy (all of it at once):",
        "",
        f"    boardstate apply {copy} {moves}",
    ]
    if not over and seat in game.to_act():
        request = names.request(name, game.seq)
        text += _deadline_lines(game, seat)
        text += [
            "",
            "then choose your move and mail the request to this address (attached, or its "
            "text with --text):",
            "",
            f"    boardstate legal {copy} --as {name}",
            f"    boardstate move {copy} --as {name} COMMAND -o {request}",
        ]
    attachments = [(moves, encode_moves(game, base, reader=seat))]
    if over:  # (the end: the seed and full log go to everyone)
        attachments.append((names.log, encode_game(game)))
        text += [
            "",
            f"The game is over: {names.log} is the judge's full log with its seed. Audit the "
            f"judge with 'boardstate verify {names.log} --with {copy}' (and the other players' "
            f"copies, if they publish them).",
        ]
    text += ["", f"Your table (boardstate show {copy} --as {name}):", "", table_text(game, seat)]
    stem = names.pictures(name, last)
    svg, why = _svg(game, seat)
    if svg is None:
        text += ["", why]
    else:
        attachments.append((f"{stem}.svg", svg.encode("utf-8")))
    subject = "game over" if over else ("your turn" if seat in game.to_act() else turn)
    return Outgoing(
        address,
        f"{TAG} {header.module} {header.game_id.hex()[:12]}: {subject} (records {first}-{last})",
        "\n".join(text) + "\n",
        tuple(attachments),
        kind,
        stem if svg is not None else "",
    )


def drawn(mail: Outgoing) -> Outgoing:
    """``mail`` as it is sent: its picture (``Outgoing.picture``) drawn as a PNG from its SVG,
    put before the SVG, and a line saying so; a mail with no picture to draw, unchanged.  A
    picture that would not draw costs the mail its PNG and nothing else (the SVG stays)."""
    if not mail.picture:
        return mail
    stem = mail.picture
    svg_name = f"{stem}.svg"
    files = list(mail.attachments)
    at = next((i for i, (name, _) in enumerate(files) if name == svg_name), None)
    if at is None:
        said = f"(No picture: {svg_name} is missing from the queued mail.)"
    else:
        try:
            files.insert(at, (f"{stem}.png", svg_to_png(bytes(files[at][1]).decode("utf-8"))))
            said = f"The table as a picture: {stem}.png (shown in this mail) and {svg_name}."
        except Exception as exc:
            said = (
                f"(No picture in the mail: the table's SVG would not convert to PNG: "
                f"{_why(exc)}; it is attached as {svg_name}.)"
            )
    return attrs.evolve(mail, text=f"{mail.text}\n{said}\n", attachments=tuple(files), picture="")


def _deadline_lines(game, seat: int) -> list[str]:
    """When ``seat``'s time for this move runs out, in a game with a deadline."""
    deadline = game.header.deadline
    due = game.trust.deadlines(game).get(seat) if deadline is not None else None
    if due is None:
        return []
    return ["", f"Your time for this move runs out at {stamp_words(due)} ({deadline.words()})."]


def _svg(game, seat: int) -> tuple[str | None, str]:
    """The table as ``seat`` sees it, as SVG (its PNG is drawn when the mail is sent), or None
    and a line saying why there is none: a module that draws nothing, or a drawing that failed,
    which costs the mail its picture and nothing else."""
    try:
        svg = game.position(seat=seat).svg()
    except Exception as exc:  # (the module's drawing failed: the mail goes without it)
        return None, f"(No picture: the table would not draw: {_why(exc)}.)"
    if svg is None:
        return None, f"(No picture: {game.header.module} draws none.)"
    return svg, ""


def _why(exc: Exception) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:160]
