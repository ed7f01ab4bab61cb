"""Takebacks by agreement: a player asks to take back their last turn, every other player
accepts, and the game goes on from where it stood before it (docs/trust.md, "Takebacks by
agreement").

The words are the engine's (``_talk``: ``ask takeback``, ``accept takeback``, ``refuse
takeback``, ``withdraw takeback``), open ``MOVE`` records with no events like a draw offer; the
acceptance that completes a request takes the turn back.  Nothing is removed from the log: every
copy folds the same records to the same state, and ``verify`` re-derives the acceptance like any
record (a copy that took back something else, or too early, makes records the rules refuse).

What is taken back is the asker's last *turn*: their last moves of the game (open moves,
sealed and face-down choices; not reveals, joins or deals, not the engine's words) that no
other player's move came between, and every record of the game after them.  The module's
state, whose turn it is, the sealed round and the face-down choices, and the draw offers
standing are what they were just before it.  The trust plug is not taken back: a commitment
made stays made (``Game.committed``), a peer player's links dealt stay dealt, and the retaken
turn's randomness comes from new record numbers and fresh shares.

Each copy keeps the state before each player's last turn (a ``Checkpoint``: module states are
immutable, so it holds references), not the log: ``verify`` streams the records through and its
memory stays flat in the length of the log.  So a takeback goes one turn back: a player whose
turn was taken back moves again before asking for another.

A takeback is refused (one line) while the game waits for a join or a share of the randomness
(``Game.due``), and when a sealed or face-down choice made before the turn was turned over
since: everyone has seen it, and sealed again it would be chosen against (the hosted mode's judge
could not turn it over again either: the player's signed reveal is used once).
"""

from __future__ import annotations

from ._decider import ENGINE_RULE
from ._errors import CorruptFile, IllegalCommand
from ._kinds import COMMIT
from ._sealed import SealedRound


class Checkpoint:
    """What a takeback restores: the engine's state just before a player's turn."""

    __slots__ = ("seq", "state", "round", "face_down", "offers", "mover")

    def __init__(self, seq: int, game, mover: int | None) -> None:
        self.seq = seq  # the turn's first record
        self.state = game.state  # (immutable: a module's state is never changed in place)
        self.round = _copied(game.round)
        self.face_down = dict(game.face_down)
        self.offers = frozenset(game.talk.offers)
        self.mover = mover  # whose move of the game came last before the turn

    def pending(self) -> set[bytes]:
        """The commitments of the choices not turned over yet at the checkpoint."""
        return pending_commitments(self.round, self.face_down)


class Takebacks:
    """A game's takebacks: the state before each player's last turn, and what each takeback
    record asked for or took back (for the words, and for folding states again)."""

    __slots__ = ("last", "mover", "asked", "done")

    def __init__(self) -> None:
        self.last: dict[int, Checkpoint] = {}  # seat -> before its last turn
        self.mover: int | None = None  # the seat of the last move of the game
        self.asked: dict[int, int] = {}  # an 'ask takeback' record -> the turn's first record
        self.done: dict[int, tuple] = {}  # the accepting record -> (first record, to act after)

    def moving(self, game, record) -> None:
        """Before a move of the game (an open move, a commitment) is folded: a player's turn
        starts when another player moved last."""
        seat = record.actor
        if seat != self.mover:
            self.last[seat] = Checkpoint(record.seq, game, self.mover)
            self.mover = seat

    def said(self, game, record) -> None:
        """Fold one of the engine's words (``Talk.said``), and take back the turn it completes."""
        seat = record.actor
        taken = game.talk.said(game.players, seat, record.command)
        if record.command == "ask takeback":
            checkpoint = self.last.get(seat)
            self.asked[record.seq] = -1 if checkpoint is None else checkpoint.seq
        if taken is not None:
            self.take_back(game, taken, record.seq)

    def check(self, game, seat: int, command: str) -> None:
        """Whether a takeback asked for, or the acceptance of one, can stand now (the engine's
        words' own checks, ``Talk.check``, come first)."""
        if command not in ("ask takeback", "accept takeback"):
            return
        asker = seat if command == "ask takeback" else game.talk.asker
        name = game.players[asker]
        checkpoint = self.last.get(asker)
        if checkpoint is None:
            raise _refused(
                f"{name} has no move of the game to take back (a takeback goes one turn back: "
                f"a player whose turn was taken back moves again first)",
                "nothing-to-take-back",
            )
        if game.due():
            raise _refused(
                f"no move can be taken back while the game is {game.waiting_text()}", "waiting"
            )
        if checkpoint.pending() - pending_commitments(game.round, game.face_down):
            raise _refused(
                f"{name}'s turn cannot be taken back: a sealed or face-down choice made before "
                f"it has been turned over since (what everyone has seen cannot be sealed again)",
                "turned-over",
            )

    def take_back(self, game, asker: int, seq: int) -> None:
        """The acceptance of record ``seq`` takes ``asker``'s last turn back."""
        checkpoint = self.last.get(asker)
        if checkpoint is None:  # (only a file folded without its checks gets here)
            raise CorruptFile(f"record {seq}: a takeback of no turn")
        game.state = checkpoint.state  # (a checkpoint is never changed: what the game changes
        game.round = _copied(checkpoint.round)  # is copied back; a kept copy of the game,
        game.face_down = dict(checkpoint.face_down)  # ``_cuts``, shares the checkpoints)
        game.talk.offers = set(checkpoint.offers)
        game._facts_of = None
        self.last = {s: c for s, c in self.last.items() if c.seq < checkpoint.seq}
        self.mover = checkpoint.mover
        self.done[seq] = (checkpoint.seq, game.to_act())


