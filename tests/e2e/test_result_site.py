"""The result where the finger is, tried on the built static site at a table's three screen sizes.

After a one-tap roll in each system (and a fight step) the outcome, written into
the page's ``role="status"`` region, is wholly on screen without any scrolling;
the one-tap roll buttons are found by their names ("Roll Awareness"); on touch
screens every control is a 44×44 px target, no text runs out of its control and
a phone never scrolls sideways; a burst of taps on one check makes one roll.
"""

from __future__ import annotations

import re

import pytest
from pages import CONTROLS, big_roll, seeded, start
from playwright.sync_api import Browser, Page, expect

from engine.links import session_roll_seed
from engine.one_ring import OneRingCheck
from engine.rng import Dice
from webapp.state.app import AppState

pytestmark = [pytest.mark.browser, pytest.mark.site]

SIZES = {"landscape": (1024, 768), "portrait": (768, 1024), "phone": (390, 844)}

#: (system button, a one-tap roll on its sheet, what the result's status names) per language
WORDS = {
    "en": {
        "systems": ("The One Ring", "GURPS", "Fate & Doom"),
        "rolls": ("Roll Awareness", "Roll Will", None),
        "roll": "Roll Skill with the chosen options",
        "fight": "Fight",
        "step": ("Name", "Character", "Wolf", "Start the fight", "Attack", "Hit|Parried"),
    },
    "ru": {
        "systems": ("Единое Кольцо", "GURPS", "Судьба и Рок"),
        "rolls": ("Бросок: Внимательность", "Бросок: Воля", None),
        "roll": "Бросок: Навык с выбранными настройками",
        "fight": "Бой",
        "step": ("Имя", "Персонаж", "Волк", "Начать бой", "Атаковать", "Попадание|Отражено"),
    },
    "cs": {
        "systems": ("Jeden prsten", "GURPS", "Osud a Zkáza"),
        "rolls": ("Hod: Ostražitost", "Hod: Vůle", None),
        "roll": "Hod: Dovednost se zvolenými možnostmi",
        "fight": "Boj",
        "step": ("Jméno", "Postava", "Vlk", "Začít boj", "Zaútočit", "Zásah|Odraženo"),
    },
}


def status(page: Page):
    return page.locator("[role=status][aria-live=polite][data-testid=roll-status]")


def assert_in_view(page: Page, what: str) -> None:
    """The status region is wholly inside the window as it stands (nothing scrolled to show it)."""
    box = status(page).bounding_box()
    width, height = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    assert box is not None, what
    assert box["x"] >= 0 and box["y"] >= 0, (what, box)
    assert box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5, (what, box)


def roll_and_look(page: Page, button, what: str) -> None:
    """Tap ``button``; the status says a new outcome, on screen where the player looks."""
    before = status(page).inner_text()
    button.click()
    expect(status(page)).not_to_have_text(before)
    expect(page.get_by_test_id("result-outcome")).not_to_be_empty()
    page.wait_for_timeout(200)  # the page's own scroll, if the tap caused one, has settled
    assert_in_view(page, what)


def layout_problems(page: Page, size: str) -> list[str]:
    problems = []
    for c in page.evaluate(CONTROLS):
        if c["width"] < 43.5 or c["height"] < 43.5:
            problems.append(f"{size}: {c['what']} is {c['width']:.1f}×{c['height']:.1f} px")
        if c["cut"]:
            problems.append(f"{size}: the text of {c['what']} runs out of its control")
    wide, window = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    if size == "phone" and wide > window:
        problems.append(f"phone: the page is {wide} px wide in a {window} px window")
    return problems


CASES = [("landscape", "en"), ("portrait", "en"), ("phone", "en"), ("portrait", "ru"), ("phone", "cs")]


