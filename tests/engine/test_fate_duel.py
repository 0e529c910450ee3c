"""Exact duel odds: against an independent value iteration, against seeded battles, and their invariants."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cache

import pytest

from engine import InputError, RuleError
from engine.fate.attack import NEVER, WOLF, Combatant, Policy, attack, earns_extra_attack
from engine.fate.battle import Encounter, Fight
from engine.fate.duel import duel_odds, turn_outcomes
from engine.rng import Dice

FACES = list(itertools.product(range(1, 7), repeat=2))


# -- an independent oracle: brute-force turns + float value iteration --------------------
def _oracle(
    hero: Combatant,
    monster: Combatant,
    hp_pol: Policy,
    mp_pol: Policy,
    first: str = "hero",
    rule: str = "difference",
    sweeps: int = 150,
) -> tuple[float, float]:
    """P(hero wins) and E[rounds] by value iteration; every turn is enumerated face by
    face through :func:`engine.fate.attack.attack` (nothing shared with the exact solver)."""

    @cache
    def turn(att_is_hero: bool, att_pts: int, dfn_life: int, dfn_pts: int, number: int, max_dfn: int):
        att_base, dfn_base = (hero, monster) if att_is_hero else (monster, hero)
        att_pol, dfn_pol = (hp_pol, mp_pol) if att_is_hero else (mp_pol, hp_pol)
        a = att_base.with_life(1)._evolve(points=att_pts)
        d = dfn_base._evolve(life=dfn_life, points=dfn_pts)
        out: dict[tuple[int, int, int], float] = {}
        for fa in FACES:
            for fd in FACES:
                r = attack(
                    a,
                    d,
                    attack_faces=fa,
                    defence_faces=fd,
                    attack_points=min(att_pol.attack_spend, att_pts),
                    defence_points=min(dfn_pol.defence_spend, dfn_pts),
                    damage_rule=rule,
                )
                p = 1 / 1296
                if r.hit and r.life_after > 0 and earns_extra_attack(number, r.damage, r.life_before):
                    sub = turn(
                        att_is_hero, r.attacker_points_after, r.life_after, r.defender_points_after, number + 1, max_dfn
                    )
                    for k, q in sub.items():
                        out[k] = out.get(k, 0.0) + p * q
                else:
                    k = (r.life_after, r.attacker_points_after, r.defender_points_after)
                    out[k] = out.get(k, 0.0) + p
        return out

    states = list(
        itertools.product(
            range(1, hero.life + 1), range(1, monster.life + 1), range(hero.points + 1), range(monster.points + 1)
        )
    )
    win_h = dict.fromkeys(states, 0.0)
    win_m = dict.fromkeys(states, 0.0)
    rnd_h = dict.fromkeys(states, 0.0)
    rnd_m = dict.fromkeys(states, 0.0)
    hero_first = first == "hero"
    for _ in range(sweeps):
        for s in states:
            h, m, hp, mp = s
            w = e = 0.0
            for (m2, hp2, mp2), p in turn(True, hp, m, mp, 1, monster.life).items():
                if m2 == 0:
                    w += p
                else:
                    w += p * win_m[(h, m2, hp2, mp2)]
                    e += p * rnd_m[(h, m2, hp2, mp2)]
            win_h[s], rnd_h[s] = w, e + (1.0 if hero_first else 0.0)
            w = e = 0.0
            for (h2, mp2, hp2), p in turn(False, mp, h, hp, 1, hero.life).items():
                if h2 != 0:
                    w += p * win_h[(h2, m, hp2, mp2)]
                    e += p * rnd_h[(h2, m, hp2, mp2)]
            win_m[s], rnd_m[s] = w, e + (0.0 if hero_first else 1.0)
    start = (hero.life, monster.life, hero.points, monster.points)
    return (win_h[start], rnd_h[start]) if hero_first else (win_m[start], rnd_m[start])


@pytest.mark.parametrize(
    "hero,monster,hp,mp,first,rule",
    [
        (Combatant.hero("H", 5, 7, 0), Combatant.monster("M", 4, 8, 0), NEVER, NEVER, "hero", "difference"),
        (
            Combatant.hero("H", 5, 7, 2),
            Combatant.monster("M", 4, 8, 1),
            Policy.spend(1),
            Policy.spend(1),
            "hero",
            "difference",
        ),
        (
            Combatant.hero("H", 6, 6, 2),
            Combatant.monster("M", 5, 7, 2),
            Policy(1, 1),
            Policy(0, 2),
            "monster",
            "one_plus",
        ),
        (Combatant.hero("H", 4, 3, 0), Combatant.monster("M", 6, 5, 0), NEVER, NEVER, "monster", "difference"),
    ],
)
def test_exact_duel_matches_value_iteration(hero, monster, hp, mp, first, rule):
    odds = duel_odds(hero, monster, hp, mp, first=first, damage_rule=rule)
    p, rounds = _oracle(hero, monster, hp, mp, first, rule)
    assert abs(float(odds.p_hero_wins) - p) < 1e-12
    assert abs(float(odds.expected_rounds) - rounds) < 1e-10


# -- Monte Carlo: the exact duel against seeded fights run by the battle engine -----------
N = 2000  # fights per matchup; 4.5 standard errors gives a false alarm chance below 1e-5 per check

MATCHUPS = [
    ("weak hero", Combatant.hero("Hero", 8, 5, 1), WOLF, NEVER, NEVER),
    ("average hero", Combatant.hero("Hero", 12, 7, 3), WOLF, Policy.spend(1), Policy.spend(1)),
    ("strong hero", Combatant.hero("Hero", 16, 10, 4), WOLF, Policy(1, 1), NEVER),
]


def _encounter(hero: Combatant, monster: Combatant, hp: Policy, mp: Policy) -> Encounter:
    def sheet(c: Combatant, pol: Policy) -> dict:
        d = c.to_dict()
        del d["kind"]
        return {**d, "policy": pol.to_dict()}

    return Encounter.from_dict(
        {"heroes": [sheet(hero, hp)], "monsters": [sheet(monster, mp)], "options": {"max_rounds": 1000}}
    )


@pytest.mark.parametrize("label,hero,monster,hp,mp", MATCHUPS, ids=[m[0] for m in MATCHUPS])
def test_exact_duel_agrees_with_seeded_monte_carlo(label, hero, monster, hp, mp):
    odds = duel_odds(hero, monster, hp, mp, max_rounds=200)
    encounter = _encounter(hero, monster, hp, mp)
    wins = 0
    rounds_sum = 0
    life_counts: dict[int, int] = {}
    for i in range(N):
        fight = Fight(encounter)
        dice = Dice(10_000 + i)
        while not fight.finished:
            fight.auto_step(dice)
        s = fight.state
        rounds_sum += s.round
        if s.winner == "heroes":
            wins += 1
            life = s.creature("Hero").life
            life_counts[life] = life_counts.get(life, 0) + 1
    p = float(odds.p_hero_wins)
    assert abs(wins / N - p) <= 4.5 * math.sqrt(p * (1 - p) / N), (label, wins / N, p)
    mean = float(odds.expected_rounds)
    second = sum(r * r * q for r, q in odds.rounds.items())
    sd = math.sqrt(max(second - mean * mean, 1e-9))
    assert abs(rounds_sum / N - mean) <= 4.5 * sd / math.sqrt(N), (label, rounds_sum / N, mean)
    for life, q in odds.hero_life_left.items():
        q = float(q)
        if q * N >= 20:
            got = life_counts.get(life, 0) / N
            assert abs(got - q) <= 4.5 * math.sqrt(q * (1 - q) / N), (label, life, got, q)


# -- invariants ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "hero,hp,mp",
    [
        (Combatant.hero("H", 12, 7, 3), NEVER, NEVER),
        (Combatant.hero("H", 12, 7, 3), Policy.spend(1), Policy(1, 1)),
        (Combatant.hero("H", 20, 6, 2), Policy(2, 0), Policy.spend(4)),
    ],
)
def test_probabilities_sum_to_one(hero, hp, mp):
    odds = duel_odds(hero, WOLF, hp, mp)
    assert isinstance(odds.p_hero_wins, Fraction)
    assert odds.p_hero_wins + odds.p_monster_wins == 1
    assert sum(odds.hero_life_left.values()) == odds.p_hero_wins
    assert sum(odds.monster_life_left.values()) == odds.p_monster_wins
    assert set(odds.hero_life_left) <= set(range(1, hero.life + 1))
    assert set(odds.monster_life_left) <= set(range(1, WOLF.life + 1))
    assert abs(sum(odds.rounds.values()) + odds.rounds_tail - 1) < 1e-12
    assert odds.rounds_tail >= 0
    # the mean from the listed rounds approaches the exact expectation when the tail is small
    listed = sum(r * q for r, q in odds.rounds.items())
    assert listed <= float(odds.expected_rounds) + 1e-9
    assert float(odds.expected_rounds) - listed < 1e-6
    # the rounds distribution (floats) agrees with the exact mean and the first-round chance
    short = duel_odds(hero, WOLF, hp, mp, max_rounds=3)
    assert short.p_hero_wins == odds.p_hero_wins and short.expected_rounds == odds.expected_rounds
    assert short.rounds == pytest.approx({r: odds.rounds[r] for r in (1, 2, 3)}, abs=1e-13)
    assert abs(sum(short.rounds.values()) + short.rounds_tail - 1) < 1e-12


def test_without_the_rounds_distribution_the_rest_is_unchanged():
    hero = Combatant.hero("H", 12, 7, 3)
    full = duel_odds(hero, WOLF, Policy.spend(1), Policy(0, 1))
    bare = duel_odds(hero, WOLF, Policy.spend(1), Policy(0, 1), max_rounds=0)
    assert (bare.p_hero_wins, bare.expected_rounds, bare.hero_life_left, bare.monster_life_left) == (
        full.p_hero_wins,
        full.expected_rounds,
        full.hero_life_left,
        full.monster_life_left,
    )
    assert bare.rounds == {} and bare.rounds_tail == 1.0


def test_more_skill_wins_more_often():
    chances = [duel_odds(Combatant.hero("H", 10, s, 0), WOLF).p_hero_wins for s in range(4, 13)]
    assert chances == sorted(chances)
    assert chances[0] < Fraction(1, 10) < Fraction(9, 10) < chances[-1]


def test_acting_first_helps():
    hero = Combatant.hero("H", 9, 8, 0)
    twin = Combatant.monster("M", 9, 8, 0)
    first = duel_odds(hero, twin)
    second = duel_odds(hero, twin, first="monster")
    assert first.p_hero_wins > Fraction(1, 2) > second.p_hero_wins
    # a mirror match: acting first is worth the same to either side
    assert first.p_hero_wins == second.p_monster_wins


def test_one_round_knockout_odds_are_exact():
    # a 1-life monster falls to any hit: P(win in round 1) = P(hit) when the hero acts first
    from engine.fate.attack import attack_odds

    odds = duel_odds(Combatant.hero("H", 50, 7, 0), Combatant.monster("M", 1, 7, 0), max_rounds=5)
    p_hit = float(attack_odds(7, 7).p_hit)
    assert odds.rounds[1] == pytest.approx(p_hit, abs=1e-15)
    assert odds.hero_life_left == {50: odds.p_hero_wins} or 50 in odds.hero_life_left


def test_turn_outcomes_sum_to_one_and_respect_the_rule():
    out = turn_outcomes(Combatant.hero("H", 12, 7, 3), WOLF, Policy.spend(1))
    assert sum(out.values()) == 1
    for (life, hp, mp), _p in out.items():
        assert 0 <= life <= 9 and 0 <= hp <= 3 and mp == 4
        # at most three attacks: at most 3 favour spent
        assert hp >= 0


def test_duel_bad_input():
    with pytest.raises(RuleError) as info:
        duel_odds(Combatant.hero("H", 10, 7, 0), WOLF, Policy(recover_below=5))
    assert info.value.field == "hero_policy.recover_below"
    with pytest.raises(RuleError) as info:
        duel_odds(Combatant.hero("H", 0, 7, 0, max_life=10), WOLF)
    assert info.value.field == "hero.life"
    with pytest.raises(InputError) as info:
        duel_odds(Combatant.hero("H", 10, 7), WOLF, first="both")
    assert info.value.field == "first"
    with pytest.raises(InputError) as info:
        duel_odds(Combatant.hero("H", 10, 7), WOLF, max_rounds=-1)
    assert info.value.field == "max_rounds"
    with pytest.raises(InputError):
        duel_odds("hero", WOLF)  # type: ignore[arg-type]


def test_to_dict_is_json_ready():
    import json

    d = duel_odds(Combatant.hero("H", 12, 7, 3), WOLF, Policy.spend(1)).to_dict()
    text = json.dumps(d)
    assert '"p_hero_wins_exact"' in text
    assert abs(d["p_hero_wins"] + d["p_monster_wins"] - 1) < 1e-12
    assert Fraction(d["p_hero_wins_exact"]) + Fraction(d["p_monster_wins_exact"]) == 1


@pytest.mark.parametrize("first", ["hero", "monster"])
def test_one_life_each_is_a_geometric_fight(first):
    # both fall to any hit: each round ends the fight with a fixed chance
    from engine.fate.attack import attack_odds

    hero, monster = Combatant.hero("H", 1, 6, 0), Combatant.monster("M", 1, 8, 0)
    p_h, p_m = attack_odds(6, 8).p_hit, attack_odds(8, 6).p_hit
    stay = (1 - p_h) * (1 - p_m)
    odds = duel_odds(hero, monster, first=first, max_rounds=40)
    assert odds.expected_rounds == 1 / (1 - stay)
    if first == "hero":
        assert odds.p_hero_wins == p_h / (1 - stay)
    else:
        assert odds.p_monster_wins == p_m / (1 - stay)
    for r in range(1, 41):
        assert odds.rounds[r] == pytest.approx(float(stay ** (r - 1) * (1 - stay)), rel=1e-12, abs=1e-300)
    assert odds.rounds_tail == pytest.approx(float(stay**40), rel=1e-9)
    assert odds.hero_life_left == ({1: odds.p_hero_wins} if odds.p_hero_wins else {})


def test_win_chance_by_spend():
    from engine.fate.duel import win_chance_by_spend

    hero = Combatant.hero("H", 12, 7, 3)
    by_spend = win_chance_by_spend(hero, WOLF)
    assert list(by_spend) == [0, 1, 2, 3]
    for k, p in by_spend.items():
        assert p == duel_odds(hero, WOLF, Policy.spend(k)).p_hero_wins
    assert by_spend[0] < by_spend[1]
    with pytest.raises(InputError) as info:
        win_chance_by_spend(hero, WOLF, spends=[-1])
    assert info.value.field == "spends"
