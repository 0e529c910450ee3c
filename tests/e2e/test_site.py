"""The built static site (``python build.py``) in headless Chromium, served from 127.0.0.1.

The app must start under Pyodide with every file from this one server (any request to
another host fails the test), draw its odds chart, roll in each system, and, after one
visit, start again with the server gone and the browser offline (service worker cache),
and open a roll link there, verified.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pages import (
    APP_READY,
    LOADER,
    LOADER_ERROR,
    LOADER_READY,
    START_TIMEOUT,
    Server,
    big_roll,
    build,
    damage_snapshot,
    start,
    started,
)
from playwright.sync_api import Browser, BrowserContext, Page, expect

from engine import FateCheck, links

pytestmark = [pytest.mark.browser, pytest.mark.site]

# ---- how the tests find things on the page (the web app's accessible names and test ids)
SYSTEMS = {"one-ring": "The One Ring", "gurps": "GURPS", "fate": "Fate & Doom"}
RESULT, OUTCOME, ODDS = "result-dice", "result-outcome", "p-success"  # (the result panel)
CHART = "canvas"  # Bokeh draws on <canvas> (inside shadow roots, which Playwright pierces)


def system_button(page: Page, system: str):
    return page.get_by_role("button", name=SYSTEMS[system], exact=True)


def screen_marker(page: Page, system: str):
    """Something only the screen of ``system`` shows (a screen shown before stays in the page, hidden)."""
    if system == "one-ring":
        found = page.get_by_label("Awareness", exact=True)  # the sheet's field (Edit, the first view)
    elif system == "gurps":
        found = page.get_by_test_id("effective-skill")
    else:
        found = page.get_by_role("button", name="Fight", exact=True)
    return found.filter(visible=True).first


def roll_button(page: Page):
    return big_roll(page)


# ---- what a page asked for


class Traffic:
    """Every URL the pages, workers and service worker of a context asked for, and failed answers."""

    def __init__(self, context: BrowserContext):
        self.requests: list[str] = []
        self.failures: list[str] = []
        context.on("request", lambda r: self.requests.append(r.url))
        context.on("response", lambda r: r.status >= 400 and self.failures.append(f"{r.status} {r.url}"))
        context.on("requestfailed", lambda r: self.failures.append(f"failed {r.url} {r.failure}"))

    def foreign(self) -> list[str]:
        return [u for u in self.requests if not is_local(u)]


def is_local(url: str) -> bool:
    if url.startswith(("data:", "about:")):
        return True
    if url.startswith("blob:"):
        url = url[len("blob:") :]
    return urlsplit(url).hostname == "127.0.0.1"


def roll_in_each_system(page: Page) -> None:
    for system in SYSTEMS:
        system_button(page, system).click()
        # the screen has changed (the previous one's odds and Roll button may linger a moment)
        expect(screen_marker(page, system)).to_be_visible()
        expect(page.get_by_test_id(ODDS).filter(visible=True).first).to_have_text(re.compile(r"\d+(\.\d+)?\s?%"))
        roll_button(page).click()
        expect(page.get_by_test_id(RESULT).first).to_be_visible()
        expect(page.get_by_test_id(OUTCOME).first).not_to_be_empty()


def runtime(page: Page) -> str | None:
    """How the worker got its interpreter: "snapshot" (the site's, restored) or "boot"."""
    return page.locator("html").get_attribute("data-kostka-runtime")


# ---- tests


def test_site_is_self_contained(site):
    """The build's own checks, re-run on the result: nothing fetched from another host, nothing missing."""
    assert build.scan_foreign_urls(site) == []
    assert build.check_local_references(site) == []
    sw = (site / "sw.js").read_text(encoding="utf-8")
    # the build's manifest: every file with its sha256 (the page, index.html, is "./")
    manifest = (re.search(rf"const {name} = (\{{.*?\}});", sw, re.S).group(1) for name in ("PRECACHE", "ON_DEMAND"))
    precache, on_demand = (set(json.loads(text)) for text in manifest)
    full_stdlib = build.PYODIDE_SITE_DIR + build.STDLIB_ZIP
    for path in site.rglob("*"):
        if path.is_file() and path.name not in ("sw.js", ".build-stamp"):
            rel = "./" if path.name == "index.html" else path.relative_to(site).as_posix()
            # the wheels and the whole standard library only serve a start that cannot restore the
            # snapshot: cached when first fetched
            fresh_boot = path.suffix == ".whl" or rel == full_stdlib
            assert rel in (on_demand if fresh_boot else precache), f"{path} is not cached for offline use"
    assert f"{build.PYODIDE_SITE_DIR}{build.SNAPSHOT_PART.format(0)}" in precache
    assert f"{build.PYODIDE_SITE_DIR}{build.STDLIB_REST}" in precache


def test_a_restored_start_gets_the_standard_library_without_the_modules_the_snapshot_holds(site: Path):
    """The zip a restored interpreter reads is Pyodide's whole standard library less modules the
    snapshot holds in memory (the build's check of the snapshot proves its importers read it right)."""
    with zipfile.ZipFile(site / build.PYODIDE_SITE_DIR / build.STDLIB_ZIP) as full:
        whole = {info.filename: full.read(info) for info in full.infolist()}
    with zipfile.ZipFile(site / build.PYODIDE_SITE_DIR / build.STDLIB_REST) as rest:
        assert rest.testzip() is None
        kept = {info.filename: rest.read(info) for info in rest.infolist()}
    assert all(whole.get(name) == data for name, data in kept.items())  # each file as it was
    left_out = set(whole) - set(kept)
    assert all(name.endswith(".py") for name in left_out)  # modules only: data files stay
    # what Panel, Bokeh and the app import is held; what nothing imports stays in the zip
    assert {"json/__init__.py", "typing.py", "asyncio/__init__.py", "encodings/utf_8.py"} <= left_out
    assert {"os.py", "codecs.py", "zipimport.py"} <= left_out  # frozen into the interpreter
    assert {"graphlib.py", "encodings/cp1250.py", "pydoc.py", "site-packages/"} <= set(kept)
    assert sum(len(d) for d in kept.values()) < 0.8 * sum(len(d) for d in whole.values())


def test_app_starts_draws_odds_and_rolls_in_every_system(browser: Browser, server: Server):
    context = browser.new_context()
    traffic = Traffic(context)
    page = context.new_page()
    start(page, server.url + "?lang=en")
    expect(page.locator(LOADER)).to_have_count(0)
    page.get_by_role("button", name="Show the charts", exact=True).first.click()  # folded until asked for
    expect(page.locator(CHART).first).to_be_attached()  # the odds chart is drawn
    # Kostka's stylesheet (one shared file, linked from every component) is applied: touch-sized buttons
    expect(roll_button(page)).to_have_css("min-height", "44px")
    assert runtime(page) == "snapshot"  # restored, not booted: no wheel is downloaded
    roll_in_each_system(page)
    context.close()
    assert traffic.foreign() == [], "the page asked another host"
    assert traffic.failures == [], "some files were missing or failed"
    assert any(u.endswith(".wasm") for u in traffic.requests)
    assert not any(u.endswith(".whl") for u in traffic.requests)
    # the standard library without the modules the snapshot holds, not the whole one
    assert any(u.endswith("/" + build.STDLIB_REST) for u in traffic.requests)
    assert not any(u.endswith("/" + build.STDLIB_ZIP) for u in traffic.requests)


#: Every text the loading screen has shown, kept in ``window.kostkaLoaderSaid`` from the page's
#: start: a quick start lifts the loading screen before a test could read it.
LOADER_SAID_INIT_JS = """
window.kostkaLoaderSaid = [];
new MutationObserver(() => {
  const text = document.getElementById("kostka-loader")?.textContent;
  if (text && window.kostkaLoaderSaid.at(-1) !== text) window.kostkaLoaderSaid.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def test_loading_screen_speaks_the_stored_language(browser: Browser, server: Server):
    for locale, stored, step in (("en-US", "cs", "Krok"), ("ru-RU", None, "Шаг")):  # "Step n of 5"
        context = browser.new_context(locale=locale)
        if stored:
            context.add_init_script(f"window.localStorage.setItem('kostka.lang', '{stored}')")
        context.add_init_script(LOADER_SAID_INIT_JS)
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector(APP_READY, state="attached", timeout=START_TIMEOUT)
        said = page.evaluate("window.kostkaLoaderSaid")
        assert any(step in text for text in said), said
        context.close()


#: What the page shows at the moment the loader says it is ready (read in the same turn, before the
#: page runs anything else): the accessible names of the buttons laid out, through every shadow
#: root, and whether the result panel is there.
READY_SHOWS_INIT_JS = """
window.kostkaReadyShowed = null;
new MutationObserver((records, observer) => {
  if (document.documentElement.dataset.kostkaLoader !== "ready") return;
  observer.disconnect();
  const shown = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.tagName === "BUTTON" && el.getAttribute("aria-label") && el.getClientRects().length)
        shown.push(el.getAttribute("aria-label"));
      if (el.dataset && el.dataset.testid === "result-panel") shown.push("result panel");
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  window.kostkaReadyShowed = shown;
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-kostka-loader"]});
"""


def test_the_loading_screen_gives_way_once_the_roll_buttons_are_drawn(browser: Browser, server: Server):
    """The components drawn in the browser (the one-tap rolls, the result panel) draw themselves once
    their modules have loaded, after the rest of the page: the loading screen waits for them, so
    that "ready" is a page the player can roll on (and the start-up figures measure that page)."""
    context = browser.new_context()
    context.add_init_script(READY_SHOWS_INIT_JS)
    page = context.new_page()
    for visit in range(2):  # the first visit, and a later one restored from the offline copy
        if visit:
            page.reload()
        else:
            page.goto(server.url + "?lang=en")
        started(page)
        showed = page.evaluate("window.kostkaReadyShowed")
        assert "Roll Awareness" in showed and "result panel" in showed, showed
    context.close()


@pytest.mark.parametrize(
    ("locale", "query", "pressed", "character"),
    [
        # system, language and the sheet's view (Edit), each pressed in the page's language
        ("cs-CZ", "", ["Jeden prsten", "Čeština", "Úpravy"], "Postava 1"),  # the browser's language
        ("cs-CZ", "?lang=ru", ["Единое Кольцо", "Русский", "Правка"], "Персонаж 1"),  # the address wins
    ],
)
def test_the_first_screen_is_drawn_in_the_language_of_the_loading_screen(
    browser: Browser, server: Server, locale, query, pressed, character
):
    context = browser.new_context(locale=locale)
    page = context.new_page()
    start(page, server.url + query)
    # read at once, no retry (Playwright's CSS locators see through Bokeh's shadow roots)
    system, language, view = pressed
    # the language in the folded menu; the other screens' first screens are in the page, hidden
    assert page.locator("button.bk-active").filter(visible=True).all_inner_texts() == [system, view]
    assert language in page.locator("button.bk-active").all_inner_texts()
    assert page.locator("select").first.evaluate("s => s.options[s.selectedIndex].text") == character
    context.close()


def test_a_snapshot_or_wheel_that_fails_its_integrity_check_is_refused(browser: Browser, server: Server):
    """Each download is checked against the sha256 the build wrote down: a damaged snapshot is
    never restored (the worker boots afresh from the wheels), and a damaged wheel is never
    unpacked (Pyodide's own loader fetches it again)."""
    context = browser.new_context()
    served: list[str] = []

    def damage_wheel_once(route):
        served.append(route.request.url)
        if len(served) == 1:  # an empty zip in place of the wheel
            route.fulfill(status=200, body=b"PK\x05\x06" + bytes(18), content_type="application/zip")
        else:
            route.continue_()

    damage_snapshot(context)
    context.route("**/pyodide/segno-*.whl", damage_wheel_once)
    page = context.new_page()
    start(page, server.url + "?lang=en")
    assert runtime(page) == "boot"
    assert len(served) == 2, served
    roll_in_each_system(page)
    context.close()


def test_a_snapshot_that_restores_but_cannot_run_the_app_is_not_used_again(
    browser: Browser, server: Server, site: Path
):
    """A snapshot that restores but fails to run the app (here: its prepared apps are handed out
    before the visitor's turn) shows the error screen once; the reload it offers boots afresh, and
    so does every later start of that build in this browser."""
    config = re.search(r"const KOSTKA = (\{.*?\});\n", (site / "app.js").read_text(encoding="utf-8"))
    kostka = json.loads(config.group(1))
    kostka["welcome"] = "from webapp.startup import welcome\nwelcome('en')\n" + kostka["welcome"]
    app_js = (site / "app.js").read_text(encoding="utf-8").replace(config.group(1), json.dumps(kostka))
    # the build's manifest (in sw.js) lists the changed app.js, as a build of it would
    sw = (site / "sw.js").read_text(encoding="utf-8")
    digest = lambda text: "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()  # noqa: E731
    sw = sw.replace(digest((site / "app.js").read_text(encoding="utf-8")), digest(app_js))
    context = browser.new_context()
    context.route("**/app.js", lambda route: route.fulfill(status=200, body=app_js, content_type="text/javascript"))
    context.route("**/sw.js", lambda route: route.fulfill(status=200, body=sw, content_type="text/javascript"))
    page = context.new_page()
    page.goto(server.url + "?lang=ru")
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    assert page.locator(LOADER_ERROR).count() == 1
    assert runtime(page) == "snapshot"
    reload = page.get_by_role("button", name="Перезагрузить")  # the error screen offers a reload
    expect(reload).to_be_visible()
    for attempt in range(2):
        reload.click() if attempt == 0 else page.reload()
        started(page)
        assert runtime(page) == "boot"
        expect(big_roll(page)).to_contain_text("Бросок: ")
        page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=START_TIMEOUT)
    # the wheels and the whole standard library such a start needs were kept for offline use as
    # they came (the service worker, installed after the first start, served the second boot)
    cached = page.evaluate("""async () => {
        const names = [];
        for (const name of await caches.keys()) {
            for (const request of await (await caches.open(name)).keys()) names.push(request.url);
        }
        return names;
    }""")
    assert len([url for url in cached if url.endswith(".whl")]) == len(kostka["wheels"])
    assert [url for url in cached if url.endswith("/" + build.STDLIB_ZIP)] != []
    # and such a start works offline from then on
    context.set_offline(True)
    page.reload()
    started(page)
    assert runtime(page) == "boot"
    roll_button(page).click()
    expect(page.get_by_test_id(RESULT).first).to_be_visible()
    expect(page.get_by_test_id(OUTCOME).first).not_to_be_empty()
    context.close()


def test_starts_restored_from_the_snapshot_keep_their_own_language_and_fresh_randomness_and_roll_nothing(
    browser: Browser, server: Server
):
    """The snapshot holds an app prepared at build time for each language: each start gets the
    visitor's, can switch to another, and no two starts share Python's random state or a roll seed."""
    context = browser.new_context()
    draws = []
    for lang, roll in (("ru", "Бросок: "), ("cs", "Hod: ")):
        tab = context.new_page()
        start(tab, server.url + f"?lang={lang}")
        assert runtime(tab) == "snapshot"
        expect(big_roll(tab)).to_contain_text(roll)
        (worker,) = [w for w in tab.workers if urlsplit(w.url).path.endswith("/app.js")]
        draws.append(
            worker.evaluate(
                "self.pyodide.runPython('import random, engine.rng; f\"{random.getrandbits(64)} {engine.rng.random_seed()}\"')"
            )
        )
        # while the page drew the document, another language's app rolled once, nobody seeing it,
        # and was let go (webapp/startup.py, rehearse): the visitor's app has rolled nothing
        rehearsed = "from webapp import startup; f'{startup._spare} {len(startup.visitor.state.rolls.log.entries)}'"
        assert worker.evaluate(f"self.pyodide.runPython({rehearsed!r})") == "None 0"
        expect(tab.get_by_test_id(OUTCOME)).to_have_count(0)
    first, second = (d.split() for d in draws)
    assert first[0] != second[0] and first[1] != second[1], draws
    tab.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    tab.get_by_role("button", name="English").click()  # a switch on the page, in a restored app
    expect(big_roll(tab)).to_be_visible()
    roll_in_each_system(tab)
    context.close()


def test_works_offline_after_one_visit(browser: Browser, site: Path):
    own = Server(site)  # a server of its own: this test stops it
    context = browser.new_context()
    traffic = Traffic(context)
    page = context.new_page()
    start(page, own.url + "?lang=en")
    # once the app is drawn, the service worker caches every file, then controls the page; the
    # loading screen is gone by then, so a status line at the foot of the page says so (for a few
    # seconds: looked for at once)
    expect(page.get_by_role("status").filter(has_text="Saved for offline use.")).to_be_visible(timeout=START_TIMEOUT)
    page.wait_for_selector("html[data-kostka-offline]", state="attached", timeout=START_TIMEOUT)
    assert page.locator("html").get_attribute("data-kostka-offline") == "controlled"
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert runtime(page) == "snapshot"
    own.stop()
    context.set_offline(True)
    page.reload()
    started(page)
    assert runtime(page) == "snapshot"
    page.get_by_role("button", name="Show the charts", exact=True).first.click()
    expect(page.locator(CHART).first).to_be_attached()
    roll_in_each_system(page)
    # a roll link opened while offline, in a new tab: recomputed and verified by the cached app
    payload = links.encode_roll_link(FateCheck(skill=8, difficulty=1), seed=7, name="Bilbo")
    expected = links.verify(payload).roll
    linked = context.new_page()
    start(linked, links.link_url(own.url + "?lang=en", payload))
    linked.get_by_test_id("pinged").wait_for(state="attached")  # the link panel has drawn itself again
    expect(linked.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(linked.get_by_test_id("link-character")).to_have_text("Bilbo")
    faces = linked.locator("[data-testid=link-dice] svg.die").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert faces == [f"Die showing {f}" for f in expected.dice]
    context.close()
    assert traffic.foreign() == []