def _refused(why: str, code: str) -> IllegalCommand:
    return IllegalCommand(why, code=code, rule=ENGINE_RULE)


def pending_commitments(phase: SealedRound | None, face_down: dict) -> set[bytes]:
    """The commitments of the sealed and face-down choices not turned over yet."""
    out = {f.secret.commitment for f in face_down.values()}
    if phase is not None:
        out.update(s.commitment for seat, s in phase.commits.items() if seat not in phase.revealed)
    return out


def _copied(phase: SealedRound | None) -> SealedRound | None:
    if phase is None:
        return None
    out = SealedRound(phase.seats, phase.start)
    out.commits, out.revealed = dict(phase.commits), dict(phase.revealed)
    out.parsed = dict(phase.parsed)
    out.acting, out.all_committed = phase.acting, phase.all_committed
    return out


def states_after(game, last: int | None = None) -> list:
    """The state after each record up to ``last`` (default: every record the game keeps): the
    events folded, and after a takeback's acceptance the state before the turn it took back."""
    header = game.header
    start = game.decider.initial(header.options, header.players, header.revision)
    records = game.records if last is None else game.records[: last + 1]
    return states_since(game, 0, start, records)


def states_since(game, first: int, state, records) -> list | None:
    """``states_after`` of ``records`` (from record ``first`` on), ``state`` the one after the
    record before ``first``; None if a takeback among them goes back before ``first``."""
    evolve, done = game.decider.evolve, game.takebacks.done
    out: list = []
    for record in records:
        for event in record.events:
            state = evolve(state, event)
        taken = done.get(record.seq)
        if taken is not None and taken[0] > 0:
            if taken[0] - 1 < first:
                return None
            state = out[taken[0] - 1 - first]
        out.append(state)
    return out


def takeback_words(game, record, viewer: int | None) -> str | None:
    """A takeback record in words (None: not one): ``ann asks to take back the move 'play luke
    5' (record 12)``, ``ben accepts: the game goes back to before record 12; to act: ann``."""
    command, who = record.command, game.players[record.actor]
    takebacks = game.takebacks
    if command == "ask takeback":
        first = takebacks.asked.get(record.seq, -1)
        return f"{who} asks to take back {_turn_words(game, first, viewer)}"
    if command == "accept takeback":
        done = takebacks.done.get(record.seq)
        if done is None:
            return f"{who} accepts the takeback"
        first, acting = done
        names = ", ".join(game.players[s] for s in acting) or "nobody"
        return f"{who} accepts: the game goes back to before record {first}; to act: {names}"
    if command == "refuse takeback":
        return f"{who} refuses the takeback"
    if command == "withdraw takeback":
        return f"{who} withdraws the takeback"
    return None


def asked_line(game) -> str:
    """Where a takeback stands, for a status: ``Takeback asked by ann; to answer (accept or
    refuse takeback): ben, cat`` ('' when none is asked)."""
    talk = game.talk
    answering = talk.answering(game.players)
    if not answering:
        return ""
    names = ", ".join(game.players[s] for s in answering)
    asker = game.players[talk.asker]
    return f"Takeback asked by {asker}; to answer (accept or refuse takeback): {names}"


def _turn_words(game, first: int, viewer: int | None) -> str:
    """The turn a takeback was asked for: its first record, in words."""
    if first < 0:
        return "a move"
    if first >= len(game.records):
        return f"the moves from record {first}"
    record = game.records[first]
    if record.kind == COMMIT:
        mine = viewer is not None and viewer == record.actor and record.sealed.known
        held = f" ({record.sealed.value})" if mine else ""
        return f"the choice laid sealed at record {first}{held} and what followed"
    return f"the move '{record.command}' (record {first}) and what followed"
