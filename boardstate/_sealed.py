"""Sealed and face-down choices: the commit/reveal protocol, in its own room.

A sealed round (``SealedRound``: every acting seat commits, then everyone reveals) and a
face-down choice (``FaceDown``: committed, turned over when the rules say) are the engine's,
not a module's: a module only says which kind of choice it asks for (``Choice``).  ``Game``
keeps the log and its fold and takes these checks from ``SealedChoices``.
"""

from __future__ import annotations

from ._decider import ENGINE_RULE
from ._errors import IllegalCommand, SecretUnavailable
from ._kinds import COMMIT, REVEAL
from ._module import FACE_DOWN, HIDDEN, OPEN, SEALED, TURN_OVER
from ._records import Record
from ._secrets import Reveal, Secret, reveal

REVEAL_WORD = "reveal"


class SealedRound:
    """Simultaneous sealed choices: every seat commits; only then does anyone reveal.

    Once every choice is committed, every seat may reveal, in any order (two players by mail
    reveal at once, and the referee merges their files: ``merge_sealed``); ``acting`` lists the
    seats still to reveal, the last to commit first (it may reveal in the same move file), then
    the others in seat order, which is also the order a merge puts reveals in.  The last reveal
    resolves.  ``acting`` is kept up to date as records arrive: the referee asks it for every
    record of a long log.
    """

    __slots__ = (
        "seats",
        "size",
        "commits",
        "revealed",
        "parsed",
        "start",
        "acting",
        "all_committed",
    )

    def __init__(self, seats: tuple[int, ...], start: int) -> None:
        self.seats = seats
        self.start = start  # the sequence number of the round's first record
        self.size = len(seats)
        self.commits: dict[int, Secret] = {}
        self.revealed: dict[int, str] = {}
        self.parsed: dict[int, object] = {}  # seat -> the revealed command, parsed once
        self.acting = seats  # waiting to commit; then the next to reveal
        self.all_committed = False

    def commit(self, seat: int, secret: Secret) -> None:
        self.commits[seat] = secret
        self.all_committed = len(self.commits) == self.size
        if self.all_committed:  # the last to commit first, then the others in seat order
            self.acting = (seat,) + tuple(filter(seat.__ne__, self.seats))
        else:
            self.acting = tuple([s for s in self.seats if s not in self.commits])

    def reveal(self, seat: int, value: str) -> None:
        self.revealed[seat] = value
        self.acting = tuple(filter(seat.__ne__, self.acting))


class FaceDown:
    """A command committed face down: the commitment, and the state it was chosen in (the
    command is checked against that state when it is turned over)."""

    __slots__ = ("secret", "state")

    def __init__(self, secret: Secret, state) -> None:
        self.secret = secret
        self.state = state


