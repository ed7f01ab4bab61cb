"""The three editions of the rules (option ``edition``), and where each states a rule.

Rule references name the section of the edition's own text (see docs/games/duel-of-the-forces.md).
"""

from __future__ import annotations

from ._state import PARLETT_ENGLISH, PARLETT_ORIGINAL, RAVENSBURGER

EDITIONS = (RAVENSBURGER, PARLETT_ENGLISH, PARLETT_ORIGINAL)

# Rule references, per edition: where in that edition's text the rule stands.
REF = {
    RAVENSBURGER: {
        "bid": "Ravensburger 2015, Spielverlauf",
        "r2": "Ravensburger 2015, R2-D2-Karten",
        "vader": "Ravensburger 2015, Darth Vader-Karten",
        "end": "Ravensburger 2015, Spielende",
    },
    PARLETT_ENGLISH: {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (2)",
        "end": "Parlett, Ending and winning",
    },
    PARLETT_ORIGINAL: {
        "bid": "Parlett, Play",
        "r2": "Parlett, R2-D2 cards",
        "vader": "Parlett, Darth Vader cards (2)",
        "end": "Parlett, Variations (1)",
    },
}
# (Revision 1 named "(1)" for both Vader rules; the R2-D2 ban is (1), the winner's card (2).)
REF_R2_ON_VADER = {
    RAVENSBURGER: "Ravensburger 2015, Darth Vader-Karten",
    PARLETT_ENGLISH: "Parlett, Darth Vader cards (1)",
    PARLETT_ORIGINAL: "Parlett, Darth Vader cards (1)",
}
