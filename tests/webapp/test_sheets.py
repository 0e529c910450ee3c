"""The sheets players keep: GCS import in the app, the GURPS and One Ring trackers, the free dice roller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import engine
from engine.roller import parse_dice
from webapp.i18n import Translator
from webapp.state.app import AppState
from webapp.state.gcs import import_gcs, is_gcs
from webapp.state.gurps import GurpsCharacter, pool_state
from webapp.state.links import export_characters, import_characters
from webapp.state.one_ring import OneRingCharacter
from webapp.views.shell import KostkaApp
from webapp.words.gcs import gcs_error_text, gcs_message
from webapp.words.log import log_rows

DATA = Path(__file__).resolve().parents[1] / "data" / "gcs"
XSS = '<img src=x onerror="alert(1)">'


@pytest.fixture
def app():
    return KostkaApp()


# -- GCS import ------------------------------------------------------------------------------------


def test_a_real_gcs_sheet_imports_with_every_level(app):
    raw = (DATA / "goblin-shaman.gcs").read_bytes()
    app.import_chars.filename = "Goblin, Shaman.gcs"
    app.import_chars.value = raw
    assert app.state.system == "gurps"
    char = app.state.gurps.character
    doc = json.loads(raw)
    assert char.name_text == "Goblin, Shaman"
    levels = {
        s["name"] + (f" ({s['specialization']})" if s.get("specialization") else ""): str(s["calc"]["level"])
        for s in doc["skills"] + doc["spells"]
    }
    assert {s["name"]: s["level"] for s in char.skills} == levels
    assert (char.will, char.per, char.hp, char.hp_max, char.dodge, char.parry, char.block) == (
        "11",
        "11",
        "11",
        "11",
        "10",
        "10",
        "10",
    )
    assert "Imported characters: 1" in app.import_message.object


def test_left_out_rows_are_listed_in_the_message_in_each_language(app, tmp_path):
    doc = json.loads((DATA / "giant-rat.gcs").read_text(encoding="utf-8"))
    doc["spells"] = [{"id": "p", "name": "Haircut"}]
    doc["profile"]["name"] = XSS
    app.import_chars.filename = "rat.gcs"
    app.import_chars.value = json.dumps(doc).encode()
    html = app.import_message.object
    assert "Left out: Haircut (no computed level)." in html
    assert "<img" not in html
    assert app.state.gurps.character.name_text == XSS  # kept as text, shown escaped
    tr = Translator()
    for lang, word in (("ru", "Не перенесено"), ("cs", "Nepřeneseno")):
        tr.lang = lang
        assert word in gcs_message(tr, 1, (("Haircut", "no-level"),))


@pytest.mark.parametrize(
    "lang, words",
    [
        ("en", "Left out: Name (a name longer than 1000 characters); Lore (@a@) (a name longer than 1000 characters)."),
        ("ru", "Name (имя длиннее 1000 символов); Lore (@a@) (имя длиннее 1000 символов)"),
        ("cs", "Name (jméno delší než 1000 znaků); Lore (@a@) (jméno delší než 1000 znaků)"),
    ],
)
def test_a_gcs_name_that_fills_in_too_long_is_left_out_in_words(app, lang, words):
    doc = json.loads((DATA / "giant-rat.gcs").read_text(encoding="utf-8"))
    doc["profile"]["name"] = "N" * 5000
    doc["skills"] = [
        {"id": "s", "name": "Lore (@a@)", "replacements": {"a": "x" * 100_000}, "calc": {"level": 12}},
        {"id": "t", "name": "Brawling", "calc": {"level": 11}},
    ]
    doc["spells"] = []
    app.tr.lang = lang
    app.import_chars.filename = "rat.gcs"
    app.import_chars.value = json.dumps(doc).encode()
    assert words in app.import_message.object
    assert [row["name"] for row in app.state.gurps.character.skills] == ["Brawling"]


@pytest.mark.parametrize(
    "lang, words", [("en", "re-save it in a current GCS"), ("ru", "пересохраните"), ("cs", "ulož ho znovu")]
)
def test_an_old_gcs_sheet_is_refused_with_re_save_in_words(lang, words):
    tr = Translator()
    tr.lang = lang
    state = AppState()
    with pytest.raises(engine.InputError) as info:
        import_gcs(state, b'<?xml version="1.0"?><character version="5"></character>')
    assert words in gcs_error_text(tr, info.value)
    assert len(state.gurps_roster.characters) == 1  # nothing changed


def test_the_import_button_tells_gcs_from_kostka_files():
    assert is_gcs("Dai.gcs", b"{}") and is_gcs("DAI.GCS", b"{}") and not is_gcs("kostka-characters.json", b"{}")
    assert is_gcs(None, (DATA / "giant-rat.gcs").read_bytes())
    assert not is_gcs(None, b'{"format": "kostka", "version": 2}')
    # the content decides over a name that may be the previous file's
    assert is_gcs("kostka-characters.json", (DATA / "giant-rat.gcs").read_bytes())
    assert not is_gcs("rat.gcs", export_characters(AppState()).encode())
    assert is_gcs("sheet.json", b'<?xml version="1.0"?><character version="5"></character>')


def test_each_file_is_imported_for_what_it_is_whatever_the_file_before(app):
    """The file chooser sends a file's content before its name: the name beside the content is still
    the previous file's when a .gcs follows a .json, or a .json a .gcs."""
    kostka = AppState()
    kostka.fate.character.param.update(name_text="Vera", skill="8")
    chars = export_characters(kostka).encode()
    rat = (DATA / "giant-rat.gcs").read_bytes()
    for first, second in (((chars, "chars.json"), (rat, "rat.gcs")), ((rat, "rat.gcs"), (chars, "chars.json"))):
        app = KostkaApp()
        for data, name in (first, second):
            app.import_chars.value = data  # the content, the name still the one before
            assert "Imported characters: 1" in app.import_message.object, (name, app.import_message.object)
            app.import_chars.filename = name
        assert app.state.rosters["fate"].names() == ["Vera"] and app.state.rosters["gurps"].names() == ["Giant Rat"]


