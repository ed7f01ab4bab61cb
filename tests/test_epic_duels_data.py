"""Star Wars Epic Duels game data: the 12 teams, the basic templates and the 12 decks of 31
cards, checked against expectations written out independently from the reference tables, and
the loader's located errors and player deck files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from boardstate import _datafile as datafile
from boardstate.modules.epic_duels import _characters, _data, _decks, _templates, _vocabulary
from boardstate.rules import OptionError

DECKS = Path(_data.__file__).parent / "decks"

# team: (side, main HP, main ranged, minor id, pawns, minor HP)
TEAMS = {
    "yoda": ("light", 15, False, "clone-trooper", 2, 4),
    "obi-wan": ("light", 18, False, "clone-trooper", 2, 4),
    "mace": ("light", 19, False, "clone-trooper", 2, 4),
    "luke": ("light", 17, False, "leia", 1, 10),
    "anakin": ("light", 18, False, "padme", 1, 10),
    "han": ("light", 13, True, "chewbacca", 1, 15),
    "vader": ("dark", 20, False, "stormtrooper", 2, 4),
    "maul": ("dark", 18, False, "battle-droid", 2, 3),
    "boba": ("dark", 14, True, "greedo", 1, 7),
    "jango": ("dark", 15, True, "zam", 1, 10),
    "emperor": ("dark", 13, False, "royal-guard", 2, 5),
    "dooku": ("dark", 18, False, "super-battle-droid", 2, 5),
}

# team: (main template, minor template)
TEMPLATE_OF = {
    "yoda": ("green", "weak"),
    "obi-wan": ("blue", "weak"),
    "mace": ("blue", "weak"),
    "luke": ("red", "strong"),
    "anakin": ("red", "strong"),
    "han": ("yellow+", "strong+"),
    "vader": ("red", "weak"),
    "maul": ("red", "weak"),
    "boba": ("yellow", "strong"),
    "jango": ("yellow", "strong"),
    "emperor": ("green", "strong++"),
    "dooku": ("blue", "strong+"),
}

# template: (cards, total attack, total defense); main totals as the wikis state them, minor
# totals summed by hand from the reference's table.
TEMPLATE_TOTALS = {
    "red": (10, 38, 18),
    "blue": (10, 32, 24),
    "green": (10, 28, 31),
    "yellow": (10, 27, 19),
    "yellow+": (10, 27, 20),
    "weak": (9, 16, 13),
    "strong": (9, 23, 20),
    "strong+": (9, 24, 20),
    "strong++": (9, 25, 20),
}

M, m = "main", "minor"
PC, SP = "power-combat", "special"
# team: {card: (pictures main/minor, kind, attack, defense, copies)}; a conditional value is
# its base value; "*" is a rule (a quantity).
TALENTS = {
    "yoda": {
        "Force Strike": (M, PC, 6, None, 2),
        "Serenity": (M, PC, None, 15, 2),
        "Force Rebound": (M, PC, None, "*", 1),
        "Force Push": (M, SP, None, None, 2),
        "Force Lift": (M, SP, None, None, 3),
        "Insight": (M, SP, None, None, 2),
    },
    "obi-wan": {
        "Jedi Attack": (M, PC, 6, None, 3),
        "Jedi Block": (M, PC, None, 12, 3),
        "Force Control": (M, PC, 7, None, 2),
        "Force Quickness": (M, SP, None, None, 2),
        "Force Balance": (M, SP, None, None, 1),
        "Jedi Mind Trick": (M, SP, None, None, 1),
    },
    "mace": {
        "Battlemind": (M, PC, "*", "*", 4),
        "Masterful Fighting": (M, PC, 5, None, 2),
        "Whirlwind Attack": (M, SP, None, None, 2),
        "Wisdom": (M, SP, None, None, 4),
    },
    "luke": {
        "Justice": (M, PC, 4, None, 2),
        "I Will Not Fight You": (M, SP, None, None, 3),
        "Children of the Force": (M, SP, None, None, 3),
        "Latent Force Abilities": (m, PC, 7, 7, 2),
        "Luke's in Trouble": (m, SP, None, None, 2),
    },
    "anakin": {
        "Anger": (M, PC, 8, None, 2),
        "Counterattack": (M, PC, None, "*", 2),
        "Calm": (M, SP, None, None, 2),
        "Wrath": (M, SP, None, None, 3),
        "Precise Shot": (m, PC, 9, None, 1),
        "Shot on the Run": (m, PC, 6, None, 1),
        "Protection": (m, SP, None, None, 1),
    },
    "han": {
        "Gambler's Luck": (M, PC, 4, None, 3),
        "Heroic Retreat": (M, PC, 5, None, 2),
        "Never Tell Me the Odds": (M, SP, None, None, 2),
        "Bowcaster Attack": (m, PC, 11, None, 1),
        "It's Not Wise...": (m, SP, None, None, 2),
        "Wookiee Healing": (m, SP, None, None, 1),
        "Wookiee Instincts": (m, SP, None, None, 1),
    },
    "vader": {
        "Wrath": (M, SP, None, None, 3),
        "Choke": (M, SP, None, None, 3),
        "Throw Debris": (M, SP, None, None, 2),
        "Dark Side Drain": (M, PC, 3, None, 2),
        "All Too Easy": (M, PC, 3, None, 1),
        "Your Skills Are Not Complete": (M, SP, None, None, 1),
    },
    "maul": {
        "Sith Speed": (M, PC, 3, None, 3),
        "Super Sith Speed": (M, PC, 4, None, 3),
        "Athletic Surge": (M, PC, 8, None, 3),
        "Blinding Surge": (M, PC, None, 0, 2),
        "Martial Defense": (M, PC, None, 10, 1),
    },
    "boba": {
        "Kyber Dart": (M, PC, 9, None, 1),
        "Deadly Aim": (M, PC, 7, None, 1),
        "Rocket Retreat": (M, PC, 4, None, 3),
        "Thermal Detonator": (M, SP, None, None, 2),
        "Wrist Cable": (M, SP, None, None, 2),
        "Desperate Shot": (m, PC, 7, None, 1),
        "Sudden Arrival": (m, SP, None, None, 2),
    },
    "jango": {
        "Rocket Retreat": (M, PC, 4, None, 3),
        "Missile Launch": (M, PC, 7, None, 1),
        "Wrist Cable": (M, SP, None, None, 2),
        "Flamethrower": (M, SP, None, None, 1),
        "Fire Up the Jet Pack": (M, SP, None, None, 1),
        "Sniper Shot": (m, PC, 3, None, 3),
        "Assassination": (m, PC, 7, None, 1),
    },
    "emperor": {
        "Force Lightning": (M, SP, None, None, 4),
        "Meditation": (M, SP, None, None, 2),
        "Future Foreseen": (M, SP, None, None, 2),
        "Let Go of Your Hatred": (M, SP, None, None, 2),
        "You Will Die": (M, SP, None, None, 1),
        "Royal Command": (M, SP, None, None, 1),
    },
    "dooku": {
        "Taunting": (M, PC, 7, None, 4),
        "Force Push": (M, SP, None, None, 2),
        "Gain Power": (M, SP, None, None, 2),
        "Give Orders": (M, SP, None, None, 3),
        "Force Drain": (M, SP, None, None, 1),
    },
}

FREE = {("maul", "Sith Speed"), ("maul", "Super Sith Speed")}
FREE |= {("boba", "Sudden Arrival"), ("jango", "Fire Up the Jet Pack")}


def _printed(v: _vocabulary.Value | None):
    if v is None:
        return None
    return "*" if v.quantity is not None else v.base


def _talents(deck: _decks.Deck) -> dict[str, tuple]:
    team = _characters.cast().by_id(deck.team)
    out: dict[str, tuple] = {}
    for c in deck.cards:
        if c.kind == "combat":
            continue
        role = M if c.pictures == team.main.id else m
        prev = out.get(c.name, (role, c.kind, _printed(c.attack), _printed(c.defense), 0))
        out[c.name] = (*prev[:4], prev[4] + 1)
    return out


def _steps(deck_file: _decks.DeckFile):
    """Every effect step of the deck, the disputed alternatives' included."""
    for card in deck_file.card:
        yield from card.effects
        for alt in card.disputed:
            yield from alt.effects or ()


