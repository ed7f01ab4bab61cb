"""What a game module is: a declarative spec beside Decider-style rules.

The engine knows no game.  A module gives a ``Module(spec, rules)``; ``rules`` follows the
``Rules`` protocol below: pure functions of immutable state.  ``decide`` emits its events into a
``Table`` that folds them as it goes, so the engine always receives the events *and* the state
after them (the fold is written once, in the module's ``evolve``).  Randomness comes in through
``table.rng`` and is recorded in the events, so a replay never needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Any, Protocol

import attrs


@attrs.frozen
class Option:
    """One option a game takes on ``boardstate new --option KEY=VALUE``.

    The engine checks every option against the spec before the module sees it: an unknown key,
    a value outside ``choices`` and a missing default are refused with one line; ``default`` is
    filled in (None: the option is absent unless given).
    """

    key: str
    default: str | None
    help: str
    choices: tuple[str, ...] = ()


@attrs.frozen
class GameSpec:
    """Everything about a game that is not a rule: names, counts, options, events, revisions.

    ``revision`` numbers the rules: a change that alters what is legal or what a move yields
    bumps it, and ``changes`` says what each revision changed (``((revision, line), ...)``).
    A game is played, applied and verified under the revision it was created with.
    """

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    events: tuple[type, ...]
    notation: str
    data_digest: str = ""
    summary: str = ""
    revision: int = 1
    changes: tuple[tuple[int, str], ...] = ()
    oldest_revision: int = 1  # older revisions are no longer played (their files are refused)

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)

    def changes_since(self, revision: int) -> tuple[str, ...]:
        """What changed after ``revision``, one line per change."""
        return tuple(f"revision {r}: {line}" for r, line in self.changes if r > revision)


@attrs.frozen
class Setup:
    """What ``initial`` builds the first state from: the players, the checked options, the
    rules revision the game was created under."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    revision: int


@attrs.frozen
class Outcome:
    """The end of a game: final scores per seat, the winning seats, and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


class Choice(IntEnum):
    """How the seats in ``to_act`` choose (``Rules.choice``)."""

    OPEN = 0  # in the open: the command is public as it is given
    SEALED = 1  # at once, sealed: every acting seat commits; then all are turned over, and
    # ``decide`` runs once on all the choices together (bids)
    FACE_DOWN = 2  # the one acting seat commits its command face down; ``decide`` runs now on
    # ``HIDDEN`` (the others answer in the open), and the command is turned over
    # when the rules say TURN_OVER (an attack card played face down)
    TURN_OVER = 3  # the acting seat's face-down command is turned over now; ``decide`` runs on it


# The choices as module names, for the referee's loop (as the record kinds in ``_kinds``: an
# enum class's attribute is a slow lookup in Python 3.11).
OPEN, SEALED, FACE_DOWN, TURN_OVER = Choice


class _Hidden:
    """The command ``decide`` receives for a choice made face down (its value is not known)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "HIDDEN"

    def __reduce__(self):
        return "HIDDEN"


HIDDEN = _Hidden()


class Rules(Protocol):
    """The Decider a module implements.  Seats are ints ``0..n-1`` in the order of ``--player``.

    Optional methods (the engine supplies the default):

    - ``prepare(options, players) -> dict``: derive what the header stores from the checked
      options (load a data file, parse a list); default: the options as given.
    - ``choice(state) -> Choice``: how the acting seats choose; default ``Choice.OPEN``.
    - ``explain(state, seat, command) -> IllegalCommand``: why a command that is not in
      ``legal`` is refused (the rule it breaks); default: a generic reason.
    - ``is_legal(state, seat, command) -> bool``: a fast single-command check that must equal
      ``command in legal(state, seat)`` (the conformance suite holds them equal).
    - ``legal_pick(state, seat, below) -> command``: ``legal(state, seat)[below(n)]``, ``n`` the
      list's length, made without the whole list (random self-play, ``random_playout``, asks it
      with the uniform pick's ``randrange``; tests/test_legal_pick.py holds it equal to the list).
    - ``render(state, seat) -> str`` and ``to_json(state, seat) -> dict``: the table as text or
      data, as ``seat`` sees it (None: a spectator); ``svg(state, seat) -> str``: a picture of
      it (``show --svg``).
    - ``report(state) -> str | None``: one line a player by mail understands on what the last
      decision settled (who won what, and why); printed by ``move``, ``apply``, ``show`` and
      ``replay`` (only public facts: every player sees it).
    - ``tell(state, events, seat) -> tuple[str, ...]``: what a record's events did, in words,
      as ``seat`` may know it (die rolls, cards drawn, results); ``state`` is the state before
      them and ``events`` the record's events, both as ``seat``'s copy holds them (the engine
      views the one and seals the other's secrets first).  Said after the record in ``log``,
      ``replay``, ``move``, ``apply`` and the judge's mails; ``Teller`` makes it.
    - ``refuse_trust(setup, mode) -> str | None``: one line saying why the game as set up
      cannot be played in trust mode ``mode`` (``"open"``, ``"peer"``, ``"hosted"``), naming
      a mode that serves it; None (the default) accepts.  See "Peer-ready rules" below.

    Peer-ready rules (docs/writing-a-module.md): the peer mode has no dealer, so no secret may
    be owned by nobody.  A shared face-down stock is a public list of what is left, drawn from
    at a random position when a card turns up; a player's own face-down pile is made with
    ``table.rng.arrange(cards, seat)`` and drawn from at a random position.  A value shown to
    some players only is a secret owned by them (``table.rng.secret(value, owners)``).

    The hidden-information contract: ``decide`` for a seat reads only what that seat's copy of
    the game holds: public values, the seat's own secrets, and the face-down cards of the table
    itself (secrets owned by nobody, which the engine's randomness dealt).  A value hidden from
    the acting seat reaches the rules only through its owner: a reveal, a response, or a
    face-down choice turned over.  ``boardstate.testing`` checks every module against it.
    """

    def initial(self, setup: Setup) -> Any:
        """The state before anything happened (deterministic)."""

    def start(self, table) -> None:
        """Emit the events of the setup (shuffles, deals) into ``table``."""

    def to_act(self, state: Any) -> tuple[int, ...]:
        """Seats that must act now.  The engine asks it only while ``outcome`` is None."""

    def legal(self, state: Any, seat: int) -> Iterable[Any]:
        """The commands ``seat`` may give now (``seat`` is one of ``to_act``)."""

    def parse(self, state: Any, seat: int, text: str) -> Any:
        """Command notation -> command (raise InvalidCommand / AmbiguousCommand)."""

    def notation(self, state: Any, seat: int, command: Any) -> str:
        """Command -> its canonical notation (``parse(notation(c)) == c``)."""

    def decide(self, table, moves) -> None:
        """Emit the events that ``moves`` (``((seat, command), ...)``, each legal) cause."""

    def evolve(self, state: Any, event: Any) -> Any:
        """Apply one event (pure; never fails on an event ``decide`` produced)."""

    def outcome(self, state: Any) -> Outcome | None:
        """The result, once the game is over."""

    def view(self, state: Any, seat: int | None) -> Any:
        """What ``seat`` may know of ``state`` (others' secrets sealed; None: a spectator, the
        same value for a spectator at every layer)."""


@attrs.frozen
class Module:
    """An installable game: found through the entry-point group ``boardstate.modules``."""

    spec: GameSpec
    rules: Any

    @property
    def id(self) -> str:
        return self.spec.id
