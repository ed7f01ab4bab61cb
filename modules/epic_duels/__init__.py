"""Star Wars Epic Duels (Hasbro 2002): the two-player game on the four battle scenes.

See docs/games/epic-duels.md for the rules as implemented and the choices on ambiguous points,
and docs/games/epic-duels-data.md for the characters, decks and the effect vocabulary.
"""

from boardstate.rules import GameSpec, Module, Option, on_first_use, rules_class

from . import _decide, _evolve, _legal, _notation, _rules
from ._data import data_digest
from ._notation import HELP
from ._roster import OWN_DAMAGE, VARIANTS
from ._rules import DECK_END, DESTROYED
from ._state import EVENTS, EpicState
from .boards import SCENES

# The parts on_first_use names are imported when first called: a command that draws no
# picture (the board drawing, xml.etree), refuses nothing, tells nothing or plays no bot does
# not load them.
EpicRules = rules_class(
    "EpicRules",
    prepare=_rules.prepare,
    initial=_rules.initial,
    refuse_trust=_rules.refuse_trust,
    start=_decide.start,
    to_act=_rules.to_act,
    choice=_rules.choice,
    legal=_legal.legal,
    is_legal=_legal.is_legal,
    legal_pick=_legal.legal_pick,
    explain=on_first_use(f"{__name__}._why", "refuse"),
    parse=_notation.parse,
    notation=_notation.notation,
    decide=_decide.decide,
    evolve=_evolve.evolve,
    outcome=_rules.outcome,
    report=_rules.report,
    tell=on_first_use(f"{__name__}._story", "tell"),
    view=_rules.view,
    render=on_first_use(f"{__name__}._render", "render"),
    to_json=on_first_use(f"{__name__}._render", "to_json"),
    svg=on_first_use(f"{__name__}._svg", "svg"),
    determinize=on_first_use(f"{__name__}._hidden", "determinize"),
)

SPEC = GameSpec(
    id="epic-duels",
    name="Star Wars Epic Duels",
    version="2.2",  # rules revision 4
    min_players=2,
    max_players=6,
    options=(
        Option("board", SCENES[0], "the battle scene", SCENES),
        Option(
            "variant",
            None,
            "duel (2 players, light against dark: the default for 2), team (4 or 6, two teams, seats "
            "alternating), free-for-all (2-6), random-draw (free-for-all, mains drawn at "
            "random), master (2 or 4: two mains each, one hand); default: duel for 2 players, "
            "free-for-all for more",
            VARIANTS,
        ),
        Option(
            "characters",
            None,
            "the main characters in player order, e.g. obi-wan,dooku (the duel's default, the "
            "rulebook's first game); Master Play: two each, obi-wan+yoda,dooku+maul (default: "
            "drawn at random)",
        ),
        Option(
            "decks",
            None,
            "deck files with the printed cards, comma-separated (each replaces its team's "
            "built-in deck)",
        ),
        Option(
            "alternatives",
            None,
            "disputed card readings to use, comma-separated ids (see docs/games/epic-duels-data.md)",
        ),
        Option(
            "deck-end",
            DECK_END[0],
            "when a draw pile counts as gone through: when a card is wanted from it and none is "
            "left (next-draw) or when its last card is drawn (last-card)",
            DECK_END,
        ),
        Option(
            "destroyed",
            DESTROYED[0],
            "a character is destroyed by damage above its wound points (beyond-track: the "
            "rulebook's 'more damage than it has wound points') or equal to them (at-zero: "
            "hit points, as the public reimplementations count)",
            DESTROYED,
        ),
        Option(
            "own-damage",
            OWN_DAMAGE[0],
            "whether Throw Debris and Force Lightning ('any one character takes N damage') may "
            "hit a character of your own side: forbidden (as both public reimplementations "
            "play) or allowed (the cards' words read literally)",
            OWN_DAMAGE,
        ),
    ),
    events=EVENTS,
    notation=HELP,
    data_digest=data_digest(),
    summary="Grid duels with line of sight, 12 characters and 372 cards (2-6 players: duel, "
    "teams, free-for-all, Master Play)",
    revision=4,
    changes=(
        (
            2,
            "playable without a dealer: each draw pile is its player's own, arranged for them, "
            "and every draw takes a card at a random position; 'the top N cards' are N cards "
            "drawn at random for a look (the others go back), and a search of the draw pile is "
            "its player's own look through it; a card that discards every card of a kind, or "
            "all but one (Anger), is answered by the hand's owner naming the cards turned face "
            "up, never the cards kept, so that every player's copy decides it alike",
        ),
        (
            3,
            "team-mates are friends (a move passes through their characters; they cannot be "
            "attacked, nor hit by cards that hit an enemy character); the first main character "
            "destroyed by a card ends the game and nothing happens after the end; the opening "
            "hands are drawn after the minors are placed; Throw Debris and Force Lightning hit "
            "no character of the card player's own side unless own-damage=allowed",
        ),
        (
            4,
            "'draw 2' spends both actions drawing, the first card not looked at before the "
            "second (the rules' own example of two actions alike), so that by mail the draws "
            "wait once for the other players' shares of the randomness; a hand that two draws "
            "take over 10 names its discards first",
        ),
    ),
    oldest_revision=2,  # (revision 1 dealt the piles as cards nobody owns: no longer played)
)

MODULE = Module(SPEC, EpicRules())

__all__ = ["MODULE", "SPEC", "EpicState"]
