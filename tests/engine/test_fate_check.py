"""Fate & Doom skill check against brute-force enumeration of every 2d6 throw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from engine import Dice, InputError, RuleError
from engine.fate import TWO_D6, FateCheck, odds, roll, success_by_favour

THROWS = tuple(itertools.product(range(1, 7), repeat=2))


@pytest.mark.parametrize("ties_succeed", [False, True])
@pytest.mark.parametrize("skill", range(0, 21))
def test_check_matches_brute_force(skill, ties_succeed):
    """Skill 0-20 × difficulty −6..6 × favour 0-6: result = 2d6 + difficulty − favour below the
    skill succeeds; equal to it only under the "ties succeed" option."""
    for difficulty in range(-6, 7):
        for favour in range(7):
            got = odds(FateCheck(skill, difficulty, favour, ties_succeed=ties_succeed))
            results = Counter(a + b + difficulty - favour for a, b in THROWS)
            passes = (lambda r: r <= skill) if ties_succeed else (lambda r: r < skill)
            assert got.p_success == Fraction(sum(w for r, w in results.items() if passes(r)), 36)
            assert got.p_success + got.p_failure == 1
            assert got.results.probabilities() == {r: Fraction(w, 36) for r, w in sorted(results.items())}
            assert got.margins.probabilities() == {skill - r: Fraction(w, 36) for r, w in results.items()}


def test_ties_fail_by_default():
    """A result equal to the skill fails (7 on 2d6 against skill 7); "ties succeed" is the option."""
    assert odds(FateCheck(7)).p_success == Fraction(15, 36)
    assert odds(FateCheck(2)).p_success == 0
    assert odds(FateCheck(12)).p_success == Fraction(35, 36)
    assert odds(FateCheck(13)).p_success == 1
    assert odds(FateCheck(7, ties_succeed=True)).p_success == Fraction(21, 36)
    assert odds(FateCheck(1, ties_succeed=True)).p_success == 0
    assert odds(FateCheck(12, ties_succeed=True)).p_success == 1


def test_the_source_example_literally():
    """Skill 7, difficulty +2, dice 3 and 2: result 7 against skill 7 fails; 2 favour spent: 5 passes."""
    plain = roll(FateCheck(7, difficulty=2), 21)
    assert plain.dice == (3, 2) and plain.result == 7 and plain.success is False
    spent = roll(FateCheck(7, difficulty=2, favour_spent=2, favour_held=2), 21)
    assert spent.dice == (3, 2) and spent.result == 5 and spent.success is True
    assert roll(FateCheck(7, difficulty=2, ties_succeed=True), 21).success is True


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
        check = FateCheck(seed % 13, seed % 5 - 2, seed % 3, favour_held=2 + seed % 2, ties_succeed=seed % 7 == 0)
        rolled = roll(check, seed)
        assert rolled.dice == Dice(seed).roll(2, 6)
        assert rolled.result == sum(rolled.dice) + check.difficulty - check.favour_spent
        assert rolled.success == (rolled.result < check.skill or (check.ties_succeed and rolled.result == check.skill))
        assert rolled.margin == check.skill - rolled.result
        assert rolled.to_dict()["favour_left"] == check.favour_held - check.favour_spent


def test_two_d6():
    assert TWO_D6.total == 36 and TWO_D6.prob(7) == Fraction(1, 6)


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"skill": "abc"}, "skill"),
        ({"skill": -1}, "skill"),
        ({"skill": 5, "difficulty": 99}, "difficulty"),
        ({"skill": 5, "favour_spent": -2}, "favour_spent"),
        ({"skill": 5, "favour_held": "x"}, "favour_held"),
    ],
)
def test_bad_input(kwargs, field):
    with pytest.raises(InputError) as info:
        FateCheck(**kwargs)
    assert info.value.field == field


def test_from_dict():
    check = FateCheck(7, 2, 1, 3)
    assert FateCheck.from_dict(check.to_dict()) == check
    assert FateCheck.from_dict({**check.to_dict(), "ties_succeed": True}).ties_succeed is True
    with pytest.raises(InputError) as info:
        FateCheck.from_dict({**check.to_dict(), "ties_succeed": "yes"})
    assert info.value.field == "ties_succeed"
    with pytest.raises(InputError):
        FateCheck.from_dict({"difficulty": 2})


def test_the_source_example_on_the_command_line(capsys):
    import json

    from engine.cli import main

    def roll(*extra):
        assert main(["roll", "fate", "--skill", "7", "--difficulty", "2", "--seed", "21", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    plain = roll()
    assert (plain["dice"], plain["result"], plain["skill"], plain["success"], plain["margin"]) == (
        [3, 2],
        7,
        7,
        False,
        0,
    )
    assert plain["check"]["ties_succeed"] is False
    spent = roll("--favour", "2", "--favour-held", "2")
    assert (spent["result"], spent["success"], spent["favour_left"]) == (5, True, 0)
    tie = roll("--ties-succeed")
    assert tie["success"] is True and tie["check"]["ties_succeed"] is True
