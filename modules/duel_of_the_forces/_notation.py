"""Command text a player can type in an email, and the canonical text of every command."""

from __future__ import annotations

import re

from boardstate.rules import IllegalCommand, InvalidCommand, cached_by_value, resolve_player

from ._cards import HERO_ORDER
from ._editions import REF
from ._state import R2, DuelState

HELP = """\
play HERO FORCE   bid a rebel card face down, e.g. 'play luke 5' (or just 'play 5')
play r2           bid your R2-D2 (not when Darth Vader is up)
look / pass       after a lone R2-D2: turn up (look at) the next stock card, or not
keep              keep the card your R2-D2 turned up; or, after winning Darth Vader,
                  keep the rebel card you won him with
give PLAYER       give the card your R2-D2 turned up to PLAYER
discard           after winning Darth Vader: discard the rebel card you won him with
take / pass       Ravensburger, the last player holding cards: take one stock card per
                  card in hand, or not"""

WORDS = ("keep", "look", "pass", "discard", "take")  # the one-word commands
R2_WORDS = ("r2", "r2d2", "r2-d2")
COMMANDS = "play HERO FORCE, play r2, keep, give PLAYER, look, pass, discard, take"


def notation(s: DuelState, seat: int, command) -> str:
    kind = command[0]
    if kind == "play":
        return "play r2" if command[1] == R2 else f"play {s.heroes[seat]} {command[1]}"
    if kind == "give":
        return f"give {s.players[command[1]]}"
    return kind


def parse(s: DuelState, seat: int, text: str):
    return _parsed(s.players, s.heroes[seat], seat, s.edition, text)


@cached_by_value(size=1024)
def _parsed(players: tuple, hero: str, seat: int, edition: str, text: str):
    """A command's meaning depends only on these (the referee parses every revealed bid and
    every move of a long log: read once)."""
    words = text.strip().split()
    if not words:
        raise InvalidCommand(f"empty command (try: {COMMANDS})", code="syntax")
    verb, args = words[0].lower(), words[1:]
    if verb == "play":
        try:
            return parse_bid(hero, text)
        except OtherHero as other:
            raise IllegalCommand(
                f"{players[seat]} plays {hero}, not {other.hero}",
                code="not-your-hero",
                rule=REF[edition]["bid"],
            ) from None
    if verb in WORDS and not args:
        return (verb,)
    if verb == "give" and len(args) == 1:
        return ("give", resolve_player(players, args[0], text))
    raise InvalidCommand(
        f"cannot read {text.strip()!r} (commands: {COMMANDS})",
        code="syntax",
    )


class OtherHero(InvalidCommand):
    """A bid names another player's hero (``parse`` says whose, with the rule)."""

    def __init__(self, hero: str) -> None:
        super().__init__(f"a bid with {hero}'s card", code="not-your-hero")
        self.hero = hero


@cached_by_value(size=1024)
def parse_bid(hero: str, text: str) -> tuple:
    """``play ...`` as a bid of ``hero``'s player.  A bid's meaning depends only on the text and
    the hero, so it is read once (the referee parses every revealed bid of a long log)."""
    words = text.split()[1:]
    joined = "".join(words).lower()
    if joined in R2_WORDS:
        return ("play", R2)
    m = re.fullmatch(r"([a-z]*)-?([0-9]+)", joined)
    if any(w.startswith("-") for w in words) or (m and len(m.group(2)) > 2):
        raise InvalidCommand(f"force must be 1 to 8, in {text.strip()[:40]!r}", code="syntax")
    if not m:
        raise InvalidCommand(
            f"cannot read {text.strip()!r}: say 'play {hero} 5' or 'play r2'", code="syntax"
        )
    named, force = m.group(1), int(m.group(2))
    if named and not hero.startswith(named):
        names = [h for h in HERO_ORDER if h.startswith(named)]
        if not names:
            raise InvalidCommand(
                f"no hero {named!r} (heroes: {', '.join(HERO_ORDER)})", code="syntax"
            )
        raise OtherHero(names[0])
    if not 1 <= force <= 8:
        raise InvalidCommand(f"force must be 1 to 8, got {force}", code="syntax")
    return ("play", force)
