"""Jedi Duel (Curufea, 2022): stances, fatigue and Force powers with a 54-card deck, 2-6 players.

See docs/games/jedi-duel.md for the rules as implemented and the choices on ambiguous points.
"""

from boardstate.rules import GameSpec, Module, Option

from . import _render, _svg
from ._notation import HELP
from ._playaid import data_digest
from ._rules import FUMBLE_STANCE, QUEEN_VS_LIGHTNING, JediRules
from ._state import EVENTS, OWNERS_ANSWER, JediState


class _Rules(JediRules):
    render = staticmethod(_render.render)
    to_json = staticmethod(_render.to_json)
    svg = staticmethod(_svg.svg)

    @staticmethod
    def refuse_trust(setup, mode: str) -> str | None:
        """One shared deck is dealt into private hands: someone must know the deck to deal
        from it, so it needs a dealer (the hosted mode's judge, or the open mode's seed)."""
        if mode == "peer":
            return (
                "it deals one shared deck into private hands, which needs a dealer nobody "
                "plays against: use the hosted mode (a judge) or the open mode"
            )
        return None


SPEC = GameSpec(
    id="jedi-duel",
    name="Jedi Duel",
    version="1.1",
    min_players=2,
    max_players=6,
    options=(
        Option(
            "playaid",
            None,
            "TOML file with the Stance Playaid's attack and defence modifiers "
            "(default: the documented reconstruction)",
        ),
        Option(
            "fumble-stance",
            FUMBLE_STANCE[0],
            "after a fumble the attacker's stance follows "
            "the suit of the card put there ('card'; a Club keeps the stance) or keeps its "
            "area ('area')",
            FUMBLE_STANCE,
        ),
        Option(
            "queen-vs-lightning",
            QUEEN_VS_LIGHTNING[0],
            "whether Force Push/Pull immunity "
            "also shields from Force Lightning ('shields') or not ('no')",
            QUEEN_VS_LIGHTNING,
        ),
    ),
    events=EVENTS,
    notation=HELP,
    data_digest=data_digest(),
    summary="Stances, fatigue and Force powers with playing cards (2-6 players)",
    revision=OWNERS_ANSWER,
    changes=(
        (2, "Force Sense asks the sensed player, who shows their hand ('show')"),
        (2, "a hand of Jokers only is asked for its stance too, and answers 'keep'"),
        (2, "a card put back from the low stance is a face-down deck card nobody owns"),
    ),
)

MODULE = Module(SPEC, _Rules())

__all__ = ["MODULE", "SPEC", "JediState"]