def _all_steps():
    for deck in _decks.builtin_decks().values():
        yield from _steps(deck.file)


def _all_values():
    for deck in _decks.builtin_decks().values():
        for card in deck.file.card:
            for v in (card.attack, card.defense):
                if v is not None:
                    yield v
            for alt in card.disputed:
                for v in (alt.attack, alt.defense):
                    if v is not None:
                        yield v


# --- characters ---------------------------------------------------------------------------------


def test_twelve_teams_with_the_reference_hit_points():
    cast = _characters.cast()
    assert [t.id for t in cast.teams] == list(TEAMS)
    for t in cast.teams:
        side, hp, ranged, minor, pawns, minor_hp = TEAMS[t.id]
        assert (t.side, t.main.hp, t.main.ranged, t.main.count) == (side, hp, ranged, 1), t.id
        assert (t.minor.id, t.minor.count, t.minor.hp, t.minor.ranged) == (
            minor,
            pawns,
            minor_hp,
            True,
        ), t.id
        assert t.main.source and t.minor.source, t.id
    assert sum(1 + t.minor.count for t in cast.teams) == 31  # the box's 31 pawns


def test_single_source_hit_points_are_marked_uncertain():
    cast = _characters.cast()
    for team in ("mace", "boba"):
        main = cast.by_id(team).main
        assert main.source == ("K",) and "hp" in main.uncertain


