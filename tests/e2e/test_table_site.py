"""What breaks trust at the table, tried on the built static site (Pyodide in the browser).

Each test plays what a player or the game master does: type a negative
modifier on a tablet, roll in one system and look at another, open a
player's links one after the other, count favour points in Czech.
"""

from __future__ import annotations

import re

import pytest
from pages import big_roll, start
from playwright.sync_api import Browser, Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]


FOCUSED = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  return el && el.tagName === "INPUT" ? {value: el.value, caret: el.selectionStart, mode: el.inputMode,
                                         pattern: el.getAttribute("pattern")} : null;
}"""


def focused(page: Page) -> dict | None:
    return page.evaluate(FOCUSED)


def field_error(page: Page, text: str):
    """The reason written under a number field."""
    return page.locator(".number-field .field-error", has_text=text)


# ---- a half-typed number keeps its field


def test_a_half_typed_negative_modifier_keeps_focus_and_caret(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=gurps")
    page.get_by_role("button", name="Add a modifier").click()
    field = page.get_by_label("Value", exact=True)
    expect(field).to_have_value("0")
    field.click()
    page.keyboard.press("Backspace")
    page.keyboard.type("-")
    expect(field_error(page, "Enter a whole number from -30 to 30.")).to_be_visible()  # marked wrong, under the field
    page.wait_for_timeout(500)  # whatever the page does with the error, it has done it by now
    now = focused(page)
    assert now is not None and now["value"] == "-" and now["caret"] == 1, now
    assert now["mode"] == "numeric" and re.fullmatch(now["pattern"], "-2"), now
    page.keyboard.type("2")
    expect(field).to_have_value("-2")
    expect(page.get_by_test_id("effective-skill")).to_have_text("8")
    expect(field_error(page, "Enter a whole number from -30 to 30.")).to_have_count(0)
    assert focused(page)["value"] == "-2"


def test_a_wrong_character_in_tn_by_hand_is_marked_and_the_field_kept(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=one-ring")
    field = page.get_by_label("TN (by hand)", exact=True)
    field.click()
    page.keyboard.type("2x")
    expect(field_error(page, "Enter a whole number from 1 to 40.")).to_be_visible()
    page.wait_for_timeout(500)
    now = focused(page)
    assert now is not None and now["value"] == "2x" and now["caret"] == 2, now
    page.keyboard.press("Backspace")
    page.keyboard.type("0")
    expect(field).to_have_value("20")
    expect(field_error(page, "Enter a whole number from 1 to 40.")).to_have_count(0)
    assert focused(page)["value"] == "20"


def test_a_rating_typed_slowly_in_the_one_ring_form_keeps_focus_text_and_its_error(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=one-ring")
    field = page.get_by_label("Awe", exact=True)
    field.click()
    page.keyboard.press("Backspace")
    for key in "12":  # each key goes to Python and comes back while the next is typed
        page.keyboard.type(key)
        page.wait_for_timeout(40)
    expect(field_error(page, "Must be from 0 to 6.")).to_be_visible()  # under the field, the label as it was
    page.wait_for_timeout(500)
    now = focused(page)
    assert now is not None and now["value"] == "12" and now["caret"] == 2 and now["mode"] == "numeric", now
    expect(page.locator(".number-label", has_text="Awe")).to_have_text("Awe")
    page.keyboard.press("Backspace")
    expect(field_error(page, "Must be from 0 to 6.")).to_have_count(0)
    assert focused(page)["value"] == "1"


def test_the_one_ring_form_stars_a_skill_and_its_roll_is_named_and_rolls_once(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=one-ring")
    star = page.get_by_role("button", name="Favoured: Awareness", exact=True)
    expect(star).to_have_attribute("aria-pressed", "false")
    star.tap()
    expect(star).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Increase Awareness", exact=True).tap()
    roll = page.get_by_role("button", name="Roll Awareness", exact=True)
    roll.dblclick()  # a double tap is one roll
    expect(page.get_by_test_id("result-outcome")).to_be_visible()
    expect(page.get_by_test_id("roll-status")).to_contain_text("Awareness")
    page.wait_for_timeout(500)
    expect(page.get_by_test_id("result-log")).to_have_text("Roll log: 1 roll")
    page.get_by_role("button", name="Play", exact=True).tap()
    row = page.locator(".k-play-row button").filter(has_text=re.compile(r"^Awareness\s*1 ★$"))
    expect(row).to_have_count(1)  # the rating and the star reached the sheet


# ---- each screen shares its own roll, beside it


def test_each_screen_shares_its_own_roll_beside_it(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=one-ring")
    big_roll(page).click()
    one_ring_link = page.get_by_test_id("share-link").filter(visible=True)
    expect(one_ring_link).to_be_visible()
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_be_visible()
    expect(page.get_by_test_id("share-link").filter(visible=True)).to_have_count(0)  # not the One Ring roll's link
    expect(page.get_by_test_id("share-qr")).to_have_count(0)
    page.locator("div.bk-Checkbox").filter(has_text="Secret GM roll").filter(visible=True).locator("input").check()
    big_roll(page).click()
    expect(page.get_by_test_id("result-outcome")).to_have_text("Secret roll: hidden until the GM reveals it.")
    note = page.get_by_test_id("share-note").filter(visible=True)
    expect(note).to_contain_text("Sealed link")
    # Reveal is under the secret roll in the result panel; the sealed link beside the roll, above the contest section
    expect(page.get_by_test_id("result-more").get_by_role("button", name="Reveal", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Reveal", exact=True)).to_have_count(1)
    sealed = page.get_by_test_id("share-link").filter(visible=True).bounding_box()
    contest = page.get_by_text("Contest", exact=True).bounding_box()
    assert sealed["y"] < contest["y"], (sealed, contest)
    page.get_by_role("button", name="Roll the contest").click()
    expect(page.get_by_test_id("result-outcome")).to_have_text(re.compile("^(You win|Opponent wins|Nobody wins)$"))
    # the contest's link beside the contest
    expect(page.get_by_test_id("share-link").filter(visible=True)).to_have_count(2)
    contest_link = page.get_by_test_id("share-link").filter(visible=True).nth(1).bounding_box()
    assert contest_link["y"] > page.get_by_role("button", name="Roll the contest").bounding_box()["y"]
    page.get_by_role("button", name="The One Ring", exact=True).click()
    expect(page.get_by_test_id("share-link").filter(visible=True)).to_have_count(1)


# ---- counts in the words of each language


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
def test_favour_held_is_counted_in_the_plural_form_of_the_language(tablet: Page, site_url: str, lang: str):
    from webapp.i18n import Translator

    tr = Translator(lang=lang)
    page = tablet
    start(page, site_url + f"?lang={lang}&sys=fate")
    page.get_by_label(tr("Favour (max)"), exact=True).fill("30")
    held, spend = (
        page.get_by_label(tr("Favour of the gods"), exact=True),
        page.get_by_label(tr("Favour to spend"), exact=True),
    )
    expected = {
        "en": [
            "You hold only 1 favour point.",
            "You hold only 2 favour points.",
            "You hold only 5 favour points.",
            "You hold only 21 favour points.",
        ],
        "ru": [
            "У вас только 1 очко благосклонности.",
            "У вас только 2 очка благосклонности.",
            "У вас только 5 очков благосклонности.",
            "У вас только 21 очко благосклонности.",
        ],
        "cs": [
            "Máte jen 1 bod přízně.",
            "Máte jen 2 body přízně.",
            "Máte jen 5 bodů přízně.",
            "Máte jen 21 bodů přízně.",
        ],
    }[lang]
    for n, text in zip((1, 2, 5, 21), expected, strict=False):
        held.fill(str(n))
        spend.fill(str(n + 1))
        expect(page.locator(".number-field", has=spend).locator(".field-error")).to_have_text(text)


# ---- contests and their charts

# Each chart as the page holds it: the categories, the bars and the end of its y-axis, and where its legend is.
CHARTS = """() => {
  const out = [];
  for (const doc of Bokeh.documents) {
    for (const model of doc._all_models.values()) {
      if (!model.renderers || !model.y_range) continue;
      for (const r of model.renderers) {
        const data = r.data_source && r.data_source.data;
        if (!data || !data.x) continue;
        const bars = data.p ? Array.from(data.p) : Array.from(data.hero || []).concat(Array.from(data.monster || []));
        out.push({x: Array.from(data.x).map(String), bars, end: model.y_range.end, start: model.y_range.start,
                  legend_above: model.above.some((m) => m.type === "Legend"),
                  legend_inside: model.center.some((m) => m.type === "Legend")});
        break;
      }
    }
  }
  return out;
}"""


def chart_with(page: Page, category: str) -> dict | None:
    return next((c for c in page.evaluate(CHARTS) if category in c["x"]), None)


def test_contest_charts_fit_their_data_and_show_only_what_can_happen(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=gurps")
    page.get_by_label("Level", exact=True).fill("14")
    page.get_by_label("Opponent's effective skill", exact=True).fill("10")
    expect(page.get_by_test_id("p-contest")).to_have_text("79.4%")
    page.get_by_role("button", name="Show the contest's chart", exact=True).click()  # folded until asked for
    page.wait_for_function(f"() => ({CHARTS})().some((c) => c.x.includes('Tie'))")
    expect(page.locator("div.bk-Checkbox").filter(has_text="High-skill rule")).to_have_count(
        0
    )  # not for a quick contest
    chart = chart_with(page, "Tie")
    assert chart is not None and max(chart["bars"]) > 0.79
    assert chart["end"] >= max(chart["bars"]) + 0.13, chart  # the bar and its label inside the axis
    page.get_by_role("button", name="Regular contest").click()
    expect(page.locator("div.bk-Checkbox").filter(has_text="High-skill rule")).to_have_count(1)
    page.get_by_label("Opponent's effective skill", exact=True).fill("8")
    expect(page.get_by_test_id("p-contest")).not_to_have_text("79.4%")
    page.wait_for_function(
        f"() => ({CHARTS})().some((c) => c.x.includes('Opponent wins') && !c.x.includes('Tie') "
        "&& Math.max(...c.bars) > 0.9 && c.end >= Math.max(...c.bars) + 0.13)"  # (the range follows the bars)
    )
    chart = next(c for c in page.evaluate(CHARTS) if "Opponent wins" in c["x"] and "Tie" not in c["x"])
    assert chart["x"] == ["You win", "Opponent wins"] and chart["end"] >= max(chart["bars"]) + 0.13, chart


def test_the_duel_chart_keeps_its_bars_inside_its_axis_and_clear_of_the_legend(tablet: Page, site_url: str):
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])  # the name has arrived
    page.get_by_role("button", name="Fight", exact=True).click()
    page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$")).click()
    page.locator(".place-heroes-1-attacking button").click()
    page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$")).click()
    page.locator(".place-monsters-1-attacking button").click()
    expect(page.get_by_test_id("p-hero-wins")).to_have_text("30.2%")
    page.get_by_role("button", name="Show the charts", exact=True).click()  # folded until asked for
    page.wait_for_function(f"() => ({CHARTS})().some((c) => c.legend_above || c.legend_inside)")
    chart = next(c for c in page.evaluate(CHARTS) if c["legend_above"] or c["legend_inside"])
    assert chart["legend_above"] and not chart["legend_inside"], chart
    assert max(chart["bars"]) > 0 and chart["end"] >= max(chart["bars"]) * 1.15, chart


# ---- the fight screen


def tap(page: Page, locator) -> None:
    box = locator.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


@pytest.mark.parametrize("pause", [0, 300, 800, 1500])
def test_tap_a_hero_then_a_place_whatever_the_pause_between_taps(tablet: Page, site_url: str, pause: int):
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])  # the name has arrived
    page.get_by_role("button", name="Fight", exact=True).click()
    hero = page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$"))
    place = page.locator(".place-heroes-1-attacking button")
    for target in (hero, place):
        target.scroll_into_view_if_needed()
        # a touch browser must not take two quick taps for a double-tap (zoom) and drop the second
        assert target.evaluate("el => getComputedStyle(el).touchAction") == "manipulation"
    tap(page, hero)
    page.wait_for_timeout(pause)
    tap(page, place)
    expect(place).to_have_text("Ada")
    expect(page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$"))).to_be_hidden()


def test_a_tap_kept_waiting_behind_another_is_sent_when_that_one_is_answered(tablet: Page, site_url: str):
    """A creature and then its place, tapped in the same instant: the place's tap waits for the
    creature's answer and is sent as that answer arrives (a change made while the page takes in an
    answer would be dropped on its way to Python)."""
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])
    page.get_by_role("button", name="Fight", exact=True).click()
    hero = page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$"))
    place = page.locator(".place-heroes-1-attacking button")
    expect(hero).to_be_visible()
    hero.evaluate("(hero, place) => { hero.click(); place.click(); }", place.element_handle())
    expect(place).to_have_text("Ada", timeout=5000)  # not after the 8 s a lost answer is waited for


@pytest.mark.parametrize("size", [(390, 844), (1024, 768)], ids=["phone", "landscape"])
def test_a_formation_is_one_line_under_its_heads_and_opens_without_the_prepared_parts(
    browser: Browser, site_url: str, size: tuple[int, int]
):
    """The heroes' two places, the front and the monsters' two places stay on one line under their
    heads (Czech, the longest heads), inside the screen; what is prepared before a fight is folded."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=width < 600)
    page = context.new_page()
    try:
        start(page, site_url + "?lang=cs&sys=fate")
        page.get_by_label("Jméno", exact=True).filter(visible=True).first.fill("Eliška")
        expect(page.get_by_label("Postava", exact=True).locator("option")).to_have_text(["Eliška"])
        page.get_by_role("button", name="Boj", exact=True).click()
        places = [
            page.locator(f".place-{side}-1-{pos} button")
            for side, pos in (
                ("heroes", "defending"),
                ("heroes", "attacking"),
                ("monsters", "attacking"),
                ("monsters", "defending"),
            )
        ]
        expect(places[-1]).to_be_visible()
        boxes = [place.bounding_box() for place in places]
        assert all(b is not None for b in boxes)
        assert len({round(b["y"]) for b in boxes}) == 1, boxes  # one line
        assert all(b["x"] >= 0 and b["x"] + b["width"] <= width for b in boxes), boxes
        lefts = [b["x"] for b in boxes]
        assert lefts == sorted(lefts), boxes  # in their order
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scrolling
        for fold in ("Upravit nestvůru", "Ukázat pravidla boje", "Změnit čísla hrdiny", "Ukázat simulaci"):
            expect(page.get_by_role("button", name=fold, exact=True)).to_be_visible()
        expect(page.get_by_label("Život nestvůry", exact=True)).to_have_count(0)  # folded, not in the page
    finally:
        context.close()


