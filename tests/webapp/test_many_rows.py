"""A real-sized GURPS sheet (120 skills, techniques and spells) through the app: import, address, storage."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from engine.documents import MAX_ROWS, read_document
from webapp.state.address import read_address
from webapp.state.app import AppState
from webapp.views.shell import KostkaApp

SHEET = Path(__file__).resolve().parents[1] / "data" / "gcs" / "generated-120-rows.gcs"


def test_every_row_of_a_big_sheet_is_imported_addressed_and_stored():
    app = KostkaApp()
    app.import_chars.filename = SHEET.name
    app.import_chars.value = SHEET.read_bytes()
    char = app.state.gurps.character
    assert len(char.skills) == 120 and char.skills[-1] == {"name": "Mind-Reading (Ritual)", "level": "13"}
    # the address is the screen: every row comes back from it
    address = read_address("?" + urlencode(app.state.url_state()))
    assert address.problems == () and len(address.query["skills"]) == 120
    other = AppState()
    other.apply_url(address.query)
    assert other.gurps.character.skills == char.skills
    # and the browser's storage keeps them
    stored = read_document(app.state.characters_json(), kind="characters")
    assert len(stored.systems["gurps"]["characters"][-1]["skills"]) == 120
    # the skill to roll offers every one of them
    assert len([o for o in app.view_of("gurps").skill.options if "(" in o]) >= 120


def test_the_longest_sheet_the_app_keeps_fits_its_address():
    state = AppState()
    state.system = "gurps"
    rows = [{"name": (f"{i:03d}" + "Жř" * 30)[:60], "level": "-20"} for i in range(MAX_ROWS)]
    state.gurps.character.skills = rows
    address = read_address("?" + urlencode(state.url_state()))
    assert address.problems == ()
    assert address.query["skills"] == rows
