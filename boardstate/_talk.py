"""Records every game gets from the engine: a note, a resignation, a draw offered and accepted,
a takeback asked for and answered.

They are open ``MOVE`` records whose command is one of the engine's words; no module sees them,
and they change no module state.  Any player may give them at any time while the game is on,
in or out of turn (a player by mail resigns when they like).  Their effect is the engine's:

- ``note TEXT``: a remark for the others, kept in the log (at most ``MAX_NOTE`` characters);
- ``resign``: the game ends at once; every other player wins;
- ``offer draw``: stands until the offering player's next move of the game (or a withdrawal:
  ``withdraw draw``); ``accept draw`` by every other player ends the game drawn;
- ``forfeit``: the late player loses and every other player wins, as by a resignation; said
  only by a hosted game's judge in a deadline record (``_deadline``: the trust plug checks the
  deadline had passed), never by a player;
- ``ask takeback``: the asker asks to take back their last turn; ``accept takeback`` by every
  other player takes it back (``boardstate._takeback``: what is taken back, and when it is
  refused); ``refuse takeback`` by any of them, ``withdraw takeback`` by the asker, or any
  record of the game itself (the game went on) ends the request.

``verify`` re-checks them like every record: a resignation after the end, an acceptance with no
offer standing, an empty note are refused.
"""

from __future__ import annotations

from ._decider import ENGINE_RULE
from ._errors import IllegalCommand
from ._module import Outcome

MAX_NOTE = 500
TAKEBACK_WORDS = ("ask takeback", "accept takeback", "refuse takeback", "withdraw takeback")
FORFEIT = "forfeit"  # the judge's deadline record only (``_deadline``; the trust plug checks it)
WORDS = ("resign", "offer draw", "accept draw", "withdraw draw", *TAKEBACK_WORDS, FORFEIT)


def canonical(text: str) -> str | None:
    """The engine's command ``text`` is (normalised), or None: a command for the module."""
    t = " ".join(text.split())
    low = t.lower()
    if low in WORDS:
        return low
    if low.startswith("note ") or low == "note":
        return "note " + t[5:].strip() if len(t) > 4 else "note"
    return None


class Talk:
    """The engine's side of a game: draw offers standing, a takeback asked for (``asker``, and
    the seats that have ``accepted`` it, the asker's own included), and an end the players
    agreed on."""

    __slots__ = ("offers", "ended", "asker", "accepted")

    def __init__(self) -> None:
        self.offers: set[int] = set()
        self.ended: Outcome | None = None
        self.asker: int | None = None
        self.accepted: set[int] = set()

    def check(self, players, seat: int, command: str, over: bool) -> None:
        """Refuse what cannot be said now (IllegalCommand naming the engine's rule)."""
        who = players[seat]
        if over:
            raise IllegalCommand(
                f"the game is over: {who} cannot {command}", code="game-over", rule=ENGINE_RULE
            )
        if command.startswith("note"):
            text = command[5:]
            if not text or len(text) > MAX_NOTE:
                raise IllegalCommand(
                    f"a note holds 1 to {MAX_NOTE} characters", code="bad-note", rule=ENGINE_RULE
                )
        elif command == "accept draw":
            if not self.offers - {seat}:
                raise IllegalCommand("no draw is offered", code="no-offer", rule=ENGINE_RULE)
        elif command == "withdraw draw" and seat not in self.offers:
            raise IllegalCommand(
                f"{who} has no draw offer standing", code="no-offer", rule=ENGINE_RULE
            )
        elif command in TAKEBACK_WORDS:
            self._check_takeback(players, seat, command)

    def _check_takeback(self, players, seat: int, command: str) -> None:
        who, asker = players[seat], self.asker
        if command == "ask takeback":
            if asker is not None:
                raise IllegalCommand(
                    f"{players[asker]} has asked to take back a move: that is answered first",
                    code="takeback-asked",
                    rule=ENGINE_RULE,
                )
        elif asker is None:
            raise IllegalCommand("no takeback is asked", code="no-takeback", rule=ENGINE_RULE)
        elif command == "withdraw takeback":
            if seat != asker:
                raise IllegalCommand(
                    f"{who} has asked for no takeback ({players[asker]} has)",
                    code="no-takeback",
                    rule=ENGINE_RULE,
                )
        elif seat == asker:
            raise IllegalCommand(
                f"{who} asked for the takeback: the other players answer it",
                code="no-takeback",
                rule=ENGINE_RULE,
            )
        elif seat in self.accepted:
            raise IllegalCommand(
                f"{who} has accepted the takeback already", code="answered", rule=ENGINE_RULE
            )

    def said(self, players, seat: int, command: str) -> int | None:
        """Fold a checked command into the engine's side; the asker's seat when it completes
        a takeback (every other player has accepted it: the caller takes the move back)."""
        n = len(players)
        if command in ("resign", FORFEIT):  # (the player loses, every other player wins)
            why = "resigned" if command == "resign" else "forfeited (no move by the deadline)"
            self.ended = Outcome(
                scores=tuple(0 if s == seat else 1 for s in range(n)),
                winners=tuple(s for s in range(n) if s != seat),
                reason=f"{players[seat]} {why}",
            )
        elif command in ("offer draw", "accept draw"):
            self.offers.add(seat)
            if len(self.offers) == n:
                self.ended = Outcome(
                    scores=(0,) * n, winners=tuple(range(n)), reason="a draw, agreed"
                )
        elif command == "withdraw draw":
            self.offers.discard(seat)
        elif command == "ask takeback":
            self.asker, self.accepted = seat, {seat}
        elif command == "accept takeback":
            self.accepted.add(seat)
            if len(self.accepted) == n:
                asker, self.asker, self.accepted = self.asker, None, set()
                return asker
        elif command in ("refuse takeback", "withdraw takeback"):
            self.asker, self.accepted = None, set()
        return None

    def answering(self, players) -> tuple[int, ...]:
        """The seats asked to answer the takeback standing (none: no request stands)."""
        if self.asker is None:
            return ()
        return tuple(s for s in range(len(players)) if s not in self.accepted)

    def moved(self, seat: int) -> None:
        """A record of the game itself withdraws its player's draw offer (one is answered, not
        kept for later) and ends a takeback asked for (the game went on: what was asked for
        is no longer the last turn)."""
        self.offers.discard(seat)
        if self.asker is not None:
            self.asker, self.accepted = None, set()
