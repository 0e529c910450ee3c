"""Fate & Doom guidance on the built site: a failed check says the favour it lacked under the tie
reading in force, and the fight's balance meter says what the duel odds beside it say."""

from __future__ import annotations

import re

import pytest
from pages import start
from playwright.sync_api import Page, expect

from engine import FateCheck, links
from engine.fate import check as fate_check

pytestmark = [pytest.mark.browser, pytest.mark.site]


def _seed_for(check: FateCheck, result: int) -> int:
    """The first seed whose roll of ``check`` comes to ``result``."""
    return next(s for s in range(1, 1000) if fate_check.roll(check, s).result == result)


@pytest.mark.parametrize(
    ("lang", "ties_succeed", "text"),
    [
        ("en", False, "2 more favour points would have made it a success."),
        ("en", True, "1 more favour point would have made it a success."),
        ("ru", False, "Ещё 2 очка благосклонности дали бы успех."),
        ("cs", False, "Další 2 body přízně by přinesly úspěch."),
    ],
)
def test_eight_against_seven_says_the_favour_the_reading_needs(
    tablet: Page, site_url: str, lang: str, ties_succeed: bool, text: str
):
    check = FateCheck(skill=7, ties_succeed=ties_succeed)
    seed = _seed_for(check, 8)
    roll = fate_check.roll(check, seed)
    assert (roll.result, roll.success, roll.favour_short) == (8, False, 1 if ties_succeed else 2)
    payload = links.encode_roll_link(check, seed=seed, name="Ada")
    page = tablet
    start(page, links.link_url(site_url + f"?lang={lang}&sys=fate", payload))
    expect(page.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    outcome = page.get_by_test_id("link-outcome").filter(visible=True)
    expect(outcome).to_contain_text("8")
    expect(outcome).to_contain_text(text)
    expect(outcome).not_to_contain_text("Missed by")


def test_the_balance_meter_agrees_with_the_duel_odds(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])  # the name has arrived
    page.get_by_role("button", name="Fight", exact=True).click()
    page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$")).click()
    page.locator(".place-heroes-1-attacking button").click()
    page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$")).click()
    page.locator(".place-monsters-1-attacking button").click()
    expect(page.get_by_test_id("p-hero-wins")).to_have_text("30.2%")
    status = page.get_by_test_id("encounter-status")
    expect(status).to_contain_text("Monsters' life 9 against heroes' maximum life 12 (ratio 0.75).")
    expect(status).to_contain_text("the hero wins 30.2%")
    expect(page.get_by_test_id("balance-verdict")).to_have_text("the monster is favoured")
    expect(status.get_by_role("meter")).to_have_attribute("aria-valuenow", "30.2")
    # a stronger hero: the odds and the meter move together
    page.get_by_role("button", name="Change the hero's numbers", exact=True).click()
    page.get_by_label("Hero's skill", exact=True).fill("8")
    expect(page.get_by_test_id("p-hero-wins")).to_have_text("67.3%")
    expect(status).to_contain_text("the hero wins 67.3%")
    expect(page.get_by_test_id("balance-verdict")).to_have_text("the hero is favoured")