def test_the_formations_buttons_add_and_remove_formations_and_take_a_creature_out(tablet: Page, site_url: str):
    """The buttons under the formations (drawn by the board, named by what they do) add a line of
    places, take the creature chosen back to its bench, and remove the last line."""
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_role("button", name="Fight", exact=True).click()
    second = page.locator(".place-monsters-2-attacking button")
    expect(second).to_have_count(0)
    page.get_by_role("button", name="Add a monster formation", exact=True).click()
    expect(second).to_be_visible()
    page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$")).click()
    second.click()
    expect(second).to_have_text("Wolf")
    expect(page.locator(".bench-monsters button")).to_have_count(0)
    second.click()  # the Wolf chosen where it stands…
    page.get_by_role("button", name="Take out of the encounter", exact=True).click()
    expect(page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$"))).to_be_visible()  # …back
    page.get_by_role("button", name="Remove the last monster formation", exact=True).click()
    expect(second).to_have_count(0)


# ---- the game master's numbering of session rolls


def test_the_numbering_keeps_every_link_of_the_evening(tablet: Page, site_url: str):
    from engine import FateCheck, links

    def roll_link(number: int, difficulty: int) -> str:
        check = FateCheck(skill=8, difficulty=difficulty)
        seed = links.session_roll_seed("Friday", number, check, "Hanar")
        return links.link_url(
            site_url + "?lang=en",
            links.encode_roll_link(check, seed=seed, name="Hanar", session_code="Friday", number=number),
        )

    page = tablet
    one, three, two = roll_link(1, 0), roll_link(3, 0), roll_link(2, 0)
    numbering = page.get_by_test_id("numbering")
    for link in (one, three, two, two):  # one after the other, each a fresh start of the page
        page.goto("about:blank")
        start(page, link)
        expect(page.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(numbering).to_contain_text("Friday · Hanar: numbers 1–3 — no. 2 twice: the same roll opened again")
    expect(numbering).not_to_contain_text("missing")
    # a batch pasted at once: another roll with no. 3 is a roll made again, and no. 4 is there too
    start(page, site_url + "?lang=en")
    page.get_by_label("Players' links, one per line").fill(f"{roll_link(3, 1)}\n{roll_link(5, 0)}\nhello")
    page.get_by_role("button", name="Add these links").click()
    expect(page.get_by_test_id("paste-message")).to_have_text("2 session links added. 1 line is not a session link.")
    expect(numbering).to_contain_text("numbers 1–5 — missing: 4; no. 3 twice: rolled again")
    # the session is over: its numbering is cleared, and stays cleared
    page.get_by_role("button", name="Clear its numbering").click()
    expect(numbering).to_have_count(0)
    start(page, site_url + "?lang=en")
    expect(page.get_by_role("button", name="Add these links")).to_be_visible()
    expect(numbering).to_have_count(0)


# ---- back to a system: the screen as it was left


def test_a_system_shown_before_comes_back_as_it_was_left_without_being_drawn_again(tablet: Page, site_url: str):
    """Back to The One Ring after GURPS: the very elements drawn before are shown again (nothing is
    drawn anew), with what was typed and opened, while the screen left is out of sight and out of
    reach (no control of it can be tapped or tabbed to)."""
    page = tablet
    start(page, site_url + "?lang=en&sys=one-ring")
    name = page.get_by_label("Name", exact=True).filter(visible=True).first
    name.fill("Hanar")
    page.get_by_role("button", name="Show the charts", exact=True).click()
    expect(page.get_by_role("button", name="Hide the charts", exact=True)).to_be_visible()
    name.evaluate("el => { el.dataset.kept = 'one-ring'; }")  # a mark only this element carries
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.get_by_test_id("effective-skill")).to_be_visible()
    expect(page.get_by_role("button", name="Hide the charts", exact=True)).to_have_count(0)  # hidden: not reachable
    assert page.get_by_label("Name", exact=True).filter(visible=True).count() == 1  # GURPS's own
    page.get_by_role("button", name="The One Ring", exact=True).click()
    kept = page.locator("[data-kept=one-ring]")
    expect(kept).to_be_visible()  # the same element, not one drawn anew
    expect(kept).to_have_value("Hanar")
    expect(page.get_by_role("button", name="Hide the charts", exact=True)).to_be_visible()  # still open


# Every Bokeh view in the page whose layout holds a hidden child (a screen kept out of sight).
HIDDEN_IN_LAYOUT_JS = """
() => {
  const found = [];
  const walk = (view) => {
    for (const child of view.layoutable_views || []) {
      if (!child.model.visible) found.push(child.model.type);
      walk(child);
    }
  };
  for (const view of Object.values(Bokeh.index)) walk(view);
  return found;
}
"""


def test_a_hidden_screen_is_left_out_of_the_page_layout_and_laid_out_again_when_shown(tablet: Page, site_url: str):
    """Every change to the page lays it out again from its top: a screen kept hidden is left out of
    it (else each tap on one system would measure the other systems' screens too), and when it is
    shown again it is laid out as before: the same place and size for the same control."""
    page = tablet
    start(page, site_url + "?lang=en&sys=gurps")
    roll = page.get_by_role("button", name=re.compile(r"^Roll ")).filter(visible=True).first
    expect(roll).to_be_visible()
    box = roll.bounding_box()
    page.get_by_role("button", name="The One Ring", exact=True).click()
    expect(page.get_by_role("button", name="Roll Awareness", exact=True)).to_be_visible()
    page.get_by_role("button", name="Show the charts", exact=True).click()  # a change laid out while GURPS is hidden
    expect(page.get_by_role("button", name="Hide the charts", exact=True)).to_be_visible()
    assert page.evaluate(HIDDEN_IN_LAYOUT_JS) == []
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.get_by_test_id("effective-skill")).to_be_visible()
    assert page.evaluate(HIDDEN_IN_LAYOUT_JS) == []
    expect(roll).to_be_visible()
    assert roll.bounding_box() == box


