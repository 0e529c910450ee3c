"""A sheet's ratings as one form (EditSheet): typed text, errors, stars and one-tap rolls reach the
sheet and come back as drawn, in each language; edits it cannot read change nothing."""

from __future__ import annotations

import json

import pytest

from engine import one_ring
from webapp.views.shell import KostkaApp


@pytest.fixture
def app():
    return KostkaApp()


def test_the_one_ring_ratings_are_one_form_grouped_by_attribute(app):
    view = app.view_of("one-ring")
    sheet = view.edit_sheet
    keys = [r["key"] for r in sheet.rows]
    assert len(keys) == len(set(keys)) == 27  # 3 attributes, 18 skills, 4 proficiencies, Valour and Wisdom
    assert sheet.titles == ["Strength", "Heart", "Wits", "Combat proficiencies", "Valour and Wisdom"]
    assert keys[:7] == ["strength", "awe", "athletics", "awareness", "hunting", "song", "craft"]
    strength, awareness, valour = sheet.row("strength"), sheet.row("awareness"), sheet.row("valour")
    assert (strength["note"], strength["star"], strength["roll"]) == ("TN 15", None, "")  # an attribute: its TN
    assert awareness["star"] == {"on": False, "name": "Favoured: Awareness"} and awareness["roll"] == "Roll Awareness"
    assert valour["star"] is None and valour["roll"] == "Roll Valour"
    assert (awareness["low"], awareness["high"]) == one_ring.RATING_RANGE
    assert (awareness["less"], awareness["more"]) == ("Decrease Awareness", "Increase Awareness")


def test_typing_stepping_and_stars_reach_the_sheet_and_come_back(app):
    view = app.view_of("one-ring")
    sheet, char = view.edit_sheet, app.state.one_ring.character
    sheet.type("awareness", "3")
    assert char.awareness == "3" and sheet.row("awareness")["value"] == "3"
    sheet.type("strength", "7")
    assert sheet.row("strength")["note"] == "TN 13"  # the TN follows its attribute
    sheet.type("star:awareness", "1")
    assert char.fav_awareness and sheet.row("awareness")["star"]["on"]
    sheet.type("star:awareness", "")
    assert not char.fav_awareness
    char.awe = "2"  # a value from Python itself (a loaded sheet) is drawn too
    assert sheet.row("awe")["value"] == "2"


def test_a_wrong_value_is_kept_and_marked_under_its_field_in_the_language_on_screen(app):
    view = app.view_of("one-ring")
    sheet, char = view.edit_sheet, app.state.one_ring.character
    sheet.type("awe", "9")
    assert char.awe == "9"  # kept as typed
    assert sheet.row("awe")["error"] == "Must be from 0 to 6." and sheet.row("awe")["label"] == "Awe"
    app.tr.lang = "ru"
    awe = sheet.row("awe")
    assert (awe["label"], awe["error"]) == ("Трепет", "Должно быть от 0 до 6.")
    assert sheet.row("awareness")["star"]["name"] == "Избранный навык: Внимательность"
    assert sheet.row("awareness")["roll"] == "Бросок: Внимательность"
    app.tr.lang = "cs"
    assert sheet.row("awareness")["star"]["name"].startswith("Zvýhodněná dovednost")
    sheet.type("awe", "2")
    assert sheet.row("awe")["error"] == ""


def test_the_roll_beside_a_rating_rolls_it_and_is_answered(app):
    view = app.view_of("one-ring")
    sheet = view.edit_sheet
    sheet.type("awareness", "2")
    sheet.press("awareness")
    assert app.state.one_ring.ability == "awareness" and app.state.one_ring.last.check.rating == 2
    assert sheet.ack == 1
    count = len(app.state.rolls.log.entries)
    sheet.press("strength")  # an attribute has no ⚄: nothing rolled, answered all the same
    assert len(app.state.rolls.log.entries) == count and sheet.ack == 2


@pytest.mark.parametrize(
    "edit",
    ["", "not json", json.dumps([1, "awareness"]), json.dumps([1, 2, 3]), json.dumps([1, "name_text", "<b>"])],
)
def test_an_edit_the_form_cannot_read_changes_nothing(app, edit):
    view = app.view_of("one-ring")
    char = app.state.one_ring.character
    before = dict(char.param.values())
    view.edit_sheet.edit = edit
    view.edit_sheet.type("star:strength", "1")  # an attribute has no star
    view.edit_sheet.type("fav_awareness", "1")  # a key that is no field
    assert dict(char.param.values()) == before


def test_gurps_attributes_will_per_and_defences_are_forms_and_roll(app):
    view = app.view_of("gurps")
    assert [r["key"] for r in view.edit_sheet.rows] == ["st", "dx", "iq", "ht", "will", "per"]
    assert [r["roll"] for r in view.edit_sheet.rows] == ["", "", "", "", "Roll Will", "Roll Per"]
    assert view.defence_sheet.row("dodge")["roll"] == "Roll Dodge (defence roll)"
    view.edit_sheet.type("will", "13")
    assert app.state.gurps.character.will == "13"
    view.edit_sheet.press("will")
    assert app.state.rolls.log.entries[-1].ability == "Will"
    view.defence_sheet.press("dodge")
    assert app.state.rolls.log.entries[-1].ability == "Dodge"
    view.edit_sheet.type("st", "0")
    assert view.edit_sheet.row("st")["error"]
