"""The parts of Duel of the Forces' Decider that belong to no other file: the options, the first
table, the trust modes, whose turn and how they choose, the outcome and the views.

``__init__`` makes the rules' class from these and the other files' parts (``rules_class``):
``_decide`` (start, decide), ``_evolve``, ``_legal`` (legal, is_legal), ``_why`` (explain),
``_notation``, ``_report``, ``_render`` and ``_svg``.  Rules revision 2 asks the "may" choices,
lets Parlett's R2-D2 give a Vader away and stay, and ends a Ravensburger game before an R2-D2
turn-up; revision 3 keeps the stock as the public list of the cards left and draws each card at
random as it turns up (no dealer: the peer mode).  Revisions 1 and 2 are kept exactly, one flag
per change (``DuelState.may_is_asked``, ``gift_keeps_r2_in_parlett``, ``end_before_r2_turn_up``,
the default of option r2-only-end, and ``draws_at_turn_up``).
"""

from __future__ import annotations

from boardstate.rules import Choice, OptionError, Outcome, Setup

from . import _scoring
from ._cards import DECK_FILE, HERO_ORDER, cards_of
from ._editions import EDITIONS
from ._state import (
    BID,
    CORRECTED,
    OFFER,
    OVER,
    PEER_READY,
    R2,
    R2_DECISION,
    RAVENSBURGER,
    DuelState,
    vader_up,
)

FULL_TIE = ("set-aside", "rebid")
# Readings the texts leave open (docs/games/duel-of-the-forces.md, "Readings that end a game").
R2_ONLY_END = ("several", "all")  # DE/IT/NL "mehrere Spieler" against FR "les joueurs"
OUT_OF_CARDS = ("no-cards", "only-r2")  # Parlett: what "runs out of rebel cards" means


# ------------------------------------------------------------------ options and setup
def prepare(options, players) -> dict:
    """What the engine cannot check: the heroes named, and the cards, loaded into the header
    so that a game made with ``deck=FILE`` replays without the file.  The readings added in
    revision 2 are stored only when given, so a default header is as it always was."""
    heroes = (
        parse_heroes(options["heroes"], players)
        if "heroes" in options
        else HERO_ORDER[: len(players)]
    )
    cards = DECK_FILE.option(options.get("deck"))
    stored = {
        "edition": options["edition"],
        "heroes": heroes,
        "full-tie": options["full-tie"],
        "cards": cards.to_option(),
    }
    for key in ("r2-only-end", "out-of-cards"):
        if key in options:
            stored[key] = options[key]
    return stored


def initial(setup: Setup) -> DuelState:
    options = setup.options
    edition = options["edition"]
    n = len(setup.players)
    r2_end = options.get("r2-only-end", default_r2_only_end(edition, setup.revision))
    out_of_cards = options.get("out-of-cards", OUT_OF_CARDS[0])
    state = DuelState(
        players=tuple(setup.players),
        edition=edition,
        heroes=tuple(options["heroes"]),
        hands=tuple((R2, 1, 2, 3, 4, 5, 6, 7, 8) for _ in range(n)),
        stock=(),
        villain=None,
        captured=((),) * n,
        full_tie=options["full-tie"],
        cards=cards_of(options["cards"]),
        revision=setup.revision,
        several_r2_end=r2_end == "several",
        r2_is_no_rebel=edition != RAVENSBURGER and out_of_cards == "only-r2",
    )
    if state.draws_at_turn_up:  # every Empire card, known to all, waits to be drawn
        state = state.replace(stock=tuple(range(len(state.cards.deck))))
    return state


def refuse_trust(setup: Setup, mode: str) -> str | None:
    """The peer mode has no dealer to shuffle the stock at creation: it plays revision 3."""
    if mode == "peer" and setup.revision < PEER_READY:
        return (
            f"Duel of the Forces rules revision {setup.revision} shuffles the stock with a "
            f"seed at creation; the peer mode needs revision {PEER_READY} (the default for "
            f"new games)"
        )
    return None


def parse_heroes(text: str, players) -> tuple:
    """``yoda, han`` -> ("yoda", "han"): one different hero per player, in seat order."""
    heroes = tuple(h.strip().lower() for h in text.split(",") if h.strip())
    if (
        len(heroes) != len(players)
        or len(set(heroes)) != len(heroes)
        or not set(heroes) <= set(HERO_ORDER)
    ):
        raise OptionError(
            f"heroes must name {len(players)} different heroes from "
            f"{', '.join(HERO_ORDER)}, one per player in order"
        )
    return heroes


def default_r2_only_end(edition: str, revision: int) -> str:
    """The printed German, Italian and Dutch texts end the game when *several* players hold only
    R2-D2 (revision 2); Parlett is silent, so his editions end it only when the game could not go
    on (all of them), as revision 1 did in every edition."""
    return "several" if edition == RAVENSBURGER and revision >= CORRECTED else "all"


# ------------------------------------------------------------------ whose turn
def to_act(s: DuelState) -> tuple:
    if s.phase == BID:
        # A force card is needed against Vader, and by a player for whom R2-D2 alone is
        # "out of rebel cards" (Parlett, option out-of-cards=only-r2).
        force = s.r2_is_no_rebel or vader_up(s)
        return tuple([i for i, h in enumerate(s.hands) if h and not (force and h[-1] == R2)])
    if s.phase == R2_DECISION:
        return (s.r2_seat,)
    if s.phase == OFFER:
        return (s.asked,)
    return ()


def choice(s: DuelState) -> Choice:
    """Bids are sealed and turned over together; every other decision is made in the open."""
    return Choice.SEALED if s.phase == BID else Choice.OPEN


# ------------------------------------------------------------------ results and views
def outcome(s: DuelState) -> Outcome | None:
    if s.phase != OVER:
        return None
    return _scoring.outcome(s.captured, s.cards.deck, s.edition, s.end_reason)


def view(s: DuelState, seat: int | None) -> DuelState:
    if s.draws_at_turn_up:
        return s  # revision 3: nothing on the table is secret (the engine seals the bids)
    return s.replace(stock=tuple(c.sealed() for c in s.stock))


__all__ = ["EDITIONS", "FULL_TIE", "OUT_OF_CARDS", "R2_ONLY_END"]
