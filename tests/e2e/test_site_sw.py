"""The service worker never mixes builds. Build A is served and installed; then the host has
build B (one file changed, a new manifest). A damaged file of B fails B's install and A stays;
an intact B is installed while a page of A runs, and that page (and its app worker) keeps getting
A's files until it reloads, while a page opened afresh gets B's."""

from __future__ import annotations

import http.server
import shutil
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pages import START_TIMEOUT, big_roll, build, start, started
from playwright.sync_api import Browser, Page
from test_site import runtime

pytestmark = [pytest.mark.browser, pytest.mark.site]

MARK = "/* build B */\n"
CHANGED = "loader.css"  # the file B changes
DAMAGED = f"{build.PYODIDE_SITE_DIR}{build.SNAPSHOT_PART.format(1)}"  # a file B keeps as it was


@pytest.fixture(scope="module")
def build_b(site, tmp_path_factory):
    b = tmp_path_factory.mktemp("build-b") / "site"
    shutil.copytree(site, b)
    (b / CHANGED).write_text((site / CHANGED).read_text(encoding="utf-8") + MARK, encoding="utf-8")
    build.write_service_worker(b)  # B's manifest
    assert (b / "sw.js").read_bytes() != (site / "sw.js").read_bytes()
    return b


class Host:
    """build.py's server over a folder that can be swapped for another, like a host given a new
    build; a file listed in ``damaged`` is sent with one byte changed."""

    def __init__(self, root: Path):
        host = self
        self.root, self.damaged = root, set()

        class Handler(build.SiteHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=host.root, **kwargs)

            def do_GET(self):
                name = self.path.split("?")[0].lstrip("/")
                if name not in host.damaged:
                    return super().do_GET()
                body = bytearray((host.root / name).read_bytes())
                body[len(body) // 2] ^= 0xFF
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def host(site):
    served = Host(site)
    yield served
    served.stop()


# An update check asked for while the browser's own is on its way (a reload starts one) joins that
# one, which may have read the old build's service worker: then the check is asked for again.
UPDATE = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const before = reg.active;
    let worker = null;
    for (let tries = 0; tries < 10 && !worker && reg.active === before; tries++) {
        if (tries) await new Promise((resolve) => setTimeout(resolve, 300));
        await reg.update();
        worker = reg.installing || reg.waiting;
    }
    if (!worker) return reg.active !== before ? "activated" : "no update";  // (done already)
    if (["redundant", "activated"].includes(worker.state)) return worker.state;
    return await new Promise((resolve) => worker.addEventListener("statechange", () => {
        if (["redundant", "activated"].includes(worker.state)) resolve(worker.state);
    }));
}"""
# A reload starts the browser's own update check, which may be installing the damaged build (its
# cache not yet deleted): wait until that install has failed.
SETTLED = """async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const worker = reg.installing;
    if (!worker || worker.state === "redundant") return;
    await new Promise((resolve) => worker.addEventListener("statechange", () => {
        if (["redundant", "installed", "activated"].includes(worker.state)) resolve();
    }));
}"""
READ = f"fetch('{CHANGED}').then((r) => r.text()).then((t) => t.endsWith({MARK!r}) ? 'B' : 'A')"


def installed(page: Page) -> None:
    page.wait_for_selector("html[data-kostka-offline]", state="attached", timeout=START_TIMEOUT)
    assert page.locator("html").get_attribute("data-kostka-offline") == "controlled"


def app_worker(page: Page):
    (worker,) = [w for w in page.workers if urlsplit(w.url).path.endswith("/app.js")]
    return worker


def build_caches(page: Page) -> list[str]:
    return sorted(n for n in page.evaluate("caches.keys()") if n.startswith("kostka-"))


def test_a_build_with_a_damaged_file_is_not_installed_and_the_old_one_stays(
    browser: Browser, host: Host, build_b: Path
):
    context = browser.new_context()
    page = context.new_page()
    start(page, host.url + "?lang=en")
    installed(page)
    before = build_caches(page)
    assert len(before) == 1
    host.root, host.damaged = build_b, {DAMAGED}
    assert page.evaluate(UPDATE) == "redundant"  # B's install failed
    assert build_caches(page) == before  # and left nothing behind
    page.reload()  # still build A, from its cache, though the host has B
    started(page)
    assert runtime(page) == "snapshot"
    assert page.evaluate(READ) == "A"
    page.evaluate(SETTLED)
    assert build_caches(page) == before
    context.close()


@pytest.mark.parametrize("visit", ["first", "later"])
def test_a_running_page_keeps_its_own_build_until_it_reloads(browser: Browser, host: Host, build_b: Path, visit):
    context = browser.new_context()
    page = context.new_page()
    start(page, host.url + "?lang=en")
    installed(page)
    if visit == "later":  # the page and its app worker come from the service worker's cache
        page.reload()
        started(page)
    assert page.evaluate(READ) == "A"
    host.root = build_b
    assert page.evaluate(UPDATE) == "activated"  # B installed whole and took over
    assert len(build_caches(page)) == 2
    # the running page, and its app worker, still get build A's files
    assert page.evaluate(READ) == "A"
    assert app_worker(page).evaluate(READ) == "A"
    big_roll(page).click()
    page.get_by_test_id("result-dice").first.wait_for()
    fresh = context.new_page()  # a page opened afresh gets B
    start(fresh, host.url + "?lang=en")
    assert fresh.evaluate(READ) == "B"
    assert app_worker(fresh).evaluate(READ) == "B"
    assert page.evaluate(READ) == "A"
    page.reload()  # and the old page, once reloaded
    started(page)
    assert page.evaluate(READ) == "B"
    assert app_worker(page).evaluate(READ) == "B"
    context.close()


def test_a_first_visit_whose_offline_saving_fails_is_told_so(browser: Browser, host: Host):
    """A file that arrives altered fails the offline saving, rightly; the page used to say nothing,
    and the player learnt only offline that the app had not been saved."""
    host.damaged = {DAMAGED}
    context = browser.new_context()
    try:
        page = context.new_page()
        start(page, host.url + "?lang=en")
        page.wait_for_selector("html[data-kostka-offline=failed]", state="attached", timeout=START_TIMEOUT)
        status = page.locator("#kostka-offline-status")
        assert status.get_attribute("role") == "status"
        assert status.inner_text().startswith("Not saved for offline use")
    finally:
        context.close()