class SealedChoices:
    """The commit/reveal protocol of a game (``Game`` is one): whether a choice is due open,
    sealed or to be turned over, and the checks of commitments and reveals.  Holds ``round``
    (the sealed round under way), ``face_down`` (seat -> its face-down choice) and
    ``committed`` (every commitment made)."""

    def phase(self) -> SealedRound | None:
        """The sealed round under way, if the acting seats choose at once and sealed."""
        return self.round

    def open_move_due(self) -> bool:
        """Is the next record an open move?  (A sealed choice with one seat left to choose is
        made in the open: there is nobody to hide it from until it is played.)"""
        return self.round is None and self.facts()[2] in (OPEN, SEALED)

    def reveal_due(self) -> bool:
        """Is the next record a reveal (of a sealed round, or of a face-down choice)?"""
        phase = self.phase()
        if phase is not None:
            return phase.all_committed
        return self.facts()[2] == TURN_OVER

    def settled(self) -> int:
        """How many records hold no unrevealed sealed choice of a round still collecting."""
        phase = self.round
        return self.seq if phase is None or not phase.commits else phase.start

    def pending_choice(self, seat: int) -> str | None:
        """The sealed or face-down choice ``seat`` has committed and this copy holds, if any."""
        phase = self.round
        if phase is not None and seat in phase.commits:
            secret = phase.commits[seat]
        elif seat in self.face_down:
            secret = self.face_down[seat].secret
        else:
            return None
        return secret.value if secret.known else None

    def held_reveal(self, seat: int) -> bool:
        """Does this copy hold the opening ``seat`` must reveal now?"""
        pending = self.pending_commitment(seat)
        return pending is not None and pending.known

    def reveal_held(self) -> list[Record]:
        """Append the reveals that are due and whose openings this copy holds."""
        start = self.seq
        while self.outcome() is None and not self.due() and self.reveal_due():
            held = [s for s in self.to_act() if self.held_reveal(s)]
            if not held:
                break
            seat = held[0]
            opening = reveal(self.pending_commitment(seat))
            events, state = self.check_reveal(seat, opening)
            if self.trust.reveal_request(self, opening.commitment) is None:
                break  # (the judge makes only the reveal the player signed with the choice)
            self.append(self.make(REVEAL, seat, "", opening, events), state)
        return self.records[start:]

    def check_commit(self, seat: int, sealed) -> None:
        """A commitment from ``seat`` (whose turn it is): well formed, and due."""
        if type(sealed) is not Secret or sealed.owners != 1 << seat:
            raise IllegalCommand(
                "malformed commitment (not a secret owned by its maker alone)",
                code="bad-commit",
                rule=ENGINE_RULE,
            )
        if sealed.commitment in self.committed:
            raise IllegalCommand(
                "a commitment made before in this game (a signed choice replayed)",
                code="replayed",
                rule=ENGINE_RULE,
            )
        phase = self.round
        if phase is not None:
            if phase.all_committed:
                raise IllegalCommand(
                    "a commitment after every choice is committed",
                    code="bad-commit",
                    rule=ENGINE_RULE,
                )
            return
        if self.facts()[2] != FACE_DOWN:
            raise IllegalCommand(
                "a commitment where no choice is made face down",
                code="not-sealed",
                rule=ENGINE_RULE,
            )
        if seat in self.face_down:
            raise IllegalCommand(
                f"{self.players[seat]} already has a choice face down",
                code="bad-commit",
                rule=ENGINE_RULE,
            )

    def commit_events(self, seat: int, sealed, openings=None) -> tuple:
        """Check a commitment from ``seat``; ``(events, state after them)``: none in a sealed
        round, and what the rules make of a face-down choice (``decide`` on ``HIDDEN``)."""
        self.check_commit(seat, sealed)
        if self.round is not None:
            return (), self.state
        return self.decide(((seat, HIDDEN),), openings)

    def pending_commitment(self, seat: int) -> Secret | None:
        """The commitment ``seat`` must open now (None: no reveal is due from ``seat``)."""
        phase = self.round
        if phase is not None:
            if phase.all_committed and seat in phase.acting:
                return phase.commits[seat]
            return None
        if self.facts()[2] == TURN_OVER and seat in self.face_down:
            return self.face_down[seat].secret
        return None

    def check_reveal(self, seat: int, sealed, *, rehash: bool = True, openings=None) -> tuple:
        """Check a reveal from ``seat``: it opens the due commitment and holds a legal command.

        Returns ``(events, state after them)``: a reveal that completes a sealed round resolves
        it, one that turns a face-down choice over plays it; other reveals cause nothing.
        ``rehash=False`` (the referee's fast path) skips the hash of an opening this copy
        already checked when the commitment was made or read.
        """
        committed = self.pending_commitment(seat)
        if committed is None:
            self.check_turn(seat)  # (says why, if it is not this seat's turn at all)
            raise IllegalCommand(
                f"no reveal is due from {self.players[seat]} now",
                code="early-reveal",
                rule=ENGINE_RULE,
            )
        if type(sealed) is not Reveal or sealed.commitment != committed.commitment:
            raise IllegalCommand(
                "the reveal does not open the player's commitment",
                code="bad-reveal",
                rule=ENGINE_RULE,
            )
        same = (
            not rehash
            and committed.known
            and committed.salt == sealed.salt
            and committed.value == sealed.value
        )
        if not (same or sealed.checks()):
            raise IllegalCommand(
                "the reveal does not open the player's commitment",
                code="bad-reveal",
                rule=ENGINE_RULE,
            )
        if type(sealed.value) is not str:
            raise IllegalCommand(
                "the revealed choice is not a command", code="bad-reveal", rule=ENGINE_RULE
            )
        phase = self.round
        if phase is None:  # a face-down choice: legal where it was chosen, played now
            chosen = self.face_down[seat].state
            command = self.decider.rules.parse(chosen, seat, sealed.value)
            try:
                self.decider.validate(chosen, seat, command)
            except SecretUnavailable:  # (legal or not depends on cards this copy lacks:
                events, _ = self.decide(((seat, command),), openings)  # the rest is checked)
                raise SecretUnavailable(
                    "this copy cannot judge whether the choice is legal", partial=events
                ) from None
            return self.decide(((seat, command),), openings)
        phase.parsed[seat] = self.checked(seat, sealed.value)
        if len(phase.revealed) + 1 < phase.size:
            return (), self.state
        rules, state = self.rules, self.state
        for s, chosen in phase.revealed.items():  # (a copy read from file parses them here)
            if s not in phase.parsed:
                phase.parsed[s] = rules.parse(state, s, chosen)
        return self.decide(tuple((s, phase.parsed[s]) for s in phase.seats), openings)

    def note_sealed(self, record) -> None:
        """What a commit or a reveal record does to the round or the face-down choices."""
        kind = record.kind
        if kind == COMMIT:
            self.committed.add(record.sealed.commitment)
            phase = self.round
            if phase is not None:
                phase.commit(record.actor, record.sealed)
            else:
                self.face_down[record.actor] = FaceDown(record.sealed, self.state)
        elif kind == REVEAL:
            phase = self.round
            if phase is not None:
                phase.reveal(record.actor, record.sealed.value)
                if len(phase.revealed) == phase.size:
                    self.round = None
            else:
                del self.face_down[record.actor]

    def open_round(self) -> None:
        """A new sealed round opens when the rules ask for one."""
        outcome, acting, choice = self.facts()
        if choice == SEALED and len(acting) >= 2:
            self.round = SealedRound(acting, self.seq)
