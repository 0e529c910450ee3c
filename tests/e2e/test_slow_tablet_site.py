"""The built site on a slow tablet (Chromium's CPU throttled 4x): the app is on the page once.

The page used to carry a copy of the app drawn at build time, embedded when the HTML had been
parsed and covered by the loading screen. On a slow tablet the worker's app, restored from the
snapshot, could arrive before that copy was embedded: both stayed on the page, one under the other
(two headers, two Character lists, the English one among Russian controls)."""

from __future__ import annotations

import pytest
from pages import start
from playwright.sync_api import Browser

pytestmark = [pytest.mark.browser, pytest.mark.site]


def test_the_page_carries_no_app_drawn_at_build_time(site_url: str):
    from urllib.request import urlopen

    with urlopen(site_url) as response:
        html = response.read().decode("utf-8")
    assert "embed_items(docs_json" not in html and 'type="application/json"' not in html
    assert len(html) < 50_000  # the page itself, not a megabyte of a document's JSON


@pytest.mark.parametrize(
    ("address", "size", "pressed"),
    [
        pytest.param("?lang=ru", (1024, 768), ["Единое Кольцо", "Русский", "Правка"], id="ru-landscape"),
        pytest.param("?lang=en&sys=fate", (768, 1024), ["Fate & Doom", "English", "Skill check"], id="fate-portrait"),
        pytest.param(
            "?lang=cs&sys=gurps", (1024, 768), ["GURPS", "Čeština", "Úpravy", "Rychlé soupeření"], id="gurps-landscape"
        ),
    ],
)
def test_a_throttled_start_shows_one_app(browser: Browser, site_url: str, address: str, size, pressed: list[str]):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    try:
        start(page, site_url + address)
        page.wait_for_timeout(1500)  # what a late copy would need to be drawn
        # the chosen system, language, view of the sheet and kind of roll, each pressed once: one
        # header, one screen (the language in the closed menu; a screen the address has left stays
        # in the page, hidden)
        shown = page.locator("button.bk-active").filter(visible=True).all_inner_texts()
        in_menu = page.locator(".k-menu button.bk-active").all_inner_texts()
        assert sorted(shown + in_menu) == sorted(pressed)
    finally:
        context.close()
