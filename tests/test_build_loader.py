"""The loading screen (static/loader.js) while the page's HTML is still arriving.

The site's index.html is a megabyte; the loader runs from its <head> and starts the app's worker at
once, so the worker's first messages, and the loader's one-second tick, can come while the browser
has parsed the loading screen's box but not yet the lines inside it. A server here sends the page
up to that point, waits, then sends the rest: the loader must neither throw nor lose what it was
told meanwhile (the step, or an error).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))

pytestmark = pytest.mark.browser

PAUSE = 2.5  # seconds between the two halves of the page: more than two of the loader's ticks
CUT = 'class="kostka-loader-card">'  # the page is cut inside the loading screen's box
# A stand-in for the app's worker: it reports step 1 at once, then (when asked by its name) fails.
WORKER = """
self.postMessage({type: "kostka-status", step: 1, total: 5, key: "runtime"});
if (self.name.includes("fail")) self.postMessage({type: "kostka-error", message: "no runtime here", snapshot: null});
"""


def page_html() -> str:
    overlay = (build.STATIC / "loader.html").read_text(encoding="utf-8")
    return (
        "<!doctype html><html><head><meta charset=utf-8>\n"
        '<link rel="stylesheet" href="loader.css">\n'
        '<script src="loader.js"></script>\n'
        f"</head><body>\n{overlay}\n<p id=end>{'x' * 200_000}</p></body></html>"
    )


class TrickleHandler(build.SiteHandler):
    """build.py's handler, but index.html arrives in two halves, PAUSE seconds apart."""

    def do_GET(self):
        if not self.path.split("?")[0].endswith("/"):
            return super().do_GET()
        body = (Path(self.directory) / "index.html").read_bytes()
        cut = body.index(CUT.encode()) + len(CUT)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body[:cut])
        self.wfile.flush()
        time.sleep(PAUSE)
        self.wfile.write(body[cut:])


@pytest.fixture
def trickle(tmp_path):
    for name in ("loader.js", "loader.css"):
        shutil.copy2(build.STATIC / name, tmp_path / name)
    (tmp_path / "app.js").write_text(WORKER)
    import functools
    import http.server

    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(TrickleHandler, directory=str(tmp_path))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield tmp_path, f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize("fail", [False, True], ids=["step", "error"])
