"""The Decider of Jedi Duel: the header's options, the first table, whose turn, outcome, views."""

from __future__ import annotations

from boardstate.rules import IllegalCommand, OptionError, Outcome, Setup, Table

from . import _decide, _legal, _notation, _why
from ._combat import START_FATIGUE
from ._playaid import playaid_of, playaid_option
from ._state import NO_CARD, JediState, evolve

FUMBLE_STANCE = ("card", "area")
QUEEN_VS_LIGHTNING = ("shields", "no")


def check_names_differ(players) -> None:
    """Typed commands name players without case, so 'Ann' and 'ann' could not be told apart."""
    names = [p.lower() for p in players]
    if len(set(names)) != len(names):
        raise OptionError(
            "two players share a name (names are compared without case)", code="bad-option"
        )


class JediRules:
    """Commands are tuples; see ``_notation`` for their text and ``_legal`` for when they apply."""

    # ---------------------------------------------------------------- options and setup
    def prepare(self, options, players) -> dict:
        """What the engine cannot do: read the Playaid file into the header, and refuse names
        that differ only in case.  The choices are checked against the spec already."""
        check_names_differ(players)
        return {
            "playaid": playaid_option(options.get("playaid")),
            "fumble-stance": options["fumble-stance"],
            "queen-vs-lightning": options["queen-vs-lightning"],
        }

    def initial(self, setup: Setup) -> JediState:
        options = setup.options
        playaid = playaid_of(options["playaid"])
        n = len(setup.players)
        return JediState(
            players=tuple(setup.players),
            speed=playaid.attack,
            defence=playaid.defence,
            playaid_name=playaid.name,
            fumble_sets_area=options["fumble-stance"] == "card",
            queen_stops_lightning=options["queen-vs-lightning"] == "shields",
            hands=((),) * n,
            stance_card=(NO_CARD,) * n,
            stance_area=(-1,) * n,
            fatigue=(START_FATIGUE,) * n,
            immune=(False,) * n,
            revision=setup.revision,
        )

    def start(self, table: Table) -> None:
        _decide.start(table)

    # ---------------------------------------------------------------- turns and commands
    def to_act(self, s: JediState) -> tuple:
        return s.queue[:1]

    def legal(self, s: JediState, seat: int) -> list:
        return _legal.legal(s, seat)

    def explain(self, s: JediState, seat: int, command) -> IllegalCommand:
        return _why.refuse(s, seat, command)

    def parse(self, s: JediState, seat: int, text: str):
        return _notation.parse(s, seat, text)

    def notation(self, s: JediState, seat: int, command) -> str:
        return _notation.notation(s, seat, command)

    def decide(self, table: Table, moves) -> None:
        _decide.decide(table, moves)

    def evolve(self, s: JediState, event) -> JediState:
        return evolve(s, event)

    # ---------------------------------------------------------------- results and views
    def outcome(self, s: JediState) -> Outcome | None:
        if not s.over:
            return None
        best = max(s.fatigue)
        winners = tuple(i for i in s.seats if s.fatigue[i] == best)
        return Outcome(scores=s.fatigue, winners=winners, reason=s.end_reason)

    def view(self, s: JediState, seat: int | None) -> JediState:
        """What ``seat`` may know: every card it does not own turns face down (None: a
        spectator, who owns none)."""

        def seal(cards):
            return (
                tuple(c if c.owned_by(seat) else c.sealed() for c in cards)
                if seat is not None
                else tuple(c.sealed() for c in cards)
            )

        peek = s.peek
        if peek:
            peek = (peek[0], seal(peek[1]))
        return s._replace(hands=tuple(seal(h) for h in s.hands), deck=seal(s.deck), peek=peek)
