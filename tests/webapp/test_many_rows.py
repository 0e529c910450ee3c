"""A real-sized GURPS sheet (120 skills, techniques and spells) through the app: import, address, storage."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from engine.documents import MAX_ROWS, read_document
from webapp.state.address import MAX_WRITTEN, read_address
from webapp.state.app import AppState
from webapp.views.shell import KostkaApp

SHEET = Path(__file__).resolve().parents[1] / "data" / "gcs" / "generated-120-rows.gcs"


def test_every_row_of_a_big_sheet_is_imported_addressed_and_stored():
    app = KostkaApp()
    app.import_chars.filename = SHEET.name
    app.import_chars.value = SHEET.read_bytes()
    char = app.state.gurps.character
    assert len(char.skills) == 120 and char.skills[-1] == {"name": "Mind-Reading (Ritual)", "level": "13"}
    # the screen's query carries every row; the address written leaves them out (over 7,500 characters)
    assert app.state.address_state()[1] == "skills"
    address = read_address("?" + urlencode(app.state.screen_state()))
    assert address.problems == () and len(address.query["skills"]) == 120
    other = AppState()
    other.apply_url(address.query)
    assert other.gurps.character.skills == char.skills
    # and the browser's storage keeps them
    stored = read_document(app.state.characters_json(), kind="characters")
    assert len(stored.systems["gurps"]["characters"][-1]["skills"]) == 120
    # the skill to roll offers every one of them
    assert len([o for o in app.view_of("gurps").skill.options if "(" in o]) >= 120


def cyrillic_sheet(rows: int = MAX_ROWS) -> list[dict[str, str]]:
    """``rows`` GURPS skills with 60-letter Cyrillic names: the longest address a sheet can ask for."""
    return [{"name": (f"{i:03d}" + "Жř" * 30)[:60], "level": "-20"} for i in range(rows)]


def test_the_longest_sheet_the_app_keeps_leaves_its_skills_out_of_the_address():
    state = AppState()
    state.system = "gurps"
    rows = cyrillic_sheet()
    state.gurps.character.skills = rows
    state.gurps.character.name_text = "Жанна"
    assert len("?" + urlencode(state.screen_state())) > 75_000  # what the address would be with every row
    query, cut = state.address_state()
    search = "?" + urlencode({"lang": "ru", **query})
    assert cut == "skills" and len(search) <= MAX_WRITTEN
    assert state.url_state() == query
    address = read_address(search)
    assert address.problems == () and "skills" not in address.query
    other = AppState()
    other.apply_url(address.query)
    assert other.system == "gurps" and other.gurps.character.name_text == "Жанна"  # the rest of the sheet comes back


def test_a_sheet_within_the_address_limit_keeps_every_row():
    state = AppState()
    state.system = "gurps"
    rows = cyrillic_sheet(12)
    state.gurps.character.skills = rows
    query, cut = state.address_state()
    assert cut == "" and len("?" + urlencode({"lang": "cs", **query})) <= MAX_WRITTEN
    assert read_address("?" + urlencode(query)).query["skills"] == rows


def test_the_page_says_what_its_address_leaves_out():
    app = KostkaApp()
    app.state.system = "gurps"
    app._url_applied = True
    app._update_url()
    assert "address-size" not in app.address_message.object
    app.state.gurps.character.skills = cyrillic_sheet()
    app._update_url()
    assert 'data-testid="address-size"' in app.address_message.object
    assert "7500" in app.address_message.object and "Export characters" in app.address_message.object
    app.tr.lang = "ru"
    assert "Export characters" not in app.address_message.object  # said again in the language on screen
    app.state.gurps.character.skills = cyrillic_sheet(3)
    app._update_url()
    assert "address-size" not in app.address_message.object


def test_a_big_sheet_is_drawn_a_page_of_rows_at_a_time():
    from webapp.views.gurps import PAGE_ROWS

    app = KostkaApp()
    app.import_chars.filename = SHEET.name
    app.import_chars.value = SHEET.read_bytes()
    view = app.view_of("gurps")
    rows = view.skill_rows
    skills = app.state.gurps.character.skills
    assert rows.shown == PAGE_ROWS == 20 and len(rows._slots) == 20  # 20 rows of widgets, not 120
    assert "Rows 1–20 of 120" in rows.where.object and rows.previous.disabled and not rows.next.disabled
    rows.next.clicks += 1
    assert [name.value for name, _ in rows.rows] == [s["name"] for s in skills[20:40]]
    assert rows.rows[0][0].name == "Skill 21" and len(rows._slots) == 20  # the same widgets, other rows
    rows.roll_buttons_of[0].clicks += 1  # the ⚄ of the row on screen rolls that row
    assert app.state.gurps.last.ability == skills[20]["name"]
    rows.rows[1][1].value_input = "17"  # an edit reaches the row shown
    assert app.state.gurps.character.skills[21]["level"] == "17"
    rows.add.clicks += 1  # a new row: the last page, where it is
    assert len(app.state.gurps.character.skills) == 121 and "Rows 121–121 of 121" in rows.where.object
    assert rows.shown == 1 and rows.rows[0][0].value == ""
    rows._remove(0)
    assert len(app.state.gurps.character.skills) == 120 and "Rows 101–120 of 120" in rows.where.object
    app.tr.lang = "cs"
    assert "Řádky 101–120 z 120" in rows.where.object


def test_a_deleted_skill_row_can_be_brought_back():
    """A row's ✕ deleted it at once with no way back; now a note says what went and Undo returns it."""
    app = KostkaApp()
    app.state.system = "gurps"
    char = app.state.gurps.character
    char.skills = [{"name": "Broadsword", "level": "14"}, {"name": "Stealth", "level": "12"}]
    rows = app.view_of("gurps").skill_rows
    remove = rows._slots[0].objects[-1]
    assert remove.name == "✕"
    remove.clicks += 1
    assert char.skills == [{"name": "Stealth", "level": "12"}]
    assert "Deleted: Broadsword." in rows.undo_note.object and rows.undo.visible
    rows.undo.clicks += 1
    assert char.skills == [{"name": "Broadsword", "level": "14"}, {"name": "Stealth", "level": "12"}]
    assert rows.undo_note.object == "" and not rows.undo.visible
    remove.clicks += 1
    char.skills = [{"name": "Stealth", "level": "13"}]  # the rows change: nothing left to undo
    assert rows.undo_note.object == "" and not rows.undo.visible
