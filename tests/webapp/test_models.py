"""The web app's models without a browser: form text -> engine call -> outcome."""

from __future__ import annotations

import json
from fractions import Fraction
from urllib.parse import urlencode

import pytest

import engine
from engine import fate, gurps, one_ring
from webapp.state.address import read_address
from webapp.state.app import AppState
from webapp.state.fate import FateDesk
from webapp.state.forms import parse_int
from webapp.state.gurps import GurpsDesk
from webapp.state.one_ring import OneRingDesk
from webapp.state.roster import Roster


# -- parsing --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "code"),
    [("", "empty"), ("   ", "empty"), ("abc", "type"), ("2.5", "type"), ("9", "range"), ("-1", "range")],
)
def test_parse_int_refuses_with_a_code(raw, code):
    with pytest.raises(engine.InputError) as info:
        parse_int("rating", raw, 0, 6)
    assert info.value.code == code
    assert info.value.params["low"] == 0 and info.value.params["high"] == 6


@pytest.mark.parametrize(("raw", "value"), [("3", 3), (" 4 ", 4), ("+2", 2), ("\u22122", -2), ("-0", 0)])
def test_parse_int_accepts_what_people_type(raw, value):
    assert parse_int("x", raw, -5, 5) == value


# -- The One Ring ------------------------------------------------------------------------------------
def test_seed_example_awareness_two_against_strength_tn_13():
    desk = OneRingDesk()
    desk.character.strength = "7"
    desk.character.awareness = "2"
    desk.ability = "awareness"
    assert desk.character.tn_of("strength") == 13
    assert desk.check == one_ring.OneRingCheck(rating=2, tn=13)
    assert desk.odds.p_success == one_ring.odds(one_ring.OneRingCheck(rating=2, tn=13)).p_success
    assert desk.tn_odds[13] == desk.odds.p_success


def test_one_ring_roll_is_the_engine_roll_for_the_seed():
    app = AppState()
    desk = app.one_ring
    desk.character.name_text = "Hanar"
    desk.character.wits = "4"
    desk.character.lore = "3"
    desk.character.fav_lore = True
    desk.ability = "lore"
    entry = app.roll(seed=1234)
    expected = engine.roll_check(one_ring.OneRingCheck(rating=3, tn=16, feat_mode="favoured"), 1234)
    assert entry.roll == expected
    assert entry.character == "Hanar" and entry.ability == "lore"
    assert desk.last is entry
    assert app.rolls.log.entries == [entry]


def test_feat_mode_follows_the_favoured_mark_unless_chosen():
    desk = OneRingDesk()
    desk.ability = "scan"
    assert desk.check.feat_mode == one_ring.FeatMode.NORMAL
    desk.character.fav_scan = True
    assert desk.check.feat_mode == one_ring.FeatMode.FAVOURED
    desk.feat_mode = "ill_favoured"
    assert desk.check.feat_mode == one_ring.FeatMode.ILL_FAVOURED


def test_weary_miserable_and_tn_override_reach_the_check():
    desk = OneRingDesk()
    desk.character.weary = True
    desk.character.miserable = True
    desk.tn_override = "18"
    assert desk.check.weary and desk.check.miserable and desk.check.tn == 18
    desk.tn_override = ""
    assert desk.check.tn == 15


def test_hope_spent_adds_dice_and_is_deducted_after_the_roll():
    app = AppState()
    desk = app.one_ring
    desk.character.awareness = "2"
    desk.character.hope = "3"
    desk.hope_spend = "1"
    assert desk.check.bonus_dice == 1
    desk.character.inspired = True
    assert desk.check.bonus_dice == 2
    app.roll(seed=5)
    assert desk.character.hope == "2"
    assert desk.hope_spend == "0"


def test_hope_beyond_what_is_held_is_refused_and_nothing_is_lost():
    desk = OneRingDesk()
    desk.character.hope = "0"
    desk.hope_spend = "1"
    assert desk.check is None
    assert desk.errors["hope_spend"].code == "rule"
    assert desk.errors["hope_spend"].params["held"] == 0
    assert desk.hope_spend == "1"


def test_a_bad_rating_marks_its_field_and_keeps_the_text():
    desk = OneRingDesk()
    desk.ability = "awe"
    desk.character.awe = "9"
    assert desk.check is None and desk.odds is None
    assert desk.character.errors["awe"].code == "range"
    assert desk.character.awe == "9"
    desk.character.awe = "x"
    assert desk.character.errors["awe"].code == "type"
    # another skill still rolls
    desk.ability = "song"
    assert desk.check is not None
    desk.character.awe = "4"
    assert "awe" not in desk.character.errors


def test_hope_above_its_maximum_is_marked():
    desk = OneRingDesk()
    desk.character.hope = "9"
    desk.character.hope_max = "8"
    desk.character.parse()
    assert desk.character.errors["hope"].code == "rule"