@pytest.mark.parametrize(("size", "lang"), CASES, ids=[f"{s}-{lang}" for s, lang in CASES])
def test_a_one_tap_roll_shows_its_outcome_on_screen_in_every_system(browser: Browser, site_url: str, size, lang):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=size == "phone"
    )
    page = context.new_page()
    words = WORDS[lang]
    try:
        start(page, f"{site_url}?lang={lang}")
        problems: list[str] = []
        for system, roll in zip(words["systems"], words["rolls"], strict=True):
            page.get_by_role("button", name=system, exact=True).click()
            if roll is None:  # Fate & Doom: the check's own Roll
                expect(page.get_by_role("button", name=words["fight"], exact=True)).to_be_visible()
                button = page.get_by_role("button", name=words["roll"], exact=True).first
            else:
                button = page.get_by_role("button", name=roll, exact=True).first
                expect(button).to_be_visible()
            roll_and_look(page, button, f"{system} @ {size}")
            problems += layout_problems(page, size)
        # a fight step: the hero against the Wolf, one attack
        name, character, wolf, begin, attack, outcome = words["step"]
        page.get_by_label(name, exact=True).filter(visible=True).first.fill("Ada")
        expect(page.get_by_label(character, exact=True).locator("option")).to_have_text(["Ada"])
        page.get_by_role("button", name=words["fight"], exact=True).click()
        for who, where in (("Ada", "heroes-1-attacking"), (wolf, "monsters-1-attacking")):
            page.locator(".bench-heroes button, .bench-monsters button").filter(has_text=re.compile(f"^{who}$")).click()
            page.locator(f".place-{where} button").click()
            expect(page.locator(f".place-{where} button")).to_have_text(who)
        page.get_by_role("button", name=begin).click()
        roll_and_look(page, page.get_by_role("button", name=attack, exact=True), f"fight @ {size}")
        expect(status(page)).to_contain_text(re.compile(outcome))
        problems += layout_problems(page, size)
        assert not problems, "\n".join(problems)
    finally:
        context.close()


