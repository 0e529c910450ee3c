"""A GURPS skill row deleted by its ✕ on the built site can be brought back with one tap.

The ✕ sits beside the row's ⚄ on a phone: a slip deleted the row at once, with no way back."""

from __future__ import annotations

import pytest
from pages import start
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]


def test_a_deleted_skill_row_comes_back(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=gurps")
    name = page.get_by_label("Skill 1", exact=True)
    name.fill("Broadsword")
    page.get_by_label("Level", exact=True).fill("14")
    expect(page.get_by_role("button", name="Roll Broadsword", exact=True)).to_have_count(1)
    page.get_by_role("button", name="✕", exact=True).tap()
    expect(page.get_by_test_id("row-deleted")).to_have_text("Deleted: Broadsword.")
    expect(page.get_by_label("Skill 1", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Bring the row back", exact=True).tap()
    expect(page.get_by_label("Skill 1", exact=True)).to_have_value("Broadsword")
    expect(page.get_by_label("Level", exact=True)).to_have_value("14")
    expect(page.get_by_test_id("row-deleted")).to_have_count(0)
