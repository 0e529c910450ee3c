"""Start-up and response times of the built static site in headless Chromium.

    python benchmarks/bench_site.py [--runs 3] [--throttle 4] [--site DIR [--site DIR2 ...]]

Builds site/ if it is out of date (or measures the site built in DIR, another commit's, say; given
several, they are measured in turns, A, B, A, B…, and side by side), serves it with build.py's own server on 127.0.0.1 and
measures, in Debian's chromium (launched as the browser tests launch it: tests/browsing.py):

- first paint: the browser's ``first-contentful-paint`` (the loading screen);
- interactive, cold: a fresh browser profile (empty caches, no service worker) until the
  app is drawn, laid out and linked to Python (the loader's ``kostka-interactive`` mark);
- interactive, warm: a reload in the same profile once the service worker has cached the site
  (the first later visit), and a second reload (the visits after it, when the browser also has
  the runtime's optimised code from the offline copy);
- one-tap rolls on screen: the first frame after the page's document is drawn (the loader's
  ``kostka-rendered`` mark) in which the sheet's "Roll Awareness" button is laid out, cold and on
  the first later visit: what the player sees, whichever moment a build's loader calls ready;
- click to result: a click on the big Roll ("Roll Awareness") until the roll log shows the roll, timed inside the page
  (the click goes to the worker, Python rolls and computes, the patch comes back and is drawn);
- first-visit bytes: every byte the server sent during the cold visit, until the site is
  cached for offline use (the service worker's requests included).

``--throttle 4`` slows Chromium's CPU four times (DevTools' ``Emulation.setCPUThrottlingRate``),
about a tablet's speed. Prints a Markdown table of medians. Timings depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from browsing import launch_options  # noqa: E402

import build  # noqa: E402

START_TIMEOUT = 300_000


class CountingHandler(build.SiteHandler):
    sent = 0
    lock = threading.Lock()

    def copyfile(self, source, outputfile):
        data = source.read()
        outputfile.write(data)
        with CountingHandler.lock:
            CountingHandler.sent += len(data)


def serve(site: Path) -> tuple[object, str]:
    import functools
    import http.server

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(CountingHandler, directory=site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def wait_ready(page) -> None:
    page.wait_for_selector(
        "html[data-kostka-loader=ready], html[data-kostka-loader=error]", state="attached", timeout=START_TIMEOUT
    )
    if page.locator("html[data-kostka-loader=error]").count():
        raise SystemExit("the app failed to start: " + page.locator("#kostka-loader").inner_text())


def wait_cached(page) -> None:
    """Wait until a next visit finds everything stored by the service worker."""
    page.wait_for_selector("html[data-kostka-offline]", state="attached", timeout=START_TIMEOUT)
    if page.locator("html").get_attribute("data-kostka-offline") != "controlled":
        raise SystemExit("the service worker did not cache the site")


def interactive_ms(page) -> float:
    return page.evaluate("performance.getEntriesByName('kostka-interactive')[0].startTime")


def marks(page) -> dict[str, int]:
    """The loader's marks: when the worker started and when each start-up step began."""
    return page.evaluate(
        "Object.fromEntries(performance.getEntriesByType('mark').map(m => [m.name, Math.round(m.startTime)]))"
    )


def first_paint_ms(page) -> float:
    return page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || performance.getEntriesByType('paint')[0] || {startTime: NaN}).startTime"
    )


# Every element of the page: Bokeh draws inside shadow roots, so they are walked through.
ALL_ELEMENTS_JS = """
  const all = (root, out = []) => {
    for (const el of root.querySelectorAll("*")) {
      out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, out);
    }
    return out;
  };
"""

CLICK_TO_RESULT_JS = (
    """
async () => {
  // Everything inside the page: a click on "Roll" until the roll log changes.
"""
    + ALL_ELEMENTS_JS
    + """
  const elements = all(document);
  // the screen's big Roll button ("Roll Awareness"; an earlier build's is named just "Roll")
  const big = (el) => el.getRootNode().host && el.getRootNode().host.classList.contains("k-big-roll");
  const button = elements.find((el) => el.tagName === "BUTTON" && (big(el) || el.textContent.trim() === "Roll"));
  const log = elements.find((el) => el.dataset && el.dataset.testid === "log");
  if (!button || !log) throw new Error("no Roll button or roll log on the page");
  const host = log.getRootNode();
  const before = log.innerText;
  return await new Promise((resolve, reject) => {
    let t0 = 0;
    const observer = new MutationObserver(() => {
      const now = all(host instanceof ShadowRoot ? host : document).find((el) => el.dataset && el.dataset.testid === "log");
      if (now && now.innerText !== before) {
        observer.disconnect();
        requestAnimationFrame(() => resolve(performance.now() - t0));  // until the frame that shows it
      }
    });
    observer.observe(host, {subtree: true, childList: true, characterData: true});
    setTimeout(() => reject(new Error("no result within 30 s")), 30000);
    t0 = performance.now();
    button.click();
  });
}
"""
)


