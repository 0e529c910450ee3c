"""Property tests: valid input gives a result, invalid input our own error, probabilities sum to 1."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import (
    any_check,
    bad_fate_kwargs,
    bad_gurps_kwargs,
    bad_one_ring_kwargs,
    bad_seeds,
    fate_checks,
    gurps_checks,
    one_ring_checks,
    quick_contests,
    regular_contests,
    seeds,
)

from engine import (
    CHECKS,
    Dice,
    FateCheck,
    GurpsCheck,
    InputError,
    OneRingCheck,
    RuleError,
    make_check,
    odds_of,
    roll_check,
    spend_icons,
)
from engine.one_ring import SPECIAL_SUCCESSES


@given(one_ring_checks)
def test_one_ring_odds_sum_to_one(check):
    result = odds_of(check)
    assert sum(result.degrees.values()) == 1
    assert sum(result.totals.probabilities().values()) == 1
    assert 0 <= result.p_extraordinary <= result.p_success <= 1


@given(gurps_checks)
def test_gurps_odds_sum_to_one_or_the_roll_is_refused(check):
    if not check.allowed:
        with pytest.raises(RuleError):
            odds_of(check)
        with pytest.raises(RuleError):
            roll_check(check, 1)
        return
    result = odds_of(check)
    assert sum(result.outcomes.values()) == 1
    assert result.p_success + result.p_failure == 1
    assert Fraction(4, 216) <= result.p_success <= Fraction(212, 216)


@given(quick_contests)
def test_quick_contest_sums_to_one(contest):
    result = odds_of(contest)
    assert result.p_a_wins + result.p_b_wins + result.p_tie == 1
    assert sum(result.margin_of_victory.probabilities().values()) == 1


@given(regular_contests)
def test_regular_contest_sums_to_one(contest):
    result = odds_of(contest)
    assert result.p_a_wins + result.p_b_wins == 1
    assert result.expected_rounds >= 1


@given(fate_checks())
def test_fate_sums_to_one(check):
    result = odds_of(check)
    assert result.p_success + result.p_failure == 1
    assert sum(result.results.probabilities().values()) == 1


@given(any_check, seeds)
def test_same_seed_same_record(check, seed):
    first = roll_check(check, seed)
    assert first == roll_check(check, seed)
    assert first.to_dict() == roll_check(check, Dice(seed)).to_dict()
    assert first.to_dict()["seed"] == seed


@given(any_check)
def test_checks_round_trip_through_dicts(check):
    assert make_check(check.system, check.to_dict()) == check
    assert type(check).from_dict(check.to_dict()) == check


@given(bad_one_ring_kwargs)
def test_bad_one_ring_input_raises_our_error(kwargs):
    with pytest.raises(InputError) as info:
        OneRingCheck(**kwargs)
    assert info.value.field in kwargs
    assert info.value.message


@given(bad_gurps_kwargs)
def test_bad_gurps_input_raises_our_error(kwargs):
    with pytest.raises(InputError) as info:
        GurpsCheck(**kwargs)
    assert info.value.field in kwargs


@given(bad_fate_kwargs)
def test_bad_fate_input_raises_our_error(kwargs):
    with pytest.raises(InputError) as info:
        FateCheck(**kwargs)
    assert info.value.field in kwargs


@given(bad_seeds)
def test_bad_seed_raises_our_error(seed):
    with pytest.raises(InputError) as info:
        roll_check(FateCheck(7), seed)
    assert info.value.field == "seed"


@given(
    st.sampled_from(sorted(CHECKS)),
    st.dictionaries(
        st.text(max_size=6), st.one_of(st.integers(), st.text(max_size=4), st.none(), st.booleans()), max_size=4
    ),
)
def test_arbitrary_dicts_give_a_check_or_our_error(system, data):
    try:
        check = make_check(system, data)
    except InputError as error:
        assert error.field and error.message
    else:
        assert check.system == system


@given(one_ring_checks, seeds, st.lists(st.sampled_from(SPECIAL_SUCCESSES), max_size=4))
def test_spending_icons_never_exceeds_them(check, seed, choices):
    rolled = roll_check(check, seed)
    if rolled.success and len(choices) <= rolled.icons:
        assert spend_icons(rolled, choices) == tuple(choices)
    elif choices:
        with pytest.raises(RuleError):
            spend_icons(rolled, choices)


@pytest.mark.parametrize(
    "value",
    ["9" * 5000, 10**5000, -(10**200), "x" * 1000, [1] * 1000],
    ids=["digits", "huge", "negative", "text", "list"],
)
def test_huge_values_give_a_short_message(value):
    """Huge numbers (beyond Python's 4300-digit text limit) and long texts are refused briefly."""
    for make in (
        lambda: OneRingCheck(rating=value),
        lambda: GurpsCheck(value),
        lambda: FateCheck(7, favour_held=value),
    ):
        with pytest.raises(InputError) as info:
            make()
        assert len(str(info.value)) < 120
