"""Command notation for mail: short words, squares like chess (a1-j7), characters and cards by name.

Case does not matter, quotes are optional, and a unique prefix will do for a command word, a
character or a card.  ``parse`` reads the words only; whether the command may be given now is
``legal``'s question and ``explain``'s answer.
"""

from __future__ import annotations

import functools
import re

from boardstate.rules import (
    AmbiguousCommand,
    IdentityMemo,
    InvalidCommand,
    SecretUnavailable,
    resolve_player,
)

from ._combat import attack_cards, defence_cards
from ._roster import initials, kept_on_roster
from ._space import square_name
from ._state import NO_CARD, EpicState, values_of

HELP = """\
Squares are named like chess squares: columns a-j from the left, rows 1-7 from the bottom.
Characters by id or a prefix (dooku, obi, super-battle-droid-1 or sbd1); cards by name or a
prefix ("Force Push"), basic combat cards as CHARACTER ATTACK/DEFENCE (dooku 5/1, sbd 3/2).
  place sbd1 e3                 set-up: put a minor next to its main
  move dooku e4 | done          after the roll: move a character (each, on an ALL roll)
  draw | draw discarding CARD   an action (a full hand discards first; Master Play: ... from TEAM)
  draw 2 [discarding C1[, C2]]  both actions drawing, the first card unseen before the second
                                (a hand of 9 names one discard first, of 10 two)
  heal CARD [on CHAR]           an action: a destroyed minor's card heals the main 1
  play "Force Push" [as PAWN]   an action (some cards are not): a special card
  attack obi-wan with dooku     an action: then 'lay CARD' (face down), 'reveal' after the defence
  lay dooku 5/1 | lay 5         the attack card, laid face down
  defend obi-wan 3/2 | defend 3 | no defence
  release CHAR discarding C1, C2, C3   free a held character (not an action)
  end                           end the turn (when the actions are used up)
A card's effect asks: target CHAR | move CHAR SQ | place CHAR SQ | done | skip | choose PLAYER |
  show | discard C1, C2 | keep C1 | pick C1 | take CARD | take N (the Nth card you look at) |
  backs TEAM, TEAM"""

VERBS = (
    "place",
    "move",
    "done",
    "draw",
    "heal",
    "play",
    "attack",
    "lay",
    "defend",
    "no",
    "release",
    "end",
    "target",
    "skip",
    "choose",
    "show",
    "discard",
    "keep",
    "pick",
    "take",
    "backs",
)
_SQUARE = r"([a-z])([0-9]{1,3})"  # (compiled when first read; a row of 5000 digits is no row)


def _bad(text: str, why: str, code: str = "syntax") -> InvalidCommand:
    return InvalidCommand(f"cannot read {text.strip()!r}: {why}", code=code)


@functools.lru_cache(maxsize=4096)
def _clean(text: str) -> str:
    """Quotes dropped (typographic ones too), and a typographic apostrophe (a mail client's,
    as in "Luke’s in Trouble") read as the plain one.  (Cached: a game's commands and names
    repeat a few texts, and verify reads every one.)"""
    return " ".join(text.translate(_QUOTES).split()).lower()


_QUOTES = str.maketrans({'"': " ", "\u201c": " ", "\u201d": " ", "\u2019": "'", "\u2018": "'"})


# ---------------------------------------------------------------------------------- names
def _base_label(c) -> str:
    if c.kind == "combat":
        return f"{c.pictures} {c.attack.base}/{c.defense.base}"
    return c.name


def seat_cards(s: EpicState, seat: int) -> tuple[int, ...]:
    """The cards of the seat's decks (two in Master Play), by number."""
    return _seat_cards(s.roster, seat)


@functools.lru_cache(maxsize=256)
def _seat_cards(rs, seat: int) -> tuple[int, ...]:
    return tuple(k for k, g in enumerate(rs.card_group) if rs.group_seat[g] == seat)


