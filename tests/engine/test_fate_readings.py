"""Fate & Doom combat readings: the defending position's halving (three readings), a kill inside a
chain of attacks, creatures moved during their own side's turn — exact odds against brute force."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from engine import InputError
from engine.cli import main
from engine.fate.attack import HALVING_RULES, Combatant, attack, attack_odds, damage_for
from engine.fate.battle import Encounter, Fight, simulate_battle, simulate_many

FACES = range(1, 7)


def brute_damage(a_skill, d_skill, a_pts, d_pts, halved, rule, halving):
    """Damage distribution of one attack from the rules' words, over every one of the 6**4 throws."""
    weights: Counter[int] = Counter()
    for a1, a2, d1, d2 in itertools.product(FACES, repeat=4):
        attack_total = a1 + a2 + a_skill + a_pts
        if halved and halving == "roll":
            attack_total = attack_total // 2
        elif halved and halving == "dice":
            attack_total = (a1 + a2 + a_pts) // 2 + a_skill
        defence = d1 + d2 + d_skill + d_pts
        damage = damage_for(attack_total - defence, a_pts, rule) if attack_total > defence else 0
        if halved and halving == "damage":
            damage //= 2
        weights[damage] += 1
    return {k: Fraction(w, 6**4) for k, w in sorted(weights.items())}


@pytest.mark.parametrize("halving", HALVING_RULES)
@pytest.mark.parametrize("rule", ["difference", "one_plus"])
def test_halving_readings_match_brute_force(halving, rule):
    for a_skill, d_skill, a_pts, d_pts in itertools.product((-2, 0, 3, 7, 9), (0, 5, 7), (0, 1, 3), (0, 2)):
        for halved in (False, True):
            got = attack_odds(a_skill, d_skill, a_pts, d_pts, halved, rule, halving)
            want = brute_damage(a_skill, d_skill, a_pts, d_pts, halved, rule, halving)
            assert got.damage == want
            assert got.p_hit == 1 - want.get(0, 0)
            if not halved:  # the reading only matters against a defending position
                assert got == attack_odds(a_skill, d_skill, a_pts, d_pts, False, rule)


def test_the_three_readings_differ_as_the_rules_say():
    # skill 7 against skill 7 in a defending position: the literal reading can never hit
    assert attack_odds(7, 7, defender_in_defence=True, halving="roll").p_hit == 0
    assert attack_odds(7, 7, defender_in_defence=True, halving="dice").p_hit == Fraction(13, 216)
    assert attack_odds(7, 7, defender_in_defence=True, halving="damage").p_hit == Fraction(145, 432)
    ada, wolf = Combatant.hero("Ada", 12, 7, 3), Combatant.monster("Wolf", 9, 7, 4)
    common = {"attack_faces": (6, 5), "defence_faces": (1, 2), "attack_points": 1, "defender_in_defence": True}
    roll = attack(ada, wolf, halving="roll", **common)  # (6+5+7+1) // 2 = 9 against 10: parried
    assert (roll.attack_roll, roll.attack_total, roll.hit, roll.damage, roll.halving) == (19, 9, False, 0, "roll")
    dice = attack(ada, wolf, halving="dice", **common)  # (6+5+1) // 2 + 7 = 13 against 10: 3 + 1
    assert (dice.attack_total, dice.hit, dice.damage) == (13, True, 4)
    damage = attack(ada, wolf, halving="damage", **common)  # 19 against 10: (9 + 1) // 2 = 5
    assert (damage.attack_total, damage.margin, damage.hit, damage.damage, damage.life_after) == (19, 9, True, 5, 4)
    # a hit halved to nothing does no damage: it counts as parried
    small = attack(ada, wolf, halving="damage", attack_faces=(2, 2), defence_faces=(1, 2), defender_in_defence=True)
    assert (small.margin, small.damage, small.hit) == (1, 0, False)
    assert attack(ada, wolf, halving="damage", attack_faces=(2, 2), defence_faces=(1, 2)).damage == 1


@pytest.mark.parametrize("halving", HALVING_RULES)
def test_cli_halving_on_odds_fate_attack(capsys, halving):
    argv = [
        "odds",
        "fate-attack",
        "--attack-skill",
        "7",
        "--defence-skill",
        "6",
        "--attack-points",
        "1",
        "--defender-in-defence",
        "--halving",
        halving,
    ]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["halving"] == halving and got["defender_in_defence"] is True
    want = brute_damage(7, 6, 1, 0, True, "difference", halving)
    assert {int(k): Fraction(v) for k, v in got["damage_exact"].items()} == want
    assert main(["odds", "fate-attack", "--attack-skill", "7", "--defence-skill", "6", "--halving", "half"]) == 2
    assert capsys.readouterr().err.startswith("InputError: halving: ")


