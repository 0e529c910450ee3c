"""The Fate & Doom fight screen in headless Chromium against ``panel serve``, in English, Russian and Czech."""

from __future__ import annotations

import re

import pytest
from pages import SERVED_TIMEOUT, open_served
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

expect.set_options(timeout=SERVED_TIMEOUT)  # two shared cores: a tap may take a few seconds to come back


def open_fight(page: Page, url: str, hero: str, name_label: str = "Name", fight: str = "Fight") -> None:
    """Open the Fate & Doom screen, name the hero on the skill check's sheet, switch to the fight."""
    open_served(page, url)
    page.get_by_label(name_label, exact=True).filter(visible=True).first.fill(hero)
    expect(
        page.get_by_label("Character" if name_label == "Name" else re.compile("^(Персонаж|Postava)$")).locator("option")
    ).to_have_text([hero])
    page.get_by_role("button", name=fight, exact=True).click()


def place(page: Page, name: str, where: str) -> None:
    """Tap a waiting creature, then its place (e.g. ``"heroes-1-attacking"``)."""
    page.locator(".bench-heroes button, .bench-monsters button").filter(has_text=re.compile(f"^{name}$")).click()
    expect(
        page.locator(".bench-heroes button[aria-pressed=true], .bench-monsters button[aria-pressed=true]")
    ).to_have_text(name)
    page.locator(f".place-{where} button").click()
    expect(page.locator(f".place-{where} button")).to_have_text(name)


# The life-left chart's bars, read from the Bokeh document in the page.
LIFE_CHART = """() => {
  for (const doc of Bokeh.documents) {
    for (const model of doc._all_models.values()) {
      const data = model.data;
      if (data && data.hero && data.monster) return Array.from(data.hero).concat(Array.from(data.monster));
    }
  }
  return null;
}"""


def log_rows(page: Page):
    return page.get_by_test_id("log").locator("tbody tr")


def test_wolf_against_a_hero_odds_fight_undo_and_simulation(page: Page, app_url: str):
    open_fight(page, app_url + "?lang=en&sys=fate", "Ada")
    expect(page.get_by_role("button", name="Add the Wolf")).to_be_visible()
    place(page, "Ada", "heroes-1-attacking")
    place(page, "Wolf", "monsters-1-attacking")
    expect(page.get_by_test_id("encounter-status")).to_contain_text(
        "Monsters' life 9 against heroes' maximum life 12 (ratio 0.75)."
    )
    # the meter's words follow the duel odds (30.2%), not the ratio of lives
    expect(page.get_by_test_id("balance-verdict")).to_have_text("the monster is favoured")

    # odds follow the hero's skill, chart included
    expect(page.get_by_test_id("p-hero-wins")).to_have_text("30.2%")
    page.get_by_role("button", name="Show the charts", exact=True).click()  # folded until asked for
    page.wait_for_function(f"() => !!({LIFE_CHART})()")
    chart_before = page.evaluate(LIFE_CHART)
    page.get_by_role("button", name="Change the hero's numbers", exact=True).click()  # folded too
    page.get_by_label("Hero's skill", exact=True).fill("9")
    expect(page.get_by_test_id("p-hero-wins")).not_to_have_text("30.2%")
    page.wait_for_function(
        f"(before) => {{ const now = ({LIFE_CHART})(); return now && now.some((v, i) => Math.abs(v - before[i]) > 1e-9); }}",
        arg=chart_before,
    )
    assert abs(sum(page.evaluate(LIFE_CHART)) - 1) < 1e-6

    # bad input is refused next to its field and kept
    page.get_by_role("button", name="Edit the monster", exact=True).click()
    page.get_by_label("Monster's life", exact=True).fill("-1")
    expect(page.get_by_label("Monster's life", exact=True)).to_have_value("-1")
    expect(
        page.locator(".number-field", has=page.get_by_label("Monster's life", exact=True)).locator(".field-error")
    ).to_have_text("Must be from 0 to 999.")
    page.get_by_label("Monster's life", exact=True).fill("9")
    expect(page.get_by_label("Monster's life", exact=True)).to_have_value("9")

    # the fight, tap by tap, with an undo (a strong hero keeps it short)
    page.get_by_label("Hero's skill", exact=True).fill("14")
    expect(page.get_by_test_id("p-hero-wins")).to_have_text(
        re.compile(r"^(9\d\.\d|100\.0)%$")
    )  # skill 14 against the Wolf: near certain
    page.get_by_role("button", name="Start the fight").click()
    expect(page.get_by_test_id("fight-status")).to_contain_text("Round 1: the heroes' turn.")
    expect(page.get_by_test_id("actor")).to_contain_text("Ada acts")
    attack = page.get_by_role("button", name="Attack", exact=True)
    attack.click()
    expect(log_rows(page)).to_have_count(1)
    expect(page.get_by_test_id("fight-step").locator("svg.die.d6")).to_have_count(4)
    expect(page.get_by_test_id("blow")).to_have_text(re.compile(r"^(Hit: \d+ damage|Parried)$"))
    expect(log_rows(page).first).to_contain_text("Fight, round 1: Ada attacks Wolf (attack 1)")
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("log")).to_contain_text("No rolls yet.")
    expect(page.get_by_test_id("actor")).to_contain_text("Ada acts")
    steps = 0
    over = page.get_by_test_id("fight-over")
    while True:  # attack until the fight is over (its end may reach the page a moment after the last blow)
        assert steps < 120, "the fight does not end"
        expect(over.or_(attack).first).to_be_visible()
        if over.is_visible():
            break
        try:
            attack.click(timeout=5_000)
        except PlaywrightTimeoutError:
            expect(over).to_be_visible()
            break
        steps += 1
        expect(log_rows(page)).to_have_count(steps)
    expect(page.get_by_test_id("fight-over")).to_have_text(re.compile(r"^The (heroes|monsters) win in round \d+\.$"))
    expect(attack).to_be_hidden()
    page.get_by_role("button", name="Undo").click()
    expect(page.get_by_test_id("fight-over")).to_be_hidden()
    expect(log_rows(page)).to_have_count(steps - 1)
    expect(attack).to_be_visible()  # the fight goes on: its controls are back, and what is under them has moved

    # many seeded fights, then one of them as a log
    page.get_by_role("button", name="Show the simulation", exact=True).click()
    page.get_by_label("Runs", exact=True).fill("200")
    page.get_by_role("button", name="Simulate", exact=True).click()
    expect(page.get_by_test_id("sim-readout")).to_contain_text(
        re.compile(r"Heroes win \d+\.\d% of 200 fights \(interval of 95%:")
    )
    page.get_by_label("Run number", exact=True).fill("3")
    page.get_by_role("button", name="Show this fight").click()
    sim_log = page.get_by_test_id("sim-log")
    expect(sim_log).to_contain_text("Fight 3, seed")
    expect(sim_log.locator("li").first).to_have_text(re.compile("^The fight begins."))
    expect(sim_log.locator("li").last).to_have_text(re.compile(r"^The (heroes|monsters) win in round \d+\.$"))