def test_nothing_is_made_ahead_while_the_player_keeps_tapping(tablet: Page, site_url: str):
    """What the page makes ahead in a still moment waits while the player taps (a tap would wait
    for it): the rest of Fate & Doom's fight screen (its first screen is in the page from the
    start, hidden) is made only once the hands have been still a moment."""
    page = tablet
    start(page, site_url + "?lang=en")
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    roll = page.get_by_role("button", name="Roll Skill with the chosen options", exact=True)
    expect(page.get_by_test_id("encounter-status")).to_be_attached()  # the first screen, hidden
    status = page.get_by_test_id("duel-readout")  # the odds card, under it
    for _ in range(8):  # four seconds of rolls, more than twice the still moment
        roll.click()
        page.wait_for_timeout(500)
        expect(status).to_have_count(0)
    expect(status).to_be_attached()  # then, still: made…
    expect(status).to_be_hidden()  # …out of sight


def test_a_first_switch_right_after_start_shows_the_first_screen_drawn_at_start(tablet: Page, site_url: str):
    """Each other screen's first screen is in the page from the start, hidden (and Fate & Doom's
    fight's): a first switch as soon as the page is ready shows those very elements, and the rest
    of the screen follows (GURPS's contest)."""
    page = tablet
    start(page, site_url + "?lang=en")
    for testid, mark in (("effective-skill", "gurps"), ("encounter-status", "fight")):
        drawn = page.get_by_test_id(testid)
        expect(drawn).to_be_attached()
        expect(drawn).to_be_hidden()
        drawn.evaluate("(el, mark) => { el.dataset.kept = mark; }", mark)
    expect(page.get_by_role("button", name="Roll the contest", exact=True)).to_have_count(0)  # not its rest
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.locator("[data-kept=gurps]")).to_be_visible()  # the same element, not one drawn anew
    expect(page.get_by_role("button", name="Roll the contest", exact=True)).to_be_attached()  # then the rest
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    page.get_by_role("button", name="Fight", exact=True).click()
    expect(page.locator("[data-kept=fight]")).to_be_visible()
    expect(page.get_by_test_id("duel-readout")).to_be_visible()


