"""Table-side response times of the built static site, timed inside the page.

    python benchmarks/bench_table.py [--runs 3] [--throttle 4] [--site DIR] [--first-rolls 8]

Serves site/ as ``bench_site.py`` does, starts the app in Debian's chromium at 1024×768 and
measures, each time from the click inside the page until the frame that shows its effect is laid
out (its painting left):

- tap to feedback: the click until the browser paints the next frame (the tap is answered at
  once when nothing blocks the page's main thread);
- first roll: the first one-tap roll after start-up (Awareness in The One Ring) until its
  result is on screen; later rolls: the same button again; and the first roll of a fourth visit,
  when the browser starts from the compiled code it keeps of the runtime (Chrome's WebAssembly
  code cache, written while an earlier visit ran: on the second visit, the one the other starts
  measure, the browser still compiles the runtime's busy code anew in its own threads as the
  player taps, which on a box of 2 CPUs slows the first roll);
- switching system with new heroes, whose sheets open in Edit: first to GURPS (a screen not
  shown before, after a still moment), then back to The One Ring (a screen shown before); and
  again with stored heroes, whose sheets open in Play (a second start, with characters in the
  browser's storage: first Fate & Doom as soon as the page is ready, before any still moment has
  made its screen ahead, then GURPS, and back and forth); switching language (English → Русский,
  and back); opening the fight screen of Fate & Doom (after a still moment on its skill check,
  and again at once after switching to it, in the second start, and in a third start once the
  page has made all it makes ahead in still moments); one attack in a fight;
- the longest task of the page's main thread from start-up until the page has made all it makes
  ahead (in that third start), and the longest still moment's step, from the moment sent until
  its answer was taken in (the worker's step and the page taking in what it drew): what a tap
  landing in a step would wait for.

``--first-rolls N`` adds N starts each of a second and of a fourth visit, taken in turn, that time
only the first roll: a figure steadier than three starts give (the box's noise moves a first roll
by tens of ms).

``--throttle 4`` slows Chromium's CPU four times (CDP ``Emulation.setCPUThrottlingRate``), as
a mid-range tablet. Prints a Markdown table of medians and the slowest of each; timings depend
on how busy the machine is.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT.parent))
import bench_site  # noqa: E402

# One helper in the page: click the first element that ``pick`` finds, then wait until ``done``
# finds an element on screen whose text differs from the one on screen before the click (or, with
# ``changed``, until anything is drawn inside it), and resolve in the frame that shows it, laid out. Bokeh
# draws inside shadow roots, so the search goes through them. Before the click it walks every
# element once; after it, each frame asks the browser's own selector search in each shadow root
# known (new ones are followed as they join the page), so that the script's own work stays small
# beside the app's: a walk through every element each frame took as much of the main thread as the
# app's own work on an attack with the CPU 4× slower, and delayed the app by as much. ``own`` is
# the script's own time on the main thread after the click, in the result.
TIMED_CLICK_JS = """
async ([pick, done]) => {
  // every shadow root in the page (the document first), in the order a walk meets them, and
  // each one joining the page later: its host is added to a tree already watched
  const roots = [document];
  const known = new WeakSet();
  const addRoots = (node) => {
    const found = [];
    const visit = (el) => {
      if (el.shadowRoot && !known.has(el.shadowRoot)) {
        known.add(el.shadowRoot);
        found.push(el.shadowRoot);
        for (const inner of el.shadowRoot.querySelectorAll("*")) visit(inner);
      }
    };
    if (node.nodeType !== 1) return;
    visit(node);
    for (const el of node.querySelectorAll("*")) visit(el);
    for (const root of found) { roots.push(root); watch(root); }
  };
  let own = 0;  // the script's time on the main thread after the click
  const observer = new MutationObserver((records) => {
    const start = performance.now();
    for (const record of records) for (const node of record.addedNodes) addRoots(node);
    own += performance.now() - start;
  });
  const watch = (root) => observer.observe(root, {subtree: true, childList: true});
  if (!done.changed) {  // (a change inside one element is watched on its own)
    watch(document);
    addRoots(document.documentElement);
  }
  const matches = (spec) => {
    const out = [];
    for (const root of roots) {
      if (spec.testid) {
        out.push(...root.querySelectorAll(`[data-testid="${CSS.escape(spec.testid)}"]`));
      } else if (spec.label) {
        for (const el of root.querySelectorAll("button[aria-label]"))
          if (el.getAttribute("aria-label").trim() === spec.label) out.push(el);
      } else {
        for (const el of root.querySelectorAll(spec.tag || "*"))
          if (el.textContent.trim() === spec.text) out.push(el);
      }
    }
    return out;
  };
  // every element in the page, in order (before the click only)
  const all = (root, out = []) => {
    for (const el of root.querySelectorAll("*")) {
      out.push(el);
      if (el.shadowRoot) all(el.shadowRoot, out);
    }
    return out;
  };
  const named = (spec) => (el) => {
    if (spec.testid) return el.dataset && el.dataset.testid === spec.testid;
    if (spec.label) return el.tagName === "BUTTON" && (el.getAttribute("aria-label") || "").trim() === spec.label;
    return (spec.tag ? el.tagName === spec.tag : true) && el.textContent.trim() === spec.text;
  };
  // the first element ``spec`` names; on screen only for a label, or when asked (a screen shown
  // before stays in the page, hidden, with elements of the same names)
  const visible = (spec, onScreen) => (el) => !(onScreen || spec.label) || el.getClientRects().length;
  const find = (spec, onScreen = false) => all(document).find((el) => named(spec)(el) && visible(spec, onScreen)(el));
  const shown = (spec) => matches(spec).find(visible(spec, true));
  const target = find(pick);
  if (!target) throw new Error("nothing to click: " + JSON.stringify(pick));
  const before = (find(done, true) || {innerText: null}).innerText;
  return await new Promise((resolve, reject) => {
    let t0 = 0, feedback = null, finished = false;
    // The frame that shows the effect, once laid out (its animation-frame callback forces the
    // layout when it looks for the element on screen): what is left is painting it. (The next
    // frame's start would count whatever the page runs between the two frames too, such as the
    // rest of a screen sent after its first part.)
    const end = (at) => {
      finished = true;
      observer.disconnect();
      resolve({feedback, result: at - t0, own});
    };
    const check = () => {
      if (finished || done.changed) return;
      const start = performance.now();
      const now = shown(done);
      own += performance.now() - start;
      if (now && now.innerText !== before) end(performance.now());
      else requestAnimationFrame(check);
    };
    setTimeout(() => { finished = true; reject(new Error("no effect within 60 s: " + JSON.stringify(done))); }, 60000);
    if (done.changed) {
      // any change drawn inside the element counts (a roll may say the same words as the one before)
      const changes = new MutationObserver(() => {
        if (finished) return;
        changes.disconnect();
        // the next frame shows it
        requestAnimationFrame(() => { changed.getClientRects(); end(performance.now()); });
      });
      const changed = find(done);
      changes.observe(changed, {subtree: true, childList: true, characterData: true});
    }
    t0 = performance.now();
    target.click();
    requestAnimationFrame(() => { feedback = performance.now() - t0; check(); });
  });
}
"""

ONE_RING = {"tag": "BUTTON", "text": "The One Ring"}
GURPS = {"tag": "BUTTON", "text": "GURPS"}
FATE = {"tag": "BUTTON", "text": "Fate & Doom"}
RUSSIAN = {"tag": "BUTTON", "text": "Русский"}
ENGLISH = {"tag": "BUTTON", "text": "English"}
FIGHT = {"tag": "BUTTON", "text": "Fight"}
#: A still moment at the table (a player reading the result): longer than the app's wait before it
#: makes what the screen may be asked for next (webapp.views.still.StillPage.delay after the last
#: tap or change drawn), and its work.
STILL_MS = 5000


def timed(page, pick: dict, done: dict) -> dict:
    return page.evaluate(TIMED_CLICK_JS, [pick, done])


def one_tap_roll(page) -> dict:
    """The one-tap roll beside a skill, found by its accessible name, until the result panel draws
    it (any change in the panel: two rolls in a row may read the same)."""
    return timed(page, {"label": "Roll Awareness"}, {"testid": "result-panel", "changed": True})


def stored_heroes() -> str:
    """A hero of each system as the app stores them: their sheets open in Play."""
    from webapp.state.app import AppState

    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", awareness="2", lore="4")
    app.gurps.character.param.update(name_text="Gunnar", will="12", skills=[{"name": "Guns", "level": "13"}])
    app.fate.character.param.update(name_text="Vera", skill="8")
    return app.characters_json()


def measure_play(page, results: dict[str, list[dict]]) -> None:
    """System switches between stored heroes' Play views, each until its first one-tap row is on
    screen: first to Fate & Doom as soon as the page is ready, before any still moment has made its
    screen ahead, and its fight opened at once (its stored hero joins the fight); then, after a
    still moment, GURPS, and back and forth."""
    page.get_by_role("button", name="Roll Awareness", exact=True).wait_for()
    page.wait_for_timeout(300)
    results["switch system, not made ahead (Play)"].append(timed(page, FATE, {"testid": "p-success"}))
    results["open fight (at once)"].append(timed(page, FIGHT, {"testid": "encounter-status"}))
    page.wait_for_timeout(STILL_MS)
    switches = ((GURPS, {"label": "Roll Guns"}), (ONE_RING, {"label": "Roll Awareness"})) * 2
    for i, (pick, done) in enumerate(switches):
        page.wait_for_timeout(300)
        key = "switch system, first (Play)" if i == 0 else "switch system, back (Play)"
        results[key].append(timed(page, pick, done))


#: Whether the page's still moments have made all there is to make ahead (``StillPage.more``).
ALL_MADE_AHEAD_JS = """() => Bokeh.documents.some(doc => [...doc._all_models.values()].some(
  m => "still" in m.properties && "answered" in m.properties && m.more === false))"""


#: The page's long tasks (50 ms or more of its main thread at once), from when the app is ready:
#: what a tap landing in one waits for. Recorded from the page's start by an init script.
LONG_TASKS_INIT_JS = """
window.kostkaLongTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.kostkaLongTasks.push([e.startTime, e.duration]);
}).observe({type: "longtask", buffered: true});
"""
#: The longest still moment's step, from the moment the page sent until its answer was taken in
#: (the app's ``kostka-still-step`` measures): what a tap landing in it waits for, at most.
LONGEST_STILL_STEP_JS = (
    """() => Math.max(0, ...performance.getEntriesByName("kostka-still-step").map((e) => e.duration))"""
)
LONGEST_TASK_SINCE_READY_JS = """() => {
  const ready = performance.getEntriesByName("kostka-interactive")[0]?.startTime ?? 0;
  return Math.max(0, ...window.kostkaLongTasks.filter(([t]) => t > ready).map(([, d]) => d));
}"""


def measure_made_ahead(page, results: dict[str, list[dict]]) -> None:
    """The fight opened as soon as Fate & Doom is shown, once the page, left still on The One Ring,
    has made ahead all it makes (the other screens and the fight, drawn hidden); and the longest
    task of the page's main thread meanwhile, which a tap landing in it would wait for."""
    page.get_by_role("button", name="Roll Awareness", exact=True).wait_for()
    page.wait_for_function(ALL_MADE_AHEAD_JS, timeout=120_000)
    page.wait_for_timeout(500)  # the last step drawn
    results["longest task while still"].append({"result": page.evaluate(LONGEST_TASK_SINCE_READY_JS)})
    results["longest still step"].append({"result": page.evaluate(LONGEST_STILL_STEP_JS)})
    timed(page, FATE, {"testid": "p-success"})
    page.wait_for_timeout(300)
    results["open fight (at once, made ahead)"].append(timed(page, FIGHT, {"testid": "encounter-status"}))


