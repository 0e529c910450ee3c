"""Fate & Doom skill check against brute-force enumeration of every 2d6 throw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from engine import Dice, InputError, RuleError
from engine.fate import TWO_D6, FateCheck, odds, roll, success_by_favour

THROWS = tuple(itertools.product(range(1, 7), repeat=2))


@pytest.mark.parametrize("skill", range(0, 21))
def test_check_matches_brute_force(skill):
    """Skill 0-20 × difficulty −6..6 × favour 0-6: result = 2d6 + difficulty − favour ≤ skill succeeds."""
    for difficulty in range(-6, 7):
        for favour in range(7):
            got = odds(FateCheck(skill, difficulty, favour))
            results = Counter(a + b + difficulty - favour for a, b in THROWS)
            assert got.p_success == Fraction(sum(w for r, w in results.items() if r <= skill), 36)
            assert got.p_success + got.p_failure == 1
            assert got.results.probabilities() == {r: Fraction(w, 36) for r, w in sorted(results.items())}
            assert got.margins.probabilities() == {skill - r: Fraction(w, 36) for r, w in results.items()}


def test_ties_succeed():
    """Decision: a result equal to the skill succeeds (7 on 2d6 against skill 7)."""
    assert odds(FateCheck(7)).p_success == Fraction(21, 36)
    assert odds(FateCheck(1)).p_success == 0
    assert odds(FateCheck(12)).p_success == 1


def test_success_by_favour():
    check = FateCheck(6, difficulty=2, favour_held=3)
    table = success_by_favour(check, 10)
    assert list(table) == [0, 1, 2, 3]  # capped by favour held
    for k, p in table.items():
        assert p == odds(FateCheck(6, 2, k)).p_success
    assert list(success_by_favour(FateCheck(6), 5)) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(InputError):
        success_by_favour(check, -1)


def test_favour_beyond_held_is_refused():
    with pytest.raises(RuleError) as info:
        FateCheck(7, favour_spent=3, favour_held=2)
    assert info.value.field == "favour_spent" and info.value.code == "rule"
    assert FateCheck(7, favour_spent=2, favour_held=2).favour_held == 2


def test_roll_record():
    for seed in range(300):
        check = FateCheck(seed % 13, seed % 5 - 2, seed % 3, favour_held=2 + seed % 2)
        rolled = roll(check, seed)
        assert rolled.dice == Dice(seed).roll(2, 6)
        assert rolled.result == sum(rolled.dice) + check.difficulty - check.favour_spent
        assert rolled.success == (rolled.result <= check.skill)
        assert rolled.margin == check.skill - rolled.result
        assert rolled.to_dict()["favour_left"] == check.favour_held - check.favour_spent


def test_two_d6():
    assert TWO_D6.total == 36 and TWO_D6.prob(7) == Fraction(1, 6)


@pytest.mark.parametrize(
    "kwargs,field",
    [({"skill": "abc"}, "skill"), ({"skill": -1}, "skill"), ({"skill": 5, "difficulty": 99}, "difficulty"), ({"skill": 5, "favour_spent": -2}, "favour_spent"), ({"skill": 5, "favour_held": "x"}, "favour_held")],
)
def test_bad_input(kwargs, field):
    with pytest.raises(InputError) as info:
        FateCheck(**kwargs)
    assert info.value.field == field


def test_from_dict():
    check = FateCheck(7, 2, 1, 3)
    assert FateCheck.from_dict(check.to_dict()) == check
    with pytest.raises(InputError):
        FateCheck.from_dict({"difficulty": 2})