def test_the_fight_screen_is_made_hidden_while_the_skill_check_is_still_and_opens_as_made(tablet: Page, site_url: str):
    """A moment after Fate & Doom's skill check is shown, its fight screen is made, out of sight and
    out of reach; tapping Fight then shows those very elements, and the skill check is kept the same
    way for the way back."""
    page = tablet
    start(page, site_url + "?lang=en&sys=fate")
    status = page.get_by_test_id("encounter-status")
    expect(status).to_be_attached()  # made without being asked for…
    expect(status).to_be_hidden()  # …and hidden
    expect(page.get_by_role("button", name="Add the Wolf", exact=True)).to_have_count(0)  # not reachable
    expect(
        page.get_by_role("button", name="Roll Skill with the chosen options", exact=True)
    ).to_be_visible()  # the check as it was
    status.evaluate("el => { el.dataset.kept = 'fight'; }")
    page.get_by_role("button", name="Fight", exact=True).click()
    expect(page.locator("[data-kept=fight]")).to_be_visible()  # the same element, not one drawn anew
    expect(page.get_by_role("button", name="Add the Wolf", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Roll Skill with the chosen options", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Skill check", exact=True).click()
    expect(page.get_by_role("button", name="Roll Skill with the chosen options", exact=True)).to_be_visible()
    expect(page.locator("[data-kept=fight]")).to_be_hidden()


#: Whether the page's still moments have made all there is to make ahead (``StillPage.more``).
ALL_MADE_AHEAD_JS = """() => Bokeh.documents.some(doc => [...doc._all_models.values()].some(
  m => "still" in m.properties && "answered" in m.properties && m.more === false))"""


def test_a_still_page_draws_the_other_screens_hidden_and_a_first_switch_shows_them_as_drawn(
    tablet: Page, site_url: str
):
    """Left still, the page draws the other systems' screens and the fight, hidden (out of sight and
    out of reach); a first switch to GURPS, then Fate & Doom's fight, shows those very elements."""
    page = tablet
    start(page, site_url + "?lang=en")
    page.wait_for_function(ALL_MADE_AHEAD_JS, timeout=60_000)
    # each step timed in the page: GURPS's screen, Fate & Doom's, the fight's (their objects are in
    # the snapshot), the snapshot's heap collected, and the last answer
    steps = page.evaluate("performance.getEntriesByName('kostka-still-step').map((e) => e.duration)")
    assert len(steps) >= 5 and all(step > 0 for step in steps), steps
    skill, status = page.get_by_test_id("effective-skill"), page.get_by_test_id("encounter-status")
    for drawn in (skill, status):
        expect(drawn).to_be_attached()
        expect(drawn).to_be_hidden()
    expect(page.get_by_role("button", name="Add the Wolf", exact=True)).to_have_count(0)  # not reachable
    skill.evaluate("el => { el.dataset.kept = 'gurps'; }")
    status.evaluate("el => { el.dataset.kept = 'fight'; }")
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.locator("[data-kept=gurps]")).to_be_visible()  # the same element, not one drawn anew
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    page.get_by_role("button", name="Fight", exact=True).click()
    expect(page.locator("[data-kept=fight]")).to_be_visible()
    expect(page.get_by_role("button", name="Add the Wolf", exact=True)).to_be_visible()
    expect(page.locator("[data-kept=gurps]")).to_be_hidden()


