"""The built static site (``python build.py``) in headless Chromium, served from 127.0.0.1.

The app must start under Pyodide with every file from this one server (any request to
another host fails the test), draw its odds chart, roll in each system, and, after one
visit, start again with the server gone and the browser offline (service worker cache),
and open a roll link there, verified.
"""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from engine import FateCheck, links

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))

pytestmark = [pytest.mark.browser, pytest.mark.site]

# Start-up under Pyodide on two shared CPU cores can be slow: generous limits, no timing asserts.
START_TIMEOUT = 300_000
STEP_TIMEOUT = 60_000

# ---- how the tests find things on the page (the web app's accessible names and test ids)
LOADER_READY = "html[data-kostka-loader=ready]"
LOADER_ERROR = "html[data-kostka-loader=error]"
LOADER = "#kostka-loader"
SYSTEMS = {"one-ring": "The One Ring", "gurps": "GURPS", "fate": "Fate & Doom"}
ROLL = "Roll"
RESULT, OUTCOME, ODDS = "roll-result", "outcome", "p-success"
CHART = "canvas"  # Bokeh draws on <canvas> (inside shadow roots, which Playwright pierces)


def system_button(page: Page, system: str):
    return page.get_by_role("button", name=SYSTEMS[system], exact=True)


def roll_button(page: Page):
    return page.get_by_role("button", name=ROLL, exact=True).first


# ---- fixtures


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site, rebuilt only when its sources changed since the last build."""
    try:
        if not build.is_up_to_date():
            build.build()
    except build.BuildError as exc:
        pytest.fail(f"python build.py failed: {exc}")
    return build.SITE


class Server:
    """build.py's own server (threaded, right MIME types) on a free port, in a background thread."""

    def __init__(self, directory: Path):
        self.httpd = build.make_server(0, directory)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def server(site):
    srv = Server(site)
    yield srv
    srv.stop()


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
        url = url[len("blob:"):]
    return urlsplit(url).hostname == "127.0.0.1"


def start(page: Page, url: str) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    expect(page.locator(LOADER)).to_be_visible()  # the loading screen is there from the first paint
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    if page.locator(LOADER_ERROR).count():
        pytest.fail("the app did not start: " + page.locator("#kostka-loader").inner_text() + "\n" + "\n".join(errors))
    page.set_default_timeout(STEP_TIMEOUT)


def roll_in_each_system(page: Page) -> None:
    for system in SYSTEMS:
        system_button(page, system).click()
        expect(page.get_by_test_id(ODDS).first).to_have_text(re.compile(r"\d+(\.\d+)?\s?%"))
        roll_button(page).click()
        expect(page.get_by_test_id(RESULT).first).to_be_visible()
        expect(page.get_by_test_id(OUTCOME).first).not_to_be_empty()


STORED_SNAPSHOTS = """async () => {
    // the first word of each stored snapshot (Kostka's container of memory and files starts with its magic number)
    const cache = await caches.open("pyodide-snapshot");
    const words = [];
    for (const key of await cache.keys()) {
        const bytes = await (await cache.match(key)).arrayBuffer();
        words.push(new Uint32Array(bytes, 0, 1)[0]);
    }
    return words;
}"""
SNAPSHOT_MAGIC = 0x4B53544B  # STORED_MAGIC in static/worker.js


def wait_for_stored_snapshot(page: Page) -> None:
    """After a fresh boot a second worker makes and stores an interpreter snapshot once the app is
    drawn: wait for it. Either way, exactly one sound snapshot is stored afterwards."""
    if page.locator("html").get_attribute("data-kostka-runtime") == "boot":
        page.wait_for_selector("html[data-kostka-snapshot]", state="attached", timeout=START_TIMEOUT)
        assert page.locator("html").get_attribute("data-kostka-snapshot") == "stored"
    assert page.evaluate(STORED_SNAPSHOTS) == [SNAPSHOT_MAGIC]


# ---- tests


def test_site_is_self_contained(site):
    """The build's own checks, re-run on the result: nothing fetched from another host, nothing missing."""
    assert build.scan_foreign_urls(site) == []
    assert build.check_local_references(site) == []
    precache = (site / "sw.js").read_text(encoding="utf-8")
    for path in site.rglob("*"):
        if path.is_file() and path.name not in ("sw.js", ".build-stamp"):
            assert f'"{path.relative_to(site).as_posix()}"' in precache, f"{path} is not pre-cached"


