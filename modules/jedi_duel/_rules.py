"""The Decider of Jedi Duel: options, the initial table, whose turn, checks, outcome, views."""
from __future__ import annotations

from boardstate import IllegalCommand, OptionError, Outcome

from . import _decide, _legal, _notation, _why
from ._combat import START_FATIGUE
from ._playaid import Playaid, builtin_playaid, load_playaid
from ._state import NO_CARD, OVER, JediState, evolve

FUMBLE_STANCE = ("card", "area")
QUEEN_VS_LIGHTNING = ("shields", "no")
OPTION_KEYS = ("playaid", "fumble-stance", "queen-vs-lightning")


def _choice(raw, key: str, choices: tuple[str, ...]) -> str:
    value = raw.get(key, choices[0]).strip().lower()
    if value not in choices:
        raise OptionError(f"option {key}: {value!r} is not one of {', '.join(choices)}",
                          code="bad-option")
    return value


class JediRules:
    """Commands are tuples; see ``_notation`` for their text and ``_legal`` for when they apply."""

    def __init__(self) -> None:
        self._playaids: dict = {}

    # ---------------------------------------------------------------- options and setup
    def resolve_options(self, raw, players) -> dict:
        unknown = sorted(set(raw) - set(OPTION_KEYS))
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r} (options: {', '.join(OPTION_KEYS)})",
                              code="bad-option")
        names = [p.lower() for p in players]
        if len(set(names)) != len(names):
            raise OptionError("two players share a name (names are compared without case)",
                              code="bad-option")
        playaid = load_playaid(raw["playaid"]) if raw.get("playaid") else builtin_playaid()
        return {"playaid": playaid.to_option(),
                "fumble-stance": _choice(raw, "fumble-stance", FUMBLE_STANCE),
                "queen-vs-lightning": _choice(raw, "queen-vs-lightning", QUEEN_VS_LIGHTNING)}

    def _playaid(self, value) -> Playaid:
        key = repr(value)
        playaid = self._playaids.get(key)
        if playaid is None:
            playaid = self._playaids[key] = Playaid.from_option(value)
        return playaid

    def initial(self, options, players) -> JediState:
        options = dict(options)
        playaid = self._playaid(options["playaid"])
        n = len(players)
        return JediState(
            players=tuple(players), speed=playaid.attack, defence=playaid.defence,
            playaid_name=playaid.name, fumble_sets_area=options["fumble-stance"] == "card",
            queen_stops_lightning=options["queen-vs-lightning"] == "shields",
            hands=((),) * n, stance_card=(NO_CARD,) * n, stance_area=(-1,) * n,
            fatigue=(START_FATIGUE,) * n, immune=(False,) * n)

    def start(self, state: JediState, rng) -> tuple:
        return _decide.start(state, rng)

    # ---------------------------------------------------------------- turns and commands
    def to_act(self, s: JediState) -> tuple:
        return s.queue[:1]

    def simultaneous(self, s: JediState) -> bool:
        return False

    def legal(self, s: JediState, seat: int) -> list:
        return _legal.legal(s, seat)

    def validate(self, s: JediState, seat: int, command) -> None:
        if s.phase == OVER:
            raise IllegalCommand(f"the game is over ({s.end_reason})", code="game-over",
                                 rule="Jedi Duel, Game End")
        if not s.queue or s.queue[0] != seat:
            raise IllegalCommand(f"it is not {s.players[seat]}'s turn", code="not-your-turn",
                                 rule="Jedi Duel, Playing the Game")
        if command not in _legal.legal(s, seat):
            raise _why.refuse(s, seat, command)

    def parse(self, s: JediState, seat: int, text: str):
        return _notation.parse(s, seat, text)

    def notation(self, s: JediState, seat: int, command) -> str:
        return _notation.notation(s, seat, command)

    def decide(self, s: JediState, moves, rng) -> tuple:
        return _decide.decide(s, moves, rng)

    def evolve(self, s: JediState, event) -> JediState:
        return evolve(s, event)

    # ---------------------------------------------------------------- results and views
    def outcome(self, s: JediState) -> Outcome | None:
        if s.phase != OVER:
            return None
        best = max(s.fatigue)
        winners = tuple(i for i in s.seats if s.fatigue[i] == best)
        return Outcome(scores=s.fatigue, winners=winners, reason=s.end_reason)

    def view(self, s: JediState, seat: int) -> JediState:
        """What ``seat`` may know: every card it does not own turns face down."""
        def seal(cards):
            return tuple(c if c.owned_by(seat) else c.sealed() for c in cards) \
                if seat >= 0 else tuple(c.sealed() for c in cards)
        peek = s.peek
        if peek:
            peek = (peek[0], seal(peek[1]))
        return s._replace(hands=tuple(seal(h) for h in s.hands), deck=seal(s.deck), peek=peek)
