"""Duel of the Forces (Ravensburger 2015, David Parlett): sealed bids for villains.

Three editions (option ``edition``): ``ravensburger-2015`` (the printed text, default),
``parlett-english`` and ``parlett-original``.  See docs/games/duel-of-the-forces.md.
"""

from boardstate.rules import GameSpec, Module, Option

from . import _render
from ._cards import DECK_FILE
from ._rules import EDITIONS, FULL_TIE, KEEP, DuelRules, give, play
from ._state import EVENTS, DuelState

NOTATION = """\
play HERO FORCE   bid a rebel card face down, e.g. 'play luke 5' (or just 'play 5')
play r2           bid your R2-D2 (not when Darth Vader is up)
keep              keep the card your R2-D2 turned up
give PLAYER       give the card your R2-D2 turned up to PLAYER"""


class _Rules(DuelRules):
    render = staticmethod(_render.render)
    to_json = staticmethod(_render.to_json)


SPEC = GameSpec(
    id="duel-of-the-forces",
    name="Duel of the Forces",
    version="1.0",
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
    ),
    events=EVENTS,
    notation=NOTATION,
    data_digest=DECK_FILE.digest,
    summary="Sealed bids for Empire villains; R2-D2 peeks, Darth Vader costs points (2-4 players)",
)

MODULE = Module(SPEC, _Rules())

__all__ = ["MODULE", "SPEC", "DuelState", "KEEP", "give", "play"]
