"""Rock-paper-scissors: the example module of docs/writing-a-module.md.

Two players, best of ``rounds``.  Two ways to choose (option ``mode``):

- ``sealed``: both choose at once; neither choice is seen before both are made (``Choice.SEALED``);
- ``face-down``: the leader lays a choice face down, the other answers in the open, and then the
  leader's choice is turned over (``Choice.FACE_DOWN`` and ``Choice.TURN_OVER``).  The leader
  alternates each round.
"""

from __future__ import annotations

from typing import NamedTuple

from boardstate.rules import (
    HIDDEN,
    Choice,
    Fold,
    GameSpec,
    InvalidCommand,
    Module,
    Option,
    OptionError,
    Outcome,
    event,
    rules_class,
)

SHAPES = ("rock", "paper", "scissors")
MODES = ("sealed", "face-down")


# ---------------------------------------------------------------------------------- state
class RpsState(NamedTuple):
    players: tuple[str, ...]
    mode: str
    rounds: int  # wins needed: a best of 2 * rounds - 1
    wins: tuple[int, int] = (0, 0)
    leader: int = 0  # face-down mode: who lays a choice face down this round
    face_down: bool = False  # face-down mode: the leader's choice lies on the table
    answer: int = -1  # face-down mode: the other player's open answer
    played: int = 0  # rounds played (draws included)


# ---------------------------------------------------------------------------------- events
@event("rps.round-played")
class RoundPlayed:
    shapes: tuple  # per seat: the shape index shown
    winner: int  # the seat that won the round, -1 for a draw


@event("rps.laid-face-down")
class LaidFaceDown:
    seat: int


@event("rps.answered")
class Answered:
    seat: int
    shape: int


EVENTS = (RoundPlayed, LaidFaceDown, Answered)


# ---------------------------------------------------------------------------------- evolve
FOLD = Fold(EVENTS)


@FOLD.on(RoundPlayed)
def _round_played(s: RpsState, e: RoundPlayed) -> RpsState:
    wins = s.wins
    if e.winner >= 0:
        wins = tuple(w + (seat == e.winner) for seat, w in enumerate(wins))
    return s._replace(
        wins=wins, played=s.played + 1, face_down=False, answer=-1, leader=1 - s.leader
    )


@FOLD.on(LaidFaceDown)
def _laid_face_down(s: RpsState, e: LaidFaceDown) -> RpsState:
    return s._replace(face_down=True)


@FOLD.on(Answered)
def _answered(s: RpsState, e: Answered) -> RpsState:
    return s._replace(answer=e.shape)


evolve = FOLD.evolver()  # after the last handler: every event has one


# ---------------------------------------------------------------------------------- rules
def beats(a: int, b: int) -> bool:
    """Rock blunts scissors, paper wraps rock, scissors cut paper."""
    return (a - b) % 3 == 1


# Commands are shape indexes: 0 rock, 1 paper, 2 scissors.
def initial(setup) -> RpsState:
    return RpsState(setup.players, setup.options["mode"], int(setup.options["rounds"]))


def prepare(options, players) -> dict:
    rounds = options["rounds"]
    if rounds not in tuple("123456789"):  # (one ASCII digit: int() takes 5000 digits, and '٥')
        raise OptionError(f"option rounds: {rounds!r} is not a whole number from 1 to 9")
    return options


def start(table) -> None:
    """Nothing is dealt: the game starts at once."""


def to_act(s: RpsState) -> tuple:
    if s.mode == "sealed":
        return (0, 1)
    if not s.face_down:
        return (s.leader,)
    if s.answer < 0:
        return (1 - s.leader,)
    return (s.leader,)


def choice(s: RpsState) -> Choice:
    if s.mode == "sealed":
        return Choice.SEALED
    if not s.face_down:
        return Choice.FACE_DOWN
    return Choice.OPEN if s.answer < 0 else Choice.TURN_OVER


def legal(s: RpsState, seat: int):
    return (0, 1, 2)


def parse(s: RpsState, seat: int, text: str) -> int:
    word = text.strip().lower()
    hits = [i for i, name in enumerate(SHAPES) if word and name.startswith(word)]
    if len(hits) != 1:
        raise InvalidCommand(
            f"cannot read {text.strip()!r}: say rock, paper or scissors", code="syntax"
        )
    return hits[0]


def notation(s: RpsState, seat: int, command: int) -> str:
    return SHAPES[command]


def decide(table, moves) -> None:
    s = table.state
    if s.mode == "sealed":
        shapes = [0, 0]
        for seat, shape in moves:
            shapes[seat] = shape
        table.emit(RoundPlayed(tuple(shapes), _winner(shapes)))
        return
    ((seat, command),) = moves
    if command is HIDDEN:
        table.emit(LaidFaceDown(seat))
    elif seat != s.leader:
        table.emit(Answered(seat, command))
    else:  # the leader's choice, turned over
        shapes = [0, 0]
        shapes[seat], shapes[1 - seat] = command, s.answer
        table.emit(RoundPlayed(tuple(shapes), _winner(shapes)))


def outcome(s: RpsState) -> Outcome | None:
    best = max(s.wins)
    if best < s.rounds:
        return None
    winner = s.wins.index(best)
    return Outcome(
        scores=s.wins, winners=(winner,), reason=f"{s.players[winner]} won {best} rounds"
    )


def view(s: RpsState, seat: int) -> RpsState:
    return s  # nothing on the table is secret: the engine seals the choices


def render(s: RpsState, seat) -> str:
    lines = [f"{p}: {w} won" for p, w in zip(s.players, s.wins)]
    if s.face_down:
        lines.append(f"{s.players[s.leader]}'s choice lies face down")
    if s.answer >= 0:
        lines.append(f"{s.players[1 - s.leader]} answered {SHAPES[s.answer]}")
    return "\n".join(lines)


def to_json(s: RpsState, seat) -> dict:
    return {"wins": dict(zip(s.players, s.wins)), "played": s.played, "face_down": s.face_down}


def _winner(shapes) -> int:
    a, b = shapes
    return 0 if beats(a, b) else 1 if beats(b, a) else -1


SPEC = GameSpec(
    id="rock-paper-scissors",
    name="Rock-paper-scissors",
    version="1.0",
    min_players=2,
    max_players=2,
    options=(
        Option(
            "mode",
            "sealed",
            "how the players choose: both at once, sealed, or the leader "
            "face down and the other in the open",
            MODES,
        ),
        Option("rounds", "2", "wins needed (1-9)"),
    ),
    events=EVENTS,
    notation="rock | paper | scissors   (a prefix will do: r, p, s)",
    summary="The example module: sealed and face-down choices (2 players)",
)

RpsRules = rules_class(
    "RpsRules",
    initial=initial,
    prepare=prepare,
    start=start,
    to_act=to_act,
    choice=choice,
    legal=legal,
    parse=parse,
    notation=notation,
    decide=decide,
    evolve=evolve,
    outcome=outcome,
    view=view,
    render=render,
    to_json=to_json,
)
MODULE = Module(SPEC, RpsRules())