def test_special_successes_need_icons():
    app = AppState()
    desk = app.one_ring
    desk.character.awareness = "6"
    desk.tn_override = "1"
    seed = next(s for s in range(10_000) if engine.roll_check(one_ring.OneRingCheck(rating=6, tn=1), s).icons == 2)
    app.roll(seed=seed)
    assert desk.pick_special(["go_quietly", "gain_insight"]) == ["go_quietly", "gain_insight"]
    with pytest.raises(engine.InputError):
        desk.pick_special(["go_quietly", "gain_insight", "make_haste"])


# -- GURPS -----------------------------------------------------------------------------------------------
def gurps_desk(level: str = "9", mods: list[str] = ()) -> GurpsDesk:
    desk = GurpsDesk()
    desk.character.skills = [{"name": "Lockpicking", "level": level}]
    desk.modifiers = [{"name": f"m{i}", "value": v} for i, v in enumerate(mods)]
    return desk


def test_seed_example_lockpicking_nine_minus_five_plus_ten():
    desk = gurps_desk("9", ["-5", "+10"])
    assert desk.effective == 14
    assert desk.check == gurps.GurpsCheck(skill=9, modifiers=(-5, 10))
    assert desk.odds.p_success == gurps.odds(gurps.GurpsCheck(skill=14)).p_success


def test_modifier_with_text_is_marked_and_kept():
    desk = gurps_desk("9", ["-5", "lots"])
    assert desk.check is None and desk.effective is None
    assert desk.errors["modifier_1"].code == "type"
    assert desk.modifiers[1]["value"] == "lots"


def test_no_roll_below_three_unless_defence():
    app = AppState()
    desk = app.gurps
    desk.character.skills = [{"name": "Dodge", "level": "2"}]
    assert desk.check is None and desk.check_error.code == "rule"
    with pytest.raises(engine.InputError):
        app.roll("gurps", seed=1)
    desk.defence = True
    assert desk.check is not None
    entry = app.roll("gurps", seed=1)
    assert entry.roll == engine.roll_check(gurps.GurpsCheck(skill=2, defence=True), 1)


def test_tries_give_the_chance_of_at_least_one_success():
    desk = gurps_desk("10")
    desk.tries = "3"
    assert desk.p_any == 1 - (1 - Fraction(1, 2)) ** 3


def test_secret_roll_is_hidden_until_revealed():
    app = AppState()
    app.gurps.character.skills = [{"name": "Perception", "level": "12"}]
    app.gurps.secret = True
    entry = app.roll("gurps", seed=77)
    assert entry.hidden
    assert entry.to_dict()["result"] is None
    app.rolls.log.reveal(entry.number)
    assert not entry.hidden
    assert entry.to_dict()["result"]["total"] == entry.roll.total


def test_contests_against_a_number_and_a_character():
    app = AppState()
    desk = app.gurps
    desk.character.skills = [{"name": "Wrestling", "level": "13"}]
    desk.opponent_level = "11"
    assert desk.contest_odds == gurps.quick_contest_odds(gurps.QuickContest(13, 11))
    desk.contest = "regular"
    assert desk.contest_odds == gurps.regular_contest_odds(gurps.RegularContest(13, 11, True))
    entry = app.roll_contest(seed=3)
    assert entry.roll == engine.roll_check(gurps.RegularContest(13, 11, True), 3)
    # a second character of the roster as the opponent
    app.gurps_roster.add()
    desk.character.name_text = "Bjorn"
    desk.character.skills = [{"name": "Wrestling", "level": "15"}]
    app.gurps_roster.select(0)
    desk.opponent = "1:0"
    desk.contest = "quick"
    assert desk.opponent_skill() == 15
    assert desk.contest_odds == gurps.quick_contest_odds(gurps.QuickContest(13, 15))


# -- Fate & Doom --------------------------------------------------------------------------------------------
def test_fate_check_and_favour_per_spend():
    desk = FateDesk()
    desk.character.skill = "7"
    desk.character.favour = "2"
    desk.difficulty = "2"
    assert desk.check == fate.FateCheck(skill=7, difficulty=2, favour_spent=0, favour_held=2)
    assert desk.by_favour == fate.success_by_favour(desk.check, 2)


def test_favour_is_refused_beyond_held_and_deducted_when_spent():
    app = AppState()
    desk = app.fate
    desk.character.favour = "2"
    desk.favour_spend = "3"
    assert desk.check is None and desk.errors["favour_spend"].params["held"] == 2
    with pytest.raises(engine.InputError):
        app.roll("fate", seed=1)
    assert desk.character.favour == "2"
    desk.favour_spend = "2"
    entry = app.roll("fate", seed=1)
    assert entry.roll.favour_spent == 2
    assert desk.character.favour == "0"
    assert desk.favour_spend == "0"


# -- characters, storage and the URL --------------------------------------------------------------------------
def test_roster_keeps_several_characters():
    app = AppState()
    roster = app.rosters["fate"]
    app.fate.character.name_text = "Ada"
    roster.add()
    app.fate.character.name_text = "Bo"
    app.fate.character.skill = "9"
    assert roster.names() == ["Ada", "Bo"]
    roster.select(0)
    assert app.fate.character.name_text == "Ada" and app.fate.character.skill == "7"
    roster.remove()
    assert roster.names() == ["Bo"]


