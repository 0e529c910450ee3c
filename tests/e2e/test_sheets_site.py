"""GCS import and the free dice roller in the built static site (Pyodide in the browser).

One start of the real build: *Import characters* takes a real GCS 5 sheet from
GCS's master library and the GURPS screen shows it with its levels; *Free dice*
charts an expression as it is typed and rolls it into the status region.
"""

from __future__ import annotations

import re

import pytest
from pages import ROOT, STEP_TIMEOUT, start
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

SHEET = ROOT / "tests" / "data" / "gcs" / "goblin-shaman.gcs"


def test_a_gcs_sheet_imports_and_free_dice_roll_in_the_browser_build(browser: Browser, site_url: str):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, site_url + "?lang=en")
    expect.set_options(timeout=STEP_TIMEOUT)

    page.locator("input[type=file]").first.set_input_files(str(SHEET))
    expect(page.get_by_test_id("import-message")).to_contain_text("Imported characters: 1")
    expect(page.get_by_role("button", name="GURPS", exact=True)).to_have_class(re.compile("active|bk-active"))
    skill_select = page.get_by_role("combobox", name="Skill to roll")
    options = skill_select.locator("option").all_inner_texts()
    for label in ("Bow (13)", "Shield (Shield) (12)", "Deathtouch (10)", "Will (11)"):
        assert label in options, options
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_have_text(re.compile(r"\d+(\.\d+)?\s?%"))

    page.get_by_role("button", name="Free dice", exact=True).click()
    field = page.get_by_label(re.compile("^Dice"))
    field.fill("4d6 keep 3")
    expect(page.get_by_test_id("dice-odds")).to_contain_text("4d6k3: from 3 to 18")
    page.get_by_role("button", name="Roll", exact=True).last.click()
    status = page.locator("[role=status][data-testid=dice-result]")
    expect(status).to_contain_text(re.compile(r"Total \d+"))
    field.fill("2d1000")
    expect(page.get_by_test_id("dice-odds")).to_contain_text("Too many dice for exact odds")
    context.close()
    assert errors == []
