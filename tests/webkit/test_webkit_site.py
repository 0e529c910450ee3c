"""The built static site in WebKit, the engine of Safari on a player's iPad or iPhone: WebKitGTK's
MiniBrowser on a tablet's page (768×1024), driven through WebKitWebDriver.

The app leans on what engines differ in: a service worker, WebAssembly, web components drawing in
shadow roots. On the real build, as in Chromium (tests/e2e): a first visit starts, and once the
service worker controls the page a reload starts with the server cut off; a one-tap roll in each
system puts its outcome in the page's status region; a shared roll link opens verified; a
character's edits outlive a reload. Nothing on the page throws meanwhile: WebKit's driver shows no
console, so the loader keeps the page's uncaught errors, and the worker's, in
``KostkaLoader.errors`` (static/loader.js), read before each page is left and at each test's end.

Each test opens the site from a server of its own, on a port of its own: another origin, so the
page starts with empty storage and no service worker in the module's one browser.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pages import APP_READY, BIG_ROLL, LOADER, LOADER_ERROR, LOADER_READY, START_TIMEOUT, STEP_TIMEOUT, build
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

from engine import links

pytestmark = [pytest.mark.webkit, pytest.mark.site]

START, STEP = START_TIMEOUT / 1000, STEP_TIMEOUT / 1000  # seconds, as Selenium counts
SYSTEMS = {"one-ring": "The One Ring", "gurps": "GURPS", "fate": "Fate & Doom"}

# ---- the page, read through every shadow root (the app draws inside Bokeh's and Panel's web
# components). What a script returns must be plain values or single elements: WebKit's driver
# gives back a list of elements as undefined.

WALK = """
const all = (root, out = []) => {
  for (const el of root.querySelectorAll("*")) {
    out.push(el);
    if (el.shadowRoot) all(el.shadowRoot, out);
  }
  return out;
};
const shown = (el) => el.getClientRects().length > 0;
const testid = (el, id) => Boolean(el.dataset) && el.dataset.testid === id;
const labelled = (el, name) => {
  const label = el.id && el.getRootNode().querySelector(`label[for="${CSS.escape(el.id)}"]`);
  return Boolean(label) && label.textContent.trim() === name;
};
const host = (el) => el.getRootNode().host || null;
"""
# pages.BIG_ROLL, which Playwright reads through the shadow root: the host's class, then its button
BIG_HOST, BIG_BUTTON = BIG_ROLL.split(" ")
BIG = f"el.matches({BIG_BUTTON!r}) && shown(el) && Boolean(host(el)) && host(el).matches({BIG_HOST!r})"
BUTTON = "el.tagName === 'BUTTON' && shown(el) && el.textContent.trim() === arguments[0]"
NAMED = "el.tagName === 'BUTTON' && shown(el) && el.getAttribute('aria-label') === arguments[0]"  # by its name
FIELD = "el.tagName === 'INPUT' && shown(el) && labelled(el, arguments[0])"
STATUS = "testid(el, 'roll-status') && el.getAttribute('role') === 'status'"
# Something only the screen of each system shows (a screen shown before stays in the page, hidden).
SCREEN = {
    "one-ring": "el.tagName === 'INPUT' && shown(el) && labelled(el, 'Awareness')",
    "gurps": "testid(el, 'effective-skill') && shown(el)",
    "fate": "el.tagName === 'BUTTON' && shown(el) && el.textContent.trim() === 'Fight'",
}
ERRORS = """
if (!document.documentElement.hasAttribute("data-kostka-loader")) return [];  // not the app's page
const loader = window.KostkaLoader;
return loader && Array.isArray(loader.errors) ? loader.errors : null;
"""


def find(driver: WebDriver, test: str, *args) -> WebElement | None:
    """The first element for which the script expression ``test`` (of ``el`` and ``arguments``) holds."""
    return driver.execute_script(f"{WALK} return all(document).find((el) => {test}) || null;", *args)


def count(driver: WebDriver, test: str, *args) -> int:
    return driver.execute_script(f"{WALK} return all(document).filter((el) => {test}).length;", *args)


def read(driver: WebDriver, test: str, what: str, *args):
    """``what`` (an expression of ``el``) of the first element ``test`` finds, or None."""
    script = f"{WALK} const el = all(document).find((el) => {test}); return el ? {what} : null;"
    return driver.execute_script(script, *args)


def wait_for(driver: WebDriver, test: str, *args, timeout: float = STEP) -> WebElement:
    return WebDriverWait(driver, timeout).until(lambda d: find(d, test, *args), f"nothing on the page for {test}")


def tap(driver: WebDriver, element: WebElement) -> None:
    """Click ``element`` as a finger would, once it is in the middle of the screen: the driver
    scrolls it to the screen's foot, where the roll's panel may cover it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def fill(driver: WebDriver, element: WebElement, text: str) -> None:
    """Put ``text`` in a field at once and leave it, as a paste does (and Playwright's ``fill``).

    Not key by key: WebKit's driver cannot click a text field inside a shadow root, and keys typed
    faster than the app answers them are partly lost (each answer writes the field back as it stood
    when that key came), in Chromium too."""
    driver.execute_script(
        "const [field, text] = arguments; field.focus(); field.value = text;"
        " field.dispatchEvent(new Event('input', {bubbles: true}));"
        " field.dispatchEvent(new Event('change', {bubbles: true})); field.blur();",
        element,
        text,
    )


