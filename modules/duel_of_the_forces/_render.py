"""The table as text and as JSON, as one seat (or a spectator) sees it."""

from __future__ import annotations

from . import _scoring
from ._report import report
from ._state import KEEP_CARD, LOOK, NOT_BIDDING, OFFER, OVER, R2, R2_DECISION, DuelState

EDITION_NAMES = {
    "ravensburger-2015": "Ravensburger 2015",
    "parlett-english": "Parlett, English",
    "parlett-original": "Parlett, original",
}


def card_text(s: DuelState, index: int | None) -> str:
    if index is None:
        return "-"
    card = s.cards.deck[index]
    return f"{card.name} ({card.points:+d})" if card.vader else f"{card.name} ({card.points})"


def _hand(hand) -> list:
    return ["r2" if c == R2 else c for c in hand]


def to_json(s: DuelState, seat: int | None) -> dict:
    names = dict(s.cards.hero_names)
    players = []
    for i, name in enumerate(s.players):
        entry = {
            "name": name,
            "hero": s.heroes[i],
            "hero_name": names[s.heroes[i]],
            "hand_size": len(s.hands[i]),
            "captured": [card_text(s, c) for c in s.captured[i]],
            "score": _scoring.score(s.captured[i], s.cards.deck, s.edition),
        }
        if seat == i:
            entry["hand"] = _hand(s.hands[i])
        if s.bids and s.bids[i] != NOT_BIDDING:
            entry["last_bid"] = "r2" if s.bids[i] == R2 else s.bids[i]
        players.append(entry)
    return {
        "game": "duel-of-the-forces",
        "edition": s.edition,
        "round": s.rounds,
        "stock": len(s.stock),
        "villain": card_text(s, s.villain) if s.villain is not None else None,
        "r2_card": card_text(s, s.r2_card) if s.phase == R2_DECISION else None,
        "r2_player": s.players[s.r2_seat] if s.phase == R2_DECISION else None,
        "offer": _offer_json(s),
        "players": players,
        "over": s.phase == OVER,
        "end_reason": s.end_reason or None,
        "report": report(s),
    }


def _offer_json(s: DuelState) -> dict | None:
    """What the rules let one player do now: look / pass, keep / discard, take / pass."""
    if s.phase != OFFER:
        return None
    return {"player": s.players[s.asked], "offer": s.offer, "text": offer_text(s)}


def offer_text(s: DuelState) -> str:
    name = s.players[s.asked]
    if s.offer == LOOK:
        return (
            f"{name} played R2-D2 alone and may look at the next stock card "
            f"('look', then keep or give it) or not ('pass')"
        )
    if s.offer == KEEP_CARD:
        card = s.bids[s.asked]
        return (
            f"{name} won Darth Vader with force {card} and may keep that card ('keep') "
            f"or discard it ('discard')"
        )
    count = len(s.hands[s.asked])
    return (
        f"only {name} holds cards and may take {count} card{'s' if count != 1 else ''} "
        f"from the stock ('take') or not ('pass')"
    )


def render(s: DuelState, seat: int | None) -> str:
    data = to_json(s, seat)
    lines = [
        f"Duel of the Forces ({EDITION_NAMES[s.edition]}) - round {s.rounds} - "
        f"stock: {len(s.stock)} cards"
    ]
    if s.phase == R2_DECISION:
        lines.append(
            f"R2-D2 of {data['r2_player']} turned up: {data['r2_card']} "
            f"(keep it, or give it to a player)"
        )
    if s.phase == OFFER:
        lines.append(f"Choice: {offer_text(s)}")
    if data["villain"] and s.phase != OVER:
        lines.append(f"Up for grabs: {data['villain']}")
    width = max(len(p["name"]) for p in data["players"])
    for p in data["players"]:
        captured = ", ".join(p["captured"]) or "nothing"
        line = (
            f"  {p['name']:<{width}}  {p['hero_name']:<14} hand {p['hand_size']}  "
            f"score {p['score']:>3}  captured: {captured}"
        )
        if "hand" in p:
            line += (
                "\n"
                + " " * (width + 4)
                + "your hand: "
                + " ".join("R2-D2" if c == "r2" else str(c) for c in p["hand"])
            )
        lines.append(line)
    if s.bids:
        shown = [
            f"{p} {'R2-D2' if b == R2 else b}"
            for p, b in zip(s.players, s.bids)
            if b != NOT_BIDDING
        ]
        lines.append("Last bids: " + ", ".join(shown))
    if s.phase == OVER:
        lines.append(f"Game over: {s.end_reason}")
    return "\n".join(lines)
