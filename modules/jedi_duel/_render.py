"""The table as text and as JSON, as one seat (or a spectator) sees it.

Works on views: a card whose value this copy does not hold is "a face-down card".
"""

from __future__ import annotations

from boardstate.rules import UNKNOWN

from . import _cards
from ._cards import AREA_NAMES
from ._combat import blow_damage, column, stance_defence
from ._state import (
    ACTION,
    BLOW,
    DEFEND,
    JOKER,
    LIGHTNING,
    LOOK,
    NO_CARD,
    OVER,
    RETURN,
    SETUP,
    SHOW,
    STANCE,
    JediState,
)

_ASKED = {
    SETUP: "show an initial stance",
    STANCE: "play a new stance",
    ACTION: "attack, use a Force power, or discard for fatigue",
    DEFEND: "answer the attack",
    LOOK: "swap one card with the sensed hand",
    RETURN: "put one drawn card back on the deck",
    SHOW: "show their hand to the Force Sense",
}
_COLUMNS = ("21-15", "14-8", "7-1", "out")


def _card(secret) -> str | None:
    return None if secret.value is UNKNOWN else _cards.name(secret.value)


def _attack_json(s: JediState) -> dict | None:
    if not s.attack or s.phase != DEFEND:
        return None
    kind, card, area, speed, attacker_area = s.attack
    data = {
        "attacker": s.players[s.turn],
        "stance": AREA_NAMES[attacker_area],
        "kind": {BLOW: "blow", JOKER: "joker", LIGHTNING: "lightning"}[kind],
        "defenders": [s.players[i] for i in s.queue],
    }
    if kind != LIGHTNING:
        data["card"] = _cards.name(card)
    if kind == BLOW:
        target = s.queue[0]
        data.update(
            area=AREA_NAMES[area],
            speed=speed,
            defence=stance_defence(s, target, area),
            damage_if_taken=blow_damage(s, target, area, speed),
        )
    return data


def to_json(s: JediState, seat: int | None) -> dict:
    me = seat
    players = []
    for i, name in enumerate(s.players):
        stance = s.stance_card[i]
        entry = {
            "name": name,
            "fatigue": s.fatigue[i],
            "column": _COLUMNS[column(s.fatigue[i])],
            "out": s.fatigue[i] <= 0,
            "stance": AREA_NAMES[s.stance_area[i]] if stance != NO_CARD else None,
            "stance_card": _cards.name(stance) if stance != NO_CARD else None,
            "immune": s.immune[i],
            "hand_size": len(s.hands[i]),
        }
        if i == me:
            entry["hand"] = [_card(c) for c in s.hands[i]]
        players.append(entry)
    data = {
        "game": "jedi-duel",
        "playaid": s.playaid_name,
        "turn": s.turns,
        "dealer": s.players[s.dealer] if s.dealer >= 0 else None,
        "active": s.players[s.turn] if s.turn >= 0 else None,
        "step": _ASKED.get(s.phase, "game over"),
        "to_act": [s.players[i] for i in s.queue[:1]],
        "deck": len(s.deck),
        "deck_passes": s.passes,
        "deck_passes_to_end": len(s.players),
        "discard": {
            "size": len(s.discard),
            "top": _cards.name(s.discard[-1]) if s.discard else None,
        },
        "players": players,
        "attack": _attack_json(s),
        "over": s.phase == OVER,
        "end_reason": s.end_reason or None,
    }
    if me is not None:
        if s.peek and s.turn == me:
            data["sensed"] = {"player": s.players[s.peek[0]], "hand": [_card(c) for c in s.peek[1]]}
        if s.deck and s.deck[0].owned_by(me) and s.deck[0].value is not UNKNOWN:
            data["deck_top"] = _cards.name(s.deck[0].value)  # revision 1: put back by me
        if s.phase == RETURN and s.turn == me:
            data["returnable"] = [p + 1 for p in s.returnable]
    return data


def _hand_text(cards) -> str:
    if cards and not any(cards):
        return f"{len(cards)} face-down card" + ("s" if len(cards) > 1 else "")
    return " ".join(f"{i}:{c or 'face-down'}" for i, c in enumerate(cards, 1)) or "(empty)"


def attack_words(attack: dict) -> str:
    """The attack under way in words (its JSON form, ``to_json``'s ``attack``)."""
    if attack["kind"] == "blow":
        what = (
            f"attacks with {attack['card']} to the {attack['area']} area, speed "
            f"{attack['speed']} against a stance defence of {attack['defence']} "
            f"({attack['damage_if_taken']} damage if taken)"
        )
    elif attack["kind"] == "joker":
        what = f"plays the {attack['card']} Joker"
    else:
        what = "casts Force Lightning"
    return (
        f"{attack['attacker']} ({attack['stance']} stance) {what}; "
        f"answering: {', '.join(attack['defenders'])}"
    )


def render(s: JediState, seat: int | None) -> str:
    d = to_json(s, seat)
    lines = [
        f"Jedi Duel - turn {d['turn']}"
        + (f", dealer {d['dealer']}" if d["dealer"] else "")
        + (f", {d['active']} is playing" if d["active"] else "")
        + (f"; {d['to_act'][0]} to {d['step']}" if d["to_act"] else "")
    ]
    top = d["discard"]["top"]
    lines.append(
        f"Draw deck: {d['deck']} cards"
        + (f" (top: {d['deck_top']}, put back by you)" if "deck_top" in d else "")
        + f"; run out {d['deck_passes']} of {d['deck_passes_to_end']} times"
        + f"; discard pile: {d['discard']['size']}"
        + (f", top {top}" if top else "")
    )
    width = max(len(p["name"]) for p in d["players"])
    for p in d["players"]:
        if p["out"]:
            state = "out of the duel"
        else:
            stance = f"{p['stance']} {p['stance_card']}" if p["stance"] else "no stance yet"
            state = f"fatigue {p['fatigue']:>2} [{p['column']}]  stance {stance:<11}"
            state += f" hand {p['hand_size']}" + ("  immune (Force Push)" if p["immune"] else "")
        mark = "*" if p["name"] == d["active"] else " "
        lines.append(f" {mark}{p['name']:<{width}}  {state}")
        if "hand" in p:
            lines.append(f"  {'':<{width}}  your hand: {_hand_text(p['hand'])}")
    attack = d["attack"]
    if attack:
        lines.append(f"Attack: {attack_words(attack)}")
    if "sensed" in d:
        lines.append(f"You sense {d['sensed']['player']}'s hand: {_hand_text(d['sensed']['hand'])}")
    if "returnable" in d:
        lines.append(
            "Return one of the cards drawn: positions " + ", ".join(str(p) for p in d["returnable"])
        )
    if d["over"]:
        lines.append(f"Game over: {d['end_reason']}")
    return "\n".join(lines)
