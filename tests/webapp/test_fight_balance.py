"""The fight screen's balance meter says what the exact duel odds on the same screen say."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from engine import InputError
from engine.fate.duel import DUEL_BANDS, duel_verdict
from webapp.i18n import percent
from webapp.views.fight import FightView
from webapp.views.shell import FateScreens, KostkaApp

VERDICTS = {"monster": "the monster is favoured", "even": "even", "hero": "the hero is favoured"}


@pytest.fixture
def view():
    app = KostkaApp()
    app.state.fate.character.name_text = "Ada"
    screens = app.view_of("fate")
    assert isinstance(screens, FateScreens)
    screens.switch.value = "fight"
    assert isinstance(screens.fight_view, FightView)
    return screens.fight_view


def _place_ada_and_the_wolf(view):
    plan = view.desk.plan
    view.desk.add_wolf()
    plan.tap_bench("heroes", "Ada")
    plan.tap_place("heroes", 0, "attacking")
    plan.tap_bench("monsters", "Wolf")
    plan.tap_place("monsters", 0, "attacking")


def _verdict(html):
    return re.search(r'data-testid="balance-verdict">([^<]*)<', html).group(1)


@pytest.mark.parametrize(
    ("p", "verdict"),
    [
        (0, "monster"),
        (Fraction(349, 1000), "monster"),
        (Fraction(35, 100), "even"),
        (Fraction(1, 2), "even"),
        (Fraction(65, 100), "even"),
        (Fraction(651, 1000), "hero"),
        (1, "hero"),
        (0.302, "monster"),
        ("0.7", "hero"),
    ],
)
def test_duel_verdict_bands(p, verdict):
    assert DUEL_BANDS == (Fraction(35, 100), Fraction(65, 100))
    assert duel_verdict(p) == verdict


@pytest.mark.parametrize("p", [-0.01, Fraction(101, 100), "x", None])
def test_duel_verdict_refuses_what_is_no_chance(p):
    with pytest.raises(InputError):
        duel_verdict(p)


def test_the_wolf_against_a_skill_7_hero_is_not_called_even(view):
    _place_ada_and_the_wolf(view)
    html = view.encounter_status.object
    assert "(ratio 0.75)" in html  # the lives alone would have called this even
    assert percent(view.desk.odds.p_hero_wins) == "30.2%"
    assert 'data-testid="p-hero-wins">30.2%<' in view.odds_readout.object
    assert "the hero wins 30.2%" in html
    assert _verdict(html) == "the monster is favoured"
    assert 'aria-valuenow="30.2"' in html and "left:30.2%" in html


def test_the_meter_follows_the_odds_as_the_hero_changes(view):
    _place_ada_and_the_wolf(view)
    seen = set()
    for skill, life in [(s, m) for s in range(4, 12) for m in (3, 5, 7, 9)]:
        view.desk.hero_form.skill = str(skill)
        view.desk.monster_form.life = str(life)
        odds = view.desk.odds
        shown = re.search(r'data-testid="p-hero-wins">([^<]*)<', view.odds_readout.object).group(1)
        assert shown == percent(odds.p_hero_wins)
        value = Fraction(shown.rstrip("%")) / 100
        band = "monster" if value < Fraction(35, 100) else "hero" if value > Fraction(65, 100) else "even"
        html = view.encounter_status.object
        assert f"the hero wins {shown}," in html
        assert _verdict(html) == VERDICTS[band], (skill, life, shown)
        seen.add(band)
    assert seen == {"monster", "even", "hero"}


def test_without_odds_the_meter_says_no_verdict(view):
    _place_ada_and_the_wolf(view)
    view.desk.monster_form.life = "-1"
    assert view.desk.odds is None
    html = view.encounter_status.object
    assert 'data-testid="balance-verdict"' not in html and "waits for the duel" in html


@pytest.mark.parametrize(("lang", "text"), [("ru", "у монстра перевес"), ("cs", "nestvůra má navrch")])
def test_the_verdict_in_each_language(view, lang, text):
    _place_ada_and_the_wolf(view)
    view.tr.lang = lang
    assert _verdict(view.encounter_status.object) == text