def test_the_loader_copes_with_a_page_still_arriving(browser: Browser, trickle, fail):
    folder, url = trickle
    (folder / "index.html").write_text(page_html(), encoding="utf-8")
    context = browser.new_context(locale="en-US")
    # the worker's name carries this (static/loader.js); the stand-in fails when it says "fail"
    context.add_init_script(f"localStorage.setItem('kostka.failed-snapshot', '{'fail' if fail else 'ok'}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url, wait_until="commit")
    page.wait_for_selector("#end", state="attached", timeout=30_000)  # the whole page has arrived
    page.wait_for_timeout(1500)  # and the loader has ticked again since
    assert errors == []
    if fail:  # the error reported while the page was arriving is on the screen
        expect(page.locator("#kostka-loader-step")).to_have_text("Kostka could not start.")
        expect(page.locator("#kostka-loader-detail")).to_have_text("no runtime here")
        expect(page.get_by_role("button", name="Reload")).to_be_visible()
        assert page.locator("html").get_attribute("data-kostka-loader") == "error"
    else:
        expect(page.locator("#kostka-loader-step")).to_have_text("Step 1 of 5: Starting the Python runtime…")
        expect(page.locator("#kostka-loader-detail")).to_contain_text(" s")
    context.close()


# A stand-in for the app's worker that, asked, sends three of Python's changes at once.
PATCHES_WORKER = """
self.onmessage = (event) => {
  if (event.data.type === "go") for (const n of [1, 2, 3]) self.postMessage({type: "patch", n});
};
"""
# The page's side: counts the frames, takes the changes in, and on the first asks that it be shown first.
# (A file of its own: the site's server allows no inline script.)
PATCHES_PAGE = """<!doctype html><html><head><meta charset=utf-8><script src="loader.js"></script></head>
<body><p id=shown></p><script src="page.js"></script></body></html>"""
PATCHES_SCRIPT = """
let frames = 0;
const tick = () => { frames += 1; requestAnimationFrame(tick); };
requestAnimationFrame(tick);
window.taken = [];
const worker = KostkaLoader.worker();
worker.onmessage = (event) => {
  window.taken.push([event.data.n, frames]);
  if (event.data.n === 1) {
    const shown = document.getElementById("shown");
    shown.textContent = "result";
    shown.dispatchEvent(new CustomEvent("kostka-show-first", {bubbles: true, composed: true}));
  }
};
"""


@contextlib.contextmanager
def loader_with(tmp_path: Path, worker: str, script: str) -> Iterator[str]:
    """The site's loader on a page of its own, served (as the site is) from ``tmp_path``, with
    ``worker`` as the app's worker and ``script`` run at the page's end; yields the page's address."""
    import functools
    import http.server

    shutil.copy2(build.STATIC / "loader.js", tmp_path / "loader.js")
    (tmp_path / "app.js").write_text(worker)
    (tmp_path / "index.html").write_text(PATCHES_PAGE, encoding="utf-8")
    (tmp_path / "page.js").write_text(script, encoding="utf-8")
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(build.SiteHandler, directory=str(tmp_path))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_changes_after_one_asked_to_be_shown_first_wait_for_the_frame_that_shows_it(browser: Browser, tmp_path):
    """A component that has drawn what the player waits for (a roll's result) asks that the page
    show it before taking in Python's next changes: those wait for the next frame, in their order."""
    with loader_with(tmp_path, PATCHES_WORKER, PATCHES_SCRIPT) as url:
        page = browser.new_page()
        page.goto(url)
        page.wait_for_function("window.taken !== undefined && document.readyState === 'complete'")
        page.evaluate("KostkaLoader.worker().postMessage({type: 'go'})")
        page.wait_for_function("window.taken.length === 3")
        taken = page.evaluate("window.taken")
        assert [n for n, _ in taken] == [1, 2, 3]
        first = taken[0][1]
        assert all(frame > first for _, frame in taken[1:]), taken
        page.close()


# A stand-in for the app's worker that gives back the first message it gets.
ECHO_WORKER = """
self.onmessage = (event) => { self.postMessage({type: "echo", first: event.data}); self.onmessage = null; };
"""
ECHO_SCRIPT = """
window.echoed = null;
KostkaLoader.worker().onmessage = (event) => { window.echoed = event.data.first; };
"""


def test_the_worker_is_handed_the_visit_as_it_starts(browser: Browser, tmp_path):
    """The loader's first message to the app's worker is the visit: the address, and what the
    browser holds for the app (its ``kostka.`` keys, not the copies of unreadable data kept aside),
    for Python to read while the page draws the document (webapp/startup.py, take_visit)."""
    with loader_with(tmp_path, ECHO_WORKER, ECHO_SCRIPT) as url:
        context = browser.new_context()
        context.add_init_script(
            "localStorage.setItem('kostka.characters', '{\"heroes\": \"<b>\"}');"
            "localStorage.setItem('kostka.backup.20261206T120000.characters', 'old');"
            "localStorage.setItem('elsewhere', 'not ours');"
        )
        page = context.new_page()
        page.goto(url + "?sys=gurps#r=1")
        page.wait_for_function("window.echoed !== null && window.echoed !== undefined")
        echoed = page.evaluate("window.echoed")
        assert echoed["type"] == "kostka-visit"
        assert json.loads(echoed["stored"]) == {"kostka.characters": '{"heroes": "<b>"}'}
        location = json.loads(echoed["location"])
        assert (location["search"], location["hash"]) == ("?sys=gurps", "#r=1")
        assert page.evaluate("KostkaLoader.visitHanded") is True
        context.close()


# A stand-in for the app's worker that sends a document and at once a change to it, as the worker
# sends the visit's changes while the page draws (webapp/startup.py, take_visit), and, when
# ``early`` is in the page's address, before the page's code listens.
RENDER_WORKER = """
const go = () => {
  self.postMessage({type: "render", n: 1});
  self.postMessage({type: "patch", n: 2});
  self.postMessage({type: "patch", n: 3});
};
if (self.name.startsWith("kostka-app")) self.onmessage = (event) => { if (event.data.type === "go") go(); };
"""
# The page's side: drawing the document takes a while (Panel's page awaits BokehJS's embedding);
# each message notes whether the drawing was done when it came.
RENDER_SCRIPT = """
window.taken = [];
let drawn = false;
const listen = () => {
  KostkaLoader.worker().onmessage = async (event) => {
    window.taken.push([event.data.n, drawn]);
    if (event.data.type === "render") {
      await new Promise((resolve) => setTimeout(resolve, 300));
      drawn = true;
    }
  };
};
if (location.search.includes("early")) {
  KostkaLoader.worker().postMessage({type: "go"});
  setTimeout(listen, 500);  // the page's code listens once the messages have come
} else {
  listen();
}
"""


@pytest.mark.parametrize("early", [False, True], ids=["listening", "early"])
def test_changes_sent_with_the_document_wait_until_the_page_has_drawn_it(browser: Browser, tmp_path, early):
    """Python's changes sent right after the document (the visit's) are taken in once the page has
    drawn it, in their order, whether they came while the page listened or before."""
    with loader_with(tmp_path, RENDER_WORKER, RENDER_SCRIPT) as url:
        page = browser.new_page()
        page.goto(url + ("?early" if early else ""))
        page.wait_for_function("window.taken !== undefined && document.readyState === 'complete'")
        if not early:
            page.evaluate("KostkaLoader.worker().postMessage({type: 'go'})")
        page.wait_for_function("window.taken.length === 3")
        assert page.evaluate("window.taken") == [[1, False], [2, True], [3, True]]
        page.close()