def test_refused_gcs_file_shows_a_message_and_keeps_the_characters(app):
    before = app.state.characters_json()
    app.import_chars.filename = "x.gcs"
    app.import_chars.value = b"[" * 5000
    assert "alert" in app.import_message.object or "role" in app.import_message.object
    assert app.state.characters_json() == before


# -- GURPS sheet -----------------------------------------------------------------------------------


def test_will_per_and_defences_roll_one_tap_away(app):
    view = app.view_of("gurps")
    char = app.state.gurps.character
    char.param.update(will="13", per="12", dodge="9", parry="11", block="10")
    view.roll_target("will")
    entry = app.state.rolls.log.entries[-1]
    assert (entry.ability, entry.check.skill, entry.check.defence) == ("Will", 13, False)
    for key, level in (("dodge", 9), ("parry", 11), ("block", 10)):
        view.roll_target(key)
        entry = app.state.rolls.log.entries[-1]
        assert (entry.check.skill, entry.check.defence) == (level, True)
        assert entry.roll == engine.roll_check(entry.check, entry.seed)
    assert app.state.gurps.odds is not None and app.state.gurps.check.defence  # the odds follow the chosen roll
    view.roll_skill(0)
    assert app.state.gurps.target == "skill" and not app.state.rolls.log.entries[-1].check.defence
    app.tr.lang = "ru"
    rows = log_rows(app.tr, app.state.rolls.log.entries)
    assert any("Блок" in row[2] for row in rows) and any("Воля" in row[2] for row in rows)


def test_a_defence_roll_is_allowed_below_3():
    state = AppState()
    state.gurps.character.dodge = "2"
    state.gurps.target = "dodge"
    entry = state.roll("gurps", seed=5)
    assert entry.check.defence and entry.check.skill == 2


@pytest.mark.parametrize(
    "kind, current, maximum, expected",
    [
        ("hp", 10, 10, None),
        ("hp", 4, 10, None),
        ("hp", 3, 10, "reeling"),
        ("hp", 1, 10, "reeling"),
        ("hp", 0, 10, "collapse"),
        ("hp", -9, 10, "collapse"),
        ("hp", -10, 10, "dying"),
        ("hp", -49, 10, "dying"),
        ("hp", -50, 10, "dead"),
        ("hp", -100, 10, "destroyed"),
        ("hp", 4, 12, None),
        ("hp", 3, 12, "reeling"),
        ("fp", 4, 12, None),
        ("fp", 3, 12, "tired"),
        ("fp", 0, 12, "fp_collapse"),
        ("fp", -12, 12, "unconscious"),
    ],
)
def test_what_gurps_says_at_each_level_of_hp_and_fp(kind, current, maximum, expected):
    state = pool_state(kind, current, maximum)
    assert (state[0] if state else None) == expected


