"""Draw and Roll: a small test game that draws privately from each player's own pile.

Each player's pile (cards 1-9) is arranged by its owner (``rng.arrange``); everyone draws two
cards at random positions at the start.  On a turn a player draws a card (``draw``) or plays one
from hand by position (``play 2``), which scores the card plus a public die roll.  After three
plays each, the highest score wins.  It exercises every part of the peer mode: arranged piles,
private draws (the drawer learns the card, nobody else does until it is played), public dice,
and reveals of played cards checked against the owner's arrangement.
"""

from __future__ import annotations

from typing import NamedTuple

from boardstate.rules import GameSpec, IllegalCommand, InvalidCommand, Module, Outcome, event

CARDS = tuple(range(1, 10))
PLAYS = 3


class DrawState(NamedTuple):
    players: tuple
    piles: tuple = ()  # per seat: secrets owned by the seat
    hands: tuple = ()  # per seat: secrets owned by the seat
    scores: tuple = ()
    plays: tuple = ()
    turn: int = 0
    rolled: tuple = ()  # the last play: (seat, card, die)
    shown: tuple = ()  # cards shown to one player: (shower, reader, secret owned by the reader)


@event("draw.piles-arranged")
class PilesArranged:
    piles: tuple


@event("draw.drawn")
class Drawn:
    seat: int
    position: int


@event("draw.first")
class FirstPlayer:
    seat: int


@event("draw.played")
class Played:
    seat: int
    position: int
    card: object  # the reveal of the card


@event("draw.rolled")
class Rolled:
    seat: int
    die: int


@event("draw.shown")
class Shown:
    seat: int
    reader: int
    card: object  # a secret owned by the reader alone


EVENTS = (PilesArranged, Drawn, FirstPlayer, Played, Rolled, Shown)


def evolve(s: DrawState, e) -> DrawState:
    kind = type(e)
    if kind is PilesArranged:
        n = len(e.piles)
        return s._replace(piles=e.piles, hands=((),) * n, scores=(0,) * n, plays=(0,) * n)
    if kind is Drawn:
        pile = s.piles[e.seat]
        card = pile[e.position]
        piles = _set(s.piles, e.seat, pile[: e.position] + pile[e.position + 1 :])
        return s._replace(piles=piles, hands=_set(s.hands, e.seat, s.hands[e.seat] + (card,)))
    if kind is FirstPlayer:
        return s._replace(turn=e.seat)
    if kind is Played:
        hand = s.hands[e.seat]
        return s._replace(
            hands=_set(s.hands, e.seat, hand[: e.position] + hand[e.position + 1 :]),
            scores=_set(s.scores, e.seat, s.scores[e.seat] + e.card.value),
            plays=_set(s.plays, e.seat, s.plays[e.seat] + 1),
            rolled=(e.seat, e.card.value, 0),
        )
    if kind is Shown:
        return s._replace(
            shown=s.shown + ((e.seat, e.reader, e.card),), turn=(s.turn + 1) % len(s.players)
        )
    if kind is Rolled:
        n = len(s.players)
        return s._replace(
            scores=_set(s.scores, e.seat, s.scores[e.seat] + e.die),
            turn=(s.turn + 1) % n,
            rolled=s.rolled[:2] + (e.die,),
        )
    raise TypeError(kind)


def _set(t: tuple, i: int, v) -> tuple:
    return t[:i] + (v,) + t[i + 1 :]


class DrawRules:
    def initial(self, setup) -> DrawState:
        return DrawState(tuple(setup.players))

    def start(self, table) -> None:
        rng = table.rng
        n = len(table.state.players)
        table.emit(PilesArranged(tuple(rng.arrange(CARDS, seat) for seat in range(n))))
        for seat in range(n):
            for _ in range(2):
                table.emit(Drawn(seat, rng.randbelow(len(table.state.piles[seat]))))
        table.emit(FirstPlayer(rng.randbelow(n)))

    def to_act(self, s: DrawState) -> tuple:
        return (s.turn,)

    def legal(self, s: DrawState, seat: int):
        out = [("play", i) for i in range(len(s.hands[seat]))]
        if s.piles[seat]:
            out.append(("draw",))
        if s.hands[seat]:  # show your first card to one other player
            out += [("show", r) for r in range(len(s.players)) if r != seat]
        return out

    def parse(self, s: DrawState, seat: int, text: str):
        words = text.split()
        if words == ["draw"]:
            return ("draw",)
        if len(words) == 2 and words[0] == "play" and words[1].isdigit():
            return ("play", int(words[1]) - 1)
        if len(words) == 2 and words[0] == "show" and words[1] in s.players:
            return ("show", s.players.index(words[1]))
        raise InvalidCommand(f"cannot read {text!r}: say draw or play N", code="syntax")

    def notation(self, s: DrawState, seat: int, command) -> str:
        if command[0] == "show":
            return f"show {s.players[command[1]]}"
        return "draw" if command[0] == "draw" else f"play {command[1] + 1}"

    def explain(self, s, seat, command):
        return IllegalCommand(f"{self.notation(s, seat, command)!r} is not possible now")

    def decide(self, table, moves) -> None:
        ((seat, command),) = moves
        s = table.state
        if command[0] == "draw":
            table.emit(Drawn(seat, table.rng.randbelow(len(s.piles[seat]))))
            table.emit(Rolled(seat, 0))
            return
        if command[0] == "show":  # (the owner's decision: their copy makes the reader's secret)
            card = s.hands[seat][0]
            table.emit(Shown(seat, command[1], table.rng.secret(card.value, 1 << command[1])))
            return
        position = command[1]
        table.emit(Played(seat, position, table.reveal(s.hands[seat][position])))
        table.emit(Rolled(seat, 1 + table.rng.randbelow(6)))

    def evolve(self, s, e):
        return evolve(s, e)

    def outcome(self, s: DrawState):
        if not s.plays or min(s.plays) < PLAYS:
            return None
        best = max(s.scores)
        winners = [i for i, v in enumerate(s.scores) if v == best]
        return Outcome(tuple(s.scores), tuple(winners), f"highest score {best}")

    def view(self, s: DrawState, seat):
        return s

    def to_json(self, s: DrawState, seat) -> dict:
        """The table as ``seat`` sees it: counts of piles and hands, one's own cards."""
        return {
            "piles": [len(p) for p in s.piles],
            "hands": [[c.value for c in h] if i == seat else len(h) for i, h in enumerate(s.hands)],
            "scores": list(s.scores),
            "turn": s.turn,
            "rolled": list(s.rolled),
        }


SPEC = GameSpec(
    id="draw-and-roll",
    name="Draw and Roll",
    version="1.0",
    min_players=2,
    max_players=4,
    options=(),
    events=EVENTS,
    notation="draw | play N",
)

MODULE = Module(SPEC, DrawRules())
