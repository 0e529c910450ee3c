"""Two tabs of the built site in one browser: neither writes over what the other stored.

A player has the app open and opens a shared link in a second tab; both keep working. Each tab
used to write everything it held over the storage, so the second tab's next save wiped out the
first one's new character and rolls, with no copy and no message."""

from __future__ import annotations

import json
import re

import pytest
from pages import big_roll, start, storage
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

URL = "?lang=en&sys=gurps"


def stored(page: Page) -> tuple[dict[str, list[dict]], int]:
    """The GURPS characters stored (name -> skills) and how many rolls the stored log has."""
    values = storage(page)
    chars = json.loads(values.get("kostka.characters") or "{}").get("systems", {}).get("gurps", {})
    log = json.loads(values.get("kostka.log") or '{"rolls": []}')
    return {c.get("name", ""): c.get("skills", []) for c in chars.get("characters", [])}, len(log["rolls"])


def wait_stored(page: Page, test: str) -> None:
    """Wait until the storage, read as ``chars`` (characters document) and ``log``, passes ``test``."""
    page.wait_for_function(
        "() => { const s = window.localStorage;"
        " const chars = JSON.parse(s.getItem('kostka.characters') || '{}');"
        " const log = JSON.parse(s.getItem('kostka.log') || '{\"rolls\": []}');"
        " const gurps = ((chars.systems || {}).gurps || {}).characters || [];"
        f" return {test}; }}"
    )


def type_name(page: Page, name: str) -> None:
    field = page.get_by_label("Name", exact=True).filter(visible=True)
    field.fill(name)
    expect(field).to_have_value(name)


def test_two_tabs_keep_each_others_characters_and_rolls(browser, site_url: str):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    try:
        a = context.new_page()
        start(a, site_url + URL)
        type_name(a, "Vera")
        a.get_by_label("Level", exact=True).fill("12")
        wait_stored(a, "gurps.some((c) => c.name === 'Vera' && (c.skills || []).some((s) => s.level === 12))")

        b = context.new_page()  # opened while A is open, reading Vera
        start(b, site_url + URL)
        b.get_by_role("button", name="Edit", exact=True).click()  # a stored hero opens in Play
        expect(b.get_by_label("Level", exact=True)).to_have_value("12")

        a.get_by_role("button", name=re.compile("^☰")).first.click()
        a.get_by_role("button", name="New character", exact=True).click()
        type_name(a, "Alice")
        big_roll(a).click()
        wait_stored(a, "log.rolls.length === 1")
        big_roll(a).click()
        wait_stored(a, "log.rolls.length === 2 && gurps.some((c) => c.name === 'Alice')")

        big_roll(b).click()  # B, told nothing by A before, rolls once and raises Vera's skill
        b.get_by_label("Level", exact=True).fill("14")
        wait_stored(
            b,
            "log.rolls.length === 3 && gurps.some((c) => c.name === 'Alice')"
            " && gurps.some((c) => c.name === 'Vera' && c.skills.some((s) => s.level === 14))",
        )
        chars, rolls = stored(b)
        assert sorted(chars) == ["Alice", "Vera"] and rolls == 3
        assert chars["Vera"][0]["level"] == 14

        start(a, site_url + URL)  # A, opened again, reads all of it
        chars, rolls = stored(a)
        assert sorted(chars) == ["Alice", "Vera"] and rolls == 3
        expect(b.get_by_test_id("storage-message")).to_have_count(0)  # nothing was in conflict
    finally:
        context.close()


FULL = """
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.storageFull) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  return setItem.call(this, key, value);
};
"""


def test_a_full_storage_is_said_and_nothing_typed_is_lost(tablet: Page, site_url: str):
    """The browser refuses a write (its quota reached): the page says so, keeps what was typed, and
    stores it once there is room again. A refused write used to pass unsaid."""
    page = tablet
    page.add_init_script(FULL)
    start(page, site_url + URL)
    page.evaluate("() => { window.storageFull = true; }")
    type_name(page, "Vera")
    message = page.get_by_test_id("storage-message")
    expect(message).to_contain_text("storage is full")
    expect(page.get_by_label("Name", exact=True).filter(visible=True)).to_have_value("Vera")
    assert "Vera" not in (storage(page).get("kostka.characters") or "")
    page.evaluate("() => { window.storageFull = false; }")
    type_name(page, "Vera Brandybuck")
    wait_stored(page, "gurps.some((c) => c.name === 'Vera Brandybuck')")
    expect(message).to_have_count(0)
