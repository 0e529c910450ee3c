"""A sheet too big for the page's address, in the built static site.

A GURPS sheet of 200 rows with Cyrillic names would make an address of about 80,000 characters,
which the site's own server (and Apache, nginx…) answers with 414. The app leaves the skills out of
the address, says so, and the address it writes opens: the served site answers 200 and the app
starts with the rest of the sheet.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from pages import start
from playwright.sync_api import Browser, expect

from engine.documents import MAX_ROWS
from webapp.state.address import MAX_WRITTEN
from webapp.state.app import AppState

pytestmark = [pytest.mark.browser, pytest.mark.site]

NAME = "Жанна"


def test_a_200_row_cyrillic_sheet_leaves_its_skills_out_of_an_address_that_opens(browser: Browser, site_url, tmp_path):
    state = AppState()
    state.system = "gurps"
    state.gurps.character.name_text = NAME
    state.gurps.character.skills = [{"name": (f"{i:03d}" + "Жř" * 30)[:60], "level": "12"} for i in range(MAX_ROWS)]
    sheet = tmp_path / "big.json"
    sheet.write_text(state.characters_json(), encoding="utf-8")

    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    start(page, site_url + "?lang=en&sys=gurps")
    page.locator("input[type=file]").first.set_input_files(str(sheet))
    expect(page.get_by_test_id("import-message")).to_contain_text("Imported characters:")
    expect(page.get_by_test_id("address-size")).to_contain_text(
        f"The page's address carries the screen up to {MAX_WRITTEN} characters"
    )
    expect(page.get_by_test_id("address-size")).to_contain_text("Export characters saves the whole sheet.")
    page.wait_for_url(lambda url: quote(NAME) in url)  # the sheet's address, written
    address = page.url
    assert "skills=" not in address and len(address) - len(site_url) <= MAX_WRITTEN
    context.close()

    # a copied address opens on another device: the served site answers 200, the app starts
    other = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = other.new_page()
    errors: list[str] = []
    with page.expect_response(lambda r: r.url == address) as response:
        start(page, address, errors)
    assert response.value.status == 200
    chosen = page.get_by_role("combobox", name="Character", exact=True).filter(visible=True).first
    expect(chosen.locator("option:checked")).to_have_text(NAME)  # the sheet, without its skills
    assert errors == []
    other.close()
