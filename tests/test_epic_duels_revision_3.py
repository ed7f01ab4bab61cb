"""Epic Duels rules revision 3 (issue 23): team-mates are friends, one card decides one
winner, the opening hands come after the minors are placed, and "any one character" damage
spares one's own side by default.  Each rule is quoted from the printed rulebook (Hasbro 2002) or its VASSAL edition;
revision 2 games keep the old behaviour (their files verify as they were played)."""

from __future__ import annotations

import pytest
from epic_duels_table import (
    RULES,
    char,
    command,
    play,
    played,
    refused,
    table,
    where,
    wounds,
)

from boardstate.modules.epic_duels import MODULE
from boardstate.modules.epic_duels._state import MOVE, PLACE, GameEnded
from boardstate.testing import initial_state, random_game, start

TEAM = {"variant": "team"}
ANN, BEN, CAT, DAN = range(4)


def team_table(characters="luke,vader,han,boba", **kw):
    """ann and cat against ben and dan (seats alternate round the table)."""
    return table(characters=characters, options={**TEAM, **kw.pop("options", {})}, **kw)


def master4_table(**kw):
    """Master Play for 4: ann and cat against ben and dan, two mains each."""
    return table(
        characters="luke+obi-wan,vader+dooku,han+yoda,boba+maul",
        options={"variant": "master", **kw.pop("options", {})},
        **kw,
    )


# ---------------------------------------------------------------------------------- moving
@pytest.mark.parametrize("make", [team_table, master4_table], ids=["team", "master-4"])
def test_a_move_passes_through_a_team_mates_character(make):
    """'You cannot move through enemy characters. However, you can move through friendly
    characters (those on your team)' (Hasbro 2002, Moving).  Luke rolls 3: c2 is reached from
    a2 only through b2, where team-mate Han stands."""
    s = make(at={"luke": "a2", "han": "b2", "vader": "j7"}, phase=MOVE, die=0)
    s2 = play(s, "ann", "move luke c2")
    assert where(s2, "luke") == "c2" and where(s2, "han") == "b2"


def test_revision_2_let_a_team_mate_block_a_move():
    s = team_table(at={"luke": "a2", "han": "b2", "vader": "j7"}, phase=MOVE, die=0, revision=2)
    assert "c2 is 4 squares from luke" in str(refused(s, "ann", "move luke c2"))


def test_an_enemy_still_blocks_a_move():
    s = team_table(at={"luke": "a2", "vader": "b2"}, phase=MOVE, die=0)
    assert "c2 is 4 squares from luke" in str(refused(s, "ann", "move luke c2"))


# ---------------------------------------------------------------------------------- attacks
@pytest.mark.parametrize("make", [team_table, master4_table], ids=["team", "master-4"])
def test_a_team_mate_is_never_attacked(make):
    """'To attack with a Combat card, name the character that is attacking and the enemy
    character being attacked' (Hasbro 2002, Attacking): a team-mate beside Luke is neither
    listed nor accepted, and the refusal names the rule."""
    s = make(at={"luke": "b2", "han": "a2", "vader": "c2"}, hands=[["luke 5/1"], [], [], []])
    listed = RULES.legal(s, ANN)
    targets = {c[2] for c in listed if c[0] == "attack"}
    assert targets == {char(s, "vader")}
    why = str(refused(s, "ann", "attack han with luke"))
    assert "han is on your side" in why and "enemy character" in why


def test_revision_2_listed_an_attack_on_a_team_mate():
    s = team_table(
        at={"luke": "b2", "han": "a2", "vader": "c2"}, hands=[["luke 5/1"], [], [], []], revision=2
    )
    targets = {c[2] for c in RULES.legal(s, ANN) if c[0] == "attack"}
    assert targets == {char(s, "vader"), char(s, "han")}


CARD_GAMES = {
    "team": ("{me},vader,luke,boba", TEAM),
    "master-4": ("{me}+obi-wan,vader+dooku,luke+yoda,boba+maul", {"variant": "master"}),
}


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize(
    ("me", "card", "damage"),
    [("han", "Never Tell Me the Odds", 2), ("mace", "Whirlwind Attack", 4)],
    ids=["never-tell-me-the-odds", "whirlwind-attack"],
)
def test_every_enemy_character_x_could_attack_leaves_team_mates_alone(game, me, card, damage):
    """'Every enemy character Han could attack takes 2 damage' (and Mace's Whirlwind Attack,
    4): the team-mate beside the card's player is not an enemy character."""
    characters, options = CARD_GAMES[game]
    s = table(
        characters=characters.format(me=me),
        options=options,
        at={me: "b2", "luke": "a2", "vader": "c2"},
        hands=[[card], [], [], []],
    )
    s = play(s, "ann", f"play {card}")
    assert wounds(s, "vader") == damage and wounds(s, "luke") == 0


@pytest.mark.parametrize("game", CARD_GAMES)
@pytest.mark.parametrize(("card", "hurt"), [("Thermal Detonator", 4), ("Wrist Cable", 2)])
def test_thermal_detonator_and_wrist_cable_target_enemies_only(game, card, hurt):
    """'A character Boba could attack, and every character adjacent to it, takes 4 damage':
    Boba (dan) could attack Luke and his team-mate Vader; only Luke is a target, so the card
    needs no choice.  Wrist Cable likewise."""
    characters, options = CARD_GAMES[game]
    s = table(
        characters=characters.format(me="han"),
        options=options,
        at={"boba": "b2", "vader": "a2", "luke": "c2"},
        hands=[[], [], [], [card]],
        turn=DAN,
    )
    s = play(s, "dan", f"play {card}")
    assert wounds(s, "luke") == hurt and wounds(s, "vader") == 0
    assert not s.stack  # resolved: no target to choose


