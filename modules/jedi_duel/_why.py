"""Why a command is refused: a one-line reason, a stable code, and the rule it breaks.

The engine accepts exactly what ``legal`` lists (and checks game over and whose turn it is);
this module only explains a refusal (``Rules.explain``).
"""

from __future__ import annotations

from boardstate.rules import IllegalCommand

from . import _cards
from ._cards import AREA_NAMES, AREA_OF, HIGH, IS_CLUB, IS_JOKER, IS_ROYAL, STANCE_SUIT
from ._combat import can_channel, can_force_defend, in_stance_suit, may_fumble, shielded
from ._state import (
    ACTION,
    BLOW,
    DEFEND,
    HEAL,
    LOOK,
    PUSH,
    RETURN,
    SENSE,
    SETUP,
    SHOW,
    STANCE,
    JediState,
)

RULE = "Jedi Duel, "
_PHASE_VERBS = {
    SETUP: ("stance", "keep"),
    STANCE: ("stance", "keep"),
    ACTION: ("attack", "heal", "push", "sense", "lightning", "discard"),
    DEFEND: ("take", "defend", "force-defend"),
    LOOK: ("swap",),
    RETURN: ("return",),
    SHOW: ("show",),
}
_PHASE_TEXT = {
    SETUP: "show an initial stance ('stance CARD')",
    STANCE: "play a new stance ('stance CARD')",
    ACTION: "attack, use a Force power, or discard for fatigue",
    DEFEND: "answer the attack ('take', 'defend CLUB' or 'force-defend ROYAL')",
    LOOK: "swap a card with the hand you sensed ('swap MINE THEIRS')",
    RETURN: "put one of the cards just drawn back on the deck ('return N')",
    SHOW: "show your hand to the Force Sense ('show')",
}
_SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")


def refuse(s: JediState, seat: int, command) -> IllegalCommand:
    """The refusal of a command that ``legal`` does not list (returned, not raised)."""
    name = s.players[seat]
    try:
        return _explain(s, seat, command, name)
    except (LookupError, TypeError, ValueError):  # not even shaped like a command
        return IllegalCommand(
            f"{name} cannot give the command {command!r}",
            code="malformed",
            rule=RULE + "Playing the Game",
        )


def _explain(s: JediState, seat: int, command, name: str) -> IllegalCommand:
    verb = command[0]
    if verb not in _PHASE_VERBS.get(s.phase, ()):
        return IllegalCommand(
            f"{name} must now {_PHASE_TEXT.get(s.phase, 'wait')}, not '{verb}'",
            code="wrong-step",
            rule=RULE + "Playing the Game",
        )
    check = _CHECKS.get(verb)
    found = check(s, seat, command) if check else None
    if found is not None:
        reason, code, section = found
        return IllegalCommand(reason, code=code, rule=RULE + section)
    return IllegalCommand(
        f"{name} may not do that now", code="not-allowed", rule=RULE + "Playing the Game"
    )


def _held(s: JediState, seat: int, card: int):
    if card not in [c.value for c in s.hands[seat]]:
        return (
            f"{s.players[seat]} holds no {_cards.pretty(card)}",
            "not-in-hand",
            "Playing the Game",
        )
    return None


def _stance(s, seat, command):
    _, card, area = command
    if (why := _held(s, seat, card)) is not None:
        return why
    if IS_JOKER[card]:
        return ("a Joker cannot be a stance", "joker-stance", "Stance")
    if not IS_CLUB[card] and area != AREA_OF[card]:
        return (
            f"{_cards.pretty(card)} puts you in the {AREA_NAMES[AREA_OF[card]]} stance; only a "
            f"Club may go to any stance",
            "stance-suit",
            "Stance",
        )
    return None


def _target(s, seat, target):
    if target == seat:
        return ("you cannot target yourself", "self-target", "Attack")
    if s.fatigue[target] <= 0:
        return (f"{s.players[target]} is out of the duel", "target-out", "Game End")
    return None


def _keep(s, seat, command):
    if not s.owners_answer:
        return (
            "this game is played under rules revision 1, which has no 'keep': play a new "
            "stance ('stance CARD')",
            "keep-revision",
            "Stance",
        )
    return (
        "you hold a card that makes a stance: play it ('stance CARD'); only a hand of "
        "Jokers keeps the stance",
        "must-change-stance",
        "Stance",
    )


