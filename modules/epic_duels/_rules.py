"""The parts of Epic Duels' Decider that belong to no other file: the options, the first table,
the trust modes, whose turn and how they choose, the outcome, the report and the views.

``__init__`` makes the rules' class from these and the other files' parts (``rules_class``):
``_decide`` (start, decide), ``_evolve``, ``_legal``, ``_why`` (explain), ``_notation`` and
``_render``."""

from __future__ import annotations

from boardstate.rules import Choice, IdentityMemo, OptionError, Outcome, Setup

from ._characters import cast
from ._decks import deck_for, parse_deck, read_player_deck, stored_deck_texts
from ._roster import DUEL, FREE_FOR_ALL, OWN_DAMAGE, PLAYERS, VARIANTS, parse_characters
from ._state import LAY, OVER, TURN, EpicState
from .boards import BOARDS

DECK_END = ("next-draw", "last-card")
DESTROYED = ("beyond-track", "at-zero")


# ---------------------------------------------------------------- options and setup
def prepare(options, players) -> dict:
    """Check what the spec cannot: the variant's player count, the characters, the deck
    files (read into the header, so the game replays without them) and the disputed
    readings named."""
    if len({p.lower() for p in players}) != len(players):
        raise OptionError(
            "two players share a name (names are compared without case)", code="bad-option"
        )
    variant = options.get("variant") or (DUEL if len(players) == 2 else FREE_FOR_ALL)
    counts = PLAYERS[variant]
    if len(players) not in counts:
        other = [v for v in VARIANTS if len(players) in PLAYERS[v]]
        raise OptionError(
            f"variant {variant} is for {' or '.join(map(str, counts))} players, not "
            f"{len(players)} (for {len(players)}: variant={' or '.join(other)})",
            code="bad-option",
        )
    characters = parse_characters(options.get("characters"), players, variant)
    named = BOARDS[options["board"]].named_squares
    for name in sorted(t for group in characters or () for t in group if t not in named):
        raise OptionError(
            f"option characters: the {options['board']} board has no square for {name}",
            code="bad-option",
        )
    playing = {t for group in characters for t in group} if characters else set(teams())
    texts = {}
    for path in _split(options.get("decks")):
        text, deck = read_player_deck(path)
        if deck.team not in playing:
            raise OptionError(
                f"option decks: {path} is a deck for {deck.team}, who is not playing",
                code="bad-option",
            )
        texts[deck.team] = text
    stored = {"board": options["board"], "deck-end": options["deck-end"]}
    if characters is not None:
        stored["characters"] = characters
    if variant != DUEL:  # (stored only when it differs from the two-player game's)
        stored["variant"] = variant
    if options["destroyed"] != DESTROYED[0]:
        stored["destroyed"] = options["destroyed"]
    if options["own-damage"] != OWN_DAMAGE[0]:
        stored["own-damage"] = options["own-damage"]
    if texts:  # (a header holds no maps: [team, text] pairs, sorted by team)
        stored["deck-texts"] = [[team, texts[team]] for team in sorted(texts)]
    alternatives = _split(options.get("alternatives"))
    if alternatives:
        offered = set()
        for team in sorted(playing):
            deck = parse_deck(texts[team], team) if team in texts else deck_for(team)
            offered |= set(deck.alternatives)
        for a in alternatives:
            if a not in offered:
                raise OptionError(
                    f"option alternatives: {a!r} is not a reading of the decks in play "
                    f"(offered: {', '.join(sorted(offered)) or 'none'})",
                    code="bad-option",
                )
        stored["alternatives"] = alternatives
    return stored


def initial(setup: Setup) -> EpicState:
    """Before the start: the players and the options (the cast is named by ``start``); a
    player's deck files stored in the header are checked here, as their files are."""
    stored_deck_texts(setup.options.get("deck-texts", ()))
    return EpicState(
        players=tuple(setup.players), options=frozen(setup.options), revision=setup.revision
    )


def refuse_trust(setup: Setup, mode: str) -> str | None:
    """Every configuration plays in every mode: since revision 2 no secret is owned by
    nobody (each draw pile is its player's, arranged by that player's copy and drawn from
    at random positions), the die and the random picks come from the engine's randomness,
    and a hand is seen by others only through its owner's answer."""
    return None


# ---------------------------------------------------------------- turns and commands
def to_act(s: EpicState) -> tuple:
    return s.queue[:1]


def choice(s: EpicState) -> Choice:
    phase = s.phase
    if phase == LAY:
        return _FACE_DOWN
    if phase == TURN:
        return _TURN_OVER
    return _OPEN


# (read once: an enum member looked up on its class costs more than the rest of ``choice``, which
# the engine asks of every new state)
_FACE_DOWN, _TURN_OVER, _OPEN = Choice.FACE_DOWN, Choice.TURN_OVER, Choice.OPEN


# ---------------------------------------------------------------- results and views
def outcome(s: EpicState) -> Outcome | None:
    if s.phase != OVER:
        return None
    rs = s.roster
    scores = tuple(
        sum(max(0, rs.chars[m].hp - s.damage[m]) for m in rs.mains_of(seat)) for seat in s.seats
    )  # wound points left on the seat's main characters
    return Outcome(scores=scores, winners=s.winners, reason=s.end_reason)


def report(s: EpicState) -> str | None:
    """The latest combat in words (public: both cards are face up by then)."""
    if not s.last_combat:
        return None
    attacker, defender, attack, defence, turn = s.last_combat
    names = s.roster.chars
    dealt = max(0, attack - defence)
    result = f"{dealt} damage" if dealt else "blocked"
    if not s.alive(defender) and dealt:
        result += f", {names[defender].name} destroyed"
    return (
        f"Turn {turn}: {names[attacker].name} attacked {names[defender].name}, "
        f"{attack} against {defence}: {result}"
    )


def view(s: EpicState, seat: int | None) -> EpicState:
    """What ``seat`` may know: its own hand, its own draw piles (arranged for it: a draw
    takes a random position, so knowing their order helps nobody) and what it was shown;
    every other hand and pile face down (None: a spectator, who holds none)."""

    if s.roster is None:
        return s
    hands = tuple(_seen_by(h, seat if i == seat else None) for i, h in enumerate(s.hands))
    piles = tuple(_seen_by(p, seat) for p in s.piles)
    seen = tuple(
        (x[0], _seen_by(x[1], seat if i == seat else None)) if x else ()
        for i, x in enumerate(s.seen)
    )
    return s._replace(hands=hands, piles=piles, seen=seen)


_SEEN = IdentityMemo(256)
"""``_seen_by``'s answers, by the very tuple of cards: each seat's ({seat: the tuple held})."""


def _seen_by(cards: tuple, seat: int | None) -> tuple:
    """``cards`` as ``seat`` holds them: each secret it does not own sealed (None: every one).
    A pile stays the very same tuple from state to state until it changes, and ``log`` views
    every state: the answer for the same tuple is given again, not made again (issue 29)."""
    answers = _SEEN.get(cards)
    if answers is None:
        answers = _SEEN.keep(cards, {})
    held = answers.get(seat)
    if held is None:
        held = answers[seat] = tuple(
            c if seat is not None and c.owned_by(seat) else c.sealed() for c in cards
        )
    return held


def frozen(value):
    """Options as a value that compares equal however it was read (a file gives tuples where
    the creating call gave lists): tuples all the way down, keys in order."""
    if isinstance(value, dict):
        return tuple(sorted((k, frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value


def _split(value) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()] if value else []


def teams() -> tuple[str, ...]:
    return tuple(t.id for t in cast().teams)