# ---------------------------------------------------------------------------------- one winner
def test_one_card_destroys_both_mains_the_first_decides():
    """Boba's Thermal Detonator on Luke with Boba beside him, both one blow from destruction:
    Luke falls first (the target), which ends the game for Boba's player; 'the object of the
    game is to attack and eliminate your opponent's main character', and nothing happens after
    the end."""
    at = {"luke": "a2", "boba": "b2"}
    hp = {"luke": 17 - 3, "boba": 14 - 3}  # 4 damage destroys either (beyond the track)
    s = table(characters="luke,boba", at=at, damage=hp, hands=[[], ["Thermal Detonator"]], turn=1)
    events, after = played(s, "ben", "play thermal detonator")
    ends = [e for e in events if isinstance(e, GameEnded)]
    assert len(ends) == 1 and events[-1] is ends[0]
    assert after.winners == (1,) and "Luke Skywalker destroyed" in after.end_reason
    assert wounds(after, "boba") == 14 - 3  # untouched: the game had ended


def test_revision_2_went_on_after_the_end():
    at = {"luke": "a2", "boba": "b2"}
    hp = {"luke": 17 - 3, "boba": 14 - 3}
    s = table(
        characters="luke,boba",
        at=at,
        damage=hp,
        hands=[[], ["Thermal Detonator"]],
        turn=1,
        revision=2,
    )
    events, after = played(s, "ben", "play thermal detonator")
    assert sum(isinstance(e, GameEnded) for e in events) == 2 and after.winners == (0,)


# ---------------------------------------------------------------------------------- set-up
@pytest.mark.parametrize(
    ("players", "options", "hand"),
    [
        (("ann", "ben"), {"characters": "obi-wan,dooku"}, [4, 4]),
        (("ann", "ben"), {"variant": "master"}, [4, 4]),
        (("ann", "ben", "cat", "dan"), TEAM, [4, 4, 4, 4]),
    ],
    ids=["duel", "master", "team"],
)
def test_the_opening_hands_are_drawn_after_the_minors_are_placed(players, options, hand):
    """'Place your minor character(s) on any space adjacent ... to your main character ...
    Draw the top four cards from your card deck' (Hasbro 2002, Set-up; the VASSAL edition
    numbers the steps 3 and 4).  Master Play: two from each deck."""
    s = start(MODULE, initial_state(MODULE, players, options))[1]
    placing = []
    while s.phase == PLACE:
        assert all(len(h) == 0 for h in s.hands)  # nobody holds a card while placing
        seat = s.queue[0]
        placing.append(seat)
        s = play(s, s.players[seat], RULES.notation(s, seat, RULES.legal(s, seat)[0]))
    assert [len(h) for h in s.hands] == hand
    if options.get("variant") == "master":
        for p in s.seats:
            groups = s.roster.groups_of(p)
            assert sorted(s.backs[p]) == sorted(groups * 2)
    assert s.phase == MOVE and s.turn == s.order[0] == placing[0]


# ---------------------------------------------------------------------------------- own side
def test_any_one_character_damage_spares_your_own_side_by_default():
    """Throw Debris, 'Any one character takes 4 damage': both public reimplementations let it
    hit enemies only (option own-damage=forbidden, the default); Vader's own Stormtrooper is no
    target."""
    at = {"vader": "e4", "stormtrooper-1": "e5", "luke": "a2", "leia": "j7"}
    s = table(characters="luke,vader", at=at, hands=[[], ["Throw Debris"]], turn=1)
    s = play(s, "ben", "play throw debris")
    targets = {c for c in RULES.legal(s, 1) if c[0] == "target"}
    assert targets == {("target", char(s, "luke")), ("target", char(s, "leia"))}
    assert refused(s, "ben", "target stormtrooper-1")


def test_any_one_character_damage_may_hit_your_own_side_with_the_option():
    at = {"vader": "e4", "stormtrooper-1": "e5", "luke": "a2", "leia": "j7"}
    s = table(
        characters="luke,vader",
        at=at,
        hands=[[], ["Throw Debris"]],
        turn=1,
        options={"own-damage": "allowed"},
    )
    s = play(s, "ben", "play throw debris")
    s = play(s, "ben", "target stormtrooper-1")
    assert wounds(s, "stormtrooper-1") == 4


def test_force_lightning_spares_your_own_side_by_default():
    at = {"emperor": "e4", "royal-guard-1": "e5", "obi-wan": "a1"}
    s = table(characters="obi-wan,emperor", at=at, hands=[[], ["Force Lightning"]], turn=1)
    s = play(s, "ben", "play force lightning")  # its one target: Obi-Wan
    assert wounds(s, "obi-wan") == 3 and wounds(s, "royal-guard-1") == 0
    assert command(s, "ann", "show") is not None  # ann turns over her card picked at random


# ---------------------------------------------------------------------------------- random games
@pytest.mark.parametrize(
    ("players", "options"),
    [(4, TEAM), (6, TEAM), (4, {"variant": "master"})],
    ids=["team-4", "team-6", "master-4"],
)
def test_random_team_games_never_list_an_attack_on_a_team_mate(players, options):
    """Random team and Master games (the conformance suite's way of playing): no listed attack,
    and no target a card offers to hit an enemy character, is a team-mate's character."""
    attacks = [0]

    def check(game):
        s = game.state
        if s.roster is None or s.over:
            return
        rs = s.roster
        for seat in game.to_act():
            for c in game.rules.legal(s, seat):
                if c[0] == "attack":
                    attacks[0] += 1
                    assert not rs.same_side(rs.seat_of[c[2]], seat), game.rules.notation(s, seat, c)

    for seed in range(3):
        random_game(MODULE, seed, players, options=options, check_each=check)
    assert attacks[0] > 50
