"""The bot levels, and a bot choosing for a seat of a ``Game`` from that seat's view alone."""

from __future__ import annotations

import hashlib
import random

import attrs

from .._errors import InvalidCommand
from ._games import policy_for
from ._ismcts import Search
from ._policies import Policy


@attrs.frozen
class Level:
    """How hard a bot thinks: a search of ``iterations`` at most, stopped after ``seconds`` of
    CPU; ``plain`` plays uniform random rollouts to the end whatever the game (no game
    knowledge); ``informed`` plays the game's informed rollouts where it has them (``_games``).
    No search at all: the random bot."""

    name: str
    iterations: int = 0
    seconds: float | None = None
    plain: bool = False
    informed: bool = False

    @property
    def searches(self) -> bool:
        return self.iterations > 0


LEVELS = {
    "random": Level("random"),
    "easy": Level("easy", iterations=40, seconds=0.2, plain=True),
    "normal": Level("normal", iterations=3000, seconds=0.9),
    "strong": Level("strong", iterations=12000, seconds=3.6, informed=True),
}


def level_named(name: str) -> Level:
    level = LEVELS.get(name.strip().lower())
    if level is None:
        raise InvalidCommand(
            f"no bot level {name!r} (levels: {', '.join(LEVELS)})", code="bad-bot-level"
        )
    return level


@attrs.frozen
class Hint:
    """One of a seat's commands as the search weighs it: its notation, how often the search
    tried it, and the win chance it estimates (a tie counts a share)."""

    command: str
    visits: int
    chance: float


class Bot:
    """A bot at ``level`` (a ``Level`` or its name).  It reads only the view of the seat it
    plays for (and that seat's own face-down command): the same seed and the same view give
    the same choice, whatever the others hold.  ``seed`` varies its play."""

    def __init__(self, level="normal", seed: int = 0, *, iterations=None, seconds=None) -> None:
        level = level_named(level) if isinstance(level, str) else level
        if iterations is not None or seconds is not None:  # (tests, the bench: a fixed budget)
            level = attrs.evolve(level, iterations=iterations or 0, seconds=seconds)
        self.level = level
        self.seed = seed

    def choose(self, game, seat: int) -> str:
        """The command ``seat`` gives now in ``game`` (a ``boardstate.Game`` where it acts),
        in notation."""
        legal = game.legal(seat)
        if len(legal) == 1:  # (a reveal, or a forced answer)
            return legal[0]
        if not legal:
            raise InvalidCommand(
                f"{game.players[seat]} has nothing to do now", code="not-your-turn"
            )
        if not self.level.searches:
            return legal[random.Random(self._seed(game.seq)).randrange(len(legal))]
        view = game.decider.view(game.state, seat)
        command = self.command(
            game.module, view, seat, len(game.players), game.seq, _own_face_down(game, seat)
        )
        return game.rules.notation(view, seat, command)

    def command(self, module, state, seat: int, seats: int, position: int = 0, face_down=None):
        """The command (as the rules write it) the bot gives for ``seat`` in ``state`` (a whole
        table or the seat's view: the bot looks at the view alone) of a game of ``seats``,
        at its ``position``-th record; ``face_down``: the command ``seat`` laid face down."""
        search = self._search(module, state, seat, seats, position, face_down)
        return search.best(seat)

    def hints(self, game, seat: int, top: int = 5) -> list[Hint]:
        """``seat``'s best commands now, most tried first, with their estimated win chances."""
        view = game.decider.view(game.state, seat)
        search = self._search(
            game.module, view, seat, len(game.players), game.seq, _own_face_down(game, seat)
        )
        notation = game.rules.notation
        return [Hint(notation(view, seat, k), n, w) for k, n, w in search.stats(seat)[:top]]

    # ------------------------------------------------------------------ the search
    def _search(self, module, state, seat: int, seats: int, position: int, face_down) -> Search:
        level = self.level if self.level.searches else LEVELS["normal"]
        policy = Policy() if level.plain else policy_for(module, level.informed)
        search = Search(module, policy, seats, seed=self._seed(position))
        view = module.rules.view(state, seat)
        return search.run(view, seat, face_down, iterations=level.iterations, seconds=level.seconds)

    def _seed(self, position: int) -> int:
        """The bot's seed and the position's number: the same position, the same play."""
        data = b"%d:%d" % (self.seed, position)
        return int.from_bytes(hashlib.sha256(data).digest()[:8], "big") >> 1


def _own_face_down(game, seat: int):
    """The command ``seat`` laid face down and has not turned over (its copy holds it)."""
    text = game.pending_choice(seat)
    laid = game.face_down.get(seat)
    if text is None or laid is None:
        return None
    return game.rules.parse(game.decider.view(laid.state, seat), seat, text)
