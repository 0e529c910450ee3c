"""Tablet and phone layout of the web app in headless Chromium against ``panel serve``.

For every screen (The One Ring, GURPS, Fate & Doom skill check, Fate & Doom
fight, empty and running) at 768×1024, 1024×768 and a 390×844 phone (one page, resized), every
visible control must be a touch target of at least 44×44 CSS px, no two controls
may overlap, and a phone never scrolls sideways.

What counts as a control: ``button``, ``select``, ``textarea``, every
``input`` but hidden ones, ``[role=button]`` and ``[role=tab]``, looked up
through every shadow root. A checkbox or radio input counts by the box of the
``<label>`` that holds it (tapping the label toggles it), or by its own box when
it has no label. Controls wider than the screen, or starting left of it, are cut
off and fail too.
"""

from __future__ import annotations

import re

import pytest
from pages import CONTROLS, big_roll, open_served
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser
expect.set_options(timeout=15_000)

MIN = 44
VIEWPORTS = {"portrait": (768, 1024), "landscape": (1024, 768), "phone": (390, 844)}
SCREENS = ["one-ring", "gurps", "fate", "fight", "fight-run"]


FIGHT = {"en": "Fight", "ru": "Бой", "cs": "Boj"}


def open_screen(page: Page, url: str, screen: str, lang: str = "en") -> None:
    system = "fate" if screen.startswith("fight") else screen
    open_served(page, f"{url}?lang={lang}&sys={system}")
    if screen == "fight-run":  # a hero and a wolf placed, the fight started: the taps of a running fight
        page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
        expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])
    if screen.startswith("fight"):
        page.get_by_role("button", name=FIGHT[lang], exact=True).click()
        expect(page.locator(".bench-monsters button").first).to_be_visible()
    if screen == "fight-run":
        for name, where in (("Ada", "heroes-1-attacking"), ("Wolf", "monsters-1-attacking")):
            page.locator(".bench-heroes button, .bench-monsters button").filter(
                has_text=re.compile(f"^{name}$")
            ).click()
            page.locator(f".place-{where} button").click()
            expect(page.locator(f".place-{where} button")).to_have_text(name)
        page.get_by_role("button", name="Start the fight").click()
        expect(page.get_by_role("button", name="Attack", exact=True)).to_be_visible()
    if not screen.startswith("fight"):  # after a roll: the dice, and the picker of special successes if any
        big_roll(page).click()
        expect(page.get_by_test_id("result-outcome")).to_be_visible()
        # the result floats over the lower part of a portrait screen: a tap folds it to its outcome line
        expect(page.get_by_test_id("result-outcome")).to_be_visible()
        page.get_by_test_id("roll-status").click()
        expect(page.get_by_test_id("result-share")).to_be_hidden()
    page.wait_for_timeout(300)  # let the layout settle after the last redraw


@pytest.mark.parametrize("screen", SCREENS)
def test_every_control_is_a_touch_target_and_nothing_is_cut_off(browser: Browser, app_url: str, screen: str):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    problems = []
    try:
        open_screen(page, app_url, screen)
        for viewport, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            page.wait_for_timeout(400)  # the layout follows the new size
            controls = page.evaluate(CONTROLS)
            assert len(controls) > 5, f"{screen} @ {viewport}: no controls found"
            for c in controls:
                if c["w"] < MIN or c["h"] < MIN:
                    problems.append(f"{screen} @ {viewport}: {c['what']} is {c['w']}×{c['h']} px")
                if c["left"] < 0 or c["right"] > width:
                    problems.append(f"{screen} @ {viewport}: {c['what']} spans {c['left']}..{c['right']} px of {width}")
            for a, b in overlapping(controls):
                problems.append(f"{screen} @ {viewport}: {a['what']} overlaps {b['what']}")
            scroll = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
            if viewport == "phone" and scroll[0] > scroll[1]:
                problems.append(f"{screen} @ phone: the page is {scroll[0]} px wide in a {scroll[1]} px window")
    finally:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", ["ru", "cs"])