ROWS_ON_SCREEN_INIT_JS = (
    """
// Once the page's document is drawn, looks each frame for the one-tap "Roll Awareness" laid out;
// before that, a frame costs one look at the marks. (In a function of its own: the page's own
// scripts share the top level.)
(() => {
  window.kostkaRowsOnScreen = null;
"""
    + ALL_ELEMENTS_JS
    + """
  const shown = (el) =>
    el.tagName === "BUTTON" && el.getAttribute("aria-label") === "Roll Awareness" && el.getClientRects().length;
  const look = () => {
    if (performance.getEntriesByName("kostka-rendered").length && all(document).some(shown))
      window.kostkaRowsOnScreen = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();
"""
)


def rows_on_screen_ms(page) -> float:
    page.wait_for_function("window.kostkaRowsOnScreen !== null", timeout=START_TIMEOUT)
    return page.evaluate("window.kostkaRowsOnScreen")


def click_to_result_ms(page) -> list[float]:
    """Five rolls in The One Ring, each timed in the page from the click to the new log line."""
    page.get_by_role("button", name="The One Ring", exact=True).click()
    page.locator(".k-big-roll button").or_(page.get_by_role("button", name="Roll", exact=True)).first.wait_for()
    out = []
    for _ in range(5):
        out.append(page.evaluate(CLICK_TO_RESULT_JS))
        page.wait_for_timeout(300)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=1.0, help="CPU slow-down, 4 for a tablet")
    parser.add_argument(
        "--site", type=Path, action="append", help="a site built elsewhere (default: site/); several: side by side"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    if args.site is None and not build.is_up_to_date():
        build.build()
    sites = args.site or [build.SITE]
    every = {site: {key: [] for key in MEASURES} for site in sites}
    with sync_playwright() as p:
        browser = p.chromium.launch(**launch_options())
        for _ in range(args.runs):
            for site in sites:
                print(f"-- {site}", flush=True)
                httpd, url = serve(site)
                measure_once(browser, url + "?lang=en", args.throttle, every[site])
                httpd.shutdown()
                httpd.server_close()
        browser.close()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Chromium headless, CPU throttled {args.throttle:g}x, {args.runs} cold + {2 * args.runs} warm starts"
        f"{' of each site, in turns' if len(sites) > 1 else ''}, load average {load:.1f} on {os.cpu_count()} CPUs\n"
    )
    med = {site: {k: statistics.median(v) if v else float("nan") for k, v in r.items()} for site, r in every.items()}
    print("| measure | " + " | ".join(str(site) if len(sites) > 1 else "median" for site in sites) + " | goal |")
    print("|:--|" + "--:|" * (len(sites) + 1))
    for key, (label, unit, scale, digits, goal) in MEASURES.items():
        cells = [f"{med[site][key] / scale:.{digits}f} {unit}" for site in sites]
        print(f"| {label} | " + " | ".join(cells) + f" | {goal} |")
    return 0


# what is measured: its label, unit, scale from ms (or bytes), decimals and goal
MEASURES = {
    "paint": ("first paint (loading screen)", "s", 1000, 2, ""),
    "cold": ("interactive, cold (first visit)", "s", 1000, 1, "6 s"),
    "warm": ("interactive, warm: first later visit", "s", 1000, 1, "3 s"),
    "warm2": ("interactive, warm: visits after it", "s", 1000, 1, "3 s"),
    "rows_cold": ("one-tap rolls on screen, cold", "s", 1000, 1, ""),
    "rows_warm": ("one-tap rolls on screen, first later visit", "s", 1000, 1, ""),
    "click": ("click on Roll to result", "ms", 1, 0, "100 ms"),
    "bytes": ("first-visit download", "MB", 1e6, 1, "25 MB"),
}


def measure_once(browser, url: str, throttle: float, results: dict[str, list[float]]) -> None:
    """One cold start of the site at ``url`` in a fresh profile, two warm ones, and five rolls."""
    from playwright.sync_api import Error as PlaywrightError

    context = browser.new_context()
    context.add_init_script(ROWS_ON_SCREEN_INIT_JS)
    page = context.new_page()
    if throttle != 1:
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    CountingHandler.sent = 0
    page.goto(url)
    wait_ready(page)
    results["paint"].append(first_paint_ms(page))
    results["cold"].append(interactive_ms(page))
    results["rows_cold"].append(rows_on_screen_ms(page))
    print("cold start marks (ms):", marks(page), flush=True)
    wait_cached(page)
    results["bytes"].append(CountingHandler.sent)  # the app's start and the offline cache
    for key in ("warm", "warm2"):
        page.reload()
        wait_ready(page)
        results[key].append(interactive_ms(page))
        if key == "warm":
            results["rows_warm"].append(rows_on_screen_ms(page))
        print(
            f"{key} start marks (ms):",
            marks(page),
            "interpreter:",
            page.locator("html").get_attribute("data-kostka-runtime"),
            flush=True,
        )
    try:
        results["click"].extend(click_to_result_ms(page))
    except PlaywrightError as error:  # the start-up figures stand without it
        print("click to result not measured:", str(error).splitlines()[0], flush=True)
    context.close()


if __name__ == "__main__":
    sys.exit(main())
