"""The web app's sheets follow the engine's one declaration of each sheet: bounds, defaults and labels."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from engine import sheets
from webapp.i18n import LANGUAGES, LOCALE_DIR
from webapp.state import address, forms, gurps
from webapp.state.fate import FateCharacter
from webapp.state.fight import MonsterSheet
from webapp.state.gurps import GurpsCharacter
from webapp.state.one_ring import OneRingCharacter

FORMS = {
    "one-ring": OneRingCharacter,
    "gurps": GurpsCharacter,
    "fate": FateCharacter,
    "fate-monster": MonsterSheet,
}


@pytest.mark.parametrize("system", sorted(FORMS))
def test_a_forms_bounds_and_defaults_are_the_sheets(system):
    form = FORMS[system]
    assert form.BOUNDS == sheets.bounds(system)
    assert form.system == system
    for field in sheets.SHEETS[system]:
        name = "name_text" if field.name == "name" else field.name
        if field.kind == "rows" or name not in form.param:
            continue
        default = form.param[name].default
        assert default == (field.default if field.kind == "bool" else str(field.default)), (system, field.name)


def test_the_row_limits_and_ranges_are_the_engines():
    assert forms.MAX_ROWS == address.MAX_ROWS == sheets.MAX_ROWS
    assert (gurps.SKILL_RANGE, gurps.MODIFIER_RANGE) == (sheets.SKILL_RANGE, sheets.MODIFIER_RANGE)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_sheet_label_is_a_message_of_the_catalogues(lang):
    with open(f"{LOCALE_DIR}/{lang}/LC_MESSAGES/kostka.po", "rb") as f:
        ids = {m.id for m in read_po(f, locale=lang) if m.id}
    for system, fields in sheets.SHEETS.items():
        for field in fields:
            for f in (field, *field.rows):
                assert f.label is None or f.label in ids, (system, f.name, f.label)


@pytest.mark.parametrize("system", sorted(FORMS))
def test_every_field_of_the_sheet_is_a_parameter_of_its_form(system):
    form = FORMS[system]
    for field in sheets.SHEETS[system]:
        if system == "gurps" and field.name == "modifiers":  # the desk's
            continue
        name = "name_text" if field.name == "name" else field.name
        assert name in form.param, (system, field.name)
    assert form.FLAGS == tuple(f.name for f in sheets.SHEETS[system] if f.kind == "bool")


def test_a_field_added_to_a_sheet_is_in_its_form_bounds_documents_and_schema(monkeypatch):
    fields = (
        *sheets.SHEETS["fate"],
        sheets.Field("luck", "int", 0, 6, 2, "Luck"),
        sheets.Field("lucky", "bool", default=True),
    )
    monkeypatch.setitem(sheets.SHEETS, "fate", fields)

    @forms.sheet_form
    class Sheet(forms.Form):
        system = "fate"

    form = Sheet()
    assert (form.luck, form.lucky, form.skill, form.name_text) == ("2", True, "7", "")
    assert Sheet.BOUNDS["luck"] == (0, 6) and "lucky" in Sheet.FLAGS
    form.luck = "7"
    form.parse()
    assert form.errors["luck"].code == "range"
    assert form.to_dict()["luck"] == "7"
    assert sheets.json_schema("fate")["properties"]["luck"]["default"] == 2
    assert sheets.spec("fate")["luck"] == ("int", 0, 6)
