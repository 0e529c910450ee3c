"""The −/+ steppers of ratings, modifiers and points, without a browser: bounds from the forms,
translated button names, the maximum a current value steps up to."""

from __future__ import annotations

import pytest
from drawn_fields import number_fields

from engine import one_ring
from webapp.i18n import Translator
from webapp.state.gurps import GurpsCharacter
from webapp.state.one_ring import OneRingCharacter
from webapp.views.common import Binder, TextField, stepper_width
from webapp.views.shell import KostkaApp


def test_a_text_field_takes_its_stepper_bounds_from_the_form_and_names_its_buttons():
    tr = Translator()
    binder = Binder(tr)
    char = OneRingCharacter()
    field = TextField(binder, char, "awareness", "Awareness", stepper=True)
    box = field.input
    assert box.stepper and (box.minimum, box.maximum) == OneRingCharacter.BOUNDS["awareness"] == one_ring.RATING_RANGE
    assert (box.less_label, box.more_label) == ("Decrease Awareness", "Increase Awareness")
    assert box.width >= stepper_width(*one_ring.RATING_RANGE) >= 3 * 44  # two buttons and the input, each a finger wide
    tr.lang = "ru"
    assert box.less_label.startswith("Уменьшить") and box.more_label.startswith("Увеличить")
    assert "Внимательность" in box.more_label and box.label == "Внимательность"
    tr.lang = "cs"
    assert box.less_label.startswith("Snížit") and box.more_label.startswith("Zvýšit")
    # a field without the stepper draws no buttons
    plain = TextField(binder, char, "hope_max", "Hope (max)")
    assert not plain.input.stepper and plain.input.less_label == ""


def test_a_current_value_steps_up_to_its_maximum_as_it_stands():
    binder = Binder(Translator())
    char = GurpsCharacter()
    hp = TextField(binder, char, "hp", "HP", stepper=True).input
    assert (hp.minimum, hp.maximum) == (-999, 10)  # HP (max) 10
    char.hp_max = "14"
    assert hp.maximum == 14
    char.hp_max = "x"  # a maximum being corrected leaves the field's own bound
    assert hp.maximum == 999
    # what the browser's tap sends: both the typed text and the committed value
    hp.param.update(value_input="13", value="13")
    assert char.hp == "13"


def test_explicit_bounds_for_a_field_the_form_has_no_bounds_for():
    binder = Binder(Translator())
    app = KostkaApp()
    parry = TextField(binder, app.state.one_ring, "parry", "Parry", stepper=True, bounds=one_ring.PARRY_RANGE).input
    assert (parry.minimum, parry.maximum) == one_ring.PARRY_RANGE


@pytest.mark.parametrize(
    ("system", "labels"),
    [
        ("one-ring", {"Awareness", "Heart", "Hope", "Endurance", "Load", "Fatigue", "Shadow", "Protection"}),
        ("one-ring", {"Bonus dice (support)", "Injury of the blow", "Adversary's Parry", "Valour", "Wisdom"}),
        ("gurps", {"ST", "DX", "Will", "Dodge", "HP", "FP"}),
        ("fate", {"Skill", "Favour of the gods", "Life", "Difficulty", "Favour to spend"}),
    ],
)
def test_ratings_modifiers_and_points_have_steppers_on_every_screen(system, labels):
    app = KostkaApp()
    view = app.view_of(system)
    boxes = {f["label"]: f for f in number_fields(view.__panel__())}
    assert labels <= set(boxes), labels - set(boxes)
    for label in labels:
        box = boxes[label]
        assert box["stepper"] and box["low"] is not None and box["high"] is not None, label
        assert box["less"] == f"Decrease {label}" and box["more"] == f"Increase {label}"
    if system == "one-ring":
        assert not boxes["TN (by hand)"]["stepper"] and not boxes["Hope (max)"]["stepper"]


def test_a_gurps_modifier_row_steps_within_the_modifier_range_named_by_its_row():
    app = KostkaApp()
    view = app.view_of("gurps")
    view.mod_rows._add(None)
    ((name, value),) = view.mod_rows.rows
    assert value.stepper and (value.minimum, value.maximum) == (-30, 30)
    assert value.more_label == "Increase Modifier 1"
    name.value_input = "Darkness"
    name.value = "Darkness"
    assert value.less_label == "Decrease Darkness"
    value.param.update(value_input="-2", value="-2")
    assert app.state.gurps.effective == 8