@pytest.mark.parametrize("screen", SCREENS[:4])
def test_longer_labels_wrap_inside_their_controls(browser: Browser, app_url: str, screen: str, lang: str):
    """Russian and Czech labels are longer: a choice of buttons that no longer fits its line wraps,
    and grows, rather than running under the field below it (GURPS's contest kinds in Russian on a
    phone did)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    problems = []
    try:
        open_screen(page, app_url, screen, lang)
        for viewport in ("phone", "portrait"):
            width, height = VIEWPORTS[viewport]
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            page.wait_for_timeout(400)
            controls = page.evaluate(CONTROLS)
            problems += [f"{screen} @ {viewport}: {a['what']} overlaps {b['what']}" for a, b in overlapping(controls)]
    finally:
        context.close()
    assert not problems, "\n".join(problems)


#: The notes beside controls (help texts, rules readings, readouts), found as CONTROLS finds controls.
NOTES = CONTROLS.replace(
    "const SEL = 'button, select, textarea, input:not([type=hidden]), [role=button], [role=tab]';",
    "const SEL = '.note';",
)
assert NOTES != CONTROLS


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
@pytest.mark.parametrize("screen", SCREENS[:3])
def test_no_note_runs_over_a_control(browser: Browser, app_url: str, screen: str, lang: str):
    """A help text beside a field wraps under it when the line is too narrow (the session code's
    help ran over its field on a phone)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    problems = []
    try:
        open_screen(page, app_url, screen, lang)
        for viewport in ("phone", "portrait", "landscape"):
            width, height = VIEWPORTS[viewport]
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function("(w) => window.innerWidth === w", arg=width)
            page.wait_for_timeout(400)
            controls, notes = page.evaluate(CONTROLS), page.evaluate(NOTES)
            assert notes, f"{screen} @ {viewport}: no notes found"
            problems += [
                f"{screen} @ {viewport}: {a['what']} overlaps {b['what']}"
                for a, b in overlapping(notes + controls)
                if (a in notes) != (b in notes)
            ]
    finally:
        context.close()
    assert not problems, "\n".join(problems)


def overlapping(controls: list[dict]) -> list[tuple[dict, dict]]:
    """Pairs of controls whose boxes share more than a 1 px sliver."""
    pairs = []
    for i, a in enumerate(controls):
        for b in controls[i + 1 :]:
            dx = min(a["right"], b["right"]) - max(a["left"], b["left"])
            dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if dx > 1 and dy > 1:
                pairs.append((a, b))
    return pairs


def test_dark_theme_changes_the_background_and_is_remembered(page: Page, app_url: str):
    background = "() => getComputedStyle(document.body).backgroundColor"
    open_served(page, app_url + "?lang=en&sys=one-ring")
    light = page.evaluate(background)
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Dark theme").click()
    page.wait_for_function(f"(light) => ({background})() !== light", arg=light)
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    dark = page.evaluate(background)
    page.wait_for_function("() => localStorage.getItem('kostka.theme') === 'dark'")
    page.reload()
    page.locator("html[data-kostka=ready]").wait_for(state="attached")
    page.wait_for_function(f"(dark) => ({background})() === dark", arg=dark)
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Dark theme").click()  # back to light for the other tests
    page.wait_for_function(f"(light) => ({background})() === light", arg=light)


def test_a_checkbox_toggles_when_its_label_is_tapped(browser: Browser, app_url: str):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        open_screen(page, app_url, "one-ring")
        weary = page.locator("div.bk-Checkbox").filter(has_text=re.compile(r"^Weary$"))
        weary.scroll_into_view_if_needed()
        box = weary.locator(".bk-label").bounding_box()
        assert box is not None
        expect(weary.locator("input")).not_to_be_checked()
        page.touchscreen.tap(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)  # on the word, not the square
        expect(weary.locator("input")).to_be_checked()
        expect(page).to_have_url(re.compile(r"weary=1"))  # the app took it, not only the page
        page.touchscreen.tap(box["x"] + box["width"] - 4, box["y"] + box["height"] / 2)
        expect(weary.locator("input")).not_to_be_checked()
    finally:
        context.close()