def test_main_ids_are_the_boards_named_squares():
    from boardstate.modules.epic_duels.boards import BOARDS

    names = set(BOARDS["geonosis"].named_squares)
    assert names == set(TEAMS)


# --- decks --------------------------------------------------------------------------------------


def test_template_totals():
    temps = _templates.templates().template
    assert set(temps) == set(TEMPLATE_TOTALS)
    for name, (cards, attack, defense) in TEMPLATE_TOTALS.items():
        lines = temps[name].cards
        assert sum(c.copies for c in lines) == cards, name
        assert sum(c.attack * c.copies for c in lines) == attack, name
        assert sum(c.defense * c.copies for c in lines) == defense, name


def test_the_templates_file_is_the_one_the_digest_names(tmp_path):
    """One description of the templates' file (``_data.TEMPLATES_FILE``): the digest reads its
    text, the built-in templates are its parse, and a wrong file is refused with its code."""
    assert _templates.templates() == _data.TEMPLATES_FILE.builtin()
    assert isinstance(_templates.templates(), _templates.Templates)
    text = _data.TEMPLATES_FILE.builtin_text()
    wrong = tmp_path / "templates.toml"
    wrong.write_text(text.replace("copies = ", "copies = -", 1), encoding="utf-8")
    with pytest.raises(OptionError, match=r"templates\.toml:\d+: template\.") as caught:
        _data.TEMPLATES_FILE.load(wrong)
    assert caught.value.code == "bad-templates"
    wrong.write_bytes(b"\xff")
    with pytest.raises(OptionError, match=r"templates\.toml:1: the templates file is not UTF-8"):
        _data.TEMPLATES_FILE.load(wrong)


@pytest.mark.parametrize("team", list(TEAMS))
def test_every_deck_has_31_cards_from_its_templates(team):
    deck = _decks.builtin_decks()[team]
    info = _characters.cast().by_id(team)
    main_t, minor_t = TEMPLATE_OF[team]
    assert len(deck.cards) == 31
    assert (deck.file.main_combat.template, deck.file.minor_combat.template) == TEMPLATE_OF[team]
    for who, template in ((info.main, main_t), (info.minor, minor_t)):
        basic = [c for c in deck.cards if c.kind == "combat" and c.pictures == who.id]
        cards, attack, defense = TEMPLATE_TOTALS[template]
        assert len(basic) == cards
        assert sum(c.attack.base for c in basic) == attack
        assert sum(c.defense.base for c in basic) == defense
        assert {c.name for c in basic} == {who.name}
    assert deck.count("combat") == 19
    assert deck.count() - deck.count("combat") == 12


