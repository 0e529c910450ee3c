"""The rules readings in the app: each option on the form, shown where its rule is used."""

from __future__ import annotations

import json
from pathlib import Path

import panel as pn
import pytest

from engine import fate as fate_rules
from engine import links
from webapp.i18n import Translator
from webapp.state.app import AppState
from webapp.state.links import open_link
from webapp.views.shell import KostkaApp
from webapp.words.log import log_rows
from webapp.words.rolls import describe_fate_roll

LEGACY = json.loads((Path(__file__).parents[1] / "engine" / "fixtures" / "legacy_v1.json").read_text(encoding="utf-8"))


@pytest.fixture
def app():
    return KostkaApp()


def _source_example(state: AppState) -> None:
    state.system = "fate"
    state.fate.character.skill = "7"
    state.fate.difficulty = "2"


def test_fate_ties_fail_by_default_and_the_switch_makes_them_succeed(app):
    state = app.state
    _source_example(state)
    view = app.view_of("fate")
    assert state.fate.check.ties_succeed is False
    assert state.fate.odds.p_success == fate_rules.odds(fate_rules.FateCheck(7, 2)).p_success
    assert "equal to the skill fails" in view.note.object
    entry = state.roll("fate", seed=21)
    assert entry.roll.dice == (3, 2) and entry.roll.result == 7 and not entry.roll.success
    assert "A tie fails." in app.result_panel.box.roll["status"]
    view.ties_box.value = True
    assert state.fate.ties_succeed is True and state.fate.check.ties_succeed is True
    assert "Table option in force" in view.note.object
    assert state.fate.odds.p_success == fate_rules.odds(fate_rules.FateCheck(7, 2, ties_succeed=True)).p_success
    entry = state.roll("fate", seed=21)
    assert entry.roll.success and "table option" in app.result_panel.box.roll["status"]
    assert "ties succeed" in log_rows(app.tr, state.rolls.log.entries)[0][2]
    # the option travels in the address
    assert state.url_state()["r_ties"] == "1"
    other = AppState()
    other.apply_url(state.url_state())
    assert other.fate.ties_succeed is True


def test_the_source_example_with_two_favour_passes(app):
    state = app.state
    _source_example(state)
    state.fate.character.favour = "2"
    state.fate.favour_spend = "2"
    entry = state.roll("fate", seed=21)
    assert entry.roll.result == 5 and entry.roll.success


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
def test_an_old_link_opens_with_the_reading_it_was_rolled_under(lang):
    tr = Translator()
    tr.lang = lang
    opened = open_link(LEGACY["links"]["fate_seed_21"])
    assert opened.status == "verified" and opened.roll.success and opened.link.check.ties_succeed
    outcome, detail = describe_fate_roll(tr, opened.roll)
    assert outcome == tr("Success")
    assert tr("A tie succeeds (table option: ties succeed).") in detail


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
def test_a_gandalf_success_says_automatic_and_has_no_margin(lang):
    from engine import OneRingCheck, one_ring
    from webapp.words.rolls import describe_one_ring_roll

    tr = Translator()
    tr.lang = lang
    roll = one_ring.roll(OneRingCheck(rating=2, tn=14), 19)
    assert roll.automatic == "gandalf" and roll.total == 7 and roll.margin is None and roll.success
    outcome, detail = describe_one_ring_roll(tr, roll)
    assert "-7" not in detail and "−7" not in detail
    assert detail.startswith(
        tr("Gandalf rune: automatic success, whatever the total; it has no margin (total {total}, TN {tn}).")
        .split("(")[0]
        .strip()
    )
    plain = one_ring.roll(OneRingCheck(rating=2, tn=13, feat_mode="favoured"), 42)
    assert plain.margin == -7 and "-7" in describe_one_ring_roll(tr, plain)[1]


def test_the_form_offers_one_hope_at_most(app):
    state = app.state
    state.system = "one-ring"
    view = app.view_of("one-ring")
    desk = state.one_ring
    desk.character.awareness = "2"
    desk.character.hope = "3"
    desk.bonus_dice = "1"  # a companion's support: a die of its own
    view.hope_box.value = True
    assert desk.hope_spend == "1" and desk.check.bonus_dice == 2
    assert view.hope_box.name == "Spend 1 Hope: +1 success die"
    desk.character.inspired = True
    assert desk.check.bonus_dice == 3 and view.hope_box.name == "Spend 1 Hope: +2 success dice"
    assert "at most one Hope" in view.rules_note.object
    # more than one Hope cannot be asked for, not even through an address
    from webapp.state.one_ring import OneRingDesk

    bare = OneRingDesk()
    bare.hope_spend = "2"
    assert bare.check is None and bare.errors["hope_spend"].code == "range"
    state.apply_url({"sys": "one-ring", "r_hope_spend": "3"})
    assert desk.hope_spend == "1"
    state.roll(seed=5)
    assert desk.character.hope == "2" and desk.hope_spend == "0" and view.hope_box.value is False
    # no Hope left: the switch says so beside it
    desk.character.hope = "0"
    view.hope_box.value = True
    assert desk.check is None and "Hope" in view.hope_error.object


