"""Epic Duels' characters: ``characters.toml``, the source keys cited everywhere and the 12 teams
(a main character and a minor character type each); ``cast()`` is the built-in file."""

from __future__ import annotations

import attrs

from boardstate.rules import DataFile, FieldError, structure_toml

from ._fields import an_id, converter, nonblank, one_of, whole

SIDES_OF_THE_FORCE = ("light", "dark")


# --- characters ---------------------------------------------------------------------------------


@attrs.frozen
class Character:
    """A main character, or a minor character type (``count`` pawns of it)."""

    id: str = attrs.field(validator=an_id)
    name: str = attrs.field(validator=nonblank)
    hp: int = attrs.field(validator=whole(1, 30))
    ranged: bool
    count: int = attrs.field(default=1, validator=whole(1, 2))
    source: tuple[str, ...] = ()
    uncertain: dict[str, str] = attrs.field(factory=dict, hash=False)
    """⚠ notes by field name (``hp``, ``count``, ``ranged``, ``name``)."""

    def __attrs_post_init__(self) -> None:
        for key in self.uncertain:
            if key not in ("hp", "count", "ranged", "name"):
                raise FieldError(
                    f"notes a field that does not exist: {key!r} (hp, count, ranged, name)",
                    field="uncertain",
                )


@attrs.frozen
class Team:
    side: str = attrs.field(validator=one_of(SIDES_OF_THE_FORCE))
    main: Character
    minor: Character

    @property
    def id(self) -> str:
        return self.main.id

    def character(self, char_id: str) -> Character | None:
        return {self.main.id: self.main, self.minor.id: self.minor}.get(char_id)

    def __attrs_post_init__(self) -> None:
        if self.main.count != 1:
            raise FieldError("a main character is one pawn", field="main.count")
        if self.minor.id == self.main.id:
            raise FieldError("must differ from the main character's id", field="minor.id")


@attrs.frozen
class Cast:
    """``characters.toml``: the source keys cited everywhere, and the 12 teams."""

    sources: dict[str, str] = attrs.field(hash=False)
    team: tuple[Team, ...]

    @property
    def teams(self) -> tuple[Team, ...]:
        return self.team

    def by_id(self, team_id: str) -> Team | None:
        for t in self.team:
            if t.id == team_id:
                return t
        return None

    def __attrs_post_init__(self) -> None:
        mains = [t.main.id for t in self.team]
        minors: dict[str, Character] = {}
        for i, t in enumerate(self.team):
            if mains.index(t.main.id) != i:
                raise FieldError(f"team {t.main.id!r} is listed twice", field=f"team[{i}].main.id")
            if t.minor.id in mains:
                raise FieldError(
                    f"{t.minor.id!r} is a main character's id", field=f"team[{i}].minor.id"
                )
            same = minors.setdefault(t.minor.id, t.minor)
            if (same.name, same.hp, same.ranged, same.count) != (
                t.minor.name,
                t.minor.hp,
                t.minor.ranged,
                t.minor.count,
            ):
                raise FieldError(
                    f"minor {t.minor.id!r} is described differently by another team",
                    field=f"team[{i}].minor.id",
                )
            for role in ("main", "minor"):
                for key in getattr(t, role).source:
                    if key not in self.sources:
                        raise FieldError(
                            f"unknown source key {key!r} (see [sources])",
                            field=f"team[{i}].{role}.source",
                        )


def known_sources(_inst, attribute, value):
    known = cast().sources
    for key in value:
        if key not in known:
            raise FieldError(
                f"unknown source key {key!r} (keys: {', '.join(known)})", field=attribute.name
            )


# --- the file -----------------------------------------------------------------------------------


def parse_characters(text: str, source: str) -> Cast:
    """``characters.toml`` -> Cast; a mistake is ``OptionError('FILE:LINE: field: reason')``."""
    return structure_toml(text, source, Cast, converter(), "bad-characters")


CHARACTERS_FILE = DataFile(
    __package__, "characters.toml", parse_characters, what="characters file", code="bad-characters"
)


def cast() -> Cast:
    """The built-in characters (parsed once per process: DataFile caches by text)."""
    return CHARACTERS_FILE.builtin()