def test_screens_made_ahead_before_a_switch_of_language_show_in_the_new_language(tablet: Page, site_url: str):
    """Still moments make the other systems' screens and draw them, hidden; a switch of language
    re-words them where they are (and forgets models made out of the page, which later moments
    make again): a first switch to a screen shows it in the language chosen."""
    page = tablet
    start(page, site_url + "?lang=en")
    page.wait_for_function(ALL_MADE_AHEAD_JS, timeout=60_000)
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Čeština", exact=True).click()
    expect(page.get_by_role("button", name="Jeden prsten", exact=True)).to_be_visible()
    page.wait_for_function(ALL_MADE_AHEAD_JS, timeout=60_000)  # made again, in Czech
    page.get_by_role("button", name="GURPS", exact=True).click()
    expect(page.get_by_text("Efektivní dovednost").first).to_be_visible()
    expect(page.get_by_text("Effective skill")).to_have_count(0)
    page.get_by_role("button", name="Osud a Zkáza", exact=True).click()
    expect(page.get_by_role("button", name=re.compile(r"^Hod")).first).to_be_visible()
    expect(page.get_by_role("button", name=re.compile(r"^Roll"))).to_have_count(0)


def test_the_fight_made_ahead_on_another_screen_opens_at_once_and_plays(tablet: Page, site_url: str):
    """The fight, drawn hidden in still moments while The One Ring was shown, is shown when *Fight*
    is tapped as soon as Fate & Doom is shown: its hero and monster take their places and the
    duel's odds are worked out, as on a fight screen made then."""
    page = tablet
    start(page, site_url + "?lang=en")
    page.wait_for_function(ALL_MADE_AHEAD_JS, timeout=60_000)
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    fight = page.get_by_role("button", name="Fight", exact=True)
    expect(fight).to_be_visible()  # Fate & Doom's screen is shown (The One Ring's hero keeps its name)
    page.get_by_label("Name", exact=True).filter(visible=True).first.fill("Ada")
    expect(page.get_by_label("Character", exact=True).locator("option")).to_have_text(["Ada"])
    fight.click()
    page.locator(".bench-heroes button").filter(has_text=re.compile("^Ada$")).click()
    page.locator(".place-heroes-1-attacking button").click()
    page.locator(".bench-monsters button").filter(has_text=re.compile("^Wolf$")).click()
    page.locator(".place-monsters-1-attacking button").click()
    expect(page.get_by_test_id("p-hero-wins")).to_have_text("30.2%")


