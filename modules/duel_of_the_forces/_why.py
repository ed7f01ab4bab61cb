"""Why a command is refused: a one-line reason, a stable code, and the rule it breaks.

The engine accepts exactly what ``legal`` lists (and checks game over and whose turn it is);
this module only explains a refusal (``Rules.explain``), naming the rule in the edition's text.
"""

from __future__ import annotations

from boardstate.rules import IllegalCommand

from ._editions import REF, REF_R2_ON_VADER
from ._legal import ANSWERS
from ._notation import notation
from ._state import BID, KEEP_CARD, LOOK, OFFER, R2, TAKE, DuelState

_ANSWER_RULE = {LOOK: "r2", KEEP_CARD: "vader", TAKE: "end"}
_ASKED = {
    LOOK: "may look at the next stock card with R2-D2",
    KEEP_CARD: "may keep the rebel card that won Darth Vader",
    TAKE: "may take cards from the stock as the last player holding cards",
}


def refuse(s: DuelState, seat: int, command) -> IllegalCommand:
    """Why ``command`` is not legal now, with the rule it breaks (the engine has checked that
    the game is on and that ``seat`` acts)."""
    if s.phase == BID:
        return _explain_bid(s, seat, command)
    if s.phase == OFFER:
        return _explain_answer(s, command)
    return _explain_r2_decision(s, seat, command, notation(s, seat, command))


def hand_text(s: DuelState, seat: int) -> str:
    return " ".join("r2" if c == R2 else str(c) for c in s.hands[seat]) or "empty"


def _explain_bid(s: DuelState, seat: int, command) -> IllegalCommand:
    ref = REF[s.edition]
    kind = command[0]
    if kind != "play":
        return IllegalCommand(
            f"'{kind}' answers a choice the rules give one player (R2-D2, Darth Vader, the "
            f"final take); now every player bids with 'play'",
            code="wrong-phase",
            rule=ref["r2"] if kind in ("keep", "give", "look") else ref["bid"],
        )
    card = command[1]
    if card not in s.hands[seat]:
        what = "R2-D2" if card == R2 else f"force {card}"
        return IllegalCommand(
            f"{s.players[seat]} has no {what} card in hand (hand: {hand_text(s, seat)})",
            code="not-in-hand",
            rule=ref["bid"],
        )
    return IllegalCommand(
        "R2-D2 may not be played when Darth Vader is up",
        code="r2-on-vader",
        rule=REF_R2_ON_VADER[s.edition],
    )


def _explain_answer(s: DuelState, command) -> IllegalCommand:
    yes, no = ANSWERS[s.offer]
    return IllegalCommand(
        f"{s.players[s.asked]} {_ASKED[s.offer]}: the answer is '{yes[0]}' or '{no[0]}'",
        code="answer-the-offer",
        rule=REF[s.edition][_ANSWER_RULE[s.offer]],
    )


def _explain_r2_decision(s: DuelState, seat: int, command, shown: str) -> IllegalCommand:
    rule = REF[s.edition]["r2"]
    kind = command[0]
    if kind == "play":
        return IllegalCommand(
            f"{s.players[s.r2_seat]} must first keep or give the card R2-D2 turned up",
            code="wrong-phase",
            rule=rule,
        )
    if kind == "give" and command[1] == seat:
        return IllegalCommand(
            "to keep the card say 'keep'; 'give' names another player",
            code="give-self",
            rule=rule,
        )
    return IllegalCommand(
        f"{shown!r} is not a legal command now: keep the card R2-D2 turned up ('keep') or "
        f"give it ('give PLAYER')",
        code="illegal",
        rule=rule,
    )
