"""The built site started in each language looks the same: Kostka's stylesheet reaches the app
that a restored interpreter hands out in Russian or Czech (the address's ``?lang=`` or the
language the browser remembered) as it does the English one."""

from __future__ import annotations

import pytest
from pages import Server, start
from playwright.sync_api import Browser, Page
from test_site import runtime

pytestmark = [pytest.mark.browser, pytest.mark.site]

# What Kostka's stylesheet changes on controls every system screen has: a checkbox's size, the
# selected system's button, the Roll button (the elements inside Bokeh's shadow roots included).
LOOKS = """() => {
    const all = [];
    const walk = (root) => root.querySelectorAll("*").forEach((el) => {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
    });
    walk(document);
    const first = (selector, test) => all.find((el) => el.matches(selector) && (!test || test(el)));
    const style = (el, ...props) => el ? props.map((p) => getComputedStyle(el)[p]).join(" ") : null;
    return {
        // (its width is its label's, which differs by language; restyled, it is as tall as its box)
        checkbox: style(first('input[type="checkbox"]'), "height", "appearance"),
        selected: style(first("button.bk-active"), "backgroundColor", "color"),
        roll: style(first("button", (b) => /^\\s*(Roll|Бросок:|Hod:)\\s/.test(b.textContent)),
                    "minHeight", "backgroundColor"),
        linked: all.some((el) => el.matches("link[rel=stylesheet]") && el.href.endsWith("/kostka.css")),
    };
}"""


def looks(page: Page) -> dict:
    return page.evaluate(LOOKS)


@pytest.fixture(scope="module")
def english(browser: Browser, server: Server) -> dict:
    context = browser.new_context()
    page = context.new_page()
    start(page, server.url + "?lang=en")
    found = looks(page)
    context.close()
    assert all(found.values()), found
    return found


@pytest.mark.parametrize(
    ("query", "stored"),
    [
        ("?lang=ru", None),
        ("?lang=cs", None),  # asked for in the address
        ("", "ru"),
        ("", "cs"),  # remembered by the browser
    ],
)
def test_a_start_in_russian_or_czech_is_styled_as_the_english_one(
    browser: Browser,
    server: Server,
    english,
    query,
    stored,
):
    context = browser.new_context(locale="en-US")
    if stored:
        context.add_init_script(f"window.localStorage.setItem('kostka.lang', '{stored}')")
    page = context.new_page()
    start(page, server.url + query)
    assert runtime(page) == "snapshot"  # the app prepared for that language was handed out
    assert looks(page) == english
    context.close()
