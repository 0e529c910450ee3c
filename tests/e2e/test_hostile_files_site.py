"""Files made to freeze the app, imported on the built site (Pyodide in Chromium) on a tablet.

A 200 KB file of escaped quotes was refused after five minutes, a 60 KB one after half a minute,
and no tap was answered meanwhile; a GCS sheet whose placeholders fill in to a gigabyte ended the
Python runtime. Each is now said on the page (a refusal in an alert, what was left out in the
import's message) and the next tap is answered: a + on a rating changes the odds, which only
Python works out. Every wait is on the page's own events, none on a clock.
"""

from __future__ import annotations

import json
import re

import pytest
from pages import ROOT, STEP_TIMEOUT, start
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]

GIANT_RAT = ROOT / "tests" / "data" / "gcs" / "giant-rat.gcs"


def _file(name: str, data: bytes) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": data}


def _gcs_bomb() -> bytes:
    """1 MB: one skill named with 1,000 placeholders of a 1 MB text (a gigabyte filled in)."""
    doc = json.loads(GIANT_RAT.read_text(encoding="utf-8"))
    doc["skills"] = [
        {"id": "s", "name": "Lore " + "@a@" * 1000, "replacements": {"a": "x" * 1_000_000}, "calc": {"level": 10}},
        {"id": "t", "name": "Brawling", "calc": {"level": 11}},
    ]
    return json.dumps(doc).encode()


#: (file, what the page says)
REFUSED = [
    (_file("quotes.json", b'["' + b'\\"[' * 66_000), "The file is not valid JSON (line 1, column 2)."),
    (
        _file("backslashes.json", b'{"a":"' + b'\\\\\\"' * 15_000 + b"{" * 20),
        "The file is not valid JSON (line 1, column 6).",
    ),
]


def _ready(page: Page, site_url: str, errors: list[str]):
    """The app started in English with Awareness chosen; returns a tap on its + that must be answered."""
    start(page, f"{site_url}?lang=en", errors)
    page.get_by_label("Ability", exact=True).select_option(label="Awareness")
    more = page.get_by_role("button", name="Increase Awareness", exact=True)
    odds = page.get_by_test_id("p-success").filter(visible=True)
    expect(odds).to_have_text(re.compile(r"\d+\.\d%"), timeout=STEP_TIMEOUT)

    def answered() -> None:
        """A tap on + is answered: the odds Python works out for the new rating replace the old."""
        before = odds.inner_text()
        more.tap()
        expect(odds).not_to_have_text(before, timeout=STEP_TIMEOUT)

    return answered


def _alive(errors: list[str]) -> None:
    assert not [e for e in errors if "MemoryError" in e or "fatal error" in e or "RecursionError" in e], errors


def test_json_files_of_escaped_quotes_are_refused_and_the_next_tap_is_answered(tablet: Page, site_url: str):
    page = tablet
    errors: list[str] = []
    answered = _ready(page, site_url, errors)
    chooser = page.locator("input[type=file]").first
    for file, words in REFUSED:
        chooser.set_input_files(files=[file])
        expect(page.get_by_role("alert").filter(has_text="not valid JSON")).to_have_text(words, timeout=STEP_TIMEOUT)
        answered()
    _alive(errors)


def test_a_gcs_sheet_filling_in_to_a_gigabyte_is_read_and_the_next_tap_is_answered(tablet: Page, site_url: str):
    page = tablet
    errors: list[str] = []
    answered = _ready(page, site_url, errors)
    page.locator("input[type=file]").first.set_input_files(files=[_file("bomb.gcs", _gcs_bomb())])
    message = page.get_by_test_id("import-message")
    expect(message).to_contain_text("Imported characters: 1", timeout=STEP_TIMEOUT)
    expect(message).to_contain_text("(a name longer than 1000 characters)")
    page.get_by_role("button", name="The One Ring", exact=True).tap()  # the import showed the GURPS screen
    answered()
    _alive(errors)