@functools.lru_cache(maxsize=256)
def _cards_by_alias(rs, seat: int) -> dict[str, tuple[int, ...]]:
    """Per name the notation reads (``_card_names``), the seat's cards it names, in the seat's
    order: the cards whose aliases hold a text, looked up instead of searched for every card
    of the deck at every command read."""
    aliases = _card_names(rs)[1]
    out: dict[str, list[int]] = {}
    for k in _seat_cards(rs, seat):
        for name in dict.fromkeys(aliases[k]):
            out.setdefault(name, []).append(k)
    return {name: tuple(cards) for name, cards in out.items()}


def card_label(s: EpicState, seat: int, card: int) -> str:
    """A card's name, or CHARACTER A/D for a basic combat card; with two decks in one hand
    (Master Play), a name both decks hold says whose: ``Wrath (vader)``."""
    return _card_names(s.roster)[0][card]


@functools.lru_cache(maxsize=64)
def _card_names(rs) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Per card of the roster: its label, and the lower-case names the notation reads for it
    (the label; for a basic combat card also its short form, ``sbd 3/2``).  Made once a roster
    (a game's roster never changes; the notation asks for them for every card of a hand at
    every command it reads)."""
    labels, aliases = [], []
    for card, c in enumerate(rs.cards):
        label = _base_label(c)
        owner = rs.group_seat[rs.card_group[card]]
        if len(rs.groups_of(owner)) > 1 and _shared(rs, owner, label):
            label += f" ({rs.teams[rs.card_group[card]]})"
        labels.append(label)
        low = label.lower()
        names = [low]
        if c.kind == "combat":
            short = f"{initials(c.pictures)} {c.attack.base}/{c.defense.base}"
            names.append(short + low[len(_base_label(c)) :])
        aliases.append(tuple(names))
    return tuple(labels), tuple(aliases)


def _shared(rs, seat: int, label: str) -> bool:
    groups = rs.groups_of(seat)
    holders = {
        rs.card_group[k]
        for k, c in enumerate(rs.cards)
        if rs.card_group[k] in groups and _base_label(c) == label
    }
    return len(holders) > 1


def char_label(s: EpicState, char: int) -> str:
    return s.roster.chars[char].id


def _card_aliases(s: EpicState, seat: int, card: int) -> tuple[str, ...]:
    return _card_names(s.roster)[1][card]


def parse_card(s: EpicState, seat: int, text: str, whole: str, within=None, number=None) -> int:
    """A card of the seat's decks named by ``text``.  ``within``: the cards the context allows
    (a bare ``5`` or ``5/1`` is looked for there); ``number(card)`` gives a bare number's
    meaning (the attack value when laying, the defence value when defending)."""
    t = _clean(text)
    if not t:
        raise _bad(whole, "a card is missing")
    cards = seat_cards(s, seat)
    exact = list(_cards_by_alias(s.roster, seat).get(t, ()))
    if len(exact) == 1:
        return exact[0]
    pool = list(within) if within is not None else list(cards)
    hits: list[int] = exact
    if exact:
        pass
    elif re.fullmatch(r"\d+/\d+", t):
        a, d = (int(x) for x in t.split("/"))
        hits = [k for k in pool if _values(s, k) == (a, d)]
    elif re.fullmatch(r"\d+", t) and number is not None:
        hits = [k for k in pool if number(k) == int(t)]
    else:
        hits = [k for k in cards if any(a.startswith(t) for a in _card_aliases(s, seat, k))]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        decks = ", ".join(s.roster.teams[g] for g in s.roster.groups_of(seat))
        raise _bad(
            whole, f"no card {text.strip()!r} in {s.players[seat]}'s deck ({decks})", "unknown-card"
        )
    names = " or ".join(card_label(s, seat, k) for k in hits[:4])
    raise AmbiguousCommand(
        f"{text.strip()!r} in {whole.strip()!r} could be {names}", code="ambiguous-card"
    )


def _values(s: EpicState, card: int):
    c = s.roster.cards[card]
    a = c.attack.base if c.attack is not None and c.attack.quantity is None else None
    d = c.defense.base if c.defense is not None and c.defense.quantity is None else None
    return a, d


def parse_team(s: EpicState, seat: int, text: str, whole: str) -> int:
    """One of the seat's groups, by its main character's id (or a prefix)."""
    t = _clean(text)
    groups = s.roster.groups_of(seat)
    hits = [g for g in groups if s.roster.teams[g].startswith(t)] if t else []
    if len(hits) == 1:
        return hits[0]
    names = " or ".join(s.roster.teams[g] for g in groups)
    raise _bad(whole, f"{text.strip()!r} is not one of your decks ({names})", "unknown-deck")


def parse_backs(s: EpicState, seat: int, text: str, whole: str) -> tuple[int, ...]:
    """Card backs of the hand a random pick comes from: team ids, comma-separated."""
    owner = s.request[1] if s.request else seat
    return tuple(sorted(parse_team(s, owner, part, whole) for part in text.split(",")))


def parse_cards(s: EpicState, seat: int, text: str, whole: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(s, seat, part, whole) for part in text.split(",")))


def parse_char(s: EpicState, text: str, whole: str) -> int:
    t = _clean(text).replace(" ", "-")
    if not t:
        raise _bad(whole, "a character is missing")
    chars = s.roster.chars
    for i, c in enumerate(chars):
        if t in (c.id, c.short):
            return i
    hits = [i for i, c in enumerate(chars) if c.id.startswith(t) or c.short.startswith(t)]
    if not hits:
        hits = [i for i, c in enumerate(chars) if c.name.lower().replace(" ", "-").startswith(t)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        names = ", ".join(c.id for c in chars)
        raise _bad(
            whole, f"no character {text.strip()!r} in this game ({names})", "unknown-character"
        )
    names = " or ".join(chars[i].id for i in hits)
    raise AmbiguousCommand(
        f"{text.strip()!r} in {whole.strip()!r} could be {names}", code="ambiguous-character"
    )


def parse_square(s: EpicState, text: str, whole: str) -> int:
    board = s.roster.board
    m = re.fullmatch(_SQUARE, _clean(text))
    if m:
        col = ord(m.group(1)) - ord("a")
        row = board.height - int(m.group(2))
        if 0 <= col < board.width and 0 <= row < board.height:
            return row * board.width + col
    last = f"{chr(ord('a') + board.width - 1)}{board.height}"
    raise _bad(whole, f"{text.strip()!r} is not a square (a1 to {last})", "bad-square")


# ---------------------------------------------------------------------------------- commands
def parse(s: EpicState, seat: int, text: str):
    """The command ``text`` stands for; read once a game for a verb whose reading depends on the
    roster, the seat and the text alone (``_BY_NAMES``): the referee reads every command of a
    long log, and a game repeats a few texts (refusals are not kept)."""
    kept, written = _kept_readings(s.roster)
    command = kept.get((seat, text))
    if command is None:
        verb, command = read(s, seat, text)
        if verb in _BY_NAMES:  # (its canonical text kept by the very command: asked of it next)
            if len(kept) >= _KEPT_READINGS:
                kept.clear()
            kept[seat, text] = command
            written.keep(command, (seat, write(s, seat, command)))
    return command


# The verbs whose reading (and the canonical text of what it reads) asks the roster (characters,
# squares, decks, card names), the seat and the text only, never the state's play: ``heal`` and
# ``play`` name a default that depends on who stands and is wounded, ``lay``/``defend`` the combat
# and hand, ``keep``/``pick``/``take``/``backs`` a card's request, ``choose`` the players (not the
# roster's: one roster serves games of other players) (tests/test_epic_duels_parse_kept.py).
_BY_NAMES = frozenset(
    {"done", "end", "skip", "show", "no", "place", "move", "draw", "attack", "release", "target"}
    | {"discard"}
)
_KEPT_READINGS = 1024  # (seat, text) readings kept a roster at most (then the table starts again)


@kept_on_roster
def _kept_readings(rs) -> tuple[dict, IdentityMemo]:
    """(``(seat, text)`` -> the command kept, the very command -> (its seat, its canonical
    text))."""
    return {}, IdentityMemo(_KEPT_READINGS)


def read(s: EpicState, seat: int, text: str) -> tuple:
    """``(verb, command)``: ``text`` read afresh, never kept (``parse`` keeps some)."""
    words = _clean(text).split(" ")
    if not words[0]:
        raise _bad(text, "no command given")
    verb = _verb(words[0], text)
    return verb, _command(s, seat, text, verb, words[1:])


def _command(s: EpicState, seat: int, text: str, verb: str, rest: list):
    arg = " ".join(rest)
    if verb in ("done", "end", "skip", "show"):
        if rest:
            raise _bad(text, f"'{verb}' takes nothing after it")
        return (verb,)
    if verb == "no":
        if arg not in ("defence", "defense", "def"):
            raise _bad(text, "say 'no defence'")
        return ("undefended",)
    if verb in ("place", "move"):
        if len(rest) < 2:
            raise _bad(text, f"say '{verb} CHARACTER SQUARE'")
        return (verb, parse_char(s, " ".join(rest[:-1]), text), parse_square(s, rest[-1], text))
    if verb == "draw":
        group = s.roster.groups_of(seat)[0]
        if " from " in f" {arg} ":
            arg, _, team = f" {arg} ".rpartition(" from ")
            group = parse_team(s, seat, team, text)
            rest = arg.split()
        if not rest:
            return ("draw", NO_CARD, group)
        if rest[0] in ("2", "two"):
            if len(rest) == 1:
                return ("draw-two", group, ())
            if rest[1] not in ("discarding", "discard"):
                raise _bad(text, "say 'draw 2' or 'draw 2 discarding CARD[, CARD]'")
            return ("draw-two", group, parse_cards(s, seat, " ".join(rest[2:]), text))
        if rest[0] not in ("discarding", "discard"):
            raise _bad(
                text, "say 'draw', 'draw 2', 'draw discarding CARD' (Master Play: '... from TEAM')"
            )
        return ("draw", parse_card(s, seat, " ".join(rest[1:]), text), group)
    if verb == "heal":
        k, who = _card_then(s, seat, arg, " on ", text)
        return ("heal", k, _default_healed(s, k) if who is None else parse_char(s, who, text))
    if verb == "backs":
        return ("backs", parse_backs(s, seat, arg, text))
    if verb == "attack":
        if "with" not in rest:
            raise _bad(text, "say 'attack TARGET with ATTACKER'")
        i = rest.index("with")
        return (
            "attack",
            parse_char(s, " ".join(rest[i + 1 :]), text),
            parse_char(s, " ".join(rest[:i]), text),
        )
    if verb == "lay":
        return ("lay", _combat_card(s, seat, arg, text, attacking=True))
    if verb == "defend":
        return ("defend", _combat_card(s, seat, arg, text, attacking=False))
    if verb == "play":
        k, who = _card_then(s, seat, arg, " as ", text)
        return ("play", k, _default_player(s, seat, k) if who is None else parse_char(s, who, text))
    if verb == "release":
        if "discarding" not in rest:
            raise _bad(text, "say 'release CHARACTER discarding CARD, CARD, CARD'")
        i = rest.index("discarding")
        return (
            "release",
            parse_char(s, " ".join(rest[:i]), text),
            parse_cards(s, seat, " ".join(rest[i + 1 :]), text),
        )
    if verb == "target":
        return ("target", parse_char(s, arg, text))
    if verb == "choose":
        return ("choose", resolve_player(s.players, arg, text))
    if verb == "keep":
        return ("discard", _kept_rest(s, seat, parse_cards(s, seat, arg, text), text))
    if verb in ("discard", "pick"):
        owner = _seen_owner(s, seat) if verb == "pick" else seat
        return (verb, parse_cards(s, owner, arg, text))
    # take
    if " then " in f" {arg} ":
        raise _bad(
            text,
            "say 'take CARD' or 'take N': the other cards go back into the draw pile, whose "
            "order does not matter (every draw is at a random position)",
        )
    if s.request and s.request[0] == "look":
        return ("take", _looked_place(s, seat, arg, text), ())
    return ("take", parse_card(s, seat, arg, text), ())


def _kept_rest(s: EpicState, seat: int, kept: tuple, text: str) -> tuple[int, ...]:
    """``keep C1`` (Anger: "discard all but one card"), read at the seat's own copy as the
    answer it stands for: ``discard`` the rest of the hand.  The record names the cards turned
    face up, never the cards kept, so every copy carries it out without reading them."""
    from ._effects import rest

    request = s.request
    if not (request and request[0] == "keep" and request[1] == seat):
        raise _bad(text, "no card asks you to keep cards now", "wrong-phase")
    try:
        hand = values_of(s.hands[seat], s, seat)
    except SecretUnavailable:
        raise _bad(text, "'keep' is read at your own copy, which holds your hand") from None
    try:
        return rest(hand, kept)
    except ValueError:
        names = ", ".join(card_label(s, seat, k) for k in kept)
        raise _bad(text, f"your hand does not hold {names}", "not-in-hand") from None


def _looked_place(s: EpicState, seat: int, arg: str, text: str) -> int:
    """The place (from 0) of a card among those the seat looks at: ``N`` (from 1), or the card
    by name (its first place; only the seat's own copy can tell)."""
    cards = s.seen[seat][1]
    if arg.isdigit():
        if 1 <= int(arg) <= len(cards):
            return int(arg) - 1
        raise _bad(text, f"you look at {len(cards)} cards: say 'take 1' to 'take {len(cards)}'")
    k = parse_card(s, seat, arg, text)
    for i, c in enumerate(cards):
        if c.known and c.value == k:
            return i
    raise _bad(text, f"{card_label(s, seat, k)} is not among the cards you look at", "not-seen")


def _card_then(s: EpicState, seat: int, arg: str, word: str, text: str):
    """``CARD`` or ``CARD <word> CHARACTER``: (card, the character's text or None).  A card
    whose name holds the word ("Shot on the Run") is read whole first."""
    if word in f" {arg} ":
        try:
            return parse_card(s, seat, arg, text), None
        except InvalidCommand:
            card, _, who = f" {arg} ".rpartition(word)
            return parse_card(s, seat, card, text), who
    return parse_card(s, seat, arg, text), None


def _verb(word: str, text: str) -> str:
    if word in VERBS:
        return word
    hits = [v for v in VERBS if v.startswith(word)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise _bad(text, f"unknown command {word!r} (commands: {', '.join(VERBS)})", "unknown-verb")
    raise AmbiguousCommand(
        f"{word!r} in {text.strip()!r} could be {' or '.join(hits)}", code="ambiguous-verb"
    )


def _default_healed(s: EpicState, card: int) -> int:
    """Whom a healing card heals unless named: the main of the card's group (in the team
    game, once the main has fallen, the first wounded minor of the group)."""
    rs = s.roster
    members = rs.chars_of_group(rs.card_group[card])
    if s.alive(members[0]):
        return members[0]
    wounded = [c for c in members[1:] if s.alive(c) and s.damage[c]]
    return (wounded or [members[0]])[0]


def _default_player(s: EpicState, seat: int, card: int) -> int:
    """The pawn that plays a special card: the one the card shows (the first one standing, for
    a two-pawn minor type; 'as PAWN' names the other)."""
    pictured = s.roster.pictured(card)
    standing = [c for c in pictured if s.square[c] != -1]
    return (standing or list(pictured) or [-1])[0]


def _seen_owner(s: EpicState, seat: int) -> int:
    seen = s.seen[seat] if s.seen else ()
    return seen[0] if seen and seen[0] >= 0 else seat


def _combat_card(s: EpicState, seat: int, arg: str, text: str, *, attacking: bool) -> int:
    """A card to attack or defend with; a bare number is its attack (or defence) value, among the
    cards that fit the combat and, first, those in the hand."""
    if not s.combat:
        return parse_card(s, seat, arg, text)
    char = s.combat[0] if attacking else s.combat[1]
    fits = (attack_cards if attacking else defence_cards)(s, char)
    hand = {c.value for c in s.hands[seat]}
    held = [k for k in fits if k in hand]
    field = 0 if attacking else 1

    def number(k):
        return _values(s, k)[field]

    try:
        return parse_card(s, seat, arg, text, within=held, number=number)
    except InvalidCommand:
        return parse_card(s, seat, arg, text, within=fits, number=number)


def _from_team(s: EpicState, seat: int, group: int) -> str:
    """A draw's pile, named only when the seat draws from two (Master Play)."""
    return f" from {s.roster.teams[group]}" if len(s.roster.groups_of(seat)) > 1 else ""


def notation(s: EpicState, seat: int, command) -> str:
    """The canonical text of ``command``: for a command ``parse`` kept, the text kept with it."""
    found = _kept_readings(s.roster)[1].get(command)
    if found is not None and found[0] == seat:
        return found[1]
    return write(s, seat, command)


def write(s: EpicState, seat: int, command) -> str:
    """``notation`` written afresh."""
    verb = command[0]
    board = s.roster.board
    if verb in ("done", "end", "skip", "show"):
        return verb
    if verb == "undefended":
        return "no defence"
    if verb in ("place", "move"):
        return f"{verb} {char_label(s, command[1])} {square_name(board, command[2])}"
    if verb == "draw":
        _, card, group = command
        text = "draw" if card == NO_CARD else f"draw discarding {card_label(s, seat, card)}"
        return text + _from_team(s, seat, group)
    if verb == "draw-two":
        _, group, discards = command
        text = "draw 2"
        if discards:
            text += " discarding " + ", ".join(card_label(s, seat, k) for k in discards)
        return text + _from_team(s, seat, group)
    if verb == "heal":
        _, card, char = command
        text = f"heal {card_label(s, seat, card)}"
        if char != _default_healed(s, card):
            text += f" on {char_label(s, char)}"
        return text
    if verb == "backs":
        return "backs " + ", ".join(s.roster.teams[g] for g in command[1])
    if verb in ("lay", "defend"):
        return f"{verb} {card_label(s, seat, command[1])}"
    if verb == "attack":
        return f"attack {char_label(s, command[2])} with {char_label(s, command[1])}"
    if verb == "play":
        _, k, me = command
        text = f"play {card_label(s, seat, k)}"
        if me != _default_player(s, seat, k):
            text += f" as {char_label(s, me)}"
        return text
    if verb == "release":
        return f"release {char_label(s, command[1])} discarding {_list(s, seat, command[2])}"
    if verb == "target":
        return f"target {char_label(s, command[1])}"
    if verb == "choose":
        return f"choose {s.players[command[1]]}"
    if verb == "discard":
        return f"discard {_list(s, seat, command[1])}"
    if verb == "pick":
        return f"pick {_list(s, _seen_owner(s, seat), command[1])}"
    if s.request and s.request[0] == "look":  # by its place: the record names no card
        return f"take {command[1] + 1}"
    return f"take {card_label(s, seat, command[1])}"


def _list(s: EpicState, seat: int, cards) -> str:
    return ", ".join(card_label(s, seat, k) for k in cards)
