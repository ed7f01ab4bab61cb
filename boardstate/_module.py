"""What a game module is: a declarative spec beside Decider-style rules.

The engine knows no game.  A module gives a ``Module(spec, rules)``; ``rules`` follows the
``Rules`` protocol below: pure functions of immutable state.  Randomness comes in through the
``rng`` argument of ``start``/``decide`` and is recorded in the events, so a replay never needs it.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Protocol, Sequence

import attrs


@attrs.frozen
class Option:
    """One option a game takes on ``boardstate new --option KEY=VALUE``."""

    key: str
    default: str | None
    help: str
    choices: tuple[str, ...] = ()


@attrs.frozen
class GameSpec:
    """Everything about a game that is not a rule: names, counts, options, events."""

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

    @property
    def major(self) -> int:
        return int(self.version.split(".")[0])

    def option(self, key: str) -> Option | None:
        return next((o for o in self.options if o.key == key), None)


@attrs.frozen
class Outcome:
    """The end of a game: final scores per seat, the winning seats, and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


Moves = Sequence[tuple[int, Any]]


class Rules(Protocol):
    """The Decider a module implements.  Seats are ints ``0..n-1`` in the order of ``--player``."""

    def resolve_options(self, raw: Mapping[str, str], players: Sequence[str]) -> dict:
        """Validate options; return a msgpack-able dict stored in the header (raise OptionError)."""

    def initial(self, options: Mapping, players: Sequence[str]) -> Any:
        """The state before anything happened (deterministic)."""

    def start(self, state: Any, rng) -> tuple:
        """Events of the setup (shuffles, deals)."""

    def to_act(self, state: Any) -> tuple[int, ...]:
        """Seats that must act now (empty when the game is over)."""

    def simultaneous(self, state: Any) -> bool:
        """True when the seats in ``to_act`` choose at once (the engine seals their choices)."""

    def legal(self, state: Any, seat: int) -> Iterable[Any]:
        """The commands ``seat`` may give now."""

    def parse(self, state: Any, seat: int, text: str) -> Any:
        """Command notation -> command (raise InvalidCommand / AmbiguousCommand)."""

    def notation(self, state: Any, seat: int, command: Any) -> str:
        """Command -> its canonical notation (``parse(notation(c)) == c``)."""

    def validate(self, state: Any, seat: int, command: Any) -> None:
        """Raise IllegalCommand (with reason and rule) unless ``seat`` may give ``command`` now."""

    def decide(self, state: Any, moves: Moves, rng) -> tuple:
        """The events that ``moves`` (one per acting seat, each validated) cause."""

    def evolve(self, state: Any, event: Any) -> Any:
        """Apply one event (pure; never fails on an event ``decide`` produced)."""

    # Optional: ``decide_evolve(state, moves, rng) -> (events, state after them)``.  A module
    # whose decide folds as it goes offers it, and the engine folds once instead of twice.

    def outcome(self, state: Any) -> Outcome | None:
        """The result, once the game is over."""

    def view(self, state: Any, seat: int) -> Any:
        """What ``seat`` may know of ``state`` (others' secrets sealed)."""

    def render(self, state: Any, seat: int | None) -> str:
        """The table as text, as ``seat`` sees it (None: a spectator)."""

    def to_json(self, state: Any, seat: int | None) -> dict:
        """The table as JSON-able data, as ``seat`` sees it."""


@attrs.frozen
class Module:
    """An installable game: found through the entry-point group ``boardstate.modules``."""

    spec: GameSpec
    rules: Any

    @property
    def id(self) -> str:
        return self.spec.id
