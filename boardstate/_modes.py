"""What the trust mode adds to a game, asked of its plug (``boardstate.trust``): a ``Game``
answers these questions by asking ``self.trust``, never by asking which mode it is in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._canonical import canonical_region
from ._errors import BoardstateError
from ._module import Choice
from ._records import Record
from ._rng import FastRng

if TYPE_CHECKING:
    from ._hosted import Request


class ModeQuestions:
    """A game's questions about joins, deals, signatures and requests (``Game`` is one)."""

    @property
    def keys(self) -> dict[int, bytes]:
        """Seat -> the Ed25519 public key it joined with (none in the open mode)."""
        return self.trust.keys

    @property
    def exchange(self) -> dict[int, bytes]:
        """Seat -> the X25519 public key its letters are written to."""
        return self.trust.exchange

    @property
    def pending(self):
        """The decision waiting for what the players supply (None: nothing waits)."""
        return self.trust.pending

    @property
    def unmade(self) -> bool:
        """The last decision ran with secrets another copy made (the referee takes those
        from the record)."""
        return self.trust.unmade

    @property
    def links_given(self) -> dict[int, int]:
        return self.trust.links_given

    @property
    def audit_secrets(self) -> dict[int, bytes]:
        """The end-of-game audit: the players' published secrets."""
        return self.trust.audit_secrets

    @audit_secrets.setter
    def audit_secrets(self, secrets: dict[int, bytes]) -> None:
        self.trust.audit_secrets = secrets

    def waiting_for(self) -> tuple[int, ...]:
        """The seats the game waits for to join, or to supply the waiting decision."""
        return self.trust.waiting_for(self)

    def due(self) -> str:
        """What the next record must be: "join", "link", "arrange" or "" (play on); "judge":
        a hosted copy waits for the judge's answer to its player's request."""
        return self.trust.due(self)

    def waiting_text(self) -> str:
        """In words, whom the game waits for (empty: nobody, play on)."""
        due = self.due()
        if not due:
            return ""
        if due == "judge":  # (a hosted copy: its player's request, sent and not answered)
            return self.trust.sent_words(self)
        names = ", ".join(self.players[s] for s in self.waiting_for())
        what = {
            "join": "to join",
            "link": "to add their share of the randomness (a deal record)",
            "arrange": "to arrange their face-down pile (a deal record)",
        }.get(due) or self.trust.due_words(due)  # (a mode's own deals: the shared deck's)
        return f"waiting for {names} {what}"

    def check_join(self, seat: int, sealed) -> tuple:
        """A join: ``(events, state after them)``; ``IllegalCommand`` if it is not one."""
        return self.trust.check_join(self, seat, sealed)

    def check_deal(self, seat: int, sealed) -> tuple:
        """A deal: the supply the waiting decision needs from ``seat``."""
        return self.trust.check_deal(self, seat, sealed)

    def supply(self, seat: int):
        """What this copy supplies as ``seat``'s next deal (it holds their private secret)."""
        return self.trust.supply(self, seat)

    def join(self, seat: int, public_key: bytes) -> list[Record]:
        """This copy's player joins, then deals what is due from them."""
        return self.trust.join(self, seat, public_key)

    def deal_held(self) -> list[Record]:
        """Append the deals due from this copy's player."""
        return self.trust.deal_held(self)

    def check_signature(self, record: Record) -> None:
        """What the mode checks of a record this copy did not make (``IllegalCommand``)."""
        self.trust.check_signature(self, record)

    def check_request(self, request: Request, seq: int | None = None) -> None:
        """A player's request to a judge, to be used as record ``seq`` (``IllegalCommand``)."""
        self.trust.check_request(self, request, seq)

    def request(self, seat: int, text: str) -> Request:
        """A hosted game's player asks the judge for a move (signed; nothing is added)."""
        return self.trust.request(self, seat, text)

    def join_request(self, seat: int, public_key: bytes) -> Request:
        """A hosted game's player asks to join."""
        return self.trust.join_request(self, seat, public_key)

    def judge(self, request: Request) -> list[Record]:
        """The judge's copy makes the records ``request`` asks for."""
        return self.trust.judge(self, request)

    # ------------------------------------------------------------------ a copy by mail
    def keep_in_canonical_order(self) -> None:
        """A copy adding records keeps each step it has not settled with the others in the
        order every copy computes (the peer mode: ``_canonical``; the others have none)."""
        self.keep_canonical = self.trust.keeps_canonical_order
        if self.keep_canonical:
            canonical_region(self)

    def mail_base(self, base: int) -> int:
        """The base of this copy's next move file, from ``base``: before the records it has
        not settled with the others (they commute, and a merge may have put them in another
        order than they were mailed in), so the file carries them all."""
        return min(base, self.region_start - 1) if self.trust.keeps_canonical_order else base

    def reply_may_wait(self) -> bool:
        """May the reply this copy just wrote (its player's reveals and deals) wait for that
        player's next move file, in the same mail?  Only with two players, when that player
        alone may act now: the other's copy lacks what the reply holds and waits for it, so
        nobody can do anything before that player's next mail (docs/trust.md, "A reply held
        for the next move file")."""
        viewer = self.header.viewer
        return (
            viewer is not None
            and len(self.players) == 2
            and self.outcome() is None
            and not self.due()
            and tuple(self.to_act()) == (viewer,)
        )

    def round_trips(self, seat: int) -> list[str]:
        """``seat``'s commands (in notation) after which the game would wait for another
        player's share of the randomness and then ask ``seat`` again: each costs a mail there
        and back before ``seat`` can go on (a card drawn in the middle of one's own turn,
        docs/trust.md, "What no share can ride on").  Found by running the rules on the fast
        path with throwaway randomness, never by a rule of its own.  Empty where the mode's
        randomness waits for nobody, and for a sealed or face-down choice."""
        if (
            not self.trust.randomness_from_others
            or seat not in self.to_act()
            or self.due()
            or self.round is not None
            or self.reveal_due()
            or self.facts()[2] != Choice.OPEN
        ):
            return []
        rules, state = self.rules, self.state
        return [
            rules.notation(state, seat, command)
            for command in rules.legal(state, seat)
            if _asks_again_after_chance(self.decider, state, seat, command)
        ]

    def add_owed(self) -> list[Record]:
        """Append what this copy's player owes now, the reveals and deals due (a deal may let
        a reveal fall due); the records added."""
        added: list[Record] = []
        while True:
            more = self.reveal_held() + self.deal_held()
            if not more:
                return added
            added += more


class _ChanceSeen(FastRng):
    """Throwaway randomness that remembers whether the rules drew any."""

    drawn = False

    def block(self) -> bytes:
        self.drawn = True
        return super().block()


def _asks_again_after_chance(decider, state, seat: int, command) -> bool:
    """Does ``command`` draw randomness and leave ``seat`` to act again, the game not over?"""
    rng = _ChanceSeen(b"", b"probe")
    try:
        after = decider.run(state, ((seat, command),), rng).state
    except BoardstateError:  # (it needs a value this copy does not hold: no advice)
        return False
    return rng.drawn and decider.outcome(after) is None and seat in decider.to_act(after)