def test_an_attack_rolls_against_strength_tn_plus_parry(app):
    from engine import OneRingCheck, one_ring

    state = app.state
    state.system = "one-ring"
    view = app.view_of("one-ring")
    desk = state.one_ring
    desk.character.strength = "6"  # Strength TN 14
    desk.character.swords = "2"
    desk.ability = "awareness"
    assert view.parry_box.visible is False
    desk.ability = "swords"
    assert view.parry_box.visible is True
    view.parry_field.input.value = "3"
    assert desk.check.tn == 17
    assert desk.odds.p_success == one_ring.odds(OneRingCheck(rating=2, tn=17)).p_success
    assert "TN 17 = 14 + Parry 3" in view.summary.object
    assert "plus the adversary&#x27;s Parry" in view.rules_note.object
    desk.tn_override = "12"
    assert desk.check.tn == 15
    desk.tn_override = ""
    desk.parry = "x"
    assert desk.check is None and "parry" in desk.errors
    desk.parry = "3"
    desk.ability = "awe"  # not an attack: the Parry does not count
    assert desk.check.tn == 14 and "parry" not in desk.errors
    desk.ability = "swords"
    assert state.url_state()["r_parry"] == "3"
    other = AppState()
    other.apply_url(state.url_state())
    assert other.one_ring.check.tn == 17


def test_a_one_tap_protection_roll_with_its_odds(app):
    from engine import documents, one_ring

    state = app.state
    state.system = "one-ring"
    view = app.view_of("one-ring")
    desk = state.one_ring
    assert "Injury" in view.protection_odds.object  # asks for the blow's Injury first
    desk.character.protection = "3"
    desk.character.weary = True
    desk.injury = "14"
    p = one_ring.odds(one_ring.protection_check(3, 14, weary=True)).p_success
    assert f"{float(p):.1%}" in view.protection_odds.object
    assert view.protection_button.description == "Roll Protection against the blow's Injury"
    view.protection_button.clicks += 1
    entry = desk.last
    assert entry is not None and entry.ability == "protection"
    assert entry.check == one_ring.protection_check(3, 14, weary=True)
    assert "Protection" in log_rows(app.tr, state.rolls.log.entries)[0][2]
    # the armour travels with the character, through the documents' door
    doc = documents.read_document(state.characters_json(), kind="characters")
    assert doc.systems["one-ring"]["characters"][0]["protection"] == 3
    desk.character.protection = "9"
    assert "Must be from 0 to 6" in view.protection_odds.object


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
def test_gurps_says_the_roll_is_not_allowed_below_3_where_it_is_asked_for(app, lang):
    state = app.state
    state.system = "gurps"
    view = app.view_of("gurps")
    app.tr.lang = lang
    state.gurps.character.skills = [{"name": "Guns", "level": "5"}]
    assert view.not_allowed.object == "" and view.roll_button.disabled is False
    state.gurps.modifiers = [{"name": "Dark", "value": "-3"}]  # effective 2
    text = view.not_allowed.object
    assert (
        'role="alert"' in text
        and app.tr(
            "The roll is not allowed: effective skill {e} is below 3, and only a defence roll may be made below 3.", e=2
        )
        in text
    )
    assert view.roll_button.disabled is True
    # the message sits right above the Roll button
    panel = next(c for c in view._layout.select(pn.Column) if view.roll_button in c.objects)
    assert panel.objects.index(view.not_allowed) == panel.objects.index(view.roll_button) - 1
    state.gurps.defence = True  # a defence may be rolled at any skill
    assert view.not_allowed.object == "" and view.roll_button.disabled is False


def test_the_shared_link_panel_says_an_old_link_keeps_its_reading(app):
    app.share.open(LEGACY["links"]["fate_seed_21"])
    html = next(p.object for p in app._layout.select(pn.pane.HTML) if 'data-testid="shared-link"' in str(p.object))
    assert 'data-testid="link-reading"' in html and "as it was rolled" in html
    app.share.open(links.encode_roll_link(fate_rules.FateCheck(7, 2), seed=21))
    html = next(p.object for p in app._layout.select(pn.pane.HTML) if 'data-testid="shared-link"' in str(p.object))
    assert 'data-testid="link-reading"' not in html and "A tie fails." in html