def _front_and_back(options=None, cub_life=6):
    return Encounter.from_dict(
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 8}],
            "monsters": [{"name": "Wolf", "life": 9, "skill": 8}, {"name": "Cub", "life": cub_life, "skill": 3}],
            "formations": {"monsters": [{"attacking": "Wolf", "defending": "Cub"}]},
            "options": options or {},
        }
    )


@pytest.mark.parametrize(("halving", "total", "damage"), [("roll", 9, 4), ("dice", 13, 8), ("damage", 19, 7)])
def test_a_battle_uses_the_encounters_halving(halving, total, damage):
    fight = Fight(_front_and_back({"halving": halving}, cub_life=20))
    fight.attack(attack_faces=(6, 5), defence_faces=(1, 1), target="Cub")  # 19 against 5
    event = [e for e in fight.log if e["event"] == "attack"][-1]
    assert (event["halving"], event["attack_total"], event["damage"]) == (halving, total, damage)
    enc = _front_and_back({"halving": halving})
    assert enc.to_dict()["options"]["halving"] == halving and Encounter.from_dict(enc.to_dict()) == enc
    with pytest.raises(InputError) as info:
        Encounter.from_dict({**enc.to_dict(), "options": {"halving": "half"}})
    assert info.value.field == "options.halving"


# -- a kill inside a chain of attacks ---------------------------------------------------------------


def _two_wolves(after_kill=None):
    options = {"after_kill": after_kill} if after_kill else {}
    return Encounter.from_dict(
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 8}],
            "monsters": [{"name": "W0", "life": 3, "skill": 1}, {"name": "W1", "life": 9, "skill": 1}],
            "options": options,
        }
    )


def test_by_default_a_kill_ends_the_chain():
    fight = Fight(_two_wolves())
    fight.attack(attack_faces=(6, 6), defence_faces=(1, 1), target="W0")  # 20 against 3: W0 falls
    na = fight.next_action()
    assert (na.actor, na.side) == ("W1", "monsters")


def test_with_the_option_the_extra_attack_goes_on_to_the_next_enemy():
    fight = Fight(_two_wolves("next"))
    assert fight.encounter.to_dict()["options"]["after_kill"] == "next"
    fight.attack(attack_faces=(6, 6), defence_faces=(1, 1), target="W0")
    na = fight.next_action()
    assert (na.actor, na.attack_number, na.targets, na.can_recover) == ("Ada", 2, ("W1",), False)
    extra = [e for e in fight.log if e["event"] == "extra_attack"][-1]
    assert extra["after_kill"] is True and extra["target"] is None and "next enemy" in extra["reason"]
    # 2+2+8 = 12 against 1+1+1 = 3: 9 damage, W1 falls too and the fight is over
    fight.attack(attack_faces=(2, 2), defence_faces=(1, 1))
    assert fight.finished and fight.state.winner == "heroes"


def test_the_chain_still_ends_after_the_third_attack():
    enc = Encounter.from_dict(
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 8}],
            "monsters": [{"name": f"W{i}", "life": 12, "skill": 1} for i in range(4)],
            "options": {"after_kill": "next"},
        }
    )
    fight = Fight(enc)
    fight.attack(attack_faces=(1, 1), defence_faces=(1, 1), target="W0")  # 10 against 3: 7 of 12 -> second
    fight.attack(attack_faces=(6, 6), defence_faces=(1, 1), target="W0")  # 20 against 3: W0 falls -> third, on
    assert fight.next_action().attack_number == 3
    fight.attack(attack_faces=(6, 6), defence_faces=(1, 1), target="W1")  # 17 damage: W1 falls on the third
    assert fight.next_action().side == "monsters"


def test_simulations_with_the_option_are_reproducible():
    enc = _two_wolves("next")
    assert simulate_battle(enc, 7) == simulate_battle(enc, 7)
    assert simulate_many(enc, 7, 50) == simulate_many(enc, 7, 50)


# -- creatures moved during their own side's turn ------------------------------------------------------


def test_a_creature_moved_during_its_own_sides_turn_acts_from_the_next_turn():
    enc = Encounter.from_dict(
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 7}, {"name": "Bo", "life": 10, "skill": 6}],
            "monsters": [{"name": "W0", "life": 2, "skill": 1}, {"name": "W1", "life": 9, "skill": 1}],
        }
    )
    fight = Fight(enc)
    assert fight.state.queue == ("Ada", "Bo")
    fight.attack(attack_faces=(6, 6), defence_faces=(1, 1))  # W0 falls: the heroes' second formation is broken up
    assert [f.attacking for f in fight.state.hero_formations] == [("Ada", "Bo")]
    waits = [e for e in fight.log if e["event"] == "waits"]
    assert [e["creature"] for e in waits] == ["Bo"]
    na = fight.next_action()
    assert (na.actor, na.side) == ("W1", "monsters")  # Bo lost this turn's action
    fight.attack(attack_faces=(1, 1), defence_faces=(6, 6))
    assert fight.state.queue == ("Ada", "Bo")  # and acts from the next turn
