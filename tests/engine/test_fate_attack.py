"""Fate & Doom combat rules: hand-worked blows, exact attack odds, sheets and balance."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from engine import InputError, RuleError
from engine.fate.attack import (
    WOLF,
    Combatant,
    Policy,
    attack,
    attack_odds,
    damage_for,
    earns_extra_attack,
    encounter_balance,
    generate_monster,
    recover,
)
from engine.rng import Dice

HERO = Combatant.hero("Ada", life=12, skill=7, favour=3)


# -- hand-worked blows -------------------------------------------------------------
def test_a_parry_when_totals_are_equal():
    # 3+4+7 = 14 against 2+4+8 = 14: equal rolls parry
    r = attack(HERO, WOLF, attack_faces=(3, 4), defence_faces=(2, 4))
    assert (r.attack_total, r.defence_total, r.hit, r.damage, r.life_after) == (14, 14, False, 0, 9)


def test_a_hit_deals_the_difference_plus_points_spent():
    # 5+5+7+1 = 18 against 2+4+8 = 14: difference 4, plus the 1 favour spent
    r = attack(HERO, WOLF, attack_faces=(5, 5), defence_faces=(2, 4), attack_points=1)
    assert (r.attack_roll, r.margin, r.damage, r.life_after, r.attacker_points_after) == (18, 4, 5, 4, 2)


def test_points_spent_are_deducted_even_on_a_parry():
    r = attack(HERO, WOLF, attack_faces=(1, 1), defence_faces=(6, 6), attack_points=2, defence_points=3)
    assert not r.hit
    assert (r.attacker_points_after, r.defender_points_after) == (1, 1)


def test_halved_attack_on_a_defending_position():
    attacker = Combatant.monster("Bear", life=12, skill=8)
    defender = Combatant.hero("Bo", life=10, skill=5)
    # (6+5+8) = 19 halved, rounded down = 9; defence in full 1+1+5 = 7
    r = attack(attacker, defender, attack_faces=(6, 5), defence_faces=(1, 1), defender_in_defence=True)
    assert (r.attack_roll, r.attack_total, r.defence_total, r.halved, r.damage) == (19, 9, 7, True, 2)
    full = attack(attacker, defender, attack_faces=(6, 5), defence_faces=(1, 1))
    assert full.damage == 12 and full.life_after == 0


def test_damage_rules():
    assert [damage_for(m, 0) for m in (-1, 0, 1, 2, 5)] == [0, 0, 1, 2, 5]
    assert [damage_for(m, 0, "one_plus") for m in (-1, 0, 1, 2, 5)] == [0, 0, 1, 3, 6]
    assert damage_for(2, 2, "one_plus") == 5
    r = attack(HERO, WOLF, attack_faces=(5, 5), defence_faces=(2, 5), damage_rule="one_plus")
    assert (r.margin, r.damage) == (2, 3)


def test_three_attack_thresholds_use_exact_integer_comparison():
    # first hit: a third of the life before it
    assert earns_extra_attack(1, 3, 9) and not earns_extra_attack(1, 2, 9)
    assert not earns_extra_attack(1, 3, 10) and earns_extra_attack(1, 4, 10)
    # second hit: half of what remained
    assert earns_extra_attack(2, 3, 6) and not earns_extra_attack(2, 2, 5)
    assert earns_extra_attack(2, 3, 5)
    # the third attack is the last; a miss earns nothing
    assert not earns_extra_attack(3, 50, 1)
    assert not earns_extra_attack(1, 0, 1)


def test_recovery_is_capped_at_maximum_life():
    hurt = Combatant.hero("Ada", life=10, max_life=12, skill=7, favour=3)
    r = recover(hurt, faces=(6, 6), points=1)
    assert (r.roll, r.life_before, r.life_after, r.gained, r.points_after) == (13, 10, 12, 2, 2)
    r = recover(Combatant.monster("Rat", life=1, max_life=20, skill=1), faces=(1, 2))
    assert (r.life_after, r.gained) == (4, 3)


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"attack_points": 1}, "attack_points"),
        ({"defence_points": 1}, "defence_points"),
    ],
)
def test_points_refused_when_none_are_left(kwargs, field):
    broke = Combatant.hero("Ada", life=12, skill=7, favour=0, max_favour=3)
    tired = Combatant.monster("Wolf", life=9, skill=8, stoutness=0, max_stoutness=4)
    with pytest.raises(RuleError) as info:
        attack(broke, tired, attack_faces=(1, 1), defence_faces=(1, 1), **kwargs)
    assert info.value.field == field
    assert "cannot spend 1" in str(info.value)
    with pytest.raises(RuleError) as info:
        recover(broke, faces=(1, 1), points=1)
    assert info.value.field == "points"


def test_spending_beyond_what_is_held_is_refused():
    with pytest.raises(RuleError) as info:
        attack(HERO, WOLF, attack_faces=(1, 1), defence_faces=(1, 1), attack_points=4)
    assert info.value.params["held"] == 3


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"attack_faces": (0, 3), "defence_faces": (1, 1)}, "attack_faces[0]"),
        ({"attack_faces": (1, 3), "defence_faces": (1, 7)}, "defence_faces[1]"),
        ({"attack_faces": (1,), "defence_faces": (1, 1)}, "attack_faces"),
        ({"attack_faces": (1, 2), "defence_faces": (1, 1), "damage_rule": "double"}, "damage_rule"),
        ({"attack_faces": (1, 2), "defence_faces": (1, 1), "attack_points": "x"}, "attack_points"),
        ({}, "dice"),
    ],
)
def test_bad_attack_input(kwargs, field):
    with pytest.raises(InputError) as info:
        attack(HERO, WOLF, **kwargs)
    assert info.value.field == field


def test_a_fallen_creature_neither_attacks_nor_is_attacked():
    dead = HERO.with_life(0)
    with pytest.raises(RuleError):
        attack(dead, WOLF, attack_faces=(1, 1), defence_faces=(1, 1))
    with pytest.raises(RuleError):
        attack(WOLF, dead, attack_faces=(1, 1), defence_faces=(1, 1))


def test_dice_order_attacker_first():
    a = attack(HERO, WOLF, Dice(11))
    faces = Dice(11).roll(4, 6)
    assert a.attack_faces + a.defence_faces == faces


# -- exact attack odds against brute force --------------------------------------------
@pytest.mark.parametrize("a_skill,d_skill", [(7, 8), (8, 7), (0, 12), (12, 0), (5, 5), (-3, 2)])
@pytest.mark.parametrize("a_pts,d_pts", [(0, 0), (2, 0), (0, 3), (1, 1)])
@pytest.mark.parametrize("halved", [False, True])
@pytest.mark.parametrize("rule", ["difference", "one_plus"])
def test_attack_odds_match_enumeration_of_all_faces(a_skill, d_skill, a_pts, d_pts, halved, rule):
    attacker = Combatant.hero("A", life=99, skill=a_skill, favour=5)
    defender = Combatant.monster("D", life=99, skill=d_skill, stoutness=5)
    counts: dict[int, int] = {}
    for a1, a2, d1, d2 in itertools.product(range(1, 7), repeat=4):
        r = attack(
            attacker,
            defender,
            attack_faces=(a1, a2),
            defence_faces=(d1, d2),
            attack_points=a_pts,
            defence_points=d_pts,
            defender_in_defence=halved,
            damage_rule=rule,
        )
        counts[r.damage] = counts.get(r.damage, 0) + 1
    odds = attack_odds(a_skill, d_skill, a_pts, d_pts, halved, rule)
    assert odds.damage == {k: Fraction(v, 1296) for k, v in sorted(counts.items())}
    assert odds.p_hit + odds.p_parry == 1
    assert odds.p_parry == Fraction(counts.get(0, 0), 1296)
    assert odds.expected_damage == Fraction(sum(k * v for k, v in counts.items()), 1296)
    assert sum(odds.damage.values()) == 1


def test_attack_odds_known_values():
    # equal skills: P(2d6 > 2d6) = (1 - P(tie)) / 2 = (1 - 146/1296) / 2
    assert attack_odds(5, 5).p_hit == Fraction(1296 - 146, 2 * 1296)
    # a defender far out of reach of a halved attack is never hit
    assert attack_odds(0, 10, defender_in_defence=True).p_hit == 0


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"attack_skill": "abc", "defence_skill": 1}, "attack_skill"),
        ({"attack_skill": 1, "defence_skill": 1000}, "defence_skill"),
        ({"attack_skill": 1, "defence_skill": 1, "attack_points": -1}, "attack_points"),
        ({"attack_skill": 1, "defence_skill": 1, "defender_in_defence": "yes"}, "defender_in_defence"),
    ],
)
def test_attack_odds_bad_input(kwargs, field):
    with pytest.raises(InputError) as info:
        attack_odds(**kwargs)
    assert info.value.field == field


# -- sheets --------------------------------------------------------------------------
def test_wolf_sheet():
    assert (WOLF.name, WOLF.kind, WOLF.life, WOLF.max_life, WOLF.skill, WOLF.points, WOLF.max_points) == (
        "Wolf",
        "monster",
        9,
        9,
        8,
        4,
        4,
    )
    assert WOLF.to_dict() == {
        "name": "Wolf",
        "kind": "monster",
        "life": 9,
        "max_life": 9,
        "skill": 8,
        "stoutness": 4,
        "max_stoutness": 4,
    }
    assert Combatant.from_dict(WOLF.to_dict()) == WOLF


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"life": -1}, "life"),
        ({"life": 13, "max_life": 12}, "life"),
        ({"life": "many"}, "life"),
        ({"points": 4, "max_points": 3}, "points"),
        ({"kind": "dragon"}, "kind"),
        ({"name": "  "}, "name"),
        ({"skill": 1.5}, "skill"),
    ],
)
def test_bad_sheets(kwargs, field):
    base = {"name": "Ada", "kind": "hero", "life": 12, "skill": 7, "points": 3}
    with pytest.raises(InputError) as info:
        Combatant(**{**base, **kwargs})
    assert info.value.field == field


def test_from_dict_names_the_path():
    with pytest.raises(InputError) as info:
        Combatant.from_dict({"name": "Wolf", "life": 9, "skill": 8, "stoutness": -2}, "monster", "monsters[0]")
    assert info.value.field == "monsters[0].stoutness"
    with pytest.raises(InputError) as info:
        Combatant.from_dict({"name": "Wolf", "life": 9, "skill": 8, "favour": 2}, "monster", "monsters[0]")
    assert info.value.field == "monsters[0].favour"
    with pytest.raises(InputError) as info:
        Combatant.from_dict({"name": "Wolf", "skill": 8}, "monster", "monsters[2]")
    assert info.value.field == "monsters[2].life"


def test_generate_monster_records_its_dice():
    made = generate_monster(Dice(42), skill_modifier=2)
    faces = Dice(42).roll(3, 6)
    assert made.life_dice == faces[:1] and made.skill_die == faces[1] and made.stoutness_die == faces[2]
    m = made.monster
    assert (m.life, m.skill, m.points, m.kind) == (6 + faces[0], faces[1] + 2, faces[2], "monster")
    big = generate_monster(Dice(42), life_dice=2, name="Troll")
    assert big.monster.life == 6 + sum(faces[:2]) and big.monster.name == "Troll"
    assert generate_monster(Dice(42)).to_dict() == generate_monster(Dice(42)).to_dict()


def test_generated_monsters_stay_in_range():
    for seed in range(300):
        m = generate_monster(Dice(seed), life_dice=1 + seed % 2).monster
        assert 7 <= m.life <= (12 if seed % 2 == 0 else 18)
        assert 1 <= m.skill <= 6 and 1 <= m.points <= 6


@pytest.mark.parametrize("kwargs,field", [({"skill_modifier": 99}, "skill_modifier"), ({"life_dice": 3}, "life_dice")])
def test_generate_monster_bad_input(kwargs, field):
    with pytest.raises(InputError) as info:
        generate_monster(Dice(1), **kwargs)
    assert info.value.field == field


def test_policy_validation():
    assert Policy.spend(2).attack_spend == 2
    assert Policy.from_dict("never") == Policy()
    with pytest.raises(InputError) as info:
        Policy.from_dict({"attack_spend": -1}, "heroes[0].policy")
    assert info.value.field == "heroes[0].policy.attack_spend"
    with pytest.raises(InputError) as info:
        Policy.from_dict({"greed": 1}, "p")
    assert info.value.field == "p.greed"


# -- balance -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "monster_life,verdict",
    [(8, "easy"), (9, "even"), (12, "even"), (15, "even"), (16, "hard"), (21, "hard"), (22, "deadly")],
)
def test_balance_verdicts(monster_life, verdict):
    heroes = [Combatant.hero("Ada", life=5, max_life=12, skill=7)]
    b = encounter_balance(heroes, [Combatant.monster("M", life=monster_life, skill=5)])
    assert (b.heroes_max_life, b.monsters_life, b.ratio, b.verdict) == (
        12,
        monster_life,
        Fraction(monster_life, 12),
        verdict,
    )


def test_balance_of_a_wolf_pack():
    heroes = [Combatant.hero(n, life=12, skill=7) for n in ("A", "B")]
    wolves = [Combatant.monster(f"Wolf {i}", life=9, skill=8, stoutness=4) for i in range(3)]
    b = encounter_balance(heroes, wolves)
    assert (b.monsters_life, b.heroes_max_life, b.verdict) == (27, 24, "even")
    assert b.to_dict()["ratio"] == 27 / 24
    with pytest.raises(InputError):
        encounter_balance([], wolves)


def test_combat_names_are_exported():
    import engine

    names = {
        "WOLF",
        "AttackOdds",
        "AttackRecord",
        "Combatant",
        "DuelOdds",
        "Encounter",
        "Fight",
        "Policy",
        "attack",
        "attack_odds",
        "duel_odds",
        "encounter_balance",
        "generate_monster",
        "simulate_battle",
        "simulate_many",
    }
    assert names <= set(engine.__all__)
    for name in names:
        assert hasattr(engine, name), name