@pytest.mark.parametrize("team", list(TEAMS))
def test_talent_cards_are_the_references(team):
    deck = _decks.builtin_decks()[team]
    assert _talents(deck) == TALENTS[team]
    for c in deck.cards:
        assert c.free == ((team, c.name) in FREE), c.name
        if c.kind != "combat":
            assert c.text.strip()


def test_all_372_cards():
    decks = _decks.builtin_decks()
    assert len(decks) == 12
    assert sum(len(d.cards) for d in decks.values()) == 372


def test_every_talent_card_cites_its_sources():
    keys = set(_characters.cast().sources)
    for deck in _decks.builtin_decks().values():
        for card in deck.file.card:
            assert card.source and set(card.source) <= keys, card.name
            for alt in card.disputed:
                assert alt.source and set(alt.source) <= keys
    for card in _decks.builtin_decks()["mace"].file.card:
        assert card.uncertain  # a deck only K describes: every card is marked


def test_conditional_and_rule_values():
    decks = _decks.builtin_decks()

    def card(team, name):
        return next(c for c in decks[team].cards if c.name == name)

    justice = card("luke", "Justice").attack
    assert (justice.base, justice.when.destroyed, justice.then) == (4, "leia", 10)
    easy = card("vader", "All Too Easy").attack
    assert (easy.base, easy.when.defended, easy.then) == (3, False, 20)
    sniper = card("jango", "Sniper Shot").attack
    assert (sniper.base, sniper.when.defended, sniper.then) == (3, False, 6)
    mind = card("mace", "Battlemind")
    assert mind.attack.quantity == mind.defense.quantity == "cards-in-hand"
    for team, name in (("yoda", "Force Rebound"), ("anakin", "Counterattack")):
        assert card(team, name).defense.quantity == "attack-value"


# --- the vocabulary -----------------------------------------------------------------------------


def test_every_verb_used_is_in_the_vocabulary_and_every_verb_is_used():
    used = {e.verb for e in _all_steps()}
    assert used <= set(_vocabulary.VERBS)
    assert used == set(_vocabulary.VERBS)
    defaults = {e.verb for d in _decks.builtin_decks().values() for c in d.cards for e in c.effects}
    assert set(_vocabulary.VERBS) - defaults == {"reshuffle"}  # found only in one source's variant


def test_every_selector_condition_and_quantity_is_used():
    steps = list(_all_steps())
    whos = {e.target.who for e in steps if e.target is not None}
    assert set(_vocabulary.WHO) <= whos
    assert {e.target.side for e in steps if e.target is not None} == set(_vocabulary.SIDES)
    assert {e.player for e in steps if e.player is not None} == set(_vocabulary.PLAYERS)
    assert {e.pick for e in steps if e.pick is not None} == set(_vocabulary.PICKS)
    assert {e.where for e in steps if e.where is not None} == set(_vocabulary.PLACES)
    assert {e.pile for e in steps if e.pile is not None} == set(_vocabulary.PILES)
    conditions = {e.when.test for e in steps if e.when is not None}
    conditions |= {v.when.test for v in _all_values() if v.when is not None}
    assert conditions == set(_vocabulary.CONDITIONS)
    quantities = {e.amount.quantity for e in steps if e.amount is not None}
    quantities |= {v.quantity for v in _all_values()}
    assert quantities - {None} == set(_vocabulary.QUANTITIES)
    params = {p for e in steps for p in e.parameters}
    assert params == set(_vocabulary.PARAMETERS)


def test_every_special_card_has_effects_and_no_values():
    for deck in _decks.builtin_decks().values():
        for c in deck.cards:
            if c.kind == "special":
                assert c.effects and c.attack is None and c.defense is None, c.name
            if c.kind == "power-combat":
                assert c.attack is not None or c.defense is not None, c.name


# --- disputed alternatives ----------------------------------------------------------------------

