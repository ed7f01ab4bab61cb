"""The Decider of Star Wars Epic Duels: options, the first table, whose turn, outcome, views."""

from __future__ import annotations

from boardstate.rules import Choice, IllegalCommand, OptionError, Outcome, Setup, Table

from . import _decide, _legal, _notation, _why
from ._data import cast, parse_deck, read_player_deck
from ._roster import parse_characters, roster_of
from ._state import LAY, NOWHERE, OVER, TURN, EpicState, evolve

DECK_END = ("next-draw", "last-card")
DESTROYED = ("beyond-track", "at-zero")


class EpicRules:
    """Commands are tuples; ``_notation`` gives their text, ``_legal`` says when they apply."""

    # ---------------------------------------------------------------- options and setup
    def prepare(self, options, players) -> dict:
        """Check what the spec cannot: the characters, the deck files (read into the header,
        so the game replays without them) and the disputed readings named."""
        if len({p.lower() for p in players}) != len(players):
            raise OptionError(
                "two players share a name (names are compared without case)", code="bad-option"
            )
        if len(players) != 2:
            raise OptionError(
                f"the two-player game takes 2 players, not {len(players)}", code="bad-option"
            )
        characters = parse_characters(options.get("characters"), players)
        texts = {}
        for path in _split(options.get("decks")):
            text, deck = read_player_deck(path)
            if deck.team not in characters:
                raise OptionError(
                    f"option decks: {path} is a deck for {deck.team}, who is not playing",
                    code="bad-option",
                )
            texts[deck.team] = text
        alternatives = _split(options.get("alternatives"))
        stored = {
            "board": options["board"],
            "characters": list(characters),
            "deck-end": options["deck-end"],
        }
        if options["destroyed"] != DESTROYED[0]:  # (stored only when it differs)
            stored["destroyed"] = options["destroyed"]
        if texts:
            stored["deck-texts"] = texts
        if alternatives:
            offered = set()
            for team in characters:
                deck = parse_deck(texts[team], team) if team in texts else None
                offered |= set((deck or _builtin(team)).alternatives)
            for a in alternatives:
                if a not in offered:
                    raise OptionError(
                        f"option alternatives: {a!r} is not a reading of the decks in play "
                        f"(offered: {', '.join(sorted(offered)) or 'none'})",
                        code="bad-option",
                    )
            stored["alternatives"] = alternatives
        return stored

    def initial(self, setup: Setup) -> EpicState:
        rs = roster_of(setup.options)
        n = len(setup.players)
        chars = len(rs.chars)
        return EpicState(
            players=tuple(setup.players),
            roster=rs,
            square=(NOWHERE,) * chars,
            damage=(0,) * chars,
            held=(0,) * chars,
            hands=((),) * n,
            piles=((),) * n,
            discards=((),) * n,
            passes=(0,) * n,
            no_draw=(False,) * n,
            lost=(0,) * n,
            seen=((),) * n,
            revision=setup.revision,
        )

    def start(self, table: Table) -> None:
        _decide.start(table)

    # ---------------------------------------------------------------- turns and commands
    def to_act(self, s: EpicState) -> tuple:
        return s.queue[:1]

    def choice(self, s: EpicState) -> Choice:
        if s.phase == LAY:
            return Choice.FACE_DOWN
        if s.phase == TURN:
            return Choice.TURN_OVER
        return Choice.OPEN

    def legal(self, s: EpicState, seat: int) -> list:
        return _legal.legal(s, seat)

    def explain(self, s: EpicState, seat: int, command) -> IllegalCommand:
        return _why.refuse(s, seat, command)

    def parse(self, s: EpicState, seat: int, text: str):
        return _notation.parse(s, seat, text)

    def notation(self, s: EpicState, seat: int, command) -> str:
        return _notation.notation(s, seat, command)

    def decide(self, table: Table, moves) -> None:
        _decide.decide(table, moves)

    def evolve(self, s: EpicState, event) -> EpicState:
        return evolve(s, event)

    # ---------------------------------------------------------------- results and views
    def outcome(self, s: EpicState) -> Outcome | None:
        if s.phase != OVER:
            return None
        mains = s.roster.main_of
        scores = tuple(
            max(0, s.roster.chars[mains[seat]].hp - s.damage[mains[seat]]) for seat in s.seats
        )  # wound points left on the main character
        return Outcome(scores=scores, winners=s.winners, reason=s.end_reason)

    def view(self, s: EpicState, seat: int | None) -> EpicState:
        """What ``seat`` may know: its own hand and what it was shown; every other hand and
        every draw pile face down (None: a spectator, who holds none)."""

        def seal(cards, mine):
            return tuple(c if mine and c.owned_by(seat) else c.sealed() for c in cards)

        hands = tuple(seal(h, i == seat) for i, h in enumerate(s.hands))
        piles = tuple(seal(p, False) for p in s.piles)
        seen = tuple((x[0], seal(x[1], i == seat)) if x else () for i, x in enumerate(s.seen))
        return s._replace(hands=hands, piles=piles, seen=seen)


def _split(value) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()] if value else []


def _builtin(team: str):
    from ._data import deck_for

    return deck_for(team)


def teams() -> tuple[str, ...]:
    return tuple(t.id for t in cast().teams)
