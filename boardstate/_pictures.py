"""Pictures for notebooks: a game, and a position in it, as Jupyter shows them.

IPython asks an object it displays for ``_repr_html_`` and ``_repr_svg_``; ``Game`` answers
through the functions here, and ``Game.position`` gives a ``Position``: one state of a game (the
state after one record) as one seat sees it.  Every picture and every text is drawn from a
*view* (``Decider.view``): a spectator's holds no secret, a player's only that player's, so a
notebook shows nothing the command line would not (``boardstate show --as``).  The picture is the
module's optional ``svg(state, seat)``; a module that draws none is shown as its text.
``Position.png()`` draws that picture as PNG (``_png``: cairosvg), for saving; a notebook is
not given PNGs (``_repr_png_``): drawing one takes most of a second.
"""

from __future__ import annotations

import html
import re
from functools import cached_property

import attrs

from ._decider import _drawn
from ._png import svg_to_png
from ._takeback import states_after
from ._words import describe, status_lines

LAST_MOVES = 5
"""How many of the last records a game's HTML lists, in words."""

_PROLOG = re.compile(r"\A\s*(<\?xml[^>]*\?>\s*)?(<!DOCTYPE[^>]*>\s*)?", re.IGNORECASE)


def state_after(game, index: int):
    """The state after record ``index`` (the events of records ``0..index`` folded; a takeback
    accepted: the state before the turn it took back)."""
    return states_after(game, index)[index]


def _check_index(position: Position, attribute, index) -> None:
    game = position.game
    if type(index) is not int or not 0 <= index < game.seq:
        raise IndexError(f"no record {index!r} in this game (records 0-{game.last_seq})")
    if index != game.last_seq and len(game.records) != game.seq:
        raise IndexError("this game keeps no records: only its current position can be shown")


def _check_seat(position: Position, attribute, seat) -> None:
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(position.game.players)):
        raise IndexError(
            f"no seat {seat!r} in this game (seats 0-{len(position.game.players) - 1})"
        )


@attrs.frozen(slots=False)
class Position:
    """The state after record ``index`` of ``game``, as ``seat`` sees it (None: a spectator).

    Made by ``Game.position``; immutable.  In a notebook it displays as the module's picture
    (``_repr_svg_``, ``_repr_html_``); ``svg()`` and ``text()`` give the picture and the text.
    """

    game = attrs.field(repr=False)  # (compared by identity: one game, one log)
    index: int = attrs.field(validator=_check_index)
    seat: int | None = attrs.field(default=None, validator=_check_seat)

    def __attrs_post_init__(self) -> None:
        self.state, self.record  # noqa: B018  (taken now: the game may go on, or be undone)

    @cached_property
    def state(self):
        """The state after record ``index`` (the engine's: it may hold every secret)."""
        game = self.game
        if self.index == game.last_seq:  # (the live state: no need to fold the log again)
            return game.state
        return state_after(game, self.index)

    @cached_property
    def viewed(self):
        """What ``seat`` may see of the state (others' secrets sealed; a spectator: none)."""
        return self.game.decider.view(self.state, self.seat)

    @cached_property
    def record(self):
        """The record this position is the state after (None: a game that keeps no records)."""
        records = self.game.records
        return records[self.index] if self.index < len(records) else None

    def svg(self) -> str | None:
        """The module's picture of the position (None: the module draws none)."""
        draw = getattr(self.game.module.rules, "svg", None)
        if draw is None:
            return None
        return _drawn(draw, self.viewed, self.seat)

    def png(self, *, scale: float = 1.0) -> bytes | None:
        """The module's picture drawn as PNG, ``scale`` times its own size, for mail, forums
        or a document (None: the module draws none).  Needs cairosvg (``boardstate[png]``):
        without it, ``PngUnavailable`` says what to install."""
        picture = self.svg()
        return None if picture is None else svg_to_png(picture, scale=scale)

    def text(self) -> str:
        """The position as text (the module's ``render``), as ``seat`` sees it."""
        return self.game.decider.render(self.viewed, self.seat)

    def report(self) -> str:
        """What the record settled, in the module's words ('' when nothing new)."""
        decider = self.game.decider
        line = decider.report(self.viewed)
        if not line or self.index == 0:
            return line or ""
        before = decider.view(state_after(self.game, self.index - 1), self.seat)
        return "" if line == decider.report(before) else line

    def _repr_svg_(self) -> str | None:
        return self.svg()

    def _repr_html_(self) -> str:
        game = self.game
        record = self.record
        what = f" ({describe(game, record, self.seat)})" if record is not None else ""
        parts = [
            '<div class="boardstate-position">',
            _p(
                f"<strong>{_e(game.module.spec.name)}</strong>: after record {self.index}"
                f"{_e(what)}, {_e(_seen_by(game, self.seat))}"
            ),
        ]
        report = self.report()
        if report:
            parts.append(_p(_e(report)))
        parts.append(_picture(self))
        parts.append("</div>")
        return "\n".join(parts)


# ---------------------------------------------------------------------------------- the game
def game_html(game) -> str:
    """A game in a notebook: what it is, who plays, where it stands, the position as this copy's
    player sees it (a full game: as a spectator), and the last moves in words."""
    viewer = game.header.viewer
    spec = game.module.spec
    header = game.header
    count = game.seq
    position = game.position(seat=viewer)
    about = (
        f"<strong>{_e(spec.name)}</strong> ({_e(header.module)}, rules revision "
        f"{header.revision}, {_e(header.trust)} mode): {_e(', '.join(game.players))}; "
        f"{count} record{'s' if count != 1 else ''}; {_e(_seen_by(game, viewer))}"
    )
    parts = ['<div class="boardstate-game">', _p(about)]
    parts.extend(_p(_e(line)) for line in status_lines(game, viewer))
    report = position.report()
    if report:
        parts.append(_p(_e(report)))
    parts.append(_picture(position))
    if game.records:
        first = max(0, len(game.records) - LAST_MOVES)
        parts.append(_p("Last moves:" if first else "Moves:"))
        parts.append(f'<ol start="{first}">')
        parts.extend(
            f"<li>{_e(describe(game, record, viewer))}</li>" for record in game.records[first:]
        )
        parts.append("</ol>")
    parts.append("</div>")
    return "\n".join(parts)


# ---------------------------------------------------------------------------------- helpers
def _seen_by(game, seat: int | None) -> str:
    return "as a spectator sees it" if seat is None else f"as {game.players[seat]} sees it"


def _picture(position: Position) -> str:
    """The module's SVG inline (its XML prolog dropped), else its text in a ``<pre>``."""
    picture = position.svg()
    if picture is not None:
        return f'<div class="boardstate-picture">{_PROLOG.sub("", picture, count=1)}</div>'
    return f'<pre class="boardstate-text">{_e(position.text())}</pre>'


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _p(inner: str) -> str:
    return f"<p>{inner}</p>"