def test_app_starts_draws_odds_and_rolls_in_every_system(browser: Browser, server: Server):
    context = browser.new_context()
    traffic = Traffic(context)
    page = context.new_page()
    start(page, server.url + "?lang=en")
    expect(page.locator(LOADER)).to_have_count(0)
    expect(page.locator(CHART).first).to_be_attached()  # the odds chart is drawn
    # Kostka's stylesheet (one shared file, linked from every component) is applied: touch-sized buttons
    expect(roll_button(page)).to_have_css("min-height", "44px")
    roll_in_each_system(page)
    context.close()
    assert traffic.foreign() == [], "the page asked another host"
    assert traffic.failures == [], "some files were missing or failed"
    assert any(u.endswith(".wasm") for u in traffic.requests)


def test_loading_screen_speaks_the_stored_language(browser: Browser, server: Server):
    context = browser.new_context(locale="en-US")
    context.add_init_script("window.localStorage.setItem('kostka.lang', 'cs')")
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator(LOADER)).to_contain_text("Krok")  # "Step n of 5" in Czech
    context.close()
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator(LOADER)).to_contain_text("Шаг")
    context.close()


@pytest.mark.parametrize(("locale", "query", "pressed", "character"), [
    ("cs-CZ", "", ["Jeden prsten", "Čeština"], "Postava 1"),  # the browser's language
    ("cs-CZ", "?lang=ru", ["Единое Кольцо", "Русский"], "Персонаж 1"),  # the address wins
])
def test_the_first_screen_is_drawn_in_the_language_of_the_loading_screen(browser: Browser, server: Server, locale, query, pressed, character):
    context = browser.new_context(locale=locale)
    page = context.new_page()
    start(page, server.url + query)
    # read at once, no retry (Playwright's CSS locators see through Bokeh's shadow roots)
    assert page.locator("button.bk-active").all_inner_texts() == pressed
    assert page.locator("select").first.evaluate("s => s.options[s.selectedIndex].text") == character
    context.close()


def test_a_stored_interpreter_snapshot_that_does_not_fit_is_replaced(browser: Browser, server: Server):
    context = browser.new_context()
    page = context.new_page()
    start(page, server.url + "?lang=en")
    # damage the stored snapshot: the next start boots afresh (and stores a sound one again)
    wait_for_stored_snapshot(page)
    page.evaluate("""async () => {
        const cache = await caches.open("pyodide-snapshot");
        const [key] = await cache.keys();
        const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
        bytes.fill(7, 0, 64);  // the header
        await cache.put(key, new Response(bytes));
    }""")
    for expected in ("boot", "snapshot"):
        page.reload()
        page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
        assert page.locator(LOADER_READY).count() == 1, page.locator(LOADER).inner_text()
        assert page.locator("html").get_attribute("data-kostka-runtime") == expected
        wait_for_stored_snapshot(page)
    page.set_default_timeout(STEP_TIMEOUT)
    roll_in_each_system(page)
    context.close()


def test_a_wheel_that_fails_its_integrity_check_is_refused_and_pyodide_loads_it_again(browser: Browser, server: Server):
    """The worker unpacks the wheels itself, each checked against the lock's sha256: a wrong one
    is refused (never unpacked) and Pyodide's own loader fetches it again."""
    context = browser.new_context()
    served: list[str] = []

    def tamper(route):
        served.append(route.request.url)
        if len(served) == 1:  # an empty zip in place of the wheel
            route.fulfill(status=200, body=b"PK\x05\x06" + bytes(18), content_type="application/zip")
        else:
            route.continue_()

    context.route("**/pyodide/segno-*.whl", tamper)
    page = context.new_page()
    start(page, server.url + "?lang=en")
    assert len(served) == 2, served
    roll_button(page).click()
    expect(page.get_by_test_id(OUTCOME).first).not_to_be_empty()
    context.close()


DAMAGE_STORED_FILE_JS = """async (suffix) => {
    // zero one file inside the stored snapshot (see packSnapshot in static/worker.js): it restores
    // fine, and fails only when the app reads that file
    const cache = await caches.open("pyodide-snapshot");
    const [key] = await cache.keys();
    const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
    const view = new DataView(bytes.buffer);
    const padded = view.getUint32(4, true);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + padded)));
    let at = 8 + padded + index.memory;
    for (const [path, size] of index.files) {
        if (path.endsWith(suffix)) {
            bytes.fill(0, at, at + size);
            await cache.put(key, new Response(bytes));
            return path;
        }
        at += size;
    }
    return null;
}"""


