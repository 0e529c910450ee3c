"""Odd and hostile input on the built static site (Pyodide in Chromium): the address, browser
storage and names. Stored characters are never lost, the Python runtime never dies, and what
could not be read is said on the page."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from pages import STEP_TIMEOUT, big_roll, seeded, start, started, storage
from playwright.sync_api import Browser, Page, expect

from webapp.state.app import AppState

pytestmark = [pytest.mark.browser, pytest.mark.site]

ASTRONAUT = "\U0001f469\u200d\U0001f680"


def stored_characters() -> str:
    """Three systems' characters as the app stores them: Tilda (Lore 4), Gunnar, Vera."""
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", lore="4")
    app.gurps.character.param.update(name_text="Gunnar", skills=[{"name": "Guns", "level": "13"}])
    app.fate.character.param.update(name_text="Vera", skill="8")
    return app.characters_json()


def names_of(page: Page) -> list[str]:
    return page.locator("select").first.evaluate("s => Array.from(s.options).map(o => o.text)")


def stored_names(page: Page) -> dict[str, list[str]]:
    data = json.loads(storage(page).get("kostka.characters", "{}") or "{}")
    return {s: [c.get("name") for c in r["characters"]] for s, r in data.get("systems", {}).items()}


def alive(page: Page) -> None:
    """The Python runtime still answers: a roll of the stored One Ring character is made and shown."""
    page.get_by_role("button", name="The One Ring", exact=True).click()
    page.get_by_label("Character").select_option(label="Tilda")
    # a stored hero opens in Play: Tilda's own rows (Lore 4) are on the sheet
    expect(page.get_by_role("button", name="Roll Lore", exact=True)).to_contain_text("4", timeout=STEP_TIMEOUT)
    big_roll(page).click()
    expect(page.get_by_test_id("result-dice").first).to_be_visible(timeout=STEP_TIMEOUT)


ODD_ADDRESSES = [
    "?lang=en&sys=fate&skill=%C2%B2",
    "?lang=en&sys=fate&skill=" + "9" * 400,
    "?lang=en&sys=fate&skill=" + "9" * 5000,
    "?lang=en&sys=gurps&skills=" + quote('[{"name":"a","level":' + "9" * 400 + "}]"),
    "?lang=en&x=" + "[" * 4000,
]


def test_odd_addresses_never_cost_the_stored_characters_or_the_runtime(browser: Browser, site_url: str):
    stored = stored_characters()
    context = seeded(browser, {"kostka.characters": stored})
    page = context.new_page()
    errors: list[str] = []
    for search in ODD_ADDRESSES:
        start(page, site_url + search, errors)
        alive(page)
        page.get_by_role("button", name="Fate & Doom", exact=True).click()
        page.get_by_label("Character").select_option(label="Vera")
        # the chosen character is on the sheet before typing starts
        expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vera", timeout=STEP_TIMEOUT)
        page.get_by_label("Name").filter(visible=True).first.fill(
            "Vera edited"
        )  # the first edit: saved beside the others
        expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vera edited")
        page.wait_for_function("() => (localStorage.getItem('kostka.characters') || '').includes('Vera edited')")
        names = stored_names(page)
        assert "Tilda" in names["one-ring"] and "Gunnar" in names["gurps"], (search[:40], names)
        assert "Vera edited" in names["fate"], (search[:40], names)
        assert not [e for e in errors if "fatal error" in e or "ValueError" in e or "RecursionError" in e], errors
        page.evaluate(f"localStorage.setItem('kostka.characters', {json.dumps(stored)})")
    expect(page.get_by_test_id("address-message")).to_be_visible()  # the 4000 brackets: said, not parsed
    context.close()


def test_a_deeply_nested_stored_session_is_kept_aside_and_the_app_runs(browser: Browser, site_url: str):
    deep = "[" * 5000 + "]" * 5000
    context = seeded(browser, {"kostka.session": deep, "kostka.characters": stored_characters()})
    page = context.new_page()
    errors: list[str] = []
    start(page, site_url + "?lang=en", errors)
    expect(page.get_by_test_id("storage-message")).to_contain_text("session code could not be read")
    page.wait_for_timeout(2000)  # the runtime died about 1.5 s after the page was drawn
    alive(page)
    values = storage(page)
    assert [v for k, v in values.items() if k.startswith("kostka.backup.")] == [deep]
    assert "Tilda" in stored_names(page)["one-ring"]
    assert not [e for e in errors if "fatal error" in e or "Maximum call stack" in e], errors
    context.close()


