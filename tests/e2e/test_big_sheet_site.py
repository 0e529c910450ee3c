"""A real-sized GCS sheet (120 skills, techniques and spells) in the built static site.

Every row is imported and offered in *Skill to roll*; the form draws a page of
rows at a time, and *Next rows* brings the next page, whose ⚄ rolls its own row.
"""

from __future__ import annotations

import json
import re

import pytest
from pages import ROOT, START_TIMEOUT, STEP_TIMEOUT
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

SHEET = ROOT / "tests" / "data" / "gcs" / "generated-120-rows.gcs"


def test_a_sheet_of_120_rows_imports_whole_and_pages_its_rows(browser: Browser, site_url: str):
    from engine.gcs import read_gcs

    skills = read_gcs(SHEET.read_bytes()).character["skills"]
    assert len(skills) == 120 and json.loads(SHEET.read_text(encoding="utf-8"))["version"] == 5
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site_url + "?lang=en&sys=gurps")
    page.wait_for_selector("html[data-kostka=ready]", state="attached", timeout=START_TIMEOUT)
    page.set_default_timeout(STEP_TIMEOUT)
    page.locator("input[type=file]").first.set_input_files(str(SHEET))
    expect(page.get_by_test_id("import-message")).to_contain_text("Imported characters: 1")
    # an imported hero opens in Play: twenty rows a tap each, the sheet's form one tap away
    play_rows = page.locator(".k-play-row button:visible")
    expect(play_rows).to_have_count(25)  # Will, Per, Dodge, Parry, Block and the first 20 skills
    page.get_by_role("button", name="Edit", exact=True).click()
    options = page.get_by_role("combobox", name="Skill to roll").locator("option").all_inner_texts()
    for skill in skills:
        assert f"{skill['name']} ({skill['level']})" in options
    shown = page.get_by_test_id("rows-shown")
    expect(shown).to_have_text("Rows 1–20 of 120")
    expect(page.get_by_label("Skill 20", exact=True)).to_have_value(skills[19]["name"])
    expect(page.get_by_label("Skill 21", exact=True)).to_have_count(0)  # not drawn yet
    page.get_by_role("button", name="Next rows", exact=True).click()
    expect(shown).to_have_text("Rows 21–40 of 120")
    expect(page.get_by_label("Skill 21", exact=True)).to_have_value(skills[20]["name"])
    dice = page.locator("button:visible").filter(has_text=re.compile("^⚄$"))
    dice.nth(dice.count() - 20).click()  # the first of the page's 20 rows (the sheet's own rolls come first)
    expect(page.get_by_test_id("roll-status")).to_contain_text(skills[20]["name"])
    context.close()
    assert errors == []
