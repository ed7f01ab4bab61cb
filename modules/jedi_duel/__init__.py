"""Jedi Duel (Curufea, 2022): stances, fatigue and Force powers with a 54-card deck, 2-6 players.

See docs/games/jedi-duel.md for the rules as implemented and the choices on ambiguous points.
"""

from boardstate.rules import GameSpec, Module, Option, on_first_use, rules_class

from . import _decide, _evolve, _legal, _notation, _rules
from ._notation import HELP
from ._playaid import data_digest
from ._rules import FUMBLE_STANCE, QUEEN_VS_LIGHTNING
from ._state import EVENTS, OWNERS_ANSWER, JediState

# The parts on_first_use names are imported when first called: a command that draws no
# picture, refuses nothing, tells nothing or plays no bot does not load them.
JediRules = rules_class(
    "JediRules",
    prepare=_rules.prepare,
    initial=_rules.initial,
    refuse_trust=_rules.refuse_trust,
    start=_decide.start,
    to_act=_rules.to_act,
    legal=_legal.legal,
    is_legal=_legal.is_legal,
    explain=on_first_use(f"{__name__}._why", "refuse"),
    parse=_notation.parse,
    notation=_notation.notation,
    decide=_decide.decide,
    evolve=_evolve.evolve,
    outcome=_rules.outcome,
    view=_rules.view,
    render=on_first_use(f"{__name__}._render", "render"),
    to_json=on_first_use(f"{__name__}._render", "to_json"),
    svg=on_first_use(f"{__name__}._svg", "svg"),
    tell=on_first_use(f"{__name__}._story", "tell"),
    unseen=on_first_use(f"{__name__}._hidden", "unseen"),
    pinned=on_first_use(f"{__name__}._hidden", "pinned"),
)

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

MODULE = Module(SPEC, JediRules())

__all__ = ["MODULE", "SPEC", "JediState"]