def test_a_stored_400_digit_number_is_said_and_kept_aside(browser: Browser, site_url: str):
    data = json.loads(stored_characters())
    data["systems"]["one-ring"]["characters"][0]["strength"] = int("7" * 400)
    text = json.dumps(data)
    context = seeded(browser, {"kostka.characters": text})
    page = context.new_page()
    start(page, site_url + "?lang=en")
    expect(page.get_by_test_id("storage-message")).to_contain_text("copy of all stored characters was kept aside")
    expect(page.get_by_role("button", name="Roll Lore", exact=True)).to_contain_text("4")  # the rest of her loaded
    page.get_by_role("button", name="Edit", exact=True).click()
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Tilda")
    expect(page.get_by_label("Lore", exact=True)).to_have_value("4")
    assert text in [v for k, v in storage(page).items() if k.startswith("kostka.backup.")]
    context.close()


def test_a_character_from_another_devices_address_is_added_beside_the_stored_one(browser: Browser, site_url: str):
    other = AppState()  # device A: Tilda with Riddle 3, Lore 0
    other.one_ring.character.param.update(name_text="Tilda", riddle="3", lore="0")
    context = seeded(browser, {"kostka.characters": stored_characters()})
    page = context.new_page()
    start(page, site_url + "?" + urlencode({"lang": "en", **other.url_state()}))
    expect(page.get_by_test_id("address-note")).to_have_text(
        "The character from the address was added as a new character: Tilda (2)"
    )
    assert names_of(page) == ["Tilda", "Tilda (2)"]
    riddle = page.get_by_label("Riddle", exact=True)
    expect(riddle).to_have_count(1)  # the sheet of the new character has replaced the one drawn before it
    expect(riddle).to_have_value("3")
    page.wait_for_function("() => (localStorage.getItem('kostka.characters') || '').includes('Tilda (2)')")
    stored = json.loads(storage(page)["kostka.characters"])["systems"]["one-ring"]["characters"]
    assert [(c["name"], c["lore"]) for c in stored] == [("Tilda", 4), ("Tilda (2)", 0)]  # a document: numbers
    page.reload()  # the address now names Tilda (2): nothing more is added
    started(page)
    assert names_of(page) == ["Tilda", "Tilda (2)"]
    context.close()


def test_a_link_through_a_messenger_adds_no_blank_character(browser: Browser, site_url: str):
    """Messengers add ``fbclid=…`` or ``utm_source=…`` to a link: no field of a sheet, so the stored
    hero stays alone and selected, and no note is shown."""
    context = seeded(browser, {"kostka.characters": stored_characters()})
    page = context.new_page()
    start(page, site_url + "?fbclid=abc&utm_source=x")
    page.get_by_role("button", name="The One Ring", exact=True).click()
    expect(page.get_by_role("button", name="Roll Lore", exact=True)).to_contain_text("4")  # Tilda, in Play
    assert names_of(page) == ["Tilda"]
    expect(page.get_by_test_id("address-note")).to_have_count(0)
    # the app has written its own address since: still Tilda alone, in storage too
    page.wait_for_function("() => !location.search.includes('fbclid')")
    assert stored_names(page)["one-ring"] == ["Tilda"]
    context.close()


@pytest.mark.parametrize("name", ["1e5", "True"])
def test_a_name_that_looks_like_a_number_is_the_same_after_a_reload(browser: Browser, site_url: str, name):
    context = browser.new_context()
    page = context.new_page()
    start(page, site_url + "?lang=en&sys=fate")
    page.get_by_label("Name").filter(visible=True).first.fill(name)
    expect(page).to_have_url(re.compile(rf"name={name}(&|$)"))
    page.wait_for_function(f"() => (localStorage.getItem('kostka.characters') || '').includes('\"{name}\"')")
    page.reload()
    started(page)
    assert names_of(page) == [name]
    context.close()


