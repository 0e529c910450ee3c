"""The built site's start-up at a phone's width and a desktop's: whatever the system the address
names, the page reads the stored characters and says it is ready (``<html data-kostka=ready>``).

At a narrow width the first screen's charts report their new sizes to Python while the address's
system replaces that screen; those reports come in one patch with the storage's answer, and the
storage's answer must still arrive. The page's patches also come close together then: each must
be applied, none in place of another."""

from __future__ import annotations

import pytest
from pages import seeded, started
from playwright.sync_api import Browser, expect

from webapp.state.app import AppState

pytestmark = [pytest.mark.browser, pytest.mark.site]


def stored_characters() -> str:
    """One stored character per system: Tilda (The One Ring), Gunnar (GURPS), Vera (Fate & Doom)."""
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", lore="4")
    app.gurps.character.param.update(name_text="Gunnar", skills=[{"name": "Guns", "level": "13"}])
    app.fate.character.param.update(name_text="Vera", skill="8")
    return app.characters_json()


@pytest.mark.parametrize("size", [pytest.param((390, 844), id="phone"), pytest.param((1024, 768), id="desktop")])
@pytest.mark.parametrize(
    ("address", "name"),
    [
        pytest.param("?lang=en&sys=gurps", "Gunnar", id="gurps"),
        pytest.param("?lang=en&sys=fate", "Vera", id="fate"),
        pytest.param("?lang=en", "Tilda", id="one-ring"),
    ],
)
def test_the_stored_characters_are_read_at_every_width(
    browser: Browser, site_url: str, size: tuple[int, int], address: str, name: str
):
    width, height = size
    context = seeded(browser, {"kostka.characters": stored_characters()}, viewport={"width": width, "height": height})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(site_url + address)
        started(page, errors)  # the app drawn, then html[data-kostka=ready]
        expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text([name])
    finally:
        context.close()
