"""The parts of Jedi Duel's Decider that belong to no other file: the header's options, the
first table, the trust modes it plays in, whose turn, the outcome and the views.

``__init__`` makes the rules' class from these and the other files' parts (``rules_class``):
``_decide`` (start, decide), ``_evolve``, ``_legal``, ``_why`` (explain), ``_notation``,
``_render`` and ``_svg``."""

from __future__ import annotations

from boardstate.rules import OptionError, Outcome, Setup

from ._combat import START_FATIGUE
from ._playaid import playaid_of, playaid_option
from ._state import NO_CARD, JediState

FUMBLE_STANCE = ("card", "area")
QUEEN_VS_LIGHTNING = ("shields", "no")


def check_names_differ(players) -> None:
    """Typed commands name players without case, so 'Ann' and 'ann' could not be told apart."""
    names = [p.lower() for p in players]
    if len(set(names)) != len(names):
        raise OptionError(
            "two players share a name (names are compared without case)", code="bad-option"
        )


# ---------------------------------------------------------------- options and setup
def prepare(options, players) -> dict:
    """What the engine cannot do: read the Playaid file into the header, and refuse names that
    differ only in case.  The choices are checked against the spec already."""
    check_names_differ(players)
    return {
        "playaid": playaid_option(options.get("playaid")),
        "fumble-stance": options["fumble-stance"],
        "queen-vs-lightning": options["queen-vs-lightning"],
    }


def initial(setup: Setup) -> JediState:
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


def refuse_trust(setup: Setup, mode: str) -> str | None:
    """One shared deck is dealt into private hands: someone must know the deck to deal from
    it (the hosted mode's judge, the open mode's seed), or every player shuffles it and the
    cards are drawn by mental poker (the shared-deck mode, for 2 or 3 players)."""
    if mode == "peer":
        return (
            "it deals one shared deck into private hands, which needs a dealer nobody "
            "plays against: use the shared-deck mode (2 or 3 players), the hosted mode (a "
            "judge) or the open mode"
        )
    if mode == "shared-deck" and len(setup.players) > MAX_SHARED_DECK:
        return (
            f"at most {MAX_SHARED_DECK} players share a deck without a dealer (every copy "
            f"checks every player's shuffle, seconds each): with {len(setup.players)}, use "
            f"the hosted mode (a judge)"
        )
    return None


MAX_SHARED_DECK = 3  # players in the shared-deck mode (docs/trust.md, "Shared-deck mode")


# ---------------------------------------------------------------- whose turn
def to_act(s: JediState) -> tuple:
    return s.queue[:1]


# ---------------------------------------------------------------- results and views
def outcome(s: JediState) -> Outcome | None:
    if not s.over:
        return None
    best = max(s.fatigue)
    winners = tuple(i for i in s.seats if s.fatigue[i] == best)
    return Outcome(scores=s.fatigue, winners=winners, reason=s.end_reason)


def view(s: JediState, seat: int | None) -> JediState:
    """What ``seat`` may know: every card it does not own turns face down (None: a spectator,
    who owns none)."""

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