def test_a_snapshot_that_restores_but_cannot_run_the_app_is_forgotten(browser: Browser, server: Server):
    context = browser.new_context()
    page = context.new_page()
    start(page, server.url + "?lang=en")
    wait_for_stored_snapshot(page)
    # the Russian catalogue is first read after a restore, by a start in Russian
    assert page.evaluate(DAMAGE_STORED_FILE_JS, "/ru/LC_MESSAGES/kostka.mo")
    page.goto(server.url + "?lang=ru")
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    assert page.locator(LOADER_ERROR).count() == 1
    assert page.locator("html").get_attribute("data-kostka-runtime") == "snapshot"
    expect(page.get_by_role("button", name="Перезагрузить")).to_be_visible()  # the error screen offers a reload
    assert page.evaluate(STORED_SNAPSHOTS) == []  # forgotten
    page.get_by_role("button", name="Перезагрузить").click()
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    assert page.locator(LOADER_READY).count() == 1, page.locator(LOADER).inner_text()
    assert page.locator("html").get_attribute("data-kostka-runtime") == "boot"
    expect(page.get_by_role("button", name="Бросить", exact=True).first).to_be_visible()
    context.close()


def test_starts_restored_from_one_snapshot_keep_their_own_language_and_fresh_randomness(browser: Browser, server: Server):
    """The snapshot is made from an English warm-up: each later start still speaks the visitor's
    language, and no two starts share Python's random state or a roll seed."""
    context = browser.new_context()
    page = context.new_page()
    start(page, server.url + "?lang=en")
    wait_for_stored_snapshot(page)
    draws = []
    for lang, roll in (("ru", "Бросить"), ("cs", "Hodit")):
        tab = context.new_page()
        start(tab, server.url + f"?lang={lang}")
        assert tab.locator("html").get_attribute("data-kostka-runtime") == "snapshot"
        expect(tab.get_by_role("button", name=roll, exact=True).first).to_be_visible()
        (worker,) = [w for w in tab.workers if urlsplit(w.url).path.endswith("/app.js")]
        draws.append(worker.evaluate(
            "self.pyodide.runPython('import random, engine.rng; f\"{random.getrandbits(64)} {engine.rng.random_seed()}\"')"
        ))
    first, second = (d.split() for d in draws)
    assert first[0] != second[0] and first[1] != second[1], draws
    context.close()


def test_works_offline_after_one_visit(browser: Browser, site: Path):
    own = Server(site)  # a server of its own: this test stops it
    context = browser.new_context()
    traffic = Traffic(context)
    page = context.new_page()
    start(page, own.url + "?lang=en")
    # the service worker caches every file while the app starts, then controls the page
    page.wait_for_selector("html[data-kostka-offline]", state="attached", timeout=START_TIMEOUT)
    assert page.locator("html").get_attribute("data-kostka-offline") == "controlled"
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # the loading screen is gone by then: a status line at the foot of the page says so
    expect(page.get_by_role("status").filter(has_text="Saved for offline use.")).to_be_visible()
    # the first start booted the interpreter and stored a snapshot of it for the next starts
    assert page.locator("html").get_attribute("data-kostka-runtime") == "boot"
    wait_for_stored_snapshot(page)
    own.stop()
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    assert page.locator(LOADER_READY).count() == 1, page.locator(LOADER).inner_text()
    assert page.locator("html").get_attribute("data-kostka-runtime") == "snapshot"
    expect(page.locator(CHART).first).to_be_attached()
    roll_in_each_system(page)
    # a roll link opened while offline, in a new tab: recomputed and verified by the cached app
    payload = links.encode_roll_link(FateCheck(skill=8, difficulty=1), seed=7, name="Bilbo")
    expected = links.verify(payload).roll
    linked = context.new_page()
    linked.goto(links.link_url(own.url + "?lang=en", payload))
    linked.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    assert linked.locator(LOADER_READY).count() == 1, linked.locator(LOADER).inner_text()
    linked.set_default_timeout(STEP_TIMEOUT)
    linked.get_by_test_id("pinged").wait_for(state="attached")  # the link panel has drawn itself again
    expect(linked.get_by_test_id("verdict")).to_have_attribute("data-status", "verified")
    expect(linked.get_by_test_id("link-character")).to_have_text("Bilbo")
    faces = linked.locator("[data-testid=link-dice] svg.die").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert faces == [f"Die showing {f}" for f in expected.dice]
    context.close()
    assert traffic.foreign() == []
