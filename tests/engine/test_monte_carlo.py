"""Seeded sampling converges to the exact odds.

Each case rolls N checks with the seeds 0..N−1 (a fresh :class:`Dice` per roll,
as the app does) and compares every observed frequency with its exact
probability p. The tolerance is five standard errors, 5·sqrt(p(1−p)/N): for a
correct engine a deviation that large has a probability below 1e−6 per
comparison under the normal approximation, while a rule error of a few
percentage points (N = 10000 gives a standard error of at most 0.5 points) is
caught. The seeds are fixed, so the test is deterministic.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import pytest

from engine import FateCheck, GurpsCheck, OneRingCheck, QuickContest, RegularContest, odds_of, roll_check

N = 10000


def _close(observed: int, p: Fraction, n: int = N) -> bool:
    p_float = float(p)
    tolerance = 5 * math.sqrt(p_float * (1 - p_float) / n)
    return abs(observed / n - p_float) <= max(tolerance, 1e-12)


@pytest.mark.parametrize(
    "check",
    [
        OneRingCheck(rating=2, tn=13),
        OneRingCheck(rating=4, tn=18, feat_mode="favoured", bonus_dice=1),
        OneRingCheck(rating=3, tn=12, feat_mode="ill_favoured", weary=True, miserable=True),
    ],
    ids=str,
)
def test_one_ring(check):
    exact = odds_of(check)
    degrees = Counter(roll_check(check, seed).degree for seed in range(N))
    for degree, p in exact.degrees.items():
        assert _close(degrees[degree], p), (degree, degrees[degree], p)


@pytest.mark.parametrize("check", [GurpsCheck(10), GurpsCheck(16), GurpsCheck(1, defence=True)], ids=str)
def test_gurps(check):
    exact = odds_of(check)
    outcomes = Counter(roll_check(check, seed).outcome for seed in range(N))
    for outcome, p in exact.outcomes.items():
        assert _close(outcomes[outcome], p), (outcome, outcomes[outcome], p)


def test_quick_contest():
    contest = QuickContest(12, 10)
    exact = odds_of(contest)
    winners = Counter(roll_check(contest, seed).winner for seed in range(N))
    assert _close(winners["a"], exact.p_a_wins)
    assert _close(winners["b"], exact.p_b_wins)
    assert _close(winners[None], exact.p_tie)


def test_regular_contest():
    contest = RegularContest(15, 13)
    exact = odds_of(contest)
    rolls = [roll_check(contest, seed) for seed in range(N)]
    assert _close(sum(r.winner == "a" for r in rolls), exact.p_a_wins)
    # rounds: mean within 5 standard errors of the geometric distribution's mean
    mean = sum(len(r.rounds) for r in rolls) / N
    p = float(exact.p_round)
    assert abs(mean - float(exact.expected_rounds)) <= 5 * math.sqrt((1 - p) / p**2 / N)


@pytest.mark.parametrize("check", [FateCheck(7), FateCheck(8, difficulty=2, favour_spent=1)], ids=str)
def test_fate(check):
    exact = odds_of(check)
    assert _close(sum(roll_check(check, seed).success for seed in range(N)), exact.p_success)