def test_roll_buttons_are_named_by_what_they_roll(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        for name in ("Roll Awareness", "Roll Stealth", "Roll Valour", "Roll Wisdom", "Roll Swords"):
            expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
        # the big Roll says what it rolls, and how it differs from the ⚄ beside that ability
        expect(big_roll(page)).to_have_text("Roll Awareness")
        expect(big_roll(page)).to_have_accessible_name("Roll Awareness with the chosen options")
        page.get_by_role("button", name="GURPS", exact=True).click()
        for name in ("Roll Will", "Roll Per", "Roll Dodge (defence roll)"):
            expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
        page.get_by_label("Skill 1", exact=True).filter(visible=True).first.fill("Broadsword")
        expect(page.get_by_role("button", name="Roll Broadsword", exact=True)).to_have_count(1)
        expect(big_roll(page)).to_have_accessible_name("Roll Broadsword with the chosen options")
        # keyboard: the roll button takes the focus and rolls on Enter
        page.get_by_role("button", name="Roll Will", exact=True).focus()
        page.keyboard.press("Enter")
        expect(status(page)).to_contain_text("You had a")
    finally:
        context.close()


#: Three taps of a finger on a button, one after the other within one task of the page.
TAP_TAP_TAP_JS = """(button) => {
  for (let i = 0; i < 3; i++) {
    for (const kind of ["pointerdown", "pointerup"]) {
      button.dispatchEvent(new PointerEvent(kind, {bubbles: true, composed: true, pointerType: "touch"}));
    }
    button.click();
  }
}"""


def test_a_burst_of_taps_on_one_check_makes_one_numbered_roll(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        page.get_by_label("Session code").fill("TABLE")
        page.get_by_label("Session code").press("Enter")
        awareness = page.get_by_role("button", name="Roll Awareness", exact=True)
        awareness.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        # tap-tap-tap, all three before the first roll can have come back: dispatched in the page in
        # one go (taps sent from outside land whenever the page's main thread takes them, after the
        # answer on a busy box, which the guard rightly lets through as a new roll)
        awareness.evaluate(TAP_TAP_TAP_JS)
        expect(status(page)).to_contain_text("You had a")
        page.wait_for_timeout(3000)  # any further roll the burst made would have come back by now
        rows = page.get_by_test_id("log").locator("tbody tr")
        expect(rows).to_have_count(1)
        expect(rows.first).to_contain_text("roll no. 1")
        # the guard holds only while the roll is on its way: the next tap rolls again
        awareness.click()
        expect(rows).to_have_count(2)
    finally:
        context.close()


# WCAG contrast of every visible button's text and of the result's words, against the colour behind them.
CONTRAST = """() => {
  const rgb = (c) => { const m = c.match(/[\\d.]+/g) || []; return m.map(Number); };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const parent = (n) => n.parentElement || (n.getRootNode() && n.getRootNode().host) || null;
  const behind = (el) => {
    for (let n = el; n; n = parent(n)) {
      const c = rgb(getComputedStyle(n).backgroundColor);
      if (c.length >= 3 && (c.length === 3 || c[3] > 0.5)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.body).backgroundColor).slice(0, 3);
  };
  const visible = (el) => {
    for (let n = el; n; n = parent(n)) {
      const s = getComputedStyle(n);
      if (s.display === 'none' || s.visibility === 'hidden') return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('button, .k-outcome, .k-chance')) {
      if (!visible(el) || el.disabled || !(el.innerText || '').trim()) continue;
      const fg = lum(rgb(getComputedStyle(el).color)), bg = lum(behind(el));
      const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
      out.push({what: el.tagName.toLowerCase() + ' "' + el.innerText.trim().slice(0, 30) + '"', ratio});
    }
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return out;
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_buttons_and_the_result_read_at_wcag_aa_contrast(browser: Browser, site_url: str, theme):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        if theme == "dark":
            page.get_by_role("button", name=re.compile("^☰")).first.click()
            page.get_by_role("button", name="Dark theme").click()
            page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
            page.get_by_role("button", name=re.compile("^☰")).first.click()
        roll_and_look(page, big_roll(page), theme)
        page.mouse.move(0, 0)  # no button under the pointer (hover shades are not the resting colours)
        page.wait_for_timeout(500)
        found = page.evaluate(CONTRAST)
        assert any(c["what"].startswith('button "Roll') for c in found), found
        low = [f"{c['what']}: {c['ratio']:.2f}:1" for c in found if c["ratio"] < 4.5]
        assert not low, "\n".join(low)
    finally:
        context.close()


def assert_rows_read_whole_on_the_first_screen(page: Page, rows, names: str, count: int) -> None:
    """Every name (``names``) is read whole in its row, the rating beside it; the first ``count``
    ``rows`` are inside the window without scrolling; the page has no layout problem."""
    cut = page.locator(names).evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert not cut, f"names cut short: {cut}"
    width, height = page.evaluate("() => [window.innerWidth, window.innerHeight]")
    for i in range(count):
        box = rows.nth(i).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height and box["x"] + box["width"] <= width, (
            rows.nth(i).inner_text(),
            box,
        )
    assert not layout_problems(page, "landscape"), layout_problems(page, "landscape")


PLAY = {
    "en": ("Play", "Edit", "Awareness"),
    "ru": ("Игра", "Правка", "Внимательность"),
    "cs": ("Hra", "Úpravy", "Ostražitost"),
}


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
def test_the_play_view_holds_every_ability_on_a_landscape_tablets_first_screen(
    browser: Browser, site_url: str, lang: str
):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    play, edit, awareness = PLAY[lang]
    try:
        start(page, f"{site_url}?lang={lang}")
        page.get_by_label(awareness, exact=True).fill("3")
        page.get_by_role("button", name=play, exact=True).click()
        expect(page.get_by_label(awareness, exact=True)).to_be_hidden()  # the form folds away
        rows = page.locator(".k-play-row button")
        expect(rows).to_have_count(24)  # 18 skills, 4 combat proficiencies, Valour and Wisdom
        expect(rows.filter(has_text=re.compile(rf"^{awareness}\s*3$"))).to_have_count(1)
        assert_rows_read_whole_on_the_first_screen(page, rows, ".k-play-row .k-name", 24)
        name = WORDS[lang]["rolls"][0]
        roll_and_look(page, page.get_by_role("button", name=name, exact=True), f"play view, {lang}")
        page.get_by_role("button", name=edit, exact=True).click()
        expect(page.get_by_label(awareness, exact=True)).to_have_value("3")
    finally:
        context.close()


def test_the_gurps_play_view_holds_will_per_the_defences_and_the_skills_on_a_landscape_tablets_first_screen(
    browser: Browser, site_url: str
):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    skills = [("Broadsword", "14"), ("Stealth", "12"), ("Climbing", "11")]
    try:
        start(page, f"{site_url}?lang=en&sys=gurps")
        for n, (name, level) in enumerate(skills):
            if n:
                page.get_by_role("button", name="Add a skill", exact=True).click()
            page.get_by_label(f"Skill {n + 1}", exact=True).fill(name)
            page.get_by_label("Level", exact=True).nth(n).fill(level)
        expect(page.get_by_role("button", name="Roll Climbing", exact=True)).to_have_count(1)  # the sheet has it
        page.get_by_role("button", name="Play", exact=True).click()
        expect(page.get_by_label("Skill 1", exact=True)).to_be_hidden()  # the form folds away
        rows = page.locator(".k-play-row button:visible")
        expect(rows).to_have_count(8)  # Will, Per, Dodge, Parry, Block and the three skills
        expect(rows.filter(has_text=re.compile(r"^Broadsword\s*14$"))).to_have_count(1)
        expect(rows.filter(has_text=re.compile(r"^Will\s*10$"))).to_have_count(1)
        assert_rows_read_whole_on_the_first_screen(page, rows, ".k-play-row .k-name:visible", 8)
        roll_and_look(page, page.get_by_role("button", name="Roll Broadsword", exact=True), "GURPS play view")
        expect(status(page)).to_contain_text("Broadsword")
        chosen = page.get_by_role("combobox", name="Skill to roll")
        expect(chosen.locator("option:checked")).to_have_text("Broadsword (14)")  # chosen for the next roll
        page.get_by_role("button", name="Edit", exact=True).click()
        expect(page.get_by_label("Skill 3", exact=True)).to_have_value("Climbing")
    finally:
        context.close()


@pytest.mark.parametrize("size", ["landscape", "phone"])
def test_the_chart_of_the_check_being_set_up_stays_in_view_as_its_inputs_change(
    browser: Browser, site_url: str, size: str
):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=size == "phone"
    )
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        odds = page.get_by_test_id("next-odds")
        if size == "landscape":  # the roll panel beside the sheet charts the next roll from the start
            expect(odds).to_contain_text("Next roll: Awareness")
        roll_and_look(page, page.get_by_role("button", name="Roll Awareness", exact=True), size)
        expect(odds).to_contain_text("Next roll: Awareness")
        chance = page.get_by_test_id("next-chance")
        before = chance.inner_text()
        page.get_by_label("Awareness", exact=True).fill("3")  # a tap on the sheet folds a bottom panel
        page.get_by_label("Awareness", exact=True).press("Tab")
        expect(chance).not_to_have_text(before)  # the chart follows the field
        expect(page.get_by_test_id("p-success").filter(visible=True)).to_have_text(chance.inner_text().split(" ")[0])
        box = odds.locator(".k-bar").bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= height, box  # in view, no scrolling
        # one more tap: the full log, its own card further down, comes into view
        page.get_by_role("button", name="Roll Awareness", exact=True).click()
        to_log = page.get_by_test_id("result-log")
        expect(to_log).to_have_text("Roll log: 2 rolls")
        to_log.click()
        log = page.get_by_test_id("log")
        page.wait_for_function(
            """() => { const f = (r) => { for (const e of r.querySelectorAll('*')) {
                 if (e.dataset && e.dataset.testid === 'log') return e;
                 if (e.shadowRoot) { const x = f(e.shadowRoot); if (x) return x; } } return null; };
               const r = f(document).getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }"""
        )
        expect(log.locator("tbody tr")).to_have_count(2)
    finally:
        context.close()


def test_a_stored_hero_opens_in_play_and_a_new_one_in_edit(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        expect(page.get_by_label("Awareness", exact=True)).to_be_visible()  # a new hero: the form
        page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Hanar")
        page.get_by_label("Awareness", exact=True).fill("2")
        page.get_by_label("Awareness", exact=True).press("Tab")
        page.wait_for_timeout(500)  # stored as typed
        start(page, f"{site_url}?lang=en")
        row = page.locator(".k-play-row button").filter(has_text=re.compile(r"^Awareness\s*2$"))
        expect(row).to_be_visible()  # back at the table: the hero's rows, one tap each
        expect(page.get_by_label("Awareness", exact=True)).to_be_hidden()
        page.get_by_role("button", name=re.compile("^☰")).first.click()
        page.get_by_role("button", name="New character", exact=True).click()
        expect(page.get_by_label("Awareness", exact=True)).to_be_visible()  # a new one: the form to fill in
    finally:
        context.close()


@pytest.mark.parametrize("size", ["landscape", "portrait", "phone"])
def test_the_fate_check_is_played_from_its_first_screen(browser: Browser, site_url: str, size: str):
    """Fate & Doom's sheet is one skill: the skill, the roll's difficulty and favour, and Roll are
    all on the first screen, as a play view's rows are."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=True, is_mobile=size == "phone"
    )
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=cs&sys=fate")
        parts = [
            page.get_by_label("Dovednost", exact=True),
            page.get_by_label("Obtížnost", exact=True),
            page.get_by_role("button", name="Hod: Dovednost se zvolenými možnostmi", exact=True),
        ]
        for part in parts:
            expect(part).to_be_visible()
            box = part.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (size, box)
        roll_and_look(page, parts[-1], f"Fate & Doom @ {size}")
        assert not layout_problems(page, size), layout_problems(page, size)
    finally:
        context.close()


def test_a_phone_holds_two_gurps_play_rows_side_by_side(browser: Browser, site_url: str):
    hero = AppState()
    hero.gurps.character.param.update(name_text="Gunnar", skills=[{"name": "Guns", "level": "13"}])
    context = seeded(
        browser, {"kostka.characters": hero.characters_json()}, viewport={"width": 390, "height": 844}, has_touch=True
    )
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=ru&sys=gurps")
        will = page.get_by_role("button", name="Бросок: Воля", exact=True)
        per = page.get_by_role("button", name="Бросок: Восприятие", exact=True)
        expect(will).to_be_visible()
        a, b = will.bounding_box(), per.bounding_box()
        assert a and b and abs(a["y"] - b["y"]) < 1 and b["x"] > a["x"] + a["width"], (a, b)  # one line, two rows
        assert b["x"] + b["width"] <= 390 and page.evaluate("() => document.documentElement.scrollWidth") <= 390
    finally:
        context.close()


#: Tap ``button`` (found by its accessible name on screen) and, in the frame that shows the new roll in
#: the result panel, say which of the panel's animations run; 1.5 s later, which still run.
ROLL_ANIMATIONS = """async (name) => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++)
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  const find = (selector, shown) => roots.map((r) => [...r.querySelectorAll(selector)]).flat()
    .find((el) => !shown || el.getClientRects().length);
  const button = find(`button[aria-label="${name}"]`, true);
  const panel = find('[data-testid=result-panel]').getRootNode();
  const running = () => panel.getAnimations().filter((a) => a.playState === 'running').map((a) => a.animationName);
  // a player taps again once the button no longer looks pressed (its last tap answered)
  for (const t0 = performance.now(); button.getAttribute('aria-busy') === 'true';) {
    if (performance.now() - t0 > 20000) throw new Error(`${name} still waits for its last tap's answer`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // the status line written anew (what a screen reader announces), whatever it says
  let announced = false;
  const said = new MutationObserver(() => { announced = true; });
  said.observe(panel.querySelector('[data-testid=roll-status]'), {childList: true, subtree: true});
  const drawn = await new Promise((resolve, reject) => {
    const seen = new MutationObserver(() => {
      seen.disconnect();
      requestAnimationFrame(() => resolve(running()));
    });
    seen.observe(panel.querySelector('[data-testid=result-dice]'), {childList: true, subtree: true});
    setTimeout(() => { seen.disconnect(); reject(new Error(`no dice drawn after a tap on ${name}`)); }, 20000);
    button.click();
  });
  said.disconnect();
  const shown = {
    dice: panel.querySelector('[data-testid=result-dice]').innerHTML,
    status: panel.querySelector('[data-testid=roll-status]').textContent,
  };
  // after the roll's animations (under half a second), and before the page's still moment (1.5 s),
  // whose answer a tap could land in
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return {drawn, after: running(), announced, ...shown};
}"""


def test_each_roll_plays_the_dices_short_roll_and_leaves_none_running(browser: Browser, site_url: str):
    """The dice of each new roll tumble once, a roll made while the one before still tumbles too (its
    dice are new), and nothing is left running afterwards; under reduced motion nothing moves."""
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        first = page.evaluate(ROLL_ANIMATIONS, "Roll Awareness")
        assert "k-tumble" in first["drawn"] and first["after"] == [], first
        quick = page.evaluate(  # the next roll while the first one's dice still tumble
            "async (args) => { const [js, name] = args; const f = eval(js);"
            " const one = f(name); await new Promise((r) => setTimeout(r, 150)); return [await one, await f(name)]; }",
            [ROLL_ANIMATIONS, "Roll Awareness"],
        )
        for roll in quick:
            assert "k-tumble" in roll["drawn"] and roll["after"] == [], quick
        page.emulate_media(reduced_motion="reduce")
        still = page.evaluate(ROLL_ANIMATIONS, "Roll Awareness")
        assert "k-tumble" not in still["drawn"] and still["after"] == [], still
    finally:
        context.close()


def test_a_roll_whose_dice_are_those_of_the_roll_before_is_drawn_and_said_anew(browser: Browser, site_url: str):
    """Session Esgaroth's rolls no. 1 and 2 of a new hero's Awareness (no Success dice, TN 15) have the
    same Feat die: the very same dice twice. The second roll is drawn as new dice that tumble, and its
    outcome is written anew into the status region, so that a screen reader says it again."""
    check = OneRingCheck(rating=0, tn=15)
    assert len({Dice(session_roll_seed("Esgaroth", n, check, "")).die(12) for n in (1, 2)}) == 1
    context = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    page = context.new_page()
    try:
        start(page, f"{site_url}?lang=en")
        page.get_by_label("Session code").fill("Esgaroth")
        page.get_by_label("Session code").press("Enter")
        first = page.evaluate(ROLL_ANIMATIONS, "Roll Awareness")
        second = page.evaluate(ROLL_ANIMATIONS, "Roll Awareness")
        assert first["dice"] == second["dice"], (first, second)
        for roll in (first, second):
            assert "k-tumble" in roll["drawn"] and roll["after"] == [] and roll["announced"], roll
        expect(page.get_by_test_id("log").locator("tbody tr")).to_have_count(2)
    finally:
        context.close()