ALTERNATIVES = {
    "yoda": ("c-lift-insight",),
    "obi-wan": ("cg-force-control", "t-mind-trick"),
    "han": ("c-odds-reshuffle", "k-not-wise-one"),
    "vader": ("cg-dark-side-drain", "cg-all-too-easy"),
    "jango": ("c-missile-kamino", "c-flamethrower-jump"),
    "emperor": ("k-hatred-random",),
}


def test_disputed_alternatives_apply_one_at_a_time_and_together():
    for team, deck in _decks.builtin_decks().items():
        assert deck.alternatives == ALTERNATIVES.get(team, ())
        for alt in deck.alternatives:
            varied = deck.with_alternatives([alt])
            assert len(varied.cards) == 31 and varied.chosen == (alt,)
            assert varied.cards != deck.cards
        assert len(deck.with_alternatives(deck.alternatives).cards) == 31
    yoda = _decks.builtin_decks()["yoda"].with_alternatives(["c-lift-insight"])
    assert _talents(yoda)["Force Lift"][4] == 2 and _talents(yoda)["Insight"][4] == 3


def test_a_kept_deck_is_kept_without_its_file_and_reads_it_when_asked():
    """The cache keeps a built-in deck without its file (whose classes a command then never
    makes: ``_deck_files``); read back, its file is the built-in one parsed, and its alternatives
    are the same deck as the parsed deck's."""
    import pickle

    text = _decks.deck_file("yoda").builtin_text()
    parsed = _decks.parse_deck(text, "decks/yoda.toml")
    back = pickle.loads(pickle.dumps(parsed))
    assert back == parsed and back._file is None and parsed._file is not None
    assert back.file == parsed.file
    for alt in parsed.alternatives:
        assert back.with_alternatives([alt]) == parsed.with_alternatives([alt])


def test_a_players_deck_keeps_its_own_file_when_pickled():
    """Only a built-in deck is kept without its file (its team's built-in file, read again when
    asked for): a deck made from a player's file keeps that file when pickled, and its
    alternatives vary that file's cards, not the built-in ones."""
    import pickle

    builtin = _decks.deck_file("yoda").builtin_text()
    text = builtin.replace('"After the combat, draw a card."', '"Draw a card after it."', 1)
    mine = _decks.parse_deck(text, "my-yoda.toml")
    back = pickle.loads(pickle.dumps(mine))
    assert back.file == mine.file != _decks.parse_deck(builtin, "decks/yoda.toml").file
    assert mine.alternatives
    for alt in mine.alternatives:
        assert back.with_alternatives([alt]) == mine.with_alternatives([alt])
        varied = pickle.loads(pickle.dumps(mine.with_alternatives([alt])))
        assert varied.file == mine.file


def test_an_unknown_alternative_is_refused():
    with pytest.raises(OptionError, match="deck 'luke' has no alternative 'x' .offered: none"):
        _decks.builtin_decks()["luke"].with_alternatives(["x"])


# --- mistakes in a data file --------------------------------------------------------------------


def _line(text: str, snippet: str) -> int:
    return text[: text.index(snippet)].count("\n") + 1


LUKE = (DECKS / "luke.toml").read_text(encoding="utf-8")

