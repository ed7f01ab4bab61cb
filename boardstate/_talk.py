"""Records every game gets from the engine: a note, a resignation, a draw offered and accepted.

They are open ``MOVE`` records whose command is one of the engine's words; no module sees them,
and they change no module state.  Any player may give them at any time while the game is on,
in or out of turn (a player by mail resigns when they like).  Their effect is the engine's:

- ``note TEXT``: a remark for the others, kept in the log (at most ``MAX_NOTE`` characters);
- ``resign``: the game ends at once; every other player wins;
- ``offer draw``: stands until the offering player's next move of the game (or a withdrawal:
  ``withdraw draw``); ``accept draw`` by every other player ends the game drawn.

``verify`` re-checks them like every record: a resignation after the end, an acceptance with no
offer standing, an empty note are refused.
"""

from __future__ import annotations

from ._decider import ENGINE_RULE
from ._errors import IllegalCommand
from ._module import Outcome

MAX_NOTE = 500
WORDS = ("resign", "offer draw", "accept draw", "withdraw draw")


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
    """The engine's side of a game: draw offers standing, and an end the players agreed on."""

    __slots__ = ("offers", "ended")

    def __init__(self) -> None:
        self.offers: set[int] = set()
        self.ended: Outcome | None = None

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

    def said(self, players, seat: int, command: str) -> None:
        """Fold a checked command into the engine's side."""
        n = len(players)
        if command == "resign":
            winners = tuple(s for s in range(n) if s != seat)
            self.ended = Outcome(
                scores=tuple(0 if s == seat else 1 for s in range(n)),
                winners=winners,
                reason=f"{players[seat]} resigned",
            )
        elif command in ("offer draw", "accept draw"):
            self.offers.add(seat)
            if len(self.offers) == n:
                self.ended = Outcome(
                    scores=(0,) * n, winners=tuple(range(n)), reason="a draw, agreed"
                )
        elif command == "withdraw draw":
            self.offers.discard(seat)

    def moved(self, seat: int) -> None:
        """A move of the game itself withdraws its player's draw offer (one is answered, not
        kept for later)."""
        self.offers.discard(seat)
