"""The −/+ steppers of the built site, tapped on a touch screen: a rating, a modifier and points
change at once in the page, within their bounds, and what depends on them follows.

A stepper's buttons are real buttons of at least 44 × 44 px with names that say what they change;
the one at its bound is disabled; nothing is drawn again, so a field being typed into keeps focus.
"""

from __future__ import annotations

import re

import pytest
from pages import start
from playwright.sync_api import Browser, Locator, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

#: the element has the focus in its own (shadow) root
HAS_FOCUS = "el => el.getRootNode().activeElement === el"


def assert_finger_sized(*buttons: Locator) -> None:
    for b in buttons:
        box = b.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, (b, box)
        assert b.evaluate("el => el.tagName === 'BUTTON' && el.type === 'button'")


@pytest.mark.parametrize(
    "size", [pytest.param((390, 844), id="phone"), pytest.param((1024, 768), id="landscape-tablet")]
)
def test_a_tap_on_plus_steps_a_one_ring_skill_and_the_odds_and_the_play_row_follow(
    browser: Browser, site_url: str, size
):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 1000)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        page.get_by_label("Ability", exact=True).select_option(label="Awareness")
        field = page.get_by_label("Awareness", exact=True)
        less = page.get_by_role("button", name="Decrease Awareness", exact=True)
        more = page.get_by_role("button", name="Increase Awareness", exact=True)
        expect(field).to_have_value("0")
        expect(less).to_be_disabled()  # 0 is the lowest rating
        expect(more).to_be_enabled()
        assert_finger_sized(less, more)
        odds = page.get_by_test_id("p-success").filter(visible=True)
        expect(odds).to_have_text(re.compile(r"\d+\.\d%"))
        before = odds.inner_text()
        more.evaluate("el => { el.dataset.mark = 'kept'; }")  # the same button after the taps: never redrawn
        more.tap()
        expect(field).to_have_value("1")  # at once, in the page
        more.tap()
        expect(field).to_have_value("2")
        expect(less).to_be_enabled()
        expect(odds).not_to_have_text(before)  # Python has the committed value: the odds follow
        expect(more).to_have_attribute("data-mark", "kept")
        # typed, the field keeps focus while the odds come back; the buttons follow the text
        field.fill("6")
        expect(more).to_be_disabled()  # 6 is the highest
        expect(odds).not_to_have_text(before)
        at_six = odds.inner_text()
        less.tap()
        expect(field).to_have_value("5")
        expect(odds).not_to_have_text(at_six)
        field.fill("")
        field.press_sequentially("4")
        page.wait_for_timeout(1500)  # Python's answer to the key has come back
        assert field.evaluate(HAS_FOCUS), "the field being typed into lost the focus"
        expect(field).to_have_value("4")
        field.blur()
        page.get_by_role("button", name="Play", exact=True).click()
        rows = page.locator(".k-play-row button")
        expect(rows.filter(has_text=re.compile(r"^Awareness\s*4$"))).to_have_count(1)
        page.get_by_role("button", name="Edit", exact=True).click()
        expect(field).to_have_value("4")
        # an empty field counts as 0: a first tap on the blow's Injury gives 1, and its odds appear
        injury = page.get_by_label("Injury of the blow", exact=True)
        expect(injury).to_have_value("")
        expect(page.get_by_text("Type the blow's Injury", exact=False)).to_be_visible()
        page.get_by_role("button", name="Increase Injury of the blow", exact=True).tap()
        expect(injury).to_have_value("1")
        expect(page.get_by_text("Type the blow's Injury", exact=False)).to_be_hidden()
    finally:
        context.close()


def test_a_gurps_modifier_and_hp_step_by_touch_within_their_bounds(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en&sys=gurps")
        page.get_by_role("button", name="Add a modifier", exact=True).click()
        value = page.get_by_label("Value", exact=True)
        expect(value).to_have_value("0")
        page.get_by_label("Modifier 1", exact=True).fill("Darkness")
        less = page.get_by_role("button", name="Decrease Darkness", exact=True)
        more = page.get_by_role("button", name="Increase Darkness", exact=True)
        assert_finger_sized(less, more)
        effective = page.get_by_test_id("effective-skill")
        less.tap()
        less.tap()
        expect(value).to_have_value("-2")
        expect(effective).to_have_text("8")  # 10 − 2
        value.fill("\u22123")  # a typographic minus counts as a minus
        more.tap()
        expect(value).to_have_value("-2")
        value.fill("-30")
        expect(less).to_be_disabled()
        expect(more).to_be_enabled()
        # HP steps no higher than HP (max), and the state at that level follows at once
        hp_less = page.get_by_role("button", name="Decrease HP", exact=True)
        hp_more = page.get_by_role("button", name="Increase HP", exact=True)
        hp = page.get_by_label("HP", exact=True)
        expect(hp).to_have_value("10")
        expect(hp_more).to_be_disabled()  # at HP (max)
        for _ in range(8):
            hp_less.tap()
        expect(hp).to_have_value("2")
        expect(page.get_by_test_id("hp-state")).to_contain_text("Reeling")
        expect(hp_more).to_be_enabled()
    finally:
        context.close()


def test_fate_favour_to_spend_steps_and_the_odds_follow_in_russian(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=ru&sys=fate")
        spend = page.get_by_label("Потратить благосклонности", exact=True)
        expect(spend).to_have_value("0")
        names = page.locator("button.number-more").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))")
        assert all(n.startswith("Увеличить: ") for n in names), names
        odds = page.get_by_test_id("p-success").filter(visible=True)
        expect(odds).to_have_text(re.compile(r"\d+\.\d%"))
        before = odds.inner_text()
        plus = page.get_by_role("button", name="Увеличить: Потратить благосклонности", exact=True)
        plus.tap()
        expect(spend).to_have_value("1")
        expect(odds).not_to_have_text(before)
    finally:
        context.close()
