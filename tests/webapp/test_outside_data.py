"""Odd or hostile data from outside — the address, browser storage, imported files — never loses
a stored character, never reaches an unbounded parser, and is refused in words."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
from panel.io.location import Location

import engine.documents
from engine import InputError, links
from webapp.i18n import Translator
from webapp.state.address import read_address
from webapp.state.app import AppState
from webapp.state.drafts import digest
from webapp.state.gurps import GurpsCharacter
from webapp.state.links import entry_link, export_characters, import_characters
from webapp.state.session import SessionState
from webapp.state.stored import BACKUP_PREFIX, read_stored
from webapp.views.shell import KostkaApp, quiet_location
from webapp.words.messages import address_problem_text, document_error_text

KEY_CHARACTERS, KEY_SESSION, KEY_DRAFTS = "kostka.characters", "kostka.session", "kostka.drafts"
STAMP = "20260101T000000"
ASTRONAUT = "\U0001f469\u200d\U0001f680"  # 👩‍🚀: woman, zero-width joiner, rocket


def address(**fields) -> str:
    return "?" + urlencode(fields)


def no_json_parser(monkeypatch):
    """Make every JSON parse fail loudly: what must be refused before parsing never gets there."""

    def refuse(*args, **kwargs):
        raise AssertionError("json.loads was called")

    monkeypatch.setattr(engine.documents.json, "loads", refuse)


# -- the address -------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["²", "1²", "9" * 150, "1e5", "True", "0x10", "[1]", "{}", "NaN"])
def test_the_address_is_read_as_text_never_as_numbers(value):
    query = read_address(address(sys="fate", skill=value, name=value[:60])).query
    assert query["skill"] == value and query["name"] == value[:60]
    app = AppState()
    app.apply_url(query)
    assert app.fate.character.skill == value  # kept to correct, marked wrong
    assert app.fate.check is None or value.isdigit()


@pytest.mark.parametrize(
    "search",
    [
        "?x=" + "[" * 4000,
        "?sys=gurps&skills=" + quote("[" * 5000 + "]" * 5000),
        "?sys=gurps&r_mods=" + quote("[[[" + '{"name":"a"}' + "]]]"),
    ],
)
def test_deep_json_in_the_address_is_refused_before_parsing(search, monkeypatch):
    no_json_parser(monkeypatch)
    read = read_address(search)
    assert read.problems
    assert all(address_problem_text(Translator(), p) for p in read.problems)
    assert "skills" not in read.query and "r_mods" not in read.query


def test_big_numbers_in_the_address_stay_digits_or_are_left_out_with_a_message():
    rows = '[{"name":"a","level":' + "4" * 150 + "}]"
    read = read_address("?sys=gurps&skills=" + quote(rows))
    assert read.query["skills"] == [{"name": "a", "level": "4" * 150}]
    app = AppState()
    app.apply_url(read.query)
    assert app.gurps.character.skills[0]["level"] == "4" * 150 and app.gurps.check is None
    read = read_address("?sys=gurps&skills=" + quote('[{"name":"a","level":' + "4" * 5000 + "}]"))
    assert "skills" not in read.query
    (problem,) = read.problems
    assert (
        address_problem_text(Translator(), problem)
        == "Part of the address was left out: Skills — it is too long (5000 characters; at most 200)."
    )


def test_panels_location_no_longer_parses_the_address():
    location = Location()
    quiet_location(location)
    for search in ("?sys=fate&skill=%C2%B2", "?skill=" + "9" * 5000, "?x=" + "[" * 4000):
        location.search = search  # Panel's own watcher ran int() / json.loads on every value here


@pytest.mark.parametrize("name", ["1e5", "True", "0", "[1]", "None"])
def test_names_that_look_like_numbers_survive_a_reload(name):
    app = AppState()
    app.fate.character.name_text = name
    app.fate.character.skill = "9"
    query = read_address("?" + urlencode(app.url_state())).query
    app.apply_url(query, keep_stored=True)  # a reload: the same character from storage and the address
    assert app.rosters["fate"].names() == [name]


def test_ten_alike_out_of_range_skill_rows_keep_an_option_each():
    app = KostkaApp()
    rows = [{"name": "a", "level": "99"}] * 10
    app.state.apply_url(read_address(address(sys="gurps", name="A", skills=json.dumps(rows))).query)
    view = app.view_of("gurps")
    assert sorted(v for v in view.skill.options.values() if isinstance(v, int)) == list(range(10))
    view.skill.value = 7
    assert app.state.gurps.skill_index == 7 and view.skill.value == 7


def test_a_character_from_the_address_never_overwrites_a_stored_one():
    app = AppState()
    tilda = app.one_ring.character
    tilda.param.update(name_text="Tilda", lore="4")
    stored = app.characters_json()
    other = AppState()  # device A's Tilda: Riddle 3, Lore 0
    other.one_ring.character.param.update(name_text="Tilda", riddle="3", lore="0")
    query = read_address("?" + urlencode(other.url_state())).query
    notes = app.apply_url(query, keep_stored=True)
    roster = app.rosters["one-ring"]
    assert roster.names() == ["Tilda", "Tilda (2)"]
    assert (
        roster.characters[0]["lore"] == "4" and json.loads(stored)["systems"]["one-ring"]["characters"][0]["lore"] == 4
    )
    assert app.one_ring.character.riddle == "3" and app.one_ring.character.name_text == "Tilda (2)"
    assert notes == [("The character from the address was added as a new character: {name}", {"name": "Tilda (2)"})]
    assert app.apply_url(query, keep_stored=True) == [] or roster.names() == ["Tilda", "Tilda (2)"]
    # opened again: it is the same as the one just added, which is selected, nothing added
    app.rosters["one-ring"].select(0)
    assert app.apply_url(query, keep_stored=True) == []
    assert roster.names() == ["Tilda", "Tilda (2)"] and roster.current == 1


def test_the_address_of_a_blank_sheet_leaves_the_stored_hero_on_the_sheet():
    """A first visit writes its untouched blank sheet into the address; characters stored since (an
    import in another tab, a file restored) are what a reload of that address shows, in Play."""
    blank = AppState()
    query = read_address("?" + urlencode(blank.url_state())).query
    app = KostkaApp()
    app.state.rosters["one-ring"].load({"current": 0, "characters": [{"name": "Tilda", "lore": "4"}]})
    assert app.state.apply_url(query, keep_stored=True) == []
    assert app.state.rosters["one-ring"].names() == ["Tilda"]  # no blank "Character 2" beside her
    assert app.state.one_ring.character.lore == "4" and app.view_of("one-ring").view.value == "play"


@pytest.mark.parametrize(
    "search", ["?fbclid=abc&utm_source=x", "?sys=one-ring&fbclid=abc", "?lang=en&utm_source=x&gclid=1&theme=dark"]
)
def test_parameters_a_messenger_adds_are_no_character(search):
    """A link passed through a messenger or a mailing carries ``fbclid=…``, ``utm_source=…``: they
    are no field of a sheet, so no blank character is added beside the stored hero, and nothing said."""
    app = AppState()
    app.rosters["one-ring"].load({"current": 0, "characters": [{"name": "Tilda", "lore": "4"}]})
    assert app.apply_url(read_address(search).query, keep_stored=True) == []
    assert app.rosters["one-ring"].names() == ["Tilda"]
    assert app.one_ring.character.lore == "4"


def test_a_character_in_an_address_with_a_messengers_parameters_is_still_added():
    app = AppState()
    app.rosters["fate"].load({"current": 0, "characters": [{"name": "Vera", "skill": 8}]})
    query = read_address(address(sys="fate", name="Ada", skill="5", fbclid="abc", utm_source="x")).query
    notes = app.apply_url(query, keep_stored=True)
    assert notes == [("The character from the address was added as a new character: {name}", {"name": "Ada"})]
    assert app.rosters["fate"].names() == ["Vera", "Ada"] and "fbclid" not in app.fate.character.to_dict()


def test_the_address_fills_in_a_blank_character_without_a_note():
    app = AppState()
    query = read_address(address(sys="fate", name="Vera", skill="8")).query
    assert app.apply_url(query, keep_stored=True) == []
    assert app.rosters["fate"].names() == ["Vera"]


# -- names ----------------------------------------------------------------------------------------------


def test_one_rule_for_names_the_form_drops_what_links_and_files_refuse():
    app = AppState()
    char = app.fate.character
    char.name_text = "Eve\u202eliv\u200bil"  # right-to-left override, zero-width space
    assert char.name_text == "Evelivil"
    char.name_text = ASTRONAUT + " Ada"
    assert char.name_text == ASTRONAUT + " Ada"  # the joiner of an emoji sequence is a name's
    assert links.clean_text("name", char.name_text, 40, 80) == ASTRONAUT + " Ada"
    gurps = GurpsCharacter()
    gurps.skills = [{"name": "Guns\u200b", "level": "12"}]
    assert gurps.skills == [{"name": "Guns", "level": "12"}]


def test_a_name_with_an_emoji_sequence_rolls_shares_exports_and_imports():
    app = AppState()
    app.system = "fate"
    app.fate.character.name_text = ASTRONAUT
    app.rolls.session.set_code("TABLE")
    entry = app.roll()
    assert entry.session_number == 1
    share = entry_link(entry)
    assert links.decode_link(share.link).name == ASTRONAUT
    text = export_characters(app)
    assert json.loads(text)["systems"]["fate"]["characters"][0]["name"] == ASTRONAUT
    other = AppState()
    assert import_characters(other, text.encode()) == 1
    assert other.rosters["fate"].names() == [ASTRONAUT]


# -- browser storage -----------------------------------------------------------------------------------


def stored_read(values):
    app = AppState()
    session = SessionState()
    return app, session, read_stored(app, session, dict(values), STAMP, KEY_CHARACTERS, KEY_SESSION, None, KEY_DRAFTS)


def test_a_deeply_nested_stored_session_is_kept_aside_before_parsing(monkeypatch):
    deep = "[" * 5000 + "]" * 5000
    no_json_parser(monkeypatch)
    _, _, read = stored_read({KEY_SESSION: deep})
    assert read.kept == [KEY_SESSION]
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.session"] == deep and read.values[KEY_SESSION] == ""


def test_a_stored_character_with_a_400_digit_number_is_copied_aside_and_the_rest_loaded():
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", lore="4")
    data = json.loads(app.characters_json())
    data["systems"]["one-ring"]["characters"][0]["strength"] = int("7" * 400)
    text = json.dumps(data)
    loaded, _, read = stored_read({KEY_CHARACTERS: text})
    assert read.partial == [KEY_CHARACTERS] and read.kept == []
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.characters"] == text
    assert loaded.one_ring.character.name_text == "Tilda" and loaded.one_ring.character.lore == "4"


def test_stored_characters_read_whole_are_not_copied_aside():
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", lore="zz")  # half-typed: kept as typed
    text, drafts = app.storage_texts()
    loaded, _, read = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert read.partial == read.kept == [] and loaded.one_ring.character.lore == "zz"


def test_names_that_look_like_numbers_are_stored_and_read_back_as_names():
    app = AppState()
    app.one_ring.character.name_text = "1e5"
    loaded, _, read = stored_read({KEY_CHARACTERS: app.characters_json()})
    assert loaded.rosters["one-ring"].names() == ["1e5"] and read.partial == []


# -- imported files ---------------------------------------------------------------------------------------


def one_ring_file(*names, **fields):
    chars = [{"name": n, **fields} for n in names]
    return json.dumps(
        {
            "format": "kostka",
            "version": 1,
            "kind": "characters",
            "systems": {"one-ring": {"current": 0, "characters": chars}},
        }
    ).encode()


def test_importing_two_characters_counts_two_and_leaves_no_blank_one():
    app = AppState()
    assert import_characters(app, one_ring_file("Tilda", "Bilbo")) == 2
    assert app.rosters["one-ring"].names() == ["Tilda", "Bilbo"]
    # exported with the blank characters of the other systems: still two
    other = AppState()
    assert import_characters(other, export_characters(app).encode()) == 2
    assert other.rosters["gurps"].names() == [""]


def refusal(data, lang="en"):
    app = AppState()
    before = app.characters_json()
    with pytest.raises(InputError) as info:
        import_characters(app, data)
    assert app.characters_json() == before  # nothing changed
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = None
    return document_error_text(Translator(lang=lang), info.value, parsed)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (one_ring_file("Tilda", strength=25), "Character 1 (Tilda, The One Ring): Strength must be from 1 to 19."),
        (
            one_ring_file("Tilda", strength="x"),
            "Character 1 (Tilda, The One Ring): Strength must be a whole number from 1 to 19.",
        ),
        (
            json.dumps(
                {
                    "format": "kostka",
                    "version": 1,
                    "kind": "characters",
                    "systems": {"one-ring": {"characters": [{"name": 5}]}},
                }
            ).encode(),
            "Character 1 (The One Ring): Name must be text.",
        ),
        (
            json.dumps(
                {
                    "format": "kostka",
                    "version": 1,
                    "kind": "characters",
                    "systems": {"one-ring": {"characters": [{"name": None}]}},
                }
            ).encode(),
            "Character 1 (The One Ring): Name must be text.",
        ),
        (one_ring_file("Eve\u202e"), "Character 1 (Eve, The One Ring): Name holds an invisible control character."),
        (b"[" * 17 + b"]" * 17, "The file is nested too deeply: 17 levels; at most 16."),
        # escaped quotes, 200 KB: once refused after minutes of scanning, now a string left open
        (b'["' + b'\\"[' * 66_000, "The file is not valid JSON (line 1, column 2)."),
        (b'{"a":"' + b'\\\\\\"' * 50_000 + b"{" * 20, "The file is not valid JSON (line 1, column 6)."),
        (b"", "The file is empty."),
        (b" " * 4_000_001, "The file is too large: 4.0 MB; at most 4.0 MB."),
        (b"\xff\xfe", "The file is not text (UTF-8)."),
        (b'{"format": "kostka",', "The file is not valid JSON (line 1, column 21)."),
        (b'{"format": "other", "version": 1}', "This is not a Kostka file."),
        (
            b'{"format": "kostka", "version": 9, "kind": "characters"}',
            "This file was made by a newer version of Kostka; update the app to read it.",
        ),
    ],
)
def test_a_refused_file_is_said_in_words(data, words):
    assert refusal(data) == words


def test_an_edited_log_is_refused_in_words():
    app = AppState()
    app.system = "fate"
    entry = app.roll(seed=3).to_dict()
    entry["result"]["dice"] = [6, 6]
    data = json.dumps({"format": "kostka", "version": 1, "kind": "bundle", "systems": {}, "rolls": [entry]}).encode()
    assert refusal(data) == "Roll 1 in the log: its result does not follow from its dice seed — the log was edited."


def test_refusals_are_translated():
    text = refusal(one_ring_file("Tilda", strength=25), "ru")
    assert "Tilda" in text and "Сила" in text and "Strength" not in text
    assert "Tilda" in refusal(one_ring_file("Tilda", strength=25), "cs")
    assert refusal(b"", "cs") != "The file is empty."


def test_the_import_limit_is_the_documents_limit_and_the_readme_says_it():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert engine.documents.MAX_DOCUMENT_BYTES == 4_000_000 and "4 MB" in readme
    app = AppState()
    assert import_characters(app, one_ring_file("Tilda") + b" " * 2_000_000) == 1  # 2 MB: read


# -- the roll log in the browser ------------------------------------------------------------------------------


def rolled_app():
    app = AppState()
    app.roll("one-ring", seed=11)
    app.gurps.character.skills = [{"name": "Guns", "level": "13"}]
    app.roll_contest(seed=12)
    app.rolls.session.set_code("TABLE")
    app.fate.secret = True
    app.roll("fate")
    return app


def test_the_roll_log_is_kept_in_the_browser_and_read_back_whole():
    app = rolled_app()
    text = app.rolls.log.to_storage()
    fresh = AppState()
    read = read_stored(fresh, SessionState(), {"kostka.log": text}, STAMP, KEY_CHARACTERS, KEY_SESSION, "kostka.log")
    assert read.kept == read.partial == []
    before, after = app.rolls.log.entries, fresh.rolls.log.entries
    assert [
        (e.number, e.kind, e.seed, e.roll, e.check, e.secret, e.revealed, e.session_code, e.session_number)
        for e in after
    ] == [
        (e.number, e.kind, e.seed, e.roll, e.check, e.secret, e.revealed, e.session_code, e.session_number)
        for e in before
    ]
    assert after[2].hidden  # a secret roll stays hidden, and can still be revealed
    assert fresh.roll("one-ring", seed=1).number == 4  # numbering goes on


def test_the_kept_log_is_bounded_oldest_dropped_first_with_a_count():
    from webapp.state.log import MAX_KEPT_ROLLS

    app = AppState()
    for seed in range(MAX_KEPT_ROLLS + 3):
        app.roll("fate", seed=seed)
    log = app.rolls.log
    assert len(log.entries) == MAX_KEPT_ROLLS and log.dropped == 3 and log.entries[0].seed == 3
    fresh = AppState()
    assert fresh.rolls.log.load_storage(log.to_storage())
    assert fresh.rolls.log.dropped == 3 and len(fresh.rolls.log.entries) == MAX_KEPT_ROLLS


def test_an_edited_or_unreadable_stored_log_is_copied_aside():
    app = rolled_app()
    data = json.loads(app.rolls.log.to_storage())
    data["rolls"][0]["entry"]["result"]["feat"] = 99
    edited = json.dumps(data)
    fresh = AppState()
    read = read_stored(fresh, SessionState(), {"kostka.log": edited}, STAMP, KEY_CHARACTERS, KEY_SESSION, "kostka.log")
    assert read.partial == ["kostka.log"] and len(fresh.rolls.log.entries) == 2
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.log"] == edited
    deep = "[" * 5000 + "]" * 5000
    read = read_stored(
        AppState(), SessionState(), {"kostka.log": deep}, STAMP, KEY_CHARACTERS, KEY_SESSION, "kostka.log"
    )
    assert read.kept == ["kostka.log"] and read.values["kostka.log"] == ""


def test_clearing_the_log_and_deleting_a_character_can_be_undone():
    app = rolled_app()
    log = app.rolls.log
    numbers = [e.number for e in log.entries]
    log.clear()
    assert log.entries == []
    log.undo_clear()
    assert [e.number for e in log.entries] == numbers
    roster = app.rosters["fate"]
    app.fate.character.name_text = "Vera"
    roster.add()
    app.fate.character.name_text = "Olga"
    roster.select(0)
    roster.remove()
    assert roster.names() == ["Olga"]
    roster.undo_remove()
    assert roster.names() == ["Vera", "Olga"] and app.fate.character.name_text == "Vera"
    roster.select(1)
    roster.remove()
    roster.remove()  # the last one: a blank takes its place
    roster.undo_remove()
    assert roster.names() == ["Vera"]


def test_a_link_of_brackets_is_refused_before_any_parse():
    from webapp.state.links import open_link

    for text in ("?x=" + "[" * 4000, "#r=" + "[" * 4000, "r=" + "{" * 300):
        opened = open_link(text)
        assert opened.status == "unreadable" and opened.error.field.startswith("link")


def test_an_empty_file_chosen_for_import_gets_a_message():
    app = KostkaApp()
    app.import_chars.param.update(filename="empty.json")  # the browser sends no value for an empty file
    assert "The file is empty." in app.import_message.object
    app.import_chars.param.update(value=one_ring_file("Tilda", "Bilbo"), filename="two.json")
    assert "Imported characters: 2" in app.import_message.object


def test_what_the_address_could_not_give_is_said_in_the_language_on_screen():
    app = KostkaApp()
    app._show_address_notes(read_address("?skills=" + "[" * 300).problems, [])
    assert "Part of the address was left out: Skills" in app.address_message.object
    app.tr.lang = "ru"
    assert "Часть адреса не прочитана" in app.address_message.object


# -- the characters stored as a document, its drafts, and the early stored format ------------------------

EARLY = (Path(__file__).parent / "fixtures" / "early_characters.json").read_text(encoding="utf-8").strip()


def three_systems() -> AppState:
    """A One Ring hero, a GURPS character with skill rows, a Fate & Doom hero and a monster, all valid."""
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", wits="6", lore="3", fav_lore=True, hope="5")
    app.rosters["one-ring"].add()
    app.one_ring.character.param.update(name_text="Bilbo", riddle="4")
    app.gurps.character.param.update(
        name_text="Ivo",
        st="12",
        hp="9",
        skills=[{"name": "Broadsword", "level": "14"}, {"name": "Stealth", "level": "-2"}],
    )
    app.fate.character.param.update(name_text="Vesna", skill="9", life="10")
    app.monsters.form.param.update(name_text="Troll", life="20", life_max="20")
    return app


def test_stored_characters_of_every_system_are_the_exported_document_and_come_back_whole():
    app = three_systems()
    text, drafts = app.storage_texts()
    assert drafts == ""  # nothing half-typed: nothing beside the document
    doc = engine.documents.read_document(text, kind="characters")  # strict: the very document Export writes
    assert doc.problems == () and text == doc.to_json() and json.loads(export_characters(app)) == json.loads(text)
    data = json.loads(text)
    assert (data["format"], data["version"], data["kind"]) == ("kostka", engine.documents.VERSION, "characters")
    one_ring = data["systems"]["one-ring"]
    assert one_ring["current"] == 1 and [c["name"] for c in one_ring["characters"]] == ["Tilda", "Bilbo"]
    assert one_ring["characters"][0]["wits"] == 6 and one_ring["characters"][0]["fav_lore"] is True  # numbers
    assert data["systems"]["gurps"]["characters"][0]["skills"] == [
        {"name": "Broadsword", "level": 14},
        {"name": "Stealth", "level": -2},
    ]
    assert data["systems"]["fate"]["characters"][0]["skill"] == 9 and data["monsters"]["characters"][0]["life"] == 20
    loaded, _, read = stored_read({KEY_CHARACTERS: text})
    assert read.partial == read.kept == [] and read.values == {KEY_CHARACTERS: text}
    assert loaded.storage_texts() == (text, "")
    assert loaded.rosters["one-ring"].names() == ["Tilda", "Bilbo"] and loaded.one_ring.character.riddle == "4"
    loaded.rosters["one-ring"].select(0)
    assert loaded.one_ring.character.wits == "6" and loaded.one_ring.character.fav_lore
    assert loaded.gurps.character.skills == [{"name": "Broadsword", "level": "14"}, {"name": "Stealth", "level": "-2"}]
    assert loaded.fate.character.life == "10" and loaded.monsters.form.name_text == "Troll"


def test_characters_stored_in_the_early_format_are_read_and_saved_as_a_document():
    assert json.loads(EARLY)["format"] == "kostka-characters"
    loaded, _, read = stored_read({KEY_CHARACTERS: EARLY})
    assert read.partial == read.kept == [] and read.values == {KEY_CHARACTERS: EARLY}  # read whole
    assert loaded.one_ring.character.name_text == "Tilda" and loaded.one_ring.character.wits == "6"
    assert loaded.gurps.character.skills == [{"name": "Broadsword", "level": "14"}]
    assert loaded.fate.character.name_text == "Vesna" and loaded.fate.character.skill == "9"
    assert loaded.monsters.names() == ["Wolf"]
    text, drafts = loaded.storage_texts()  # what the app saves over it
    doc = engine.documents.read_document(text, kind="characters")
    assert doc.problems == () and drafts == ""
    assert doc.systems["fate"]["characters"][0] == {
        "name": "Vesna",
        "skill": 9,
        "favour": 3,
        "favour_max": 3,
        "life": 12,
        "life_max": 12,
    }
    assert doc.systems["gurps"]["characters"][0]["skills"] == [{"name": "Broadsword", "level": 14}]
    assert doc.monsters["characters"][0]["stoutness"] == 4
    again, _, read = stored_read({KEY_CHARACTERS: text})
    assert read.partial == read.kept == [] and again.storage_texts() == (text, "")
    for name in ("one-ring", "gurps", "fate"):  # every form as the early text had it
        assert again.rosters[name].form.to_dict() == loaded.rosters[name].form.to_dict()


def test_half_typed_values_of_the_early_format_are_saved_as_drafts():
    data = json.loads(EARLY)
    data["systems"]["fate"]["characters"][0]["skill"] = "9x"
    early = json.dumps(data)
    loaded, _, _ = stored_read({KEY_CHARACTERS: early})
    assert loaded.fate.character.skill == "9x"
    text, drafts = loaded.storage_texts()
    assert "skill" not in json.loads(text)["systems"]["fate"]["characters"][0]  # never valid: left out
    again, _, read = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert read.partial == read.kept == [] and again.fate.character.skill == "9x"


def typing(app: AppState) -> None:
    """Valid values first (saved), then a value half-typed in each system."""
    app.one_ring.character.param.update(name_text="Tilda", lore="2")
    app.gurps.character.param.update(
        name_text="Ivo", skills=[{"name": "Guns", "level": "14"}, {"name": "Stealth", "level": "12"}]
    )
    app.fate.character.param.update(name_text="Vesna", skill="9")
    app.one_ring.character.lore = "-"  # on the way to "-2" (below the bound, but not there yet)
    app.gurps.character.skills = [{"name": "Guns", "level": "14"}, {"name": "Stealth", "level": "2x"}]
    app.fate.character.skill = "25"  # above the bound


def test_half_typed_values_come_back_as_typed_and_marked_wrong_while_the_document_keeps_the_last_valid_one():
    app = AppState()
    typing(app)
    text, drafts = app.storage_texts()
    doc = engine.documents.read_document(text, kind="characters")  # strict: only valid values in it
    assert doc.systems["one-ring"]["characters"][0]["lore"] == 2
    assert doc.systems["gurps"]["characters"][0]["skills"][1] == {"name": "Stealth", "level": 12}
    assert doc.systems["fate"]["characters"][0]["skill"] == 9
    assert json.loads(drafts)["systems"] == {
        "one-ring": [{"lore": "-"}],
        "gurps": [{"skills": [{"name": "Guns", "level": "14"}, {"name": "Stealth", "level": "2x"}]}],
        "fate": [{"skill": "25"}],
    }
    loaded, _, read = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert read.partial == read.kept == [] and read.values == {KEY_CHARACTERS: text, KEY_DRAFTS: drafts}
    one_ring, gurps, fate = loaded.one_ring.character, loaded.gurps.character, loaded.fate.character
    assert one_ring.lore == "-" and one_ring.name_text == "Tilda"
    assert gurps.skills[1] == {"name": "Stealth", "level": "2x"} and fate.skill == "25"
    one_ring.parse(), fate.parse()
    assert one_ring.errors["lore"].code == "type" and fate.errors["skill"].code == "range"  # still marked wrong
    assert "skill_1" in gurps.skill_errors()
    assert loaded.storage_texts() == (text, drafts)  # saved back as it was: the last valid value kept
    one_ring.lore = "3"  # typed whole at last: in the document, no longer a draft
    assert json.loads(loaded.characters_json())["systems"]["one-ring"]["characters"][0]["lore"] == 3
    assert "one-ring" not in json.loads(loaded.drafts_json())["systems"]


def test_a_half_typed_value_keeps_its_character_when_another_character_is_chosen_and_deleted():
    app = AppState()
    roster = app.rosters["fate"]
    app.fate.character.param.update(name_text="Ada", skill="7")
    roster.add()
    app.fate.character.param.update(name_text="Bo", skill="8")
    app.fate.character.skill = "8-"
    roster.select(0)
    roster.remove()  # Ada gone: Bo, half-typed, moves up
    text, drafts = app.storage_texts()
    (bo,) = json.loads(text)["systems"]["fate"]["characters"]
    assert bo["name"] == "Bo" and bo["skill"] == 8  # its own last valid value, not Ada's
    loaded, _, _ = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert loaded.rosters["fate"].names() == ["Bo"] and loaded.fate.character.skill == "8-"


def test_a_current_value_lent_from_before_never_goes_above_its_maximum():
    app = AppState()
    app.fate.character.param.update(life="10", life_max="12")
    app.fate.character.param.update(life="1x", life_max="5")  # life half-typed, its maximum lowered below 10
    text, drafts = app.storage_texts()
    char = engine.documents.read_document(text, kind="characters").systems["fate"]["characters"][0]
    assert char["life_max"] == 5 and "life" not in char
    loaded, _, _ = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert (loaded.fate.character.life, loaded.fate.character.life_max) == ("1x", "5")


HOSTILE_DRAFTS = [
    "{broken",
    "[" * 5000 + "]" * 5000,
    json.dumps({"version": 1, "characters": "0" * 16, "systems": {"fate": [{"skill": "25"}]}}),  # other characters
    "x" * 3_000_000,
]


@pytest.mark.parametrize("hostile", HOSTILE_DRAFTS, ids=["broken", "deep", "other", "huge"])
def test_unreadable_drafts_are_kept_aside_and_the_characters_still_load(hostile):
    app = three_systems()
    text = app.characters_json()
    session = SessionState(code="ABC").to_json()
    loaded, sess, read = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: hostile, KEY_SESSION: session})
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.drafts"] == hostile and read.values[KEY_DRAFTS] == ""
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.characters"] == text and read.values[KEY_CHARACTERS] == text
    assert read.partial == [KEY_CHARACTERS] and read.kept == []  # said on the page as characters read in part
    assert loaded.storage_texts() == (text, "") and sess.code == "ABC"


@pytest.mark.parametrize(
    "draft",
    [
        {"fate": [{"nonsense": "1"}]},
        {"fate": [{"skill": True}]},
        {"fate": [{"skill": ["1"]}]},
        {"fate": [{"skill": "9" * 201}]},
        {"fate": [None, {"skill": "1"}]},  # more drafts than characters
        {"elsewhere": [{"skill": "1"}]},
        {"gurps": [{"skills": [{"name": "a", "level": "1", "extra": "x"}]}]},
    ],
)
def test_drafts_that_do_not_fit_the_characters_are_kept_aside_whole(draft):
    app = three_systems()
    text = app.characters_json()
    drafts = json.dumps({"version": 1, "characters": digest(text), "systems": draft})
    loaded, _, read = stored_read({KEY_CHARACTERS: text, KEY_DRAFTS: drafts})
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.drafts"] == drafts and read.partial == [KEY_CHARACTERS]
    assert loaded.storage_texts() == (text, "")


def test_unreadable_stored_characters_are_kept_aside_with_their_drafts_and_the_rest_is_read():
    app = AppState()
    typing(app)
    text, drafts = app.storage_texts()
    hostile = text[:-20]  # cut short
    loaded, sess, read = stored_read(
        {KEY_CHARACTERS: hostile, KEY_DRAFTS: drafts, KEY_SESSION: SessionState(code="ABC").to_json()}
    )
    assert read.kept == [KEY_CHARACTERS] and sess.code == "ABC"
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.characters"] == hostile
    assert read.values[f"{BACKUP_PREFIX}{STAMP}.drafts"] == drafts  # nothing typed is lost
    assert loaded.storage_texts() == AppState().storage_texts()


def test_the_app_saves_the_document_and_its_drafts_and_reads_them_back():
    app = KostkaApp()
    app.page_ready()
    app.store.values = {KEY_CHARACTERS: EARLY}
    app.store.loaded = True
    assert app.store.ready and not [k for k in app.store.values if k.startswith(BACKUP_PREFIX)]
    assert json.loads(app.store.values[KEY_CHARACTERS])["format"] == "kostka"  # migrated on the first save
    assert app.store.values.get(KEY_DRAFTS, "") == ""
    app.state.fate.character.skill = "-"
    values = dict(app.store.values)
    assert json.loads(values[KEY_DRAFTS])["systems"] == {"fate": [{"skill": "-"}]}
    assert engine.documents.read_document(values[KEY_CHARACTERS]).systems["fate"]["characters"][0]["skill"] == 9
    again = KostkaApp()
    again.page_ready()
    again.store.values = values
    again.store.loaded = True
    assert (
        again.state.fate.character.skill == "-"
        and "skill" in again.state.fate.character.errors  # marked wrong on the page
    )
    assert (
        again.store.values[KEY_CHARACTERS] == values[KEY_CHARACTERS]
        and again.store.values[KEY_DRAFTS] == values[KEY_DRAFTS]
    )


def test_drafts_without_stored_characters_are_kept_aside():
    app = AppState()
    typing(app)
    _, drafts = app.storage_texts()
    loaded, _, read = stored_read({KEY_DRAFTS: drafts})
    assert read.values == {KEY_DRAFTS: "", f"{BACKUP_PREFIX}{STAMP}.drafts": drafts}  # nothing else copied
    assert read.partial == [KEY_CHARACTERS] and loaded.storage_texts() == AppState().storage_texts()


@pytest.mark.parametrize(
    ("character", "current", "expected"),
    [
        ({"name": "Tilda", "st": float("nan")}, 0, "The file has NaN where a number should be"),
        ({"name": "Tilda", "st": float("inf")}, 0, "The file has Infinity where a number should be"),
        ({"name": "Tilda"}, 99, "GURPS: the character marked as on screen is not one of its characters."),
    ],
)
def test_a_refused_file_says_where_and_what(character, current, expected):
    """These refusals used to say only "The file could not be read." and "Must be from 0 to 0."."""
    doc = {
        "format": "kostka",
        "version": 2,
        "kind": "characters",
        "systems": {"gurps": {"current": current, "characters": [character]}},
    }
    with pytest.raises(InputError) as caught:
        import_characters(AppState(), json.dumps(doc).encode())
    words = {lang: document_error_text(Translator(lang=lang), caught.value, doc) for lang in ("en", "ru", "cs")}
    assert words["en"].startswith(expected), words
    assert len(set(words.values())) == 3, words  # said in each language
