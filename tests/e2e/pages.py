"""What the browser tests share: opening the app under ``panel serve`` (:func:`open_served`), and
for the built static site (Pyodide in Chromium) ``build`` (the builder's command-line module), its
server, opening the site and waiting for the app, a browser context with stored data, reading the
page's storage and damaging a download. The fixtures over them (``app_url``, ``site``, ``server``,
``site_url``) are in conftest.py."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))

# Two shared cores: generous limits, and no timing asserts. The served app answers in seconds;
# the built site first starts Pyodide.
SERVED_TIMEOUT = 15_000
START_TIMEOUT = 300_000
STEP_TIMEOUT = 60_000

LOADER = "#kostka-loader"
LOADER_READY = "html[data-kostka-loader=ready]"
LOADER_ERROR = "html[data-kostka-loader=error]"
APP_READY = "html[data-kostka=ready]"  # the app has read the address and the stored data
#: A screen's big Roll button, named by what it rolls ("Roll Awareness", "Roll Skill"). Its name is
#: also the name of the ⚄ beside that ability (and of its Play row), so the tests find it by its place.
BIG_ROLL = ".k-big-roll button"


#: Every visible control, through all shadow roots: what it is, its box (w and h rounded to 1/10 px
#: against sub-pixel noise, width and height as measured; top and bottom in page coordinates) and
#: whether a button's text runs out of it.
CONTROLS = """() => {
  const SEL = 'button, select, textarea, input:not([type=hidden]), [role=button], [role=tab]';
  const out = [];
  const seen = new Set();
  const describe = (el) => {
    const text = (el.getAttribute('aria-label') || el.innerText || el.value || el.title || el.className || '').toString();
    return el.tagName.toLowerCase() + (el.type ? '[' + el.type + ']' : '') + ' "' + text.trim().slice(0, 40) + '"';
  };
  const visible = (el) => {
    for (let n = el, below = null; n; below = n, n = n.parentElement || (n.getRootNode() && n.getRootNode().host)) {
      const style = getComputedStyle(n);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return false;
      if (n.tagName === 'DETAILS' && !n.open && (!below || below.tagName !== 'SUMMARY')) return false;  // folded
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const walk = (root) => {
    for (const el of root.querySelectorAll(SEL)) {
      let target = el;
      if (el.matches('input[type=checkbox], input[type=radio]')) target = el.closest('label') || el;
      if (seen.has(target) || !visible(target)) continue;
      seen.add(target);
      const r = target.getBoundingClientRect();
      out.push({what: describe(el), w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10,
                width: r.width, height: r.height,
                left: Math.round(r.left), right: Math.round(r.right),
                top: Math.round(r.top + window.scrollY), bottom: Math.round(r.bottom + window.scrollY),
                cut: el.tagName === 'BUTTON' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)});
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
}"""


def big_roll(page: Page) -> Locator:
    """The big Roll button of the screen shown (a screen shown before stays in the page, hidden)."""
    return page.locator(BIG_ROLL).filter(visible=True).first


def open_served(page: Page, url: str) -> None:
    """Open the app under ``panel serve`` at ``url`` and wait until it has read the address and the
    stored data."""
    page.set_default_timeout(SERVED_TIMEOUT)
    page.goto(url)
    page.locator(APP_READY).wait_for(state="attached")


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


def up_to_date_site() -> Path:
    """The built site, rebuilt only when its sources changed since the last build."""
    try:
        if not build.is_up_to_date():
            build.build()
    except build.BuildError as exc:
        pytest.fail(f"python build.py failed: {exc}")
    return build.SITE


def started(page: Page, errors: list[str] | None = None) -> None:
    """Wait until the page just loaded (opened or reloaded) has its app drawn; fail with the
    loading screen's words (and ``errors``) if it did not start."""
    page.wait_for_selector(f"{LOADER_READY}, {LOADER_ERROR}", state="attached", timeout=START_TIMEOUT)
    if page.locator(LOADER_ERROR).count():
        pytest.fail("the app did not start: " + page.locator(LOADER).inner_text() + "\n" + "\n".join(errors or []))
    page.set_default_timeout(STEP_TIMEOUT)
    page.wait_for_selector(APP_READY, state="attached")


def start(page: Page, url: str, errors: list[str] | None = None) -> None:
    """Open the site at ``url`` and wait for the app. The page's errors go into ``errors`` (console
    errors too, when a list is given), and into the failure if the app does not start."""
    seen = [] if errors is None else errors
    page.on("pageerror", lambda e: seen.append(str(e)))
    if errors is not None:
        page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(url)
    # the loading screen is there from the first paint, unless the app was quicker still
    page.wait_for_selector(f"{LOADER}, {APP_READY}", state="attached", timeout=START_TIMEOUT)
    started(page, seen)


def seeded(browser: Browser, values: dict[str, str], **options: Any) -> BrowserContext:
    """A context whose storage holds ``values`` when its first page opens (not again on a reload);
    ``options`` go to ``browser.new_context`` (a viewport, touch…)."""
    context = browser.new_context(**options)
    context.add_init_script(
        "if (!window.sessionStorage.getItem('seeded')) {"
        f" for (const [k, v] of Object.entries({json.dumps(values)})) window.localStorage.setItem(k, v);"
        " window.sessionStorage.setItem('seeded', '1'); }"
    )
    return context


def storage(page: Page) -> dict[str, str]:
    """The page's local storage, key by key."""
    return page.evaluate("() => Object.fromEntries(Object.entries(window.localStorage))")


def damage_snapshot(context: BrowserContext, part: int = 1) -> None:
    """One of the interpreter snapshot's parts arrives with one byte changed: it fails its
    integrity check, so the worker boots Python afresh and installs the wheels itself."""

    def damage(route: Route) -> None:
        body = bytearray(route.fetch().body())
        body[len(body) // 2] ^= 0xFF
        route.fulfill(status=200, body=bytes(body), content_type="application/octet-stream")

    context.route(f"**/pyodide/{build.SNAPSHOT_PART.format(part)}", damage)
