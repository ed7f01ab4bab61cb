"""Final scores: villains, set bonuses by edition, Darth Vader penalties, and the tie-break."""

from __future__ import annotations

from boardstate.rules import Outcome

# Extra points for 2, 3, 4 of the same villain, on top of face values (Ravensburger, Parlett's
# English text), and Parlett's original flat scores that replace the face values.
BONUS = {2: 10, 3: 20, 4: 30}
ORIGINAL_FLAT = {2: 20, 3: 30, 4: 40}


def score(captured, deck, edition: str) -> int:
    """One seat's score for the cards it captured (deck indices)."""
    total = 0
    groups: dict[str, list] = {}  # villain name -> [how many, the first captured]
    for index in captured:
        card = deck[index]
        if card.vader:
            total += card.points  # negative
        elif (group := groups.get(card.name)) is None:
            groups[card.name] = [1, card]
        else:
            group[0] += 1
    for count, card in groups.values():
        if edition == "parlett-original" and count >= 2:
            flat = card.original_pair if count == 2 and card.original_pair else None
            total += flat if flat is not None else ORIGINAL_FLAT[min(count, 4)]
        else:
            total += card.points * count + BONUS.get(min(count, 4), 0)
    return total


def vader_penalty(captured, deck) -> int:
    return -sum(deck[i].points for i in captured if deck[i].vader)


def villain_count(captured, deck) -> int:
    return sum(1 for i in captured if not deck[i].vader)


def outcome(captured_by_seat, deck, edition: str, reason: str) -> Outcome:
    """Highest score wins.  Tie-break (documented house rule): fewer Vader penalty points, then
    more villains captured; seats still equal share the win."""
    scores = tuple(score(c, deck, edition) for c in captured_by_seat)
    keys = [
        (scores[s], -vader_penalty(c, deck), villain_count(c, deck))
        for s, c in enumerate(captured_by_seat)
    ]
    best = max(keys)
    winners = tuple(s for s, k in enumerate(keys) if k == best)
    return Outcome(scores, winners, reason)
