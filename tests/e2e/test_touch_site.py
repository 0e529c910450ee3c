"""Real touch events on the fight screen of the built site: tap a hero, then a place.

The taps go through the DevTools protocol (``Input.dispatchTouchEvent``
touchStart / touchEnd), as a finger's do: the browser itself turns them into
pointer, touch and click events, with its own double-tap and tap-delay logic on
a mobile viewport, which Playwright's ``tap()`` shortcut does not exercise the
same way. Pauses of 0.3, 0.8 and 1.5 s between the two taps, on a phone and a
tablet.
"""

from __future__ import annotations

import re

import pytest
from pages import START_TIMEOUT, STEP_TIMEOUT
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]


def finger_tap(page: Page, cdp, locator) -> None:
    """A finger's tap at the middle of ``locator``: touchStart, a short press, touchEnd."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2, "radiusX": 8, "radiusY": 8}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_timeout(60)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


@pytest.mark.parametrize("size", [pytest.param((390, 844), id="phone"), pytest.param((768, 1024), id="tablet")])
@pytest.mark.parametrize("pause", [300, 800, 1500])
def test_a_finger_taps_a_hero_then_a_place_whatever_the_pause(browser: Browser, site_url: str, size, pause: int):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    page.goto(site_url + "?lang=en&sys=fate")
    page.wait_for_selector("html[data-kostka=ready]", state="attached", timeout=START_TIMEOUT)
    page.set_default_timeout(STEP_TIMEOUT)
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])  # the name has arrived
    finger_tap(page, cdp, page.get_by_role("button", name="Fight", exact=True))
    hero = page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$"))
    place = page.locator(".place-heroes-1-attacking button")
    expect(hero).to_be_visible()
    hero.scroll_into_view_if_needed()
    finger_tap(page, cdp, hero)
    page.wait_for_timeout(pause)
    finger_tap(page, cdp, place)
    expect(place).to_have_text("Ada")
    expect(page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$"))).to_be_hidden()
    # and the monster the same way, the other side of the screen
    wolf = page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$"))
    monster_place = page.locator(".place-monsters-1-attacking button")
    finger_tap(page, cdp, wolf)
    page.wait_for_timeout(pause)
    finger_tap(page, cdp, monster_place)
    expect(monster_place).to_have_text("Wolf")
    context.close()