def test_dying_says_which_multiple_of_hp():
    assert pool_state("hp", -25, 10) == ("dying", {"k": 2})
    assert pool_state("hp", -45, 10) == ("dying", {"k": 4})


def test_hp_steppers_and_the_state_shown(app):
    view = app.view_of("gurps")
    char = app.state.gurps.character
    char.param.update(hp="5", hp_max="12")
    view._show_pools()
    assert view.pool_states["hp"].object == ""
    char.step("hp", -3)
    assert char.hp == "2" and "Reeling" in view.pool_states["hp"].object
    char.step("hp", 20)
    assert char.hp == "12"  # not above the maximum
    char.hp = "abc"
    char.step("hp", -1)
    assert char.hp == "abc"  # a field being corrected is not overwritten
    char.hp = "-12"
    assert "roll vs HT to avoid death" in view.pool_states["hp"].object
    app.tr.lang = "cs"
    assert "proti ZD" in view.pool_states["hp"].object


def test_current_above_maximum_is_marked():
    char = GurpsCharacter(hp="13", hp_max="12")
    char.parse()
    assert "hp" in char.errors


def test_the_new_fields_are_stored_exported_and_imported():
    source = AppState()
    g = source.gurps.character
    g.param.update(
        name_text="Dai", will="12", per="14", hp="7", hp_max="11", fp="3", fp_max="10", dodge="9", parry="10", block="8"
    )
    o = source.one_ring.character
    o.param.update(
        name_text="Bilbo", endurance="14", endurance_max="22", shadow="3", shadow_scars="1", gear_load="9", fatigue="2"
    )
    text = export_characters(source)
    doc = engine.documents.read_document(text, kind="characters")
    gurps = doc.systems["gurps"]["characters"][0]
    assert (gurps["will"], gurps["hp"], gurps["hp_max"], gurps["dodge"], gurps["parry"], gurps["block"]) == (
        12,
        7,
        11,
        9,
        10,
        8,
    )
    hero = doc.systems["one-ring"]["characters"][0]
    assert (
        hero["endurance"],
        hero["shadow"],
        hero["shadow_scars"],
        hero["gear_load"],
        hero["fatigue"],
        hero["weary_auto"],
    ) == (14, 3, 1, 9, 2, True)
    target = AppState()
    import_characters(target, text.encode())
    target.gurps_roster.select(len(target.gurps_roster.characters) - 1)
    assert (target.gurps.character.will, target.gurps.character.hp, target.gurps.character.block) == ("12", "7", "8")
    # and they survive the browser's own storage
    again = AppState()
    again.load_characters(source.characters_json())
    assert again.gurps.character.per == "14" and again.one_ring.character.gear_load == "9"


def test_a_version_1_file_still_imports():
    v1 = {
        "format": "kostka",
        "version": 1,
        "kind": "characters",
        "systems": {
            "gurps": {
                "current": 0,
                "characters": [{"name": "Old", "st": 11, "skills": [{"name": "Guns", "level": 12}]}],
            },
            "one-ring": {"current": 0, "characters": [{"name": "Frodo", "weary": True}]},
        },
    }
    state = AppState()
    assert import_characters(state, json.dumps(v1).encode()) == 2
    roster = state.rosters["one-ring"]
    roster.select(len(roster.characters) - 1)
    assert state.one_ring.character.weary is True and state.one_ring.character.weary_auto is False


# -- The One Ring trackers -------------------------------------------------------------------------


def test_weary_follows_endurance_when_switched_on_and_not_when_off():
    state = AppState()
    char = state.one_ring.character
    assert char.weary_auto and not char.weary
    char.param.update(endurance="12", gear_load="9", fatigue="3")
    assert char.weary and state.one_ring.check.weary  # 12 <= 9 + 3
    char.endurance = "13"
    assert not char.weary
    char.weary_auto = False
    char.weary = True
    char.endurance = "20"
    assert char.weary  # tracked by hand
    above = OneRingCharacter(endurance="21", endurance_max="20")
    above.parse()
    assert "endurance" in above.errors