def test_characters_survive_a_json_round_trip():
    app = AppState()
    app.one_ring.character.name_text = "Frodo"
    app.one_ring.character.fav_stealth = True
    app.gurps.character.skills = [{"name": "Guns", "level": "14"}, {"name": "Stealth", "level": "zz"}]
    text, drafts = app.storage_texts()
    # the document holds what is valid (the level never typed whole is left out); the text typed is a draft
    assert json.loads(text)["systems"]["gurps"]["characters"][0]["skills"] == [
        {"name": "Guns", "level": 14},
        {"name": "Stealth"},
    ]
    other = AppState()
    other.load_characters(text)
    other.load_drafts(drafts, text)
    assert other.one_ring.character.name_text == "Frodo" and other.one_ring.character.fav_stealth
    assert other.gurps.character.skills[1]["level"] == "zz"
    assert other.storage_texts() == (text, drafts)


def test_import_adds_characters_and_refuses_other_files():
    app = AppState()
    source = AppState()
    source.fate.character.name_text = "Imported"
    count = app.load_characters(source.characters_json(), merge=True)
    assert count == 1  # the blank characters of the other systems are not characters to import
    assert app.rosters["fate"].names() == ["Imported"]  # and the blank one here made way
    for bad in ("not json", "[]", json.dumps({"format": "other"}), json.dumps({"format": "kostka-characters"})):
        with pytest.raises(engine.InputError) as info:
            app.load_characters(bad)
        assert info.value.code == "format"


def test_stored_values_of_the_wrong_type_are_read_leniently():
    app = AppState()
    data = {"format": "kostka-characters", "version": 1, "systems": {"fate": {"current": 0}}}  # the early format
    data["systems"]["fate"]["characters"] = [{"name": 5, "skill": 8, "favour": None, "life": [1]}, "junk"]
    app.load_characters(json.dumps(data))
    char = app.fate.character
    assert char.name_text == "5" and char.skill == "8" and char.favour == ""
    assert char.parse() and char.errors["favour"].code == "empty"


@pytest.mark.parametrize("system", ["one-ring", "gurps", "fate"])
def test_the_url_reproduces_the_screen(system):
    app = AppState()
    app.system = system
    if system == "one-ring":
        app.one_ring.character.name_text = "Sam"
        app.one_ring.character.craft = "4"
        app.one_ring.character.fav_craft = True
        app.one_ring.ability = "craft"
        app.one_ring.bonus_dice = "1"
    elif system == "gurps":
        app.gurps.character.skills = [{"name": "Guns", "level": "13"}, {"name": "Riding", "level": "11"}]
        app.gurps.skill_index = 1
        app.gurps.modifiers = [{"name": "Rain", "value": "-2"}]
        app.gurps.defence = True
    else:
        app.fate.character.skill = "8"
        app.fate.difficulty = "-1"
        app.fate.favour_spend = "1"
    query = app.url_state()
    # as it comes back from the address, read as text
    parsed = read_address("?" + urlencode(query)).query
    other = AppState()
    other.apply_url(parsed)
    assert other.system == system
    assert other.url_state() == query
    assert other.desk.check == app.desk.check


def test_a_link_with_bad_values_keeps_them_as_text_to_correct():
    app = AppState()
    app.apply_url({"sys": "one-ring", "awareness": "lots", "r_ability": "awareness", "r_bonus_dice": "99"})
    assert app.one_ring.character.awareness == "lots"
    assert app.one_ring.check is None
    assert app.one_ring.errors["bonus_dice"].code == "range"


def test_a_link_character_is_added_beside_stored_ones():
    app = AppState()
    app.fate.character.name_text = "Stored"
    app.apply_url({"sys": "fate", "name": "From link", "skill": "9"}, keep_stored=True)
    assert app.rosters["fate"].names() == ["Stored", "From link"]
    # the same name with other values never overwrites: a new character with a number
    notes = app.apply_url({"sys": "fate", "name": "From link", "skill": "10"}, keep_stored=True)
    assert app.rosters["fate"].names() == ["Stored", "From link", "From link (2)"]
    assert app.rosters["fate"].characters[1]["skill"] == "9"
    assert app.fate.character.skill == "10"
    assert notes == [("The character from the address was added as a new character: {name}", {"name": "From link (2)"})]


def test_log_exports_json():
    app = AppState()
    app.roll("one-ring", seed=9)
    app.system = "fate"
    app.roll(seed=10)
    data = json.loads(app.rolls.log.to_json())
    assert data["format"] == "kostka-log" and len(data["rolls"]) == 2
    assert data["rolls"][0]["seed"] == 9 and data["rolls"][1]["system"] == "fate"
    app.rolls.log.clear()
    assert app.rolls.log.entries == []


def test_roster_ignores_junk():
    roster = Roster(AppState().fate.character)
    roster.load({"characters": "nope"})
    roster.load(None)
    assert len(roster.characters) == 1
