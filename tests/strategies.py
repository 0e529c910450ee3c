"""Hypothesis strategies mirroring the engine's valid (and invalid) inputs."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine import FateCheck, FeatMode, GurpsCheck, InputError, OneRingCheck, QuickContest, RegularContest
from engine.rng import MAX_SEED

seeds = st.integers(min_value=0, max_value=MAX_SEED)
bad_seeds = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=MAX_SEED + 1),
    st.text(max_size=5).filter(lambda s: not s.strip().lstrip("+-").isdigit()),
)

feat_modes = st.sampled_from(list(FeatMode))

one_ring_checks = st.builds(
    OneRingCheck,
    rating=st.integers(0, 6),
    tn=st.integers(1, 40),
    feat_mode=feat_modes,
    bonus_dice=st.integers(0, 6),
    weary=st.booleans(),
    miserable=st.booleans(),
)

#: Keyword arguments of an OneRingCheck with exactly one field out of range or of the wrong type.
bad_one_ring_kwargs = st.one_of(
    st.fixed_dictionaries(
        {
            "rating": st.one_of(
                st.integers(max_value=-1), st.integers(min_value=7), st.just("abc"), st.none(), st.floats(0.1, 0.9)
            )
        }
    ),
    st.fixed_dictionaries({"tn": st.one_of(st.integers(max_value=0), st.integers(min_value=41), st.just("x"))}),
    st.fixed_dictionaries({"bonus_dice": st.one_of(st.integers(max_value=-1), st.integers(min_value=7), st.just([]))}),
    st.fixed_dictionaries({"feat_mode": st.text(max_size=8).filter(lambda s: s not in {m.value for m in FeatMode})}),
    st.fixed_dictionaries({"weary": st.one_of(st.just("yes"), st.integers(2, 9), st.none())}),
    st.fixed_dictionaries({"miserable": st.one_of(st.just("no"), st.floats(0.5, 0.5))}),
)

gurps_modifiers = st.lists(st.integers(-30, 30), max_size=6).map(tuple)
gurps_checks = st.builds(GurpsCheck, skill=st.integers(-20, 40), modifiers=gurps_modifiers, defence=st.booleans())
allowed_gurps_checks = gurps_checks.filter(lambda c: c.allowed)

bad_gurps_kwargs = st.one_of(
    st.fixed_dictionaries(
        {"skill": st.one_of(st.integers(max_value=-21), st.integers(min_value=41), st.just("abc"), st.none())}
    ),
    st.fixed_dictionaries(
        {
            "skill": st.just(10),
            "modifiers": st.one_of(
                st.just("5"),
                st.lists(st.integers(min_value=31), min_size=1, max_size=3),
                st.lists(st.just(1), min_size=21, max_size=25),
            ),
        }
    ),
    st.fixed_dictionaries({"skill": st.just(10), "defence": st.sampled_from(["true", 3, None])}),
)

contest_skills = st.integers(-20, 40)
quick_contests = st.builds(QuickContest, a=contest_skills, b=contest_skills)
regular_contests = st.builds(RegularContest, a=contest_skills, b=contest_skills, high_skill_rule=st.booleans())


@st.composite
def fate_checks(draw: st.DrawFn) -> FateCheck:
    spent = draw(st.integers(0, 30))
    held = draw(st.one_of(st.none(), st.integers(spent, 30)))
    return FateCheck(
        skill=draw(st.integers(0, 30)), difficulty=draw(st.integers(-20, 20)), favour_spent=spent, favour_held=held
    )


bad_fate_kwargs = st.one_of(
    st.fixed_dictionaries({"skill": st.one_of(st.integers(max_value=-1), st.integers(min_value=31), st.just("abc"))}),
    st.fixed_dictionaries(
        {"skill": st.just(7), "difficulty": st.one_of(st.integers(max_value=-21), st.integers(min_value=21))}
    ),
    st.fixed_dictionaries({"skill": st.just(7), "favour_spent": st.integers(min_value=31)}),
    # favour spent beyond what is held
    st.integers(0, 29).flatmap(
        lambda held: st.fixed_dictionaries(
            {"skill": st.just(7), "favour_held": st.just(held), "favour_spent": st.integers(held + 1, 30)}
        )
    ),
)

any_check = st.one_of(one_ring_checks, allowed_gurps_checks, quick_contests, regular_contests, fate_checks())


def fuzz(examples: int) -> settings:
    """Settings for a fuzz test with an explicit number of examples (the CI profile's default is lower)."""
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


def assert_clear_refusal(error: InputError) -> None:
    """What any refused input must give the user: a field, one of our codes and a short message."""
    assert isinstance(error.message, str) and error.message.strip()
    assert isinstance(error.field, str) and error.field.strip()
    assert error.code in ("type", "range", "choice", "rule", "format")
    assert len(error.message) <= 300