def measure(page, results: dict[str, list[dict]]) -> None:
    page.get_by_role("button", name="The One Ring", exact=True).wait_for()
    first = one_tap_roll(page)
    results["feedback"].append({"result": first["feedback"]})
    results["first roll"].append(first)
    for _ in range(3):
        page.wait_for_timeout(300)
        later = one_tap_roll(page)
        results["feedback"].append({"result": later["feedback"]})
        results["later rolls"].append(later)
    page.wait_for_timeout(STILL_MS)  # a player reading the roll: the page makes GURPS's screen's objects meanwhile
    results["switch system, first (Edit)"].append(timed(page, GURPS, {"testid": "effective-skill"}))
    page.wait_for_timeout(300)
    results["switch system, back (Edit)"].append(timed(page, ONE_RING, {"testid": "p-success"}))
    for pick, done in ((RUSSIAN, {"tag": "BUTTON", "text": "Единое Кольцо"}), (ENGLISH, ONE_RING)):
        page.wait_for_timeout(300)
        results["switch language"].append(timed(page, pick, done))
    page.wait_for_timeout(300)
    timed(page, FATE, {"testid": "p-success"})
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")  # a hero joins a fight by name
    page.wait_for_timeout(STILL_MS)  # a player reading the skill check: its screen makes the fight meanwhile
    results["open fight"].append(timed(page, FIGHT, {"testid": "encounter-status"}))
    for name, where in (("Ada", "heroes-1-attacking"), ("Wolf", "monsters-1-attacking")):
        page.locator(".bench-heroes button, .bench-monsters button").filter(has_text=name).first.click()
        page.wait_for_timeout(1500)
        page.locator(f".place-{where} button").click()
        page.wait_for_timeout(1500)
    page.get_by_role("button", name="Start the fight").first.click()
    page.get_by_role("button", name="Attack", exact=True).wait_for()  # the fight has started
    for _ in range(2):
        page.wait_for_timeout(300)
        results["fight attack"].append(timed(page, {"tag": "BUTTON", "text": "Attack"}, {"testid": "fight-step"}))


