"""GURPS 4e: success rolls and contests against brute-force enumeration of every 3d6 throw."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from engine import Dice, InputError, RuleError
from engine.gurps import (
    THREE_D6,
    GurpsCheck,
    Outcome,
    QuickContest,
    RegularContest,
    odds,
    p_at_least_one,
    quick_contest_odds,
    regular_contest_odds,
    roll,
    roll_quick_contest,
    roll_regular_contest,
)

THROWS = tuple(itertools.product(range(1, 7), repeat=3))  # all 216 throws of 3d6


def _rules(total: int, skill: int) -> str:
    """RULES.md section 2 restated: the outcome of a 3d6 total against an effective skill."""
    critical_success = total in (3, 4) or (total == 5 and skill >= 15) or (total == 6 and skill >= 16)
    if critical_success:
        return "critical_success"
    critical_failure = total == 18 or (total == 17 and skill <= 15) or total >= skill + 10
    if critical_failure:
        return "critical_failure"
    if total <= skill and total <= 16:
        return "success"
    return "failure"


@cache
def _brute(skill: int) -> Counter:
    return Counter(_rules(sum(t), skill) for t in THROWS)


def test_published_3d6_figures():
    assert THREE_D6.prob_where(lambda t: t <= 10) == Fraction(1, 2)
    assert THREE_D6.prob_where(lambda t: t <= 12) == Fraction(160, 216)
    assert odds(GurpsCheck(10)).p_success == Fraction(1, 2)
    assert odds(GurpsCheck(12)).p_success == Fraction(160, 216)
    assert THREE_D6.total == 216


@pytest.mark.parametrize("skill", range(-5, 26))
@pytest.mark.parametrize("defence", [False, True])
def test_success_roll_matches_brute_force(skill, defence):
    check = GurpsCheck(skill, defence=defence)
    if skill < 3 and not defence:
        with pytest.raises(RuleError) as info:
            odds(check)
        assert info.value.field == "skill"
        return
    got = odds(check)
    counts = _brute(skill)
    assert got.p_critical_success == Fraction(counts["critical_success"], 216)
    assert got.p_success == Fraction(counts["critical_success"] + counts["success"], 216)
    assert got.p_critical_failure == Fraction(counts["critical_failure"], 216)
    assert got.p_failure == Fraction(counts["failure"] + counts["critical_failure"], 216)
    assert sum(got.outcomes.values()) == 1
    assert got.by_roll == {total: _rules(total, skill) for total in range(3, 19)}
    assert got.margins.probabilities() == {
        m: Fraction(w, 216) for m, w in Counter(skill - sum(t) for t in THROWS).items()
    }


def test_rule_edges():
    # 3-4 always succeed, 17-18 always fail
    assert odds(GurpsCheck(3)).p_success == Fraction(1 + 3, 216)  # a 3 (1 way) or a 4 (3 ways)
    assert odds(GurpsCheck(30)).p_failure == Fraction(4, 216)
    assert odds(GurpsCheck(2, defence=True)).p_success == Fraction(4, 216)
    # 17 is a critical failure at 15, an ordinary failure at 16
    assert odds(GurpsCheck(15)).by_roll[17] == "critical_failure"
    assert odds(GurpsCheck(16)).by_roll[17] == "failure"
    # criticals on 5 and 6 need 15 and 16
    assert odds(GurpsCheck(14)).by_roll[5] == "success"
    assert odds(GurpsCheck(15)).by_roll[5] == "critical_success"
    assert odds(GurpsCheck(15)).by_roll[6] == "success"
    assert odds(GurpsCheck(16)).by_roll[6] == "critical_success"
    # a total 10 or more above the skill is a critical failure
    assert odds(GurpsCheck(5)).by_roll[15] == "critical_failure"
    assert odds(GurpsCheck(5)).by_roll[14] == "failure"
    # at -6 or below (defence only) 3 and 4 stay critical successes
    assert odds(GurpsCheck(-7, defence=True)).by_roll[3] == "critical_success"


def test_seed_worked_example_lock_picking():
    """Lock picking 9, −5 for a hard lock, +10 for good tools and time: effective skill 14."""
    assert GurpsCheck(9, (-5,)).effective_skill == 4  # in the dark
    easy = GurpsCheck(9, (+10,))  # a primitive lock: 19, yet not a sure thing
    assert easy.effective_skill == 19
    assert odds(easy).p_failure == Fraction(3 + 1, 216)  # a 17 or an 18 still fails
    check = GurpsCheck(9, (-5, +10))
    assert check.effective_skill == 14
    assert odds(check).p_success == Fraction(sum(1 for t in THROWS if sum(t) <= 14), 216)


@pytest.mark.parametrize("total,skill,margin,outcome", [(12, 18, 6, "success"), (12, 9, -3, "failure")])
def test_seed_worked_example_margins(total, skill, margin, outcome):
    """The seed's margins: a 12 against skill 18 succeeds by 6; against 9 it fails by 3."""
    for seed in range(5000):
        rolled = roll(GurpsCheck(skill), seed)
        if rolled.total == total:
            assert rolled.margin == margin
            assert rolled.outcome == outcome
            return
    pytest.fail("no seed throws that total")  # pragma: no cover