def html_data(driver: WebDriver, name: str) -> str | None:
    return driver.execute_script("return document.documentElement.dataset[arguments[0]] ?? null;", name)


def status_text(driver: WebDriver) -> str:
    return read(driver, STATUS, "el.textContent.trim()") or ""


def stored_characters(driver: WebDriver) -> dict:
    return json.loads(driver.execute_script("return localStorage.getItem('kostka.characters')") or "{}")


class Host:
    """build.py's server over the site, on a port of its own, that can be cut off: while
    ``offline``, each connection is dropped unanswered, as with a network gone."""

    def __init__(self, root: Path):
        host = self
        self.offline = False

        class Handler(build.SiteHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=root, **kwargs)

            def handle(self):
                if not host.offline:
                    super().handle()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class Tab:
    """The browser's one page, and what a player does with it. Each page of the app it leaves, and
    the last one (each test ends with :meth:`no_errors`), must have kept no error."""

    def __init__(self, driver: WebDriver):
        self.driver = driver

    def open(self, url: str) -> None:
        self.no_errors()
        self.driver.get("about:blank")  # a link differing only after its '#' is opened afresh too
        self.driver.get(url)
        self.started()

    def reload(self) -> None:
        self.no_errors()
        self.driver.refresh()
        self.started()

    def started(self) -> None:
        """Wait until the page just loaded has its app drawn; fail with the loading screen's words
        (and the page's errors) if it did not start."""
        driver = self.driver
        ending = f"{LOADER_READY}, {LOADER_ERROR}"
        WebDriverWait(driver, START).until(
            lambda d: d.execute_script("return document.querySelector(arguments[0]) !== null;", ending),
            "the loading screen neither gave way nor said why",
        )
        if html_data(driver, "kostkaLoader") == "error":
            said = driver.execute_script("return document.querySelector(arguments[0])?.innerText ?? '';", LOADER)
            pytest.fail(f"the app did not start: {said}\n{driver.execute_script(ERRORS)}")
        WebDriverWait(driver, STEP).until(
            lambda d: d.execute_script("return document.querySelector(arguments[0]) !== null;", APP_READY),
            "the app did not read the address and the stored data",
        )

    def no_errors(self) -> None:
        errors = self.driver.execute_script(ERRORS)
        assert errors is not None, "the page keeps no KostkaLoader.errors: a site built before static/loader.js did"
        assert errors == [], "the page had uncaught errors"

    def roll(self) -> str:
        """Tap the screen's big Roll button; the text of the status region once the outcome is in it."""
        driver = self.driver
        before = status_text(driver)
        tap(driver, wait_for(driver, BIG))
        WebDriverWait(driver, STEP).until(
            lambda d: status_text(d) != before and read(d, "testid(el, 'result-outcome')", "el.textContent.trim()"),
            f"no new outcome in the status region (it says {before!r})",
        )
        assert read(driver, STATUS, "shown(el)"), "the status region is not on the screen"
        return status_text(driver)

    def rolled(self) -> None:
        """Wait until the roll's dice have ended their roll (the panel drops its class)."""
        WebDriverWait(self.driver, STEP).until(
            lambda d: count(d, "el.matches('.k-result.rolled')") == 0, "the dice are still rolling"
        )


@pytest.fixture(scope="module")
def hosts(site) -> Iterator[Callable[[], Host]]:
    """A new server for each call, kept until the module ends, so that no later one gets its port
    (and the storage and service worker the browser keeps for it)."""
    made: list[Host] = []

    def new() -> Host:
        made.append(Host(site))
        return made[-1]

    yield new
    for host in made:
        host.stop()


@pytest.fixture
def tab(webkit) -> Iterator[Tab]:
    yield Tab(webkit)
    webkit.get("about:blank")  # the app and its worker stop before the next test


# ---- tests


