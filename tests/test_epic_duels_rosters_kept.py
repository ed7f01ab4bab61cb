"""Epic Duels keeps every two-player duel's roster (``_roster.ROSTERS_KEPT``): self-play that
goes round the 36 pairings on the 4 boards finds each roster again, where a smaller cache
dropped each one before it came round (and every game built its roster anew)."""

from __future__ import annotations

from boardstate.modules.epic_duels import _roster

LIGHT = ("yoda", "obi-wan", "mace", "luke", "anakin", "han")
DARK = ("vader", "maul", "boba", "jango", "emperor", "dooku")
BOARDS = ("geonosis", "kamino", "throne-room", "carbon-chamber")


def every_duel():
    for board in BOARDS:
        for light in LIGHT:
            for dark in DARK:
                yield {"board": board}, ((light,), (dark,))


def test_going_round_every_duel_twice_finds_each_roster_again():
    first = [_roster.roster_of(options, cast, 4) for options, cast in every_duel()]
    assert len(first) == 144 < _roster.ROSTERS_KEPT
    again = [_roster.roster_of(options, cast, 4) for options, cast in every_duel()]
    assert all(a is b for a, b in zip(first, again))
