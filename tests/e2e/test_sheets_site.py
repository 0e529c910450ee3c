"""GCS import and the free dice roller in the built static site (Pyodide in the browser).

One start of the real build: *Import characters* takes a real GCS 5 sheet from
GCS's master library and the GURPS screen shows it with its levels; *Free dice*
charts an expression as it is typed and rolls it into the status region.
"""

from __future__ import annotations

import json
import re

import pytest
from pages import ROOT, STEP_TIMEOUT, start, storage
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

GCS = ROOT / "tests" / "data" / "gcs"
SHEET = GCS / "goblin-shaman.gcs"


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


def _characters(name: str) -> dict:
    """A Kostka characters file holding one Fate & Doom character called ``name``."""
    doc = {
        "format": "kostka",
        "version": 2,
        "kind": "characters",
        "systems": {"fate": {"current": 0, "characters": [{"name": name, "skill": 8}]}},
    }
    return {"name": f"{name}.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}


def test_a_json_file_and_a_gcs_sheet_import_one_after_the_other_either_way(browser: Browser, site_url: str):
    """The file chooser sends a file's content before its name: each file is read for what it is,
    not by the name of the file chosen before it (.json then .gcs, then .gcs then .json)."""
    context = browser.new_context()
    page = context.new_page()
    start(page, site_url + "?lang=en")
    chooser = page.locator("input[type=file]").first
    files = [_characters("Vera"), str(GCS / "giant-rat.gcs"), _characters("Ada"), str(SHEET)]
    names = ["Vera", "Giant Rat", "Ada", "Goblin, Shaman"]
    for n, file in enumerate(files, 1):
        chooser.set_input_files(files=[file])
        page.wait_for_function(  # the file's character saved beside those before it
            "names => names.every(n => (localStorage.getItem('kostka.characters') || '').includes(n))",
            arg=names[:n],
        )
        expect(page.get_by_test_id("import-message")).to_contain_text("Imported characters: 1")
        expect(page.get_by_role("alert")).to_have_count(0)
    stored = json.loads(storage(page)["kostka.characters"])["systems"]
    assert [c["name"] for c in stored["fate"]["characters"]] == ["Vera", "Ada"]
    assert [c["name"] for c in stored["gurps"]["characters"]] == ["Giant Rat", "Goblin, Shaman"]
    context.close()
