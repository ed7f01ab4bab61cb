"""The four Epic Duels battle scenes, by scene id, each read from its TOML file on first use
(and kept parsed between commands)."""

from boardstate.geometry import BoardCatalog

SCENES = ("geonosis", "kamino", "throne-room", "carbon-chamber")
"""Scene ids in the rulebook's order; each is also the data file's name."""

BOARDS = BoardCatalog.in_package(__package__, SCENES)
"""Mapping scene id -> Board (the entry point ``boardstate.boards: epic-duels``)."""