#: Tap ``name``'s button and, in the first frame that shows an element matching the selector
#: ``shown`` on screen, say whether one matching ``later`` is in the page yet (both searched
#: through every shadow root).
FIRST_FRAME_JS = """
async ([name, shown, later]) => {
  const deep = (root, out = []) => {
    for (const el of root.querySelectorAll("*")) {
      out.push(el);
      if (el.shadowRoot) deep(el.shadowRoot, out);
    }
    return out;
  };
  const found = (selector) => deep(document).filter((el) => el.matches(selector));
  deep(document).find((el) => el.tagName === "BUTTON" && el.textContent.trim() === name).click();
  return await new Promise((resolve) => {
    const look = () => {
      if (found(shown).some((el) => el.getClientRects().length)) resolve(found(later).length > 0);
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}
"""


def test_a_screen_drawn_on_a_tap_shows_its_check_first_and_the_rest_once_the_page_is_still(tablet: Page, site_url: str):
    """Fate & Doom tapped before a still moment has drawn it: the frame that first shows the check's
    Roll button has none of the sheet and options under it yet; they follow once the page has been
    still a moment, and the screen is then whole, with the check's chance and its share panel."""
    page = tablet
    start(page, site_url + "?lang=en")
    roll = 'button[aria-label="Roll Skill with the chosen options"]'
    assert page.evaluate(FIRST_FRAME_JS, ["Fate & Doom", roll, '[data-testid="tie-reading"]']) is False
    expect(page.get_by_test_id("tie-reading")).to_be_visible()
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_have_count(1)  # (One Ring's is hidden)
    expect(page.get_by_role("button", name="Link to this check", exact=True)).to_be_visible()
    expect(page.get_by_label("Favour of the gods", exact=True)).to_be_visible()


#: The label of each button whose text is ``name`` and the button it sits in, as boxes (through
#: every shadow root): a download button's label is a link inside its button.
LABEL_IN_BUTTON_JS = """
(name) => {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll("*")) {
      if (el.childElementCount === 0 && el.textContent.trim() === name && el.closest("button")) {
        const [label, button] = [el.getBoundingClientRect(), el.closest("button").getBoundingClientRect()];
        const text = document.createRange();
        text.selectNodeContents(el);
        const line = text.getBoundingClientRect();
        out.push({text: (line.top + line.bottom) / 2, button: (button.top + button.bottom) / 2, label: label.height});
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}
"""


@pytest.mark.parametrize("name", ["Export the log", "Clear the log"])
def test_a_buttons_label_sits_in_its_middle_download_buttons_too(tablet: Page, site_url: str, name: str):
    """A download button's label is a link inside the button: its text sits in the button's middle,
    as the text of the button beside it does (it sat at the top)."""
    page = tablet
    start(page, site_url + "?lang=en")
    found = page.evaluate(LABEL_IN_BUTTON_JS, name)
    assert found and all(abs(f["text"] - f["button"]) <= 2 for f in found), found