# (what is changed, into what, the error's field and reason)
BROKEN = [
    ("attack = 7\n", 'attack = "7"\n', r"card\[3\]\.attack: must be a number"),
    (
        "defense = 7\n",
        "defense = 70\n",
        r"card\[3\]\.defense\.base: must be a whole number from 0 to 20",
    ),
    (
        'copies = 2\nsource = ["C", "K"]\ntext = "Attack 4',
        'copies = 0\nsource = ["C", "K"]\ntext = "Attack 4',
        r"card\[0\]\.copies: must be a whole number from 1 to 12, got 0",
    ),
    (
        '{ verb = "draw", amount = 2 }',
        '{ verb = "drew", amount = 2 }',
        r"card\[2\]\.effects\[2\]\.verb: must be one of draw, ",
    ),
    (
        '{ verb = "draw", amount = 2 }',
        '{ verb = "draw", amount = 2, squares = 1 }',
        r"card\[2\]\.effects\[2\]\.squares: 'draw' takes no squares",
    ),
    (
        'target = "leia", squares = 6',
        'target = "han", squares = 6',
        r"card\[2\]\.effects\[1\]\.target\.who: 'han' is neither a selector",
    ),
    (
        'pictures = "leia"\nkind = "special"',
        'pictures = "han"\nkind = "special"',
        r"card\[4\]\.pictures: 'han' is not a character of team 'luke'",
    ),
    (
        'name = "Justice"\n',
        'name = "Justice"\nflavour = "x"\n',
        r"card\[0\]\.flavour: unknown field\(s\) flavour",
    ),
    (
        'source = ["C", "K", "G"]',
        'source = ["C", "Q"]',
        r"card\[1\]\.source: unknown source key 'Q'",
    ),
    (
        'template = "strong"',
        'template = "mighty"',
        r"minor_combat\.template: unknown minor template 'mighty' \(templates: weak, strong,",
    ),
    (
        "{ attack = 1, defense = 4, copies = 1 },\n]\n\n[minor",
        "{ attack = 1, defense = 5, copies = 1 },\n]\n\n[minor",
        r"main_combat\.cards: the cards differ from template 'red'",
    ),
    (
        'when = { destroyed = "leia" }',
        'when = { destroyed = "leia", defended = true }',
        r"card\[0\]\.attack\.when: a condition needs exactly one of",
    ),
    (
        'copies = 3\nsource = ["C", "K", "G"]',
        'copies = 4\nsource = ["C", "K", "G"]',
        r"card\[4\]\.copies: the talent cards add up to 13 copies, 12 are needed",
    ),
    ('team = "luke"', 'team = "lando"', r"team: unknown team 'lando'"),
    (
        'target = "leia", squares = 6',
        'target = "opposing", squares = 6',
        r"card\[2\]\.effects: step 2 \(move\): target 'opposing' needs a combat",
    ),
]
# (the last two locate a check of the whole deck and one of the card's kind; the 13-copies
# case points at the last card, where a card is usually added)


@pytest.mark.parametrize(("old", "new", "message"), BROKEN)
def test_a_broken_deck_file_gives_a_located_one_line_error(old, new, message):
    assert LUKE.count(old) >= 1
    text = LUKE.replace(old, new, 1)
    with pytest.raises(OptionError) as caught:
        _decks.parse_deck(text, "my-deck.toml")
    error = str(caught.value)
    assert "\n" not in error
    m = re.fullmatch(r"my-deck\.toml:(\d+): (.*)", error)
    assert m, error
    assert re.match(message, m.group(2)), error
    line = int(m.group(1))
    if "talent cards add up" in error:  # the last card's copies line
        assert text.splitlines()[line - 1].startswith("copies = ")
    elif "differ from template" in error:
        assert text.splitlines()[line - 1] == "cards = ["
    else:  # a line of the change, or the start of the effects list it sits in
        changed = range(_line(text, new), _line(text, new) + new.count("\n") + 1)
        assert line in changed or (
            text.splitlines()[line - 1].startswith("effects = [") and 0 < changed[0] - line < 5
        ), (line, changed, error)


def test_invalid_toml_is_located():
    with pytest.raises(OptionError, match=r"^my-deck\.toml:7: not valid TOML"):
        _decks.parse_deck(LUKE.replace('team = "luke"', "team = luke"), "my-deck.toml")


def test_a_broken_characters_file_gives_a_located_error():
    text = (Path(_data.__file__).parent / "characters.toml").read_text(encoding="utf-8")
    bad = text.replace("main.hp = 17", "main.hp = 0")
    with pytest.raises(OptionError) as caught:
        _characters.parse_characters(bad, "characters.toml")
    line = _line(bad, "main.hp = 0")
    assert str(caught.value).startswith(
        f"characters.toml:{line}: team[3].main.hp: must be a whole number from 1 to 30, got 0"
    )
    bad = text.replace(
        'main.ranged = true\nmain.source = ["C", "K", "G"]',
        'main.ranged = 1\nmain.source = ["C", "K", "G"]',
        1,
    )
    with pytest.raises(
        OptionError,
        match=r"^characters\.toml:\d+: team\[5\]\.main\.ranged: must be true or false, got 1",
    ):
        _characters.parse_characters(bad, "characters.toml")


