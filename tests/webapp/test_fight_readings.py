"""The fight screen's rules readings: the defending position's halving (shown with its effect where
positions are set up), a kill inside a chain of attacks, moved creatures waiting a turn."""

from __future__ import annotations

import pytest

from engine.fate.attack import attack_odds
from webapp.views.common import percent
from webapp.views.shell import FateScreens, KostkaApp


@pytest.fixture
def view():
    app = KostkaApp()
    app.state.fate.character.name_text = "Ada"
    screens = app.view_of("fate")
    assert isinstance(screens, FateScreens)
    screens.switch.value = "fight"
    screens.fight_view.rules_fold.opened = True  # the readings are chosen in the encounter's folded part
    return screens.fight_view


def tap(view, side, name, k=0, pos="attacking"):
    view.desk.plan.tap_bench(side, name)
    view.desk.plan.tap_place(side, k, pos)


@pytest.mark.parametrize("halving", ["roll", "dice", "damage"])
def test_the_halving_reading_and_its_hit_chance_are_shown_where_positions_are_set_up(view, halving):
    view.halving_select.value = halving
    assert view.setup.halving == halving
    text = view.halving_readout.object
    words = {"roll": "Halve the whole attack roll", "dice": "Halve only 2d6 + points", "damage": "halve the damage"}
    assert "Reading in force" in text and words[halving] in text
    hero_skill = int(view.desk.hero_form.skill)
    monster_skill = int(view.desk.monster_form.skill)
    front = attack_odds(hero_skill, monster_skill)
    back = attack_odds(hero_skill, monster_skill, defender_in_defence=True, halving=halving)
    assert f"{percent(front.p_hit)} in an attacking position, {percent(back.p_hit)} in a defending position" in text


def test_a_fight_under_the_damage_reading(view):
    view.desk.add_wolf()  # "Wolf 2"
    view.halving_select.value = "damage"
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    tap(view, "monsters", "Wolf 2", pos="defending")
    view.desk.start_fight()
    assert view.run.fight.encounter.halving == "damage"
    assert "Wolf 2 (defending: damage halved)" in view.target.options
    run = view.run
    run.param.update(manual=True, a1="6", a2="5", d1="1", d2="1", target="Wolf 2")
    run.attack()  # 6+5+7 = 18 against 1+1+8 = 10: 8, halved to 4
    assert "Hit, its damage halved" in view.step.object and "4 damage" in view.step.object


def test_the_after_kill_option_reaches_the_fight(view):
    view.after_kill_select.value = "next"
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    assert view.desk.encounter().after_kill == "next"
    view.tr.lang = "cs"
    assert all(label and label[0].isupper() for label in view.after_kill_select.options)
    assert list(view.after_kill_select.options.values()) == ["end", "next"]