def test_a_hero_stored_before_the_trackers_keeps_weary_as_set_by_hand():
    old = {
        "format": "kostka-characters",
        "version": 1,
        "systems": {"one-ring": {"current": 0, "characters": [{"name": "Sam", "weary": True}]}},
    }
    state = AppState()
    state.load_characters(json.dumps(old))
    char = state.one_ring.character
    assert (char.name_text, char.weary, char.weary_auto) == ("Sam", True, False)
    char.endurance = "19"
    assert char.weary


def test_weary_state_is_shown_in_words(app):
    view = app.view_of("one-ring")
    char = app.state.one_ring.character
    char.param.update(endurance="5", gear_load="5")
    assert "Weary" in view.weary_state.object
    app.tr.lang = "ru"
    assert "Усталость" in view.weary_state.object


# -- the free dice roller --------------------------------------------------------------------------


def test_dice_view_charts_the_exact_distribution_live(app):
    view = app.dice_card.open()
    view.field.value_input = "4d6 keep 3"
    exact = parse_dice("4d6k3").odds().to_floats()
    data = view.chart.source.data
    assert dict(zip(data["x"], data["p"], strict=False)) == exact
    assert "from 3 to 18" in view.readout.object
    view.field.value_input = "2d6+"
    assert view.roll_button.disabled and "cannot be read as dice" in view.readout.object
    assert view.roll() is None
    view.field.value_input = "60d6+60d6"
    assert "from 1 to 100 dice" in view.readout.object


def test_dice_roll_goes_to_the_status_region_and_the_log(app):
    view = app.dice_card.open()
    view.field.value_input = "2d6+3"
    entry = view.roll(seed=7)
    assert entry.roll.total == 8 and entry.roll == parse_dice("2d6+3").roll(7)
    assert 'role="status"' in view.status.object and "Total 8" in view.status.object
    rows = log_rows(app.tr, app.state.rolls.log.entries)
    assert rows[0][2].startswith("Free dice: 2d6+3, seed 7") and rows[0][3].startswith("Total 8")
    assert engine.documents.read_document(
        __import__("webapp.state.links", fromlist=["x"]).export_log(app.state.rolls.log.entries), kind="log"
    )
    app.tr.lang = "cs"
    assert "Součet 8" in view.status.object
    assert "Volné kostky" in log_rows(app.tr, app.state.rolls.log.entries)[0][2]


def test_dice_card_builds_the_roller_only_when_opened():
    app = KostkaApp()
    assert app.dice_card.view is None
    app.dice_card.toggle.value = True
    assert app.dice_card.view is not None and app.dice_card.body.objects
    app.dice_card.toggle.value = False
    assert not app.dice_card.body.objects


def test_link_to_a_defence_check_is_labelled_with_the_defence(app):
    app.state.system = "gurps"
    app.view_of("gurps")
    app.state.gurps.target = "parry"
    app.share_panel._mode = "check"
    app.share_panel._draw()
    link = engine.links.decode_link(app.share_panel.url.split("#r=", 1)[1]) if "#r=" in app.share_panel.url else None
    assert link is not None and link.label == "Parry" and link.check.defence


@pytest.mark.parametrize(
    "lang, n, words",
    [
        ("en", 1, "and 1 more row"),
        ("en", 5, "and 5 more rows"),
        ("ru", 1, "и ещё 1 строка"),
        ("ru", 3, "и ещё 3 строки"),
        ("ru", 5, "и ещё 5 строк"),
        ("cs", 1, "a ještě 1 řádek"),
        ("cs", 3, "a ještě 3 řádky"),
        ("cs", 5, "a ještě 5 řádků"),
    ],
)
def test_a_long_list_of_left_out_rows_is_counted_with_plural_forms(lang, n, words):
    tr = Translator()
    tr.lang = lang
    skipped = tuple((f"Row {i}", "no-level") for i in range(20 + n))
    text = gcs_message(tr, 1, skipped)
    assert text.endswith(words + ".") and "Row 19" in text and "Row 20" not in text