def test_a_name_with_format_characters_follows_one_rule(browser: Browser, site_url: str):
    context = browser.new_context()
    page = context.new_page()
    start(page, site_url + "?lang=en&sys=fate")
    name = page.get_by_label("Name").filter(visible=True).first
    name.fill(ASTRONAUT + "\u202eAda\u200b")
    expect(name).to_have_value(ASTRONAUT + "Ada")  # the joiner of the emoji kept, the rest dropped
    page.get_by_label("Session code").fill("TABLE")
    page.get_by_label("Session code").press("Enter")
    big_roll(page).click()
    expect(page.get_by_test_id("result-dice").first).to_be_visible()
    expect(page.get_by_test_id("share-link").filter(visible=True)).to_be_visible()  # a link, so the name was accepted
    expect(page.get_by_text("Enter a whole number.")).to_have_count(0)
    context.close()


def test_ten_alike_skill_rows_out_of_range_raise_nothing(browser: Browser, site_url: str):
    rows = json.dumps([{"name": "a", "level": "99"}] * 10)
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    start(page, site_url + "?" + urlencode({"lang": "en", "sys": "gurps", "name": "A", "skills": rows}), errors)
    skill = page.get_by_label("Skill to roll")
    # an option for each of the ten rows (the sheet's own Will, Per, Dodge, Parry and Block follow them)
    assert skill.evaluate("s => Array.from(s.options).filter(o => o.text.startsWith('a')).length") == 10
    skill.select_option(index=6)
    big_roll(page).click()
    page.wait_for_timeout(1000)
    assert not [e for e in errors if "RecursionError" in e or "maximum recursion" in e], errors
    context.close()


def test_the_roll_log_survives_a_reload_and_clear_and_delete_can_be_undone(browser: Browser, site_url: str):
    context = seeded(browser, {"kostka.characters": stored_characters()})
    page = context.new_page()
    start(page, site_url + "?lang=en&sys=fate")
    log_rows = page.get_by_test_id("log").locator("tbody tr")
    roll = big_roll(page)
    for count in (1, 2):  # one roll after the other: a tap while a roll is on its way is ignored
        roll.click()
        expect(log_rows).to_have_count(count)
        expect(roll).not_to_have_attribute("aria-busy", "true")  # the button has its answer
    page.wait_for_function(
        "() => JSON.parse(localStorage.getItem('kostka.log') || '{\"rolls\": []}').rolls.length === 2"
    )
    page.reload()
    started(page)
    expect(log_rows).to_have_count(2)  # kept in the browser
    page.get_by_role("button", name="Clear the log", exact=True).click()
    expect(page.get_by_test_id("log")).to_have_text("No rolls yet.")
    page.get_by_role("button", name="Bring the log back", exact=True).click()
    expect(log_rows).to_have_count(2)
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Delete character", exact=True).click()
    expect(page.get_by_test_id("delete-note")).to_have_text("Deleted: Vera.")
    assert names_of(page) == ["Character 1"]
    page.get_by_role("button", name="Bring the character back", exact=True).click()
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vera")
    assert names_of(page) == ["Vera"]
    context.close()


def _file(name: str, data: bytes) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": data}


def test_importing_counts_what_it_adds_and_says_what_is_wrong_in_words(browser: Browser, site_url: str):
    two = json.dumps(
        {
            "format": "kostka",
            "version": 1,
            "kind": "characters",
            "systems": {
                "one-ring": {
                    "current": 0,
                    "characters": [{"name": "Tilda", "lore": 4}, {"name": "Bilbo", "riddle": 3}],
                },
                "gurps": {"current": 0, "characters": [{"name": ""}]},  # a blank one, as an export of a new app has
            },
        }
    ).encode()
    bad = json.dumps(
        {
            "format": "kostka",
            "version": 1,
            "kind": "characters",
            "systems": {"one-ring": {"current": 0, "characters": [{"name": "Tilda", "strength": 25}]}},
        }
    ).encode()
    context = browser.new_context()
    page = context.new_page()
    start(page, site_url + "?lang=en")
    chooser = page.locator("input[type=file]").first
    chooser.set_input_files(files=[_file("two.json", two)])
    expect(page.get_by_test_id("import-message")).to_have_text("Imported characters: 2")
    assert names_of(page) == ["Tilda", "Bilbo"]  # no blank "Character 1" left beside them
    chooser.set_input_files(files=[_file("bad.json", bad)])
    expect(page.get_by_role("alert").filter(has_text="Strength")).to_have_text(
        "Character 1 (Tilda, The One Ring): Strength must be from 1 to 19."
    )
    chooser.set_input_files(files=[_file("empty.json", b"")])
    expect(page.get_by_role("alert").filter(has_text="empty")).to_have_text("The file is empty.")
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Čeština", exact=True).click()
    chooser.set_input_files(files=[_file("bad2.json", bad + b" ")])
    expect(page.get_by_role("alert").filter(has_text="Tilda")).to_contain_text("Síla")
    assert names_of(page) == ["Tilda", "Bilbo"]
    context.close()