def test_roll_is_3d6_from_the_stream_and_refused_below_three():
    for seed in range(300):
        check = GurpsCheck(seed % 25 - 5, (seed % 3,), defence=True)
        rolled = roll(check, seed)
        assert rolled.dice == Dice(seed).roll(3, 6)
        assert rolled.total == sum(rolled.dice)
        assert rolled.outcome == _rules(rolled.total, check.effective_skill)
        assert rolled.success == (rolled.outcome in (Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS))
        assert rolled.critical == (rolled.outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE))
        assert rolled.margin == check.effective_skill - rolled.total
    with pytest.raises(RuleError) as info:
        roll(GurpsCheck(12, (-10,)), 1)
    assert "defence" in str(info.value)
    assert roll(GurpsCheck(12, (-10,), defence=True), 1).effective_skill == 2


def _quick_brute(a: int, b: int) -> tuple[Counter, Counter]:
    """Every pair of throws (216 × 216), with the contest rules restated."""
    side_a = [(_rules(sum(t), a) in ("success", "critical_success"), a - sum(t)) for t in THROWS]
    side_b = [(_rules(sum(t), b) in ("success", "critical_success"), b - sum(t)) for t in THROWS]
    winners: Counter = Counter()
    margins: Counter = Counter()
    for sa, ma in side_a:
        for sb, mb in side_b:
            if sa and not sb:
                winner = "a"
            elif sb and not sa:
                winner = "b"
            elif ma != mb:
                winner = "a" if ma > mb else "b"
            else:
                winner = None
            winners[winner] += 1
            margins[0 if winner is None else max((ma - mb) if winner == "a" else (mb - ma), 0)] += 1
    return winners, margins


GRID = (-5, 2, 6, 10, 13, 15, 16, 25)


@pytest.mark.parametrize("a", GRID)
def test_quick_contest_matches_brute_force(a):
    for b in GRID:
        got = quick_contest_odds(QuickContest(a, b))
        winners, margins = _quick_brute(a, b)
        total = 216 * 216
        assert got.p_a_wins == Fraction(winners["a"], total)
        assert got.p_b_wins == Fraction(winners["b"], total)
        assert got.p_tie == Fraction(winners[None], total)
        assert got.p_a_wins + got.p_b_wins + got.p_tie == 1
        assert got.margin_of_victory.probabilities() == {m: Fraction(w, total) for m, w in sorted(margins.items())}


def test_quick_contest_is_symmetric():
    for a, b in [(12, 10), (3, 17), (-4, 20)]:
        ab, ba = quick_contest_odds(QuickContest(a, b)), quick_contest_odds(QuickContest(b, a))
        assert ab.p_a_wins == ba.p_b_wins and ab.p_tie == ba.p_tie


def test_quick_contest_roll_record():
    for seed in range(300):
        contest = QuickContest(seed % 20, (seed * 7) % 20)
        rolled = roll_quick_contest(contest, seed)
        dice = Dice(seed)
        assert (rolled.dice_a, rolled.dice_b) == (dice.roll(3, 6), dice.roll(3, 6))
        assert rolled.margin_a == contest.a - rolled.total_a and rolled.margin_b == contest.b - rolled.total_b
        if rolled.winner is None:
            assert rolled.margin_a == rolled.margin_b and rolled.margin_of_victory == 0
        elif rolled.outcome_a.endswith("success") == rolled.outcome_b.endswith("success"):
            winner_margin = rolled.margin_a if rolled.winner == "a" else rolled.margin_b
            loser_margin = rolled.margin_b if rolled.winner == "a" else rolled.margin_a
            assert rolled.margin_of_victory == winner_margin - loser_margin > 0


