"""One line on what the last decision settled, for a player by mail: who bid what, who won which
villain and why, what R2-D2 turned up and where it went, the end, and the scores now.

It reads only ``DuelState.settled`` (public events: revealed bids, captures, cards turned up) and
the public table, so it is the same for every player, in ``show``, ``replay`` and at the end.
"""

from __future__ import annotations

from . import _scoring
from ._state import KEEP_CARD, LOOK, NOT_BIDDING, R2, TAKE, DuelState


def report(s: DuelState) -> str | None:
    """The line, or None before the first decision."""
    if not s.settled:
        return None
    sentences = []
    stated = False  # the bids of the duel this decision settled
    said = None  # the winner's discard, already said with the win
    for entry in s.settled:
        kind = entry[0]
        if kind == "bids":
            stated = True
            sentences.append(_bids(s, entry))
            sentences.extend(_without_winner(s, entry))
        elif kind == "won":
            if not stated:  # Parlett: the duel that R2-D2's decision made wait
                sentences.append(f"Bids: {_bid_list(s, entry[3])}")
            sentences.append(_won(s, entry))
            if not s.cards.deck[entry[2]].vader:  # "... and discards it"
                said = ("discarded", entry[1], entry[3][entry[1]])
        elif entry != said:
            sentences.append(_PHRASES[kind](s, entry))
    scores = ", ".join(
        f"{name} {_scoring.score(c, s.cards.deck, s.edition)}"
        for name, c in zip(s.players, s.captured)
    )
    return ". ".join(x for x in sentences if x) + f". Scores: {scores}."


# ---------------------------------------------------------------------- names
def _card(s: DuelState, index: int) -> str:
    card = s.cards.deck[index]
    return f"{card.name} ({card.points:+d})" if card.vader else f"{card.name} ({card.points})"


def _bid(s: DuelState, seat: int, card: int) -> str:
    return "R2-D2" if card == R2 else f"{s.heroes[seat].capitalize()} {card}"


def _bid_list(s: DuelState, bids: tuple) -> str:
    return ", ".join(
        f"{s.players[i]} {_bid(s, i, c)}" for i, c in enumerate(bids) if c != NOT_BIDDING
    )


def _names(s: DuelState, seats) -> str:
    return " and ".join(s.players[i] for i in seats)


# ---------------------------------------------------------------------- the duel
def _bids(s: DuelState, entry) -> str:
    _, round_, villain, bids = entry
    return f"Round {round_}, {_card(s, villain)}: {_bid_list(s, bids)}"


def _without_winner(s: DuelState, entry) -> list:
    """What the bids alone settle: several R2-D2s, or a villain nobody took (yet)."""
    bids = entry[3]
    r2s = [i for i, c in enumerate(bids) if c == R2]
    out = []
    if len(r2s) > 1:
        out.append(f"{_names(s, r2s)} played R2-D2 together: nobody looks, R2-D2 goes back to hand")
    kinds = {e[0] for e in s.settled}
    if kinds & {"won", "set-aside"}:
        return out
    if not any(c > 0 for c in bids):
        out.append(f"Nobody bid a force card: {_card(s, entry[2])} stays up")
    elif kinds & {"r2-up", "offered"} and s.edition != "ravensburger-2015":
        out.append(f"{s.players[r2s[0]]}'s R2-D2 acts before this duel (Parlett)")
    else:
        out.append(f"Same force and icons: bid again for {_card(s, entry[2])} (house rule)")
    return out


def _won(s: DuelState, entry) -> str:
    _, seat, villain, bids = entry
    name, card = s.players[seat], _bid(s, seat, bids[seat])
    why = _why(s, seat, bids)
    if not s.cards.deck[villain].vader:
        return f"{name} wins {_card(s, villain)} with {card} ({why}) and discards it"
    kept = "" if s.may_is_asked else f" and keeps {card}"  # asked: KEEP_CARD follows
    return f"{name} takes {_card(s, villain)} with {card} ({why}){kept}"


def _why(s: DuelState, seat: int, bids: tuple) -> str:
    competitors = [i for i, c in enumerate(bids) if c > 0]
    sat_out = [i for i, c in enumerate(bids) if c == R2]
    r2 = f"; {_names(s, sat_out)} sat out with R2-D2" if sat_out else ""
    if len(competitors) == 1:
        return "the only force card" + r2
    force = bids[seat]
    tied = [seat] + [i for i in competitors if bids[i] == force and i != seat]
    if len(tied) == 1:
        return "highest force" + r2
    icons = s.cards.icon_map
    counts = " against ".join(
        f"{s.heroes[i].capitalize()} {icons[s.heroes[i]][force - 1]}" for i in tied
    )
    return f"same force, more icons: {counts}" + r2


def _discarded(s: DuelState, entry) -> str:
    _, seat, card = entry
    return f"{s.players[seat]} discards {_bid(s, seat, card)}"


def _set_aside(s: DuelState, entry) -> str:
    return f"Same force and icons: {_card(s, entry[1])} is set aside (house rule)"


# ---------------------------------------------------------------------- R2-D2, answers, the end
def _r2_up(s: DuelState, entry) -> str:
    _, seat, card = entry
    return f"{s.players[seat]}'s R2-D2 turns up {_card(s, card)}: keep it or give it"


def _r2(s: DuelState, entry) -> str:
    _, seat, recipient, card, keeps_r2 = entry
    name = s.players[seat]
    r2 = "keeps R2-D2" if keeps_r2 else "discards R2-D2"
    if recipient == seat:
        return f"{name} keeps {_card(s, card)} from R2-D2 and {r2}"
    return f"{name} gives {_card(s, card)} from R2-D2 to {s.players[recipient]} and {r2}"


def _offered(s: DuelState, entry) -> str:
    _, seat, offer = entry
    name = s.players[seat]
    if offer == LOOK:
        return f"{name} may look at the next stock card with R2-D2 (look or pass)"
    if offer == KEEP_CARD:
        card = _bid(s, seat, s.bids[seat])
        return f"{name} may keep {card}, the card that won Darth Vader (keep or discard)"
    count = len(s.hands[seat])
    return f"Only {name} holds cards and may take {count} from the stock (take or pass)"


def _answered(s: DuelState, entry) -> str:
    _, seat, accepted, offer, card = entry
    name = s.players[seat]
    if offer == LOOK and not accepted:
        return f"{name} does not look with R2-D2"
    if offer == KEEP_CARD and accepted:
        return f"{name} keeps {_bid(s, seat, card)}, the card that won Darth Vader"
    if offer == TAKE and not accepted:
        return f"{name} takes nothing from the stock"
    return ""  # what follows says it: the card turned up, the card discarded, the cards taken


def _final(s: DuelState, entry) -> str:
    _, seat, taken = entry
    cards = ", ".join(_card(s, c) for c in taken) or "nothing (the stock is empty)"
    return f"{s.players[seat]} takes from the stock: {cards}"


def _ended(s: DuelState, entry) -> str:
    return f"Game over: {entry[1]}"


_PHRASES = {
    "discarded": _discarded,
    "set-aside": _set_aside,
    "r2-up": _r2_up,
    "r2": _r2,
    "offered": _offered,
    "answered": _answered,
    "final": _final,
    "ended": _ended,
}