def field_error(page: Page, label: str):
    return page.locator(".number-field", has=page.get_by_label(label, exact=True)).locator(".field-error")


def test_a_half_typed_value_is_on_the_form_after_a_reload_still_marked_wrong(browser: Browser, site_url: str):
    context = seeded(browser, {"kostka.characters": stored_characters()})
    page = context.new_page()
    errors: list[str] = []
    start(page, site_url + "?lang=en&sys=fate", errors)
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vera")
    skill = page.get_by_label("Skill", exact=True)
    skill.fill("25")  # above the bound: the player is still typing
    expect(field_error(page, "Skill")).to_be_visible()
    page.wait_for_function("() => (localStorage.getItem('kostka.drafts') || '').includes('\"25\"')")
    stored = json.loads(storage(page)["kostka.characters"])
    assert stored["format"] == "kostka" and stored["systems"]["fate"]["characters"][0]["skill"] == 8  # last valid
    start(page, site_url + "?lang=en&sys=fate", errors)  # opened afresh: the address says nothing of Vera
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vera")
    expect(page.get_by_label("Skill", exact=True)).to_have_value("25")
    expect(field_error(page, "Skill")).to_be_visible()
    assert names_of(page) == ["Vera"]  # the same character, not a second one
    page.get_by_label("Skill", exact=True).fill("9")  # typed whole: in the document, the draft gone
    page.wait_for_function(
        "() => !(localStorage.getItem('kostka.drafts') || '').includes('fate')"
        " && (localStorage.getItem('kostka.characters') || '').includes('\"skill\":9')"
    )
    assert not [k for k in storage(page) if k.startswith("kostka.backup.")]
    assert not [e for e in errors if "Error" in e], errors
    context.close()


EARLY = Path(__file__).parent.parent / "webapp" / "fixtures" / "early_characters.json"


def test_characters_stored_in_the_early_format_show_up_and_are_saved_as_a_document(browser: Browser, site_url: str):
    early = EARLY.read_text(encoding="utf-8").strip()  # what the app stored before its documents
    context = seeded(browser, {"kostka.characters": early})
    page = context.new_page()
    start(page, site_url + "?lang=en")
    expect(page.get_by_role("button", name="Roll Persuade", exact=True)).to_be_visible()  # a stored hero: Play
    page.get_by_role("button", name="Edit", exact=True).click()
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Tilda")
    expect(page.get_by_label("Wits", exact=True)).to_have_value("6")
    page.get_by_role("button", name="Fate & Doom", exact=True).click()
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vesna")
    page.wait_for_function(
        "() => (localStorage.getItem('kostka.characters') || '').startsWith('{\"format\":\"kostka\",')"
    )
    data = json.loads(storage(page)["kostka.characters"])
    assert data["kind"] == "characters" and stored_names(page) == {
        "one-ring": ["Tilda"],
        "gurps": ["Ivo"],
        "fate": ["Vesna"],
    }
    assert data["systems"]["fate"]["characters"][0]["skill"] == 9  # numbers, not text
    assert data["systems"]["gurps"]["characters"][0]["skills"] == [{"name": "Broadsword", "level": 14}]
    assert not [k for k in storage(page) if k.startswith("kostka.backup.")]  # read whole: nothing kept aside
    assert not page.get_by_test_id("storage-message").count()
    start(page, site_url + "?lang=en&sys=fate")  # and read back as a document
    expect(page.get_by_label("Name").filter(visible=True).first).to_have_value("Vesna")
    expect(page.get_by_label("Skill", exact=True)).to_have_value("9")
    context.close()