@pytest.mark.parametrize("a", (-5, 3, 9, 12, 15, 18, 25))
def test_regular_contest_matches_one_round_brute_force(a):
    for b in (-5, 3, 9, 12, 15, 18, 25):
        for rule in (True, False):
            contest = RegularContest(a, b, rule)
            got = regular_contest_odds(contest)
            ra, rb = contest.adjusted_skills
            win_a = sum(1 for t in THROWS if _rules(sum(t), ra).endswith("success"))
            win_b = sum(1 for t in THROWS if _rules(sum(t), rb).endswith("success"))
            only_a, only_b = win_a * (216 - win_b), win_b * (216 - win_a)
            assert got.p_a_wins == Fraction(only_a, only_a + only_b)
            assert got.p_a_wins + got.p_b_wins == 1
            p_round = Fraction(only_a + only_b, 216 * 216)
            assert got.p_round == p_round and got.expected_rounds == 1 / p_round
            # the round distribution, step by step as a Markov chain
            undecided = Fraction(1)
            for k in range(1, 21):
                assert got.rounds[k] == undecided * p_round
                undecided *= 1 - p_round


def test_high_skill_rule():
    assert RegularContest(18, 16).adjusted_skills == (14, 12)
    assert RegularContest(16, 20).adjusted_skills == (10, 14)
    assert RegularContest(18, 14).adjusted_skills == (18, 14)  # only when both exceed 14
    assert RegularContest(18, 16, high_skill_rule=False).adjusted_skills == (18, 16)


def test_regular_contest_roll_plays_rounds_until_one_side_alone_succeeds():
    for seed in range(100):
        contest = RegularContest(14, 14)
        rolled = roll_regular_contest(contest, seed)
        dice = Dice(seed)
        data = rolled.to_dict()
        for i, round_ in enumerate(rolled.rounds):
            assert round_ == (dice.roll(3, 6), dice.roll(3, 6))
            sa = _rules(sum(round_[0]), 14).endswith("success")
            sb = _rules(sum(round_[1]), 14).endswith("success")
            if i < len(rolled.rounds) - 1:
                assert sa == sb
            else:
                assert sa != sb and rolled.winner == ("a" if sa else "b")
        assert len(data["rounds"]) == len(rolled.rounds)
    stopped = roll_regular_contest(RegularContest(20, 20, high_skill_rule=False), 3, max_rounds=1)
    assert len(stopped.rounds) == 1


def test_p_at_least_one():
    assert p_at_least_one(Fraction(1, 2), 3) == Fraction(7, 8)
    assert p_at_least_one(Fraction(1, 3), 0) == 0
    assert p_at_least_one(Fraction(1), 5) == 1
    for bad in (Fraction(3, 2), -1, "x"):
        with pytest.raises(InputError):
            p_at_least_one(bad, 2)
    with pytest.raises(InputError) as info:
        p_at_least_one(Fraction(1, 2), -1)
    assert info.value.field == "tries"


@pytest.mark.parametrize(
    "make,field",
    [
        (lambda: GurpsCheck("abc"), "skill"),
        (lambda: GurpsCheck(41), "skill"),
        (lambda: GurpsCheck(10, (99,)), "modifiers"),
        (lambda: GurpsCheck(10, "5"), "modifiers"),
        (lambda: GurpsCheck(10, defence="yes"), "defence"),
        (lambda: QuickContest(10, "b"), "b"),
        (lambda: RegularContest(99, 10), "a"),
        (lambda: RegularContest(10, 10, high_skill_rule="no"), "high_skill_rule"),
        (lambda: GurpsCheck.from_dict({"modifiers": []}), "skill"),
        (lambda: GurpsCheck.from_dict({"skill": 3, "bonus": 1}), "bonus"),
        (lambda: QuickContest.from_dict({"a": 3}), "b"),
    ],
)
def test_bad_input_names_the_field(make, field):
    with pytest.raises(InputError) as info:
        make()
    assert info.value.field == field


def test_checks_round_trip():
    for check in (GurpsCheck(9, (-5, 10), True), QuickContest(12, 9), RegularContest(17, 16, False)):
        assert type(check).from_dict(check.to_dict()) == check