# --- a player's deck file -----------------------------------------------------------------------


def test_a_players_deck_file_loads(tmp_path):
    # e.g. a player who owns the cards and reads a different printed value
    path = tmp_path / "my-han.toml"
    text = (DECKS / "han.toml").read_text(encoding="utf-8")
    path.write_text(text.replace("attack = 11", "attack = 10"), encoding="utf-8")
    deck = _decks.load_deck(path)
    assert deck.team == "han" and len(deck.cards) == 31
    assert _printed(next(c for c in deck.cards if c.name == "Bowcaster Attack").attack) == 10
    assert _decks.deck_for("han", path) == deck
    assert _decks.deck_for("han") == _decks.builtin_decks()["han"]


def test_a_players_deck_without_template_claims_loads(tmp_path):
    text = (DECKS / "maul.toml").read_text(encoding="utf-8")
    text = text.replace('template = "red"\n', "").replace('template = "weak"\n', "")
    text = text.replace(
        "{ attack = 1, defense = 4, copies = 1 }", "{ attack = 1, defense = 5, copies = 1 }"
    )
    path = tmp_path / "maul.toml"
    path.write_text(text, encoding="utf-8")
    deck = _decks.deck_for("maul", path)
    assert (
        sum(c.defense.base for c in deck.cards if c.pictures == "maul" and c.kind == "combat") == 19
    )


def test_a_players_deck_for_the_wrong_team_or_missing_is_one_line(tmp_path):
    path = tmp_path / "deck.toml"
    path.write_text((DECKS / "dooku.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(
        OptionError, match=r"deck\.toml:7: team: a deck for team 'yoda' is needed, not for 'dooku'"
    ):
        _decks.deck_for("yoda", path)
    with pytest.raises(OptionError, match=r"cannot read the deck file"):
        _decks.load_deck(tmp_path / "nope.toml")
    with pytest.raises(OptionError, match="unknown team 'lando'"):
        _decks.deck_for("lando")


def test_the_data_digest_names_every_data_file(tmp_path, monkeypatch):
    """A change to any built-in data file (the characters, the templates, a team's deck) is a
    new digest, and the file put back is the old one again: the digest names the files' content.
    The files are a copy, read through the package reader, so the installed ones stay as
    they are (other tests, in other processes, read them meanwhile)."""
    real_digest = _data.data_digest()
    assert re.fullmatch(r"[0-9a-f]{16}", real_digest)
    copy = tmp_path / "epic_duels"
    shutil.copytree(DECKS.parent, copy, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    package_text = datafile._package_text

    def read(package: str, name: str) -> str:
        if package != _data.__package__:
            return package_text(package, name)
        return (copy / name).read_text(encoding="utf-8")

    monkeypatch.setattr(datafile, "_package_text", read)
    assert _data.data_digest() == real_digest
    names = ["characters.toml", "decks/templates.toml"]
    names += [f"decks/{team.id}.toml" for team in _characters.cast().teams]
    assert len(names) == 14
    seen = {real_digest}
    for name in names:
        path = copy / name
        text = path.read_text(encoding="utf-8")
        # The first number outside a comment, one more (a wound point, an attack value).
        changed = re.sub(r"(?m)^([^#\n]*?)(\d+)", lambda m: f"{m[1]}{int(m[2]) + 1}", text, count=1)
        assert changed != text, name
        path.write_text(changed, encoding="utf-8")
        digest = _data.data_digest()
        assert re.fullmatch(r"[0-9a-f]{16}", digest)
        assert digest not in seen, f"changing {name} left the digest as it was"
        seen.add(digest)
        path.write_text(text, encoding="utf-8")
        assert _data.data_digest() == real_digest