#: How long a visit before the measured one stays open: the browser writes its compiled code of the
#: runtime to its cache a moment after compiling it.
VISIT_MS = 2500


def measure_later_visit(page, results: dict[str, list[dict]]) -> None:
    """The first roll of a later visit (the browser's compiled code of the runtime cached), and a
    roll after it."""
    page.get_by_role("button", name="The One Ring", exact=True).wait_for()
    results["first roll, fourth visit"].append(one_tap_roll(page))
    page.wait_for_timeout(300)
    results["later rolls, fourth visit"].append(one_tap_roll(page))


def returning_player(browser, url: str, throttle: float, stored: str | None = None, visit: int = 2):
    """A new context and page at a returning player's start (the offline copy and the snapshot),
    the CPU slowed ``throttle`` times; ``stored``: characters in storage from the first visit on;
    ``visit``: which visit it is (each visit before it left open for a moment, as a player would)."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    if stored is not None:
        context.add_init_script(
            "if (!localStorage.getItem('kostka.characters')) localStorage.setItem('kostka.characters', "
            + json.dumps(stored)
            + ")"
        )
    context.add_init_script(LONG_TASKS_INIT_JS)
    page = context.new_page()
    page.goto(url)
    bench_site.wait_ready(page)
    bench_site.wait_cached(page)
    for later in range(2, visit + 1):
        page.reload()  # a returning player: the offline copy and the snapshot
        bench_site.wait_ready(page)
        if later < visit:
            page.wait_for_timeout(VISIT_MS)
    if throttle != 1:
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    return context, page


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=1.0, help="CPU slow-down factor (4 = a mid-range tablet)")
    parser.add_argument("--site", type=Path, default=None, help="a site built elsewhere (default: site/)")
    parser.add_argument("--first-rolls", type=int, default=0, help="more starts that time only the first roll")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    build = bench_site.build
    if args.site is None and not build.is_up_to_date():
        build.build()
    httpd, url = bench_site.serve(args.site or build.SITE)
    url += "?lang=en"
    keys = (
        "feedback",
        "first roll",
        "later rolls",
        "first roll, fourth visit",
        "later rolls, fourth visit",
        "first roll, more starts",
        "first roll, fourth visit, more starts",
        "switch system, first (Edit)",
        "switch system, back (Edit)",
        "switch system, first (Play)",
        "switch system, back (Play)",
        "switch system, not made ahead (Play)",
        "switch language",
        "open fight",
        "open fight (at once)",
        "open fight (at once, made ahead)",
        "fight attack",
        "longest task while still",
        "longest still step",
    )
    results: dict[str, list[dict]] = {k: [] for k in keys}
    heroes = stored_heroes()
    with sync_playwright() as p:
        browser = p.chromium.launch(**bench_site.launch_options())
        for _ in range(args.runs):
            context, page = returning_player(browser, url, args.throttle)
            measure(page, results)
            context.close()
            # stored heroes: the same start with characters in the browser's storage from the first visit on
            context, page = returning_player(browser, url, args.throttle, stored=heroes)
            measure_play(page, results)
            context.close()
            context, page = returning_player(browser, url, args.throttle, stored=heroes)
            measure_made_ahead(page, results)
            context.close()
            context, page = returning_player(browser, url, args.throttle, visit=4)
            measure_later_visit(page, results)
            context.close()
        for i in range(2 * args.first_rolls):
            visit = 2 if i % 2 == 0 else 4
            context, page = returning_player(browser, url, args.throttle, visit=visit)
            page.get_by_role("button", name="The One Ring", exact=True).wait_for()
            key = "first roll, more starts" if visit == 2 else "first roll, fourth visit, more starts"
            results[key].append(one_tap_roll(page))
            context.close()
        browser.close()
    httpd.shutdown()

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Chromium headless 1024×768, CPU throttled {args.throttle:g}×, {args.runs} starts"
        + (f" (and {args.first_rolls} more of a second and of a fourth visit)" if args.first_rolls else "")
        + f", load average {load:.1f} on {os.cpu_count()} CPUs\n"
    )
    goals = {
        "feedback": "one frame",
        "first roll": "100 ms",
        "later rolls": "100 ms",
        "first roll, fourth visit": "100 ms",
        "later rolls, fourth visit": "100 ms",
        "first roll, more starts": "100 ms",
        "first roll, fourth visit, more starts": "100 ms",
        "switch system, first (Edit)": "300 ms",
        "switch system, back (Edit)": "300 ms",
        "switch system, first (Play)": "300 ms",
        "switch system, back (Play)": "300 ms",
        "switch system, not made ahead (Play)": "300 ms",
        "switch language": "500 ms",
        "open fight": "300 ms",
        "open fight (at once)": "300 ms",
        "open fight (at once, made ahead)": "300 ms",
        "fight attack": "150 ms",
        "longest task while still": "—",
        "longest still step": "—",
    }
    print("| measure | median | slowest | n | goal | this script's own time (median) |")
    print("|:--|--:|--:|--:|--:|--:|")
    for key in keys:
        values = [t["result"] for t in results[key]]
        own = [t["own"] for t in results[key] if t.get("own") is not None]
        median = f"{statistics.median(values):.0f} ms" if values else "—"
        slowest = f"{max(values):.0f} ms" if values else "—"
        mine = f"{statistics.median(own):.0f} ms" if own else "—"
        print(f"| {key} | {median} | {slowest} | {len(values)} | {goals[key]} | {mine} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
