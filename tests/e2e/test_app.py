"""The web app in headless Chromium against ``panel serve``: what a player does at the table."""

from __future__ import annotations

import re

import pytest
from pages import big_roll, open_served
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)  # the machine running the tests may be busy


def roll_button(page: Page, name: str | None = None):
    """The button ``name``; by default the screen's big Roll button."""
    return big_roll(page) if name is None else page.get_by_role("button", name=name, exact=True)


def field_error(page: Page, label: str):
    """The reason written under the number field ``label``."""
    return page.locator(".number-field", has=page.get_by_label(label, exact=True)).locator(".field-error")


def p_success(page: Page) -> str:
    """The chance of success of the screen shown (a screen shown before stays in the page, hidden)."""
    return page.get_by_test_id("p-success").filter(visible=True).inner_text()


def test_one_ring_fill_roll_and_see_the_dice(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en&sys=one-ring")
    page.get_by_label("Name").filter(visible=True).first.fill("Hanar")
    page.get_by_label("Strength", exact=True).fill("7")
    page.get_by_label("Awareness", exact=True).fill("2")
    page.get_by_label("Ability").select_option(label="Awareness")
    expect(page.get_by_text("2 success dice · TN 13")).to_be_visible()
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_have_text(re.compile(r"\d+\.\d%"))
    roll_button(page).click()
    result = page.get_by_test_id("result-dice")  # in the result panel
    expect(page.get_by_test_id("roll-status")).to_contain_text("Hanar")
    expect(page.get_by_test_id("result-outcome")).to_have_text(
        re.compile("^(Failure|Success|Great success|Extraordinary success)$")
    )
    expect(result.locator("svg.die.feat")).to_have_count(1)
    expect(result.locator("svg.die.success")).to_have_count(2)
    expect(page.get_by_test_id("log")).to_contain_text("Hanar")


def test_odds_chart_changes_when_an_input_changes(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en&sys=one-ring&r_ability=awareness")
    before = p_success(page)
    page.get_by_role("button", name="Show the charts", exact=True).click()  # folded until asked for
    page.wait_for_function(f"() => ({CHART_DATA})() !== null")
    chart_before = page.evaluate(CHART_DATA)
    page.get_by_label("Awareness", exact=True).fill("4")
    expect(page.get_by_test_id("p-success").filter(visible=True)).not_to_have_text(before)
    page.wait_for_function(
        f"(before) => {{ const now = ({CHART_DATA})(); return now && now.some((v, i) => Math.abs(v - before[i]) > 1e-9); }}",
        arg=chart_before,
    )
    chart_after = page.evaluate(CHART_DATA)
    assert chart_before != chart_after
    assert abs(sum(chart_after) - 1) < 1e-6


# Probabilities of the One Ring degree chart, read from the Bokeh document in the page.
CHART_DATA = """() => {
  for (const doc of Bokeh.documents) {
    for (const model of doc._all_models.values()) {
      const data = model.data;
      if (data && data.p && data.colour && data.p.length === 4) return Array.from(data.p);
    }
  }
  return null;
}"""


def test_gurps_skill_modifiers_and_roll(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en")
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.get_by_label("Skill 1", exact=True)).to_be_visible()
    page.get_by_label("Skill 1", exact=True).fill("Lockpicking")
    page.get_by_label("Level", exact=True).fill("9")
    page.get_by_role("button", name="Add a modifier").click()
    page.get_by_label("Value", exact=True).fill("-5")
    page.get_by_role("button", name="Add a modifier").click()
    page.get_by_label("Value", exact=True).nth(1).fill("+10")
    expect(page.get_by_test_id("effective-skill")).to_have_text("14")
    roll_button(page).click()
    result = page.get_by_test_id("result-dice")
    expect(result.locator("svg.die.d6")).to_have_count(3)
    expect(page.get_by_test_id("result-outcome")).to_have_text(
        re.compile("^(Critical success|Success|Failure|Critical failure)$")
    )
    expect(page.get_by_test_id("roll-status")).to_contain_text("effective skill 14")
    expect(page.get_by_test_id("result-note")).to_have_text("Modifiers used: Modifier 1 \u22125, Modifier 2 +10")
    roll_button(page, "Roll the contest").click()
    expect(page.get_by_test_id("result-outcome")).to_have_text(re.compile("^(You win|Opponent wins|Nobody wins)$"))


def test_fate_roll_spends_favour(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en&sys=fate")
    page.get_by_label("Skill", exact=True).fill("8")
    page.get_by_label("Favour of the gods", exact=True).fill("2")
    page.get_by_label("Favour to spend", exact=True).fill("3")
    expect(page.get_by_label("Favour to spend", exact=True)).to_have_value("3")
    expect(field_error(page, "Favour to spend")).to_have_text("You hold only 2 favour points.")
    page.get_by_label("Favour to spend", exact=True).fill("1")
    expect(page.get_by_label("Favour to spend", exact=True)).to_have_value("1")  # the app has taken it
    roll_button(page).click()
    expect(page.get_by_test_id("result-dice").locator("svg.die.d6")).to_have_count(2)
    expect(page.get_by_test_id("result-outcome")).to_have_text(re.compile("^(Success|Failure)$"))
    expect(page.get_by_label("Favour of the gods", exact=True)).to_have_value("1")


def test_the_url_reproduces_the_screen(page: Page, app_url: str, browser):
    open_served(page, app_url + "?lang=en")
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    expect(page.get_by_label("Favour of the gods", exact=True)).to_be_visible()
    page.get_by_label("Name").filter(visible=True).first.fill("Vlasta")
    page.get_by_label("Skill", exact=True).fill("9")
    page.get_by_label("Difficulty", exact=True).fill("2")
    expect(page).to_have_url(re.compile("difficulty=2"))
    odds = p_success(page)
    fresh = browser.new_context().new_page()  # no storage: only the address
    open_served(fresh, page.url)
    expect(fresh.get_by_label("Name").filter(visible=True).first).to_have_value("Vlasta")
    expect(fresh.get_by_label("Skill", exact=True)).to_have_value("9")
    expect(fresh.get_by_label("Difficulty", exact=True)).to_have_value("2")
    expect(fresh.get_by_test_id("p-success").filter(visible=True)).to_have_text(odds)
    fresh.context.close()


def test_language_switch_and_memory(page: Page, app_url: str):
    open_served(page, app_url + "?sys=one-ring&lang=en")
    expect(roll_button(page)).to_be_visible()
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Русский").click()
    expect(roll_button(page)).to_have_text("Бросок: Внимательность")
    expect(page.get_by_test_id("odds-readout").filter(visible=True)).to_contain_text("Шанс успеха")
    expect(page.get_by_label("Внимательность", exact=True)).to_be_visible()
    page.get_by_role("button", name="Čeština").click()
    expect(roll_button(page)).to_have_text("Hod: Ostražitost")
    expect(page.get_by_test_id("odds-readout").filter(visible=True)).to_contain_text("Šance na úspěch")
    roll_button(page).click()
    expect(page.get_by_test_id("result-dice")).to_contain_text("Kostka činu")
    # remembered: a plain address opens in Czech
    open_served(page, app_url)
    expect(roll_button(page)).to_have_text("Hod: Ostražitost")


def test_bad_value_shows_a_message_and_keeps_the_other_fields(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en&sys=one-ring&r_ability=awe")
    page.get_by_label("Awareness", exact=True).fill("3")
    page.get_by_label("Awe", exact=True).fill("9")
    expect(page.get_by_label("Awe", exact=True)).to_have_value("9")
    expect(field_error(page, "Awe")).to_have_text("Must be from 0 to 6.")
    expect(page.get_by_test_id("odds-readout").filter(visible=True)).to_contain_text("Correct the marked fields")
    page.get_by_label("Awe", exact=True).fill("abc")
    expect(field_error(page, "Awe")).to_have_text("Enter a whole number from 0 to 6.")
    expect(page.get_by_label("Awe", exact=True)).to_have_value("abc")
    expect(page.get_by_label("Awareness", exact=True)).to_have_value("3")
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Русский").click()
    expect(field_error(page, "Трепет")).to_have_text("Введите целое число от 0 до 6.")
    expect(page.get_by_label("Трепет", exact=True)).to_have_value("abc")
    page.get_by_label("Трепет", exact=True).fill("2")
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_be_visible()


def test_characters_survive_a_reload(page: Page, app_url: str):
    open_served(page, app_url + "?lang=en&sys=fate")
    page.get_by_label("Name").filter(visible=True).first.fill("Bilbo")
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="New character").click()
    page.get_by_label("Name").filter(visible=True).first.fill("Thorin")
    page.get_by_label("Skill", exact=True).fill("10")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Bilbo", "Thorin"])
    page.wait_for_function("() => (localStorage.getItem('kostka.characters') || '').includes('Thorin')")
    open_served(page, app_url + "?lang=en&sys=fate")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Bilbo", "Thorin"])
    page.get_by_label("Character", exact=True).select_option(label="Thorin")
    expect(page.get_by_label("Skill", exact=True)).to_have_value("10")
