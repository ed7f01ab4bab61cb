"""Duel of the Forces (Ravensburger 2015, David Parlett): sealed bids for villains.

Three editions (option ``edition``): ``ravensburger-2015`` (the printed text, default),
``parlett-english`` and ``parlett-original``.  See docs/games/duel-of-the-forces.md.
"""

from boardstate.rules import GameSpec, Module, Option, on_first_use, rules_class

from . import (
    _decide,
    _evolve,
    _legal,
    _notation,
    _report,
    _rules,
)
from ._cards import DECK_FILE
from ._legal import DISCARD, KEEP, LOOK_CMD, PASS, TAKE_CMD, give, play
from ._notation import HELP
from ._rules import EDITIONS, FULL_TIE, OUT_OF_CARDS, R2_ONLY_END
from ._state import EVENTS, PEER_READY, DuelState

# The parts on_first_use names are imported when first called: a command that draws no
# picture, refuses nothing, tells nothing or plays no bot does not load them.
DuelRules = rules_class(
    "DuelRules",
    prepare=_rules.prepare,
    initial=_rules.initial,
    refuse_trust=_rules.refuse_trust,
    start=_decide.start,
    to_act=_rules.to_act,
    choice=_rules.choice,
    legal=_legal.legal,
    is_legal=_legal.is_legal,
    explain=on_first_use(f"{__name__}._why", "refuse"),
    parse=_notation.parse,
    notation=_notation.notation,
    decide=_decide.decide,
    evolve=_evolve.evolve,
    outcome=_rules.outcome,
    report=_report.report,
    tell=on_first_use(f"{__name__}._story", "tell"),
    view=_rules.view,
    render=on_first_use(f"{__name__}._render", "render"),
    to_json=on_first_use(f"{__name__}._render", "to_json"),
    svg=on_first_use(f"{__name__}._svg", "svg"),
    unseen=on_first_use(f"{__name__}._hidden", "unseen"),
)

SPEC = GameSpec(
    id="duel-of-the-forces",
    name="Duel of the Forces",
    version="1.2",  # rules revision 3
    min_players=2,
    max_players=4,
    options=(
        Option("edition", EDITIONS[0], "rule set", EDITIONS),
        Option(
            "heroes",
            None,
            "heroes in player order, e.g. yoda,han (default: luke, han, leia, yoda in order)",
        ),
        Option(
            "full-tie",
            FULL_TIE[0],
            "house rule for equal force and icons: set-aside (nobody "
            "wins the villain) or rebid (bid again for it)",
            FULL_TIE,
        ),
        Option(
            "deck",
            None,
            "TOML file with the printed cards (default: the documented reconstruction)",
        ),
        Option(
            "r2-only-end",
            None,
            "the game also ends when several players hold only R2-D2 (DE/IT/NL 'mehrere "
            "Spieler') or when all players still holding cards do (FR 'les joueurs'); default: "
            "several for ravensburger-2015, all for Parlett's editions",
            R2_ONLY_END,
        ),
        Option(
            "out-of-cards",
            None,
            "Parlett's editions: a player has 'run out of rebel cards' with no card left "
            "(no-cards, default) or with nothing but R2-D2 (only-r2); ravensburger-2015 "
            "counts every card in hand and ignores it",
            OUT_OF_CARDS,
        ),
    ),
    events=EVENTS,
    notation=HELP,
    data_digest=DECK_FILE.digest,
    summary="Sealed bids for Empire villains; R2-D2 peeks, Darth Vader costs points (2-4 players)",
    revision=PEER_READY,
    changes=(
        (2, "Parlett's editions: giving away a Darth Vader turned up by R2-D2 keeps R2-D2"),
        (2, "Ravensburger: no R2-D2 turn-up once the duel just played has ended the game"),
        (2, "R2-D2's look is a choice ('look' or 'pass')"),
        (2, "the Darth Vader winner chooses to keep or discard the card used ('keep'/'discard')"),
        (2, "Ravensburger: the last player holding cards chooses the final take ('take'/'pass')"),
        (2, "Ravensburger: several players holding only R2-D2 end the game (option r2-only-end)"),
        (2, "new games: hero icons where every two heroes win 4 of their 8 force ties each"),
        (
            3,
            "no stock shuffled at creation: each card that turns up is drawn at random from the "
            "cards left, so the game needs no dealer (the peer mode)",
        ),
    ),
)

MODULE = Module(SPEC, DuelRules())

__all__ = [
    "MODULE",
    "SPEC",
    "DuelState",
    "DISCARD",
    "KEEP",
    "LOOK_CMD",
    "PASS",
    "TAKE_CMD",
    "give",
    "play",
]