def _attack(s, seat, command):
    _, target, card, area = command
    for why in (_held(s, seat, card), _target(s, seat, target)):
        if why is not None:
            return why
    if IS_JOKER[card]:
        if not can_channel(s, seat):
            return (
                "a Joker may only be played from the middle or low stance",
                "joker-stance",
                "Jokers",
            )
    elif IS_ROYAL[card]:
        return (
            "attack with a non-royal card; royals are Force powers and Force Defence",
            "royal-attack",
            "Attack",
        )
    elif not IS_CLUB[card] and area != AREA_OF[card]:
        return (
            f"{_cards.pretty(card)} attacks the {AREA_NAMES[AREA_OF[card]]} area; only a Club "
            f"names its area",
            "attack-area",
            "Attack",
        )
    if shielded(s, target, seat):
        return (
            f"{s.players[target]} is immune from attacks until their next turn (Force "
            f"Push/Pull), except from the high stance",
            "immune",
            "Force Power",
        )
    return None


def _power(rank: int, word: str):
    def check(s, seat, command):
        card = command[-1]
        if (why := _held(s, seat, card)) is not None:
            return why
        if _cards.RANK[card] != rank:
            return (
                f"{word} needs a {('Jack', 'Queen', 'King')[rank - 11]}",
                "wrong-royal",
                "Force Power",
            )
        if not in_stance_suit(s, seat, card):
            suit = (
                _SUIT_NAMES[STANCE_SUIT[s.stance_area[seat]]]
                if s.stance_area[seat] >= 0
                else "your stance"
            )
            return (
                f"the power works only with the suit of your stance ({suit}) or a Club royal",
                "power-suit",
                "Force Power",
            )
        if rank == SENSE:
            target = command[1]
            if (why := _target(s, seat, target)) is not None:
                return why
            if s.stance_area[target] == HIGH:
                return (
                    f"{s.players[target]} is in the high stance and ignores Force Sense",
                    "force-aware",
                    "Stance",
                )
        return None

    return check


def _lightning(s, seat, command):
    cards = command[1]
    for c in cards:
        if (why := _held(s, seat, c)) is not None:
            return why
    if not can_channel(s, seat):
        return (
            "Force Lightning comes only from the middle or low stance",
            "lightning-stance",
            "Force Lightning",
        )
    if not all(IS_ROYAL[c] for c in cards) and set(cards) != {52, 53}:
        return (
            "Force Lightning needs four royals or both Jokers",
            "lightning-cards",
            "Force Lightning",
        )
    return None


def _discard(s, seat, command):
    return _held(s, seat, command[1])


def _defend(s, seat, command):
    card = command[1]
    if (why := _held(s, seat, card)) is not None:
        return why
    if not IS_CLUB[card]:
        return ("only a Club can be discarded as a temporary defence", "not-a-club", "Attack")
    if s.attack[0] != BLOW:
        return (
            "the only defence against a Joker or Force Lightning is a Force Defence",
            "force-only",
            "Jokers",
        )
    return None


def _force_defend(s, seat, command):
    _, card, fumble = command
    if (why := _held(s, seat, card)) is not None:
        return why
    if not can_force_defend(s.attack[4]):
        return (
            "an attack from the high stance cannot be Force-Defended",
            "force-aware",
            "Force Defence",
        )
    if not in_stance_suit(s, seat, card):
        return (
            "a Force Defence is a royal of your stance's suit or a Club royal",
            "defence-suit",
            "Force Defence",
        )
    if fumble >= 0:
        if fumble == card or (why := _held(s, seat, fumble)) is not None:
            return why or (
                "the fumble card must be another card from your hand",
                "fumble-card",
                "Force Defence",
            )
        if IS_JOKER[fumble]:
            return ("a Joker cannot be placed in a stance", "joker-stance", "Force Defence")
        if not may_fumble(s, seat, s.turn):
            return (
                "a fumble needs your fatigue in a lower column than your attacker's",
                "no-fumble",
                "Force Defence",
            )
    return None


def _swap(s, seat, command):
    _, given, taken = command
    mine, theirs = len(s.hands[seat]), len(s.hands[s.peek[0]]) if s.peek else 0
    return (
        f"give one of your cards 1-{mine} for one of theirs 1-{theirs}",
        "bad-position",
        "Force Power",
    )


def _return(s, seat, command):
    allowed = ", ".join(str(p + 1) for p in s.returnable)
    return (
        f"only one of the cards just drawn goes back (positions {allowed})",
        "bad-position",
        "Stance",
    )


_CHECKS = {
    "stance": _stance,
    "keep": _keep,
    "attack": _attack,
    "heal": _power(HEAL, "Force Heal"),
    "push": _power(PUSH, "Force Push/Pull"),
    "sense": _power(SENSE, "Force Sense"),
    "lightning": _lightning,
    "discard": _discard,
    "defend": _defend,
    "force-defend": _force_defend,
    "swap": _swap,
    "return": _return,
}
