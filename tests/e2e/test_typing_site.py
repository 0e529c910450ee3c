"""Every key typed into a name reaches the character, however fast it is typed, on the built site.

Python answers each key the page sends it; that answer used to write the text of that key back
into the field, and the keys typed since were wiped out ("Tilda Brandybuck" stored as "Tila
Brandybck"). Typed here as a quick thumb types, with no pause and a short one between keys."""

from __future__ import annotations

import json

import pytest
from pages import start, storage
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

NAME = "Tilda Brandybuck"


def stored_names(page: Page) -> list[str]:
    text = storage(page).get("kostka.characters")
    if not text:
        return []
    systems = json.loads(text).get("systems", {})
    return [c.get("name", "") for entry in systems.values() for c in entry.get("characters", [])]


@pytest.mark.parametrize("delay", [0, 30])
@pytest.mark.parametrize("system", ["one-ring", "gurps", "fate"])
def test_a_name_typed_quickly_keeps_every_key(tablet: Page, site_url: str, system: str, delay: int):
    page = tablet
    start(page, site_url + f"?lang=en&sys={system}")
    field = page.get_by_label("Name", exact=True).filter(visible=True)
    field.click()
    field.press_sequentially(NAME, delay=delay)
    expect(field).to_have_value(NAME)
    page.wait_for_function(
        "(name) => (window.localStorage.getItem('kostka.characters') || '').includes(name)", arg=NAME
    )
    page.wait_for_timeout(500)  # the answers to the last keys have all come back
    expect(field).to_have_value(NAME)
    assert NAME in stored_names(page)
