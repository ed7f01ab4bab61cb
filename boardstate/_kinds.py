"""The kinds of record (docs/file-format.md), and each kind as a module name.

The referee's loop compares a record's kind a dozen times a record: ``Kind.MOVE`` is a lookup
through the enum's class (80 ns in Python 3.11), ``MOVE`` a module name (10 ns); both are the
same member.
"""

from __future__ import annotations

from enum import IntEnum


class Kind(IntEnum):
    SETUP = 0  # the engine starts the game (shuffles, deals)
    MOVE = 1  # one seat's command and its consequences
    COMMIT = 2  # a sealed choice: the commitment only
    REVEAL = 3  # the opening of a sealed choice (the last one resolves the phase)
    JOIN = 4  # all modes but open: a player joins (their public keys; a chain tip or a nonce)
    DEAL = 5  # peer and shared-deck modes (never hosted): a player supplies a waiting decision
    # (a link, an arranged pile; the shared deck's own five, trust/shared_deck.py)


SETUP, MOVE, COMMIT, REVEAL, JOIN, DEAL = Kind