def test_a_first_visit_starts_and_a_reload_starts_again_offline(tab: Tab, hosts):
    host = hosts()
    tab.open(host.url + "?lang=en")
    driver = tab.driver
    assert html_data(driver, "kostkaRuntime") == "snapshot"  # restored, not booted
    # once the app is drawn, the service worker caches every file, then controls the page
    WebDriverWait(driver, START).until(lambda d: html_data(d, "kostkaOffline"), "the service worker never settled")
    assert html_data(driver, "kostkaOffline") == "controlled"
    assert driver.execute_script("return navigator.serviceWorker.controller !== null;")
    host.offline = True
    tab.reload()  # every file from the service worker's cache
    assert html_data(driver, "kostkaRuntime") == "snapshot"
    assert driver.execute_script("return navigator.serviceWorker.controller !== null;")
    assert tab.roll()  # and the app rolls
    tab.no_errors()


def test_a_one_tap_roll_in_each_system_shows_its_outcome(tab: Tab, hosts):
    tab.open(hosts().url + "?lang=en")
    driver = tab.driver
    seen = []
    for system, name in SYSTEMS.items():
        tap(driver, wait_for(driver, BUTTON, name))
        # the screen has changed (the previous one's Roll button may linger a moment)
        wait_for(driver, SCREEN[system])
        WebDriverWait(driver, STEP).until(lambda d: count(d, BIG) == 1, "not one Roll button on the screen")
        said = tab.roll()
        assert said not in seen, said
        seen.append(said)
        tab.rolled()
    # The One Ring: "Total 9 against TN 15", or with a Gandalf rune "(total 0, TN 15)"
    assert re.search(r"(?i)total \d+(?: against|,) TN \d+", seen[0]), seen[0]
    assert re.search(r"Rolled \d+ against effective skill \d+", seen[1]), seen[1]  # GURPS
    assert re.search(r"2d6 = \d+", seen[2]), seen[2]  # Fate & Doom
    tab.no_errors()


def test_a_shared_roll_link_opens_verified(tab: Tab, hosts):
    tab.open(hosts().url + "?lang=en&sys=fate")
    driver = tab.driver
    wait_for(driver, SCREEN["fate"])
    tab.roll()
    tap(driver, wait_for(driver, "testid(el, 'result-share') && shown(el)"))
    wait_for(driver, "testid(el, 'share-link') && shown(el)")
    url = read(driver, "testid(el, 'share-link') && shown(el)", "el.textContent.trim()")
    roll = links.verify(url).roll  # the engine makes the same roll of it
    assert links.decode_link(url).system == "fate"
    tab.open(url)  # the link, opened afresh
    wait_for(driver, "testid(el, 'pinged')")  # the link panel has drawn itself again
    verdict = "testid(el, 'verdict') && shown(el)"
    wait_for(driver, verdict)
    assert read(driver, verdict, "el.dataset.status") == "verified"
    faces = driver.execute_script(
        f"{WALK} const box = all(document).find((el) => testid(el, 'link-dice'));"
        " return [...box.querySelectorAll('svg.die')].map((die) => die.getAttribute('aria-label'));"
    )
    assert faces == [f"Die showing {f}" for f in roll.dice]
    tab.no_errors()


def test_a_stored_character_outlives_a_reload(tab: Tab, hosts):
    tab.open(hosts().url + "?lang=en")  # The One Ring; a blank character opens in Edit
    driver = tab.driver
    fill(driver, wait_for(driver, FIELD, "Name"), "Bilbo Baggins")
    for value in ("1", "2"):  # two taps on the stepper, each once the one before has come back
        tap(driver, wait_for(driver, NAMED, "Increase Awareness"))
        WebDriverWait(driver, STEP).until(lambda d, value=value: read(d, FIELD, "el.value", "Awareness") == value)

    def stored(d: WebDriver) -> bool:
        hero = stored_characters(d).get("systems", {}).get("one-ring", {}).get("characters", [{}])[0]
        return hero.get("name") == "Bilbo Baggins" and hero.get("awareness") == 2

    WebDriverWait(driver, STEP).until(stored, "the character was not stored")
    # The sheet is in the address too, written a moment after the storage: a reload in between
    # keeps the address's older sheet beside the stored one, as "Bilbo Baggins (2)" (in Chromium too).
    WebDriverWait(driver, STEP).until(
        lambda d: d.execute_script(
            "const q = new URLSearchParams(location.search);"
            " return q.get('name') === 'Bilbo Baggins' && q.get('awareness') === '2';"
        ),
        "the address does not have the character",
    )
    tab.reload()
    # a filled-in hero opens in Play: chosen in the list, the row showing its Awareness
    wait_for(driver, "el.tagName === 'SELECT' && shown(el) && el.value === 'Bilbo Baggins'")
    row = read(driver, NAMED, "el.textContent", "Roll Awareness")
    assert re.fullmatch(r"Awareness\s*2", row.strip()), row
    tap(driver, wait_for(driver, BUTTON, "Edit"))
    WebDriverWait(driver, STEP).until(lambda d: read(d, FIELD, "el.value", "Name") == "Bilbo Baggins")
    assert read(driver, FIELD, "el.value", "Awareness") == "2"
    tab.no_errors()