def test_russian_labels_and_an_attack(page: Page, app_url: str):
    open_fight(page, app_url + "?lang=ru&sys=fate", "Ада", "Имя", "Бой")
    for label in ("Добавить Волка", "Создать монстра", "Начать бой", "Показать симуляцию"):
        expect(page.get_by_role("button", name=label)).to_be_visible()
    expect(page.get_by_test_id("encounter-status")).to_contain_text(
        "Поставьте в построения хотя бы одного героя и одного монстра."
    )
    place(page, "Ада", "heroes-1-attacking")
    place(page, "Волк", "monsters-1-attacking")  # the Wolf, named in the language on screen
    expect(page.get_by_test_id("balance-verdict")).to_have_text("у монстра перевес")
    expect(page.get_by_test_id("duel-readout")).to_contain_text("Ада против Волк: герой побеждает")
    page.get_by_role("button", name="Начать бой").click()
    expect(page.get_by_test_id("fight-status")).to_contain_text("Раунд 1: ход героев.")
    page.get_by_role("button", name="Атаковать", exact=True).click()
    expect(page.get_by_test_id("fight-step")).to_contain_text("Ада атакует Волк (атака 1)")
    expect(log_rows(page).first).to_contain_text("Бой, раунд 1")


def test_czech_labels_generated_monster_and_an_empty_formation(page: Page, app_url: str):
    open_fight(page, app_url + "?lang=cs&sys=fate", "Eliška", "Jméno", "Boj")
    page.get_by_role("button", name="Vytvořit nestvůru").click()
    expect(page.get_by_test_id("generated").locator("svg.die.d6")).to_have_count(3)
    page.get_by_role("button", name="Upravit nestvůru", exact=True).click()
    expect(page.get_by_label("Jméno nestvůry", exact=True)).to_have_value("Nestvůra")
    place(page, "Eliška", "heroes-1-attacking")
    place(page, "Nestvůra", "monsters-1-attacking")
    expect(page.get_by_test_id("balance-verdict")).to_have_text(
        re.compile("^(nestvůra má navrch|vyrovnané|hrdina má navrch)$")
    )
    page.get_by_role("button", name="Přidat formaci hrdinů").click()
    expect(page.get_by_test_id("encounter-status")).to_contain_text(
        "Formace hrdinů 2 je prázdná: postavte do ní tvora, nebo ji odeberte."
    )
    # the new formation's row is drawn (so the buttons below it have moved) before the next tap
    expect(page.locator(".place-heroes-2-attacking button")).to_be_visible()
    page.get_by_role("button", name="Odebrat poslední formaci hrdinů").click()
    expect(page.get_by_test_id("balance-verdict")).to_be_visible()
    page.get_by_role("button", name="Začít boj").click()
    page.get_by_role("button", name="Zaútočit", exact=True).click()
    expect(page.get_by_test_id("fight-step")).to_contain_text("Eliška útočí na Nestvůra (útok 1)")


def test_under_panel_serve_too_the_fight_is_made_hidden_while_the_skill_check_is_still(page: Page, app_url: str):
    """The still moment's work runs on Panel's server as in the site's worker: the fight screen is
    in the page, hidden, before Fight is tapped, and the tap shows it."""
    open_served(page, app_url + "?lang=en&sys=fate")
    status = page.get_by_test_id("encounter-status")
    expect(status).to_be_attached()
    expect(status).to_be_hidden()
    page.get_by_role("button", name="Fight", exact=True).click()
    expect(status).to_be_visible()
    expect(page.get_by_role("button", name="Add the Wolf", exact=True)).to_be_visible()
