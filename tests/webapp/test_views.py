"""The views without a browser: what a tap shows, in each language, and that text stays text."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Any

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import LayoutDOM, Pane
from drawn_fields import number_fields
from panel.io.state import set_curdoc

from engine import one_ring
from webapp.i18n import percent
from webapp.views.charts import OUTCOME_COLOURS
from webapp.views.common import NumberInput, PaneParts, ScreenPlace, ScreenPlaces, html_pane, wrap_row
from webapp.views.shell import KostkaApp
from webapp.words.dice import d6_pips, feat_die, success_die
from webapp.words.log import log_rows

XSS = '<img src=x onerror="alert(1)">'


@pytest.fixture
def app():
    return KostkaApp()


def test_one_ring_roll_shows_dice_and_outcome(app):
    view = app.view_of("one-ring")
    app.state.one_ring.character.name_text = XSS
    app.state.one_ring.character.awareness = "2"
    view.roll()
    shown = app.result_panel.box  # the roll is shown in the result panel, where the finger is
    html = shown.roll["status"] + shown.roll["dice"]
    assert 'data-testid="result-outcome"' in html
    roll = app.state.one_ring.last.roll
    assert html.count('class="die feat') == 1
    assert html.count('class="die success') == 2
    words = {
        "failure": "Failure",
        "success": "Success",
        "great": "Great success",
        "extraordinary": "Extraordinary success",
    }
    assert words[str(roll.degree)] in html
    assert "<img" not in html and "&lt;img" in html
    assert "<img" not in app.log_table.object


def test_success_icons_buy_special_successes_one_tap_each_even_the_same_twice(app):
    view = app.view_of("one-ring")
    desk = app.state.one_ring
    desk.character.awareness = "6"
    desk.bonus_dice = "6"
    desk.tn_override = "1"  # twelve Success dice against TN 1: a success with icons, nearly always
    for _ in range(50):
        view.roll()
        if desk.last.roll.success and desk.last.roll.icons >= 2:
            break
    roll = desk.last.roll
    assert roll.success and roll.icons >= 2
    # the picker is under the roll in the result panel, where the finger is
    panel = app.result_panel
    labels = {a["key"]: (a["label"], a["disabled"]) for a in panel.box.actions}
    assert labels["make_haste"] == ("Make haste", False) and labels["take-back"] == ("Take back the last choice", True)
    assert f"Spend your success icons ({roll.icons})" in panel.box.note
    panel.press("make_haste")
    panel.press("make_haste")
    assert desk.picked == ["make_haste", "make_haste"] and panel.box.ack == 2  # each tap is answered
    assert f"Icons left: {roll.icons - 2}." in panel.box.note and "Make haste, Make haste" in panel.box.note
    for _ in range(roll.icons - 2):
        panel.press("gain_insight")
    panel.press("go_quietly")  # one more than there are icons: refused, nothing changes, and told why
    assert len(desk.picked) == roll.icons and "go_quietly" not in desk.picked
    assert "Icons left: 0." in panel.box.note and panel.box.note.count(".") > 2
    panel.press("<b>nonsense</b>")  # a tap the panel cannot read changes nothing
    assert len(desk.picked) == roll.icons
    panel.press("take-back")
    assert len(desk.picked) == roll.icons - 1 and "Icons left: 1." in panel.box.note
    app.tr.lang = "ru"
    assert "Осталось символов: 1." in panel.box.note
    assert {a["key"]: a["label"] for a in panel.box.actions}["take-back"] == "Отменить последний выбор"
    view.roll()  # a new roll starts with nothing spent
    assert desk.picked == []
    app.tr.lang = "en"
    app.view_of("gurps").roll()  # another system's roll: nothing to spend under it
    assert panel.box.actions == [] and panel.box.note == "No modifiers."  # (its own words)


def test_bad_input_shows_a_message_next_to_the_field_in_each_language(app):
    view = app.view_of("one-ring")
    app.state.one_ring.ability = "awe"
    app.state.one_ring.character.awe = "9"
    labels = [f"{f['label']} — {f['error']}" for f in number_fields(view.sheet) if f["error"]]
    assert labels == ["Awe — Must be from 0 to 6."]
    assert "Correct the marked fields" in view.odds_readout.object
    app.tr.lang = "ru"
    labels = [f"{f['label']} — {f['error']}" for f in number_fields(view.sheet) if f["error"]]
    assert labels == ["Трепет — Должно быть от 0 до 6."]
    view.roll()
    assert "Должно быть от 0 до 6." in view.roll_error.object


def test_language_switch_relabels_widgets_and_charts(app):
    view = app.view_of("one-ring")
    assert view.roll_button.label == "Roll Awareness"
    app.tr.lang = "cs"
    assert view.roll_button.label == "Hod: Ostražitost"
    assert "Ostražitost" in view.ability.options
    assert list(view.degree_chart.source.data["x"])[0] == "Neúspěch"
    assert "Šance na úspěch" in view.odds_readout.object
    app.tr.lang = "ru"
    assert view.roll_button.label == "Бросок: Внимательность"
    assert view.tn_chart.figure.xaxis[0].axis_label == "Целевое число (ЦЧ)"


def test_odds_chart_follows_the_inputs(app):
    view = app.view_of("one-ring")
    before = list(view.degree_chart.source.data["p"])
    app.state.one_ring.character.awareness = "3"
    after = list(view.degree_chart.source.data["p"])
    assert before != after
    assert abs(sum(after) - 1) < 1e-9
    p = float(app.state.one_ring.odds.p_success)
    assert f"{p:.1%}" in view.odds_readout.object


def test_gurps_secret_roll_hidden_then_revealed(app):
    app.state.system = "gurps"
    view = app.view_of("gurps")
    app.state.gurps.character.skills = [{"name": "Perception", "level": "12"}]
    app.state.gurps.secret = True
    view.roll()
    shown = app.result_panel.box
    assert "hidden until the GM reveals it" in shown.roll["status"]
    assert 'class="die' not in shown.roll["dice"]
    assert "hidden" in app.log_table.object
    assert [a["label"] for a in shown.actions] == ["Reveal"]  # one tap away, under the secret roll
    app.result_panel.press("reveal")
    assert shown.roll["dice"].count('class="die d6') == 3 and shown.actions == []
    assert "hidden" not in app.log_table.object
    assert "Modifiers used" in shown.note or "No modifiers." in shown.note


def test_gurps_contest_result(app):
    view = app.view_of("gurps")
    app.state.gurps.character.skills = [{"name": "Wrestling", "level": "12"}]
    view.roll_contest()  # shown once, in the result panel: who won, by how much, the modifiers used
    shown = app.result_panel.box
    entry = app.state.gurps.last_contest
    assert entry.roll.winner is None or f"Margin of victory: {entry.roll.margin_of_victory}." in shown.roll["status"]
    assert 'data-testid="result-outcome"' in shown.roll["status"] and shown.note == "No modifiers."
    assert view.contest_result.object == ""
    app.state.gurps.contest = "regular"
    for seed in range(200):  # a regular contest decided after the first round says in which
        entry = app.state.roll_contest(seed=seed)
        if len(entry.roll.rounds) > 1:
            break
    assert f"Decided in round {len(entry.roll.rounds)}." in shown.roll["status"]
    app.tr.lang = "ru"
    assert f"Решилось в раунде {len(entry.roll.rounds)}." in shown.roll["status"]


def test_fate_roll_and_chart(app):
    view = app.view_of("fate")
    app.state.fate.character.favour = "3"
    assert list(view.chart.source.data["x"]) == [0, 1, 2, 3]
    app.state.fate.favour_spend = "1"
    view.roll()
    assert app.result_panel.box.roll["dice"].count('class="die d6') == 2
    assert app.state.fate.character.favour == "2" and app.result_panel.box.note == "Favour left: 2"
    assert list(view.chart.source.data["x"]) == [0, 1, 2]
    assert view.chart.marker.visible


def test_log_rows_are_text():
    app = KostkaApp()
    app.state.fate.character.name_text = XSS
    app.state.roll("fate", seed=2)
    rows = log_rows(app.tr, app.state.rolls.log.entries)
    assert rows[0][1] == XSS  # plain text; escaped when drawn
    assert "&lt;img" in app.log_table.object


@pytest.mark.parametrize("face", range(0, 12))
def test_feat_die_draws_eye_and_gandalf(face):
    svg = feat_die(face, label=f"die {face}", kept=True)
    assert svg.startswith("<svg") and 'aria-label="die ' in svg and "kept" in svg
    if face == one_ring.EYE:
        assert "<ellipse" in svg and "<text" not in svg
    elif face == one_ring.GANDALF:
        assert "<path" in svg and "<text" not in svg
    else:
        assert f">{face}</text>" in svg


def test_success_die_marks_the_icon_and_weary_faces():
    assert "icon" in success_die(6, label="six")
    assert "weary-zero" in success_die(2, label="two", weary=True)
    assert "weary-zero" not in success_die(5, label="five", weary=True)


def test_dice_escape_labels_and_refuse_non_numbers():
    svg = d6_pips(3, label=XSS)
    assert "<img" not in svg and len(re.findall("<circle", svg)) == 3
    with pytest.raises(TypeError):
        d6_pips("3", label="x")  # type: ignore[arg-type]


def test_a_wrong_number_is_written_under_its_field_and_the_label_stays(app):
    """A new label would make the browser draw the field again and throw the user out of it."""
    view = app.view_of("gurps")
    view.mod_rows._add(None)
    ((_, value),) = view.mod_rows.rows
    assert (value.label, value.inputmode) == ("Value", "numeric") and re.fullmatch(value.pattern, "-2")
    value.value_input = "-"
    assert (value.label, value.error) == ("Value", "Enter a whole number from -30 to 30.")
    assert value.value_input == "-"
    value.value_input = "-2"
    assert value.error == "" and app.state.gurps.effective == 8
    tries = next(w for w in view._layout.select(NumberInput) if w.label == "Tries")
    assert re.fullmatch(tries.pattern, "3") and not re.fullmatch(tries.pattern, "-3")  # no minus on a count


def test_a_gurps_result_names_its_modifiers_and_one_roll_modifiers_are_cleared(app):
    """Darkness −2 for one Stealth roll must not follow the next skill rolled with one tap."""
    app.state.system = "gurps"
    view = app.view_of("gurps")
    desk = app.state.gurps
    desk.character.skills = [{"name": "Stealth", "level": "12"}, {"name": "Guns", "level": "13"}]
    desk.modifiers = [
        {"name": "Darkness", "value": "-2"},
        {"name": "Wound", "value": "-1", "keep": True},
        {"name": "", "value": "+1"},
    ]
    view.roll_skill(0)
    entry = desk.last
    assert entry.check.modifiers == (-2, -1, 1) and entry.ability == "Stealth"
    note = lambda: app.result_panel.box.note  # noqa: E731  (under the roll in the result panel)
    assert note() == "Modifiers used: Darkness \u22122, Wound \u22121, Modifier 3 +1"
    assert desk.modifiers == [{"name": "Wound", "value": "-1", "keep": True}]  # the standing one stays
    assert [k.value for k in view.mod_rows.keeps] == [True]
    view.roll_skill(1)
    assert desk.last.check.modifiers == (-1,) and note() == "Modifiers used: Wound \u22121"
    view.mod_rows.keeps[0].value = False  # no longer standing: it goes with the next roll
    view.roll_contest()
    assert note() == "Modifiers used: Wound \u22121" and desk.modifiers == []
    view.roll()
    assert note() == "No modifiers."


def test_contest_parts_follow_the_kind_of_contest_and_charts_fit_their_data(app):
    from bokeh.models import Range1d

    app.state.system = "gurps"
    view = app.view_of("gurps")
    desk = app.state.gurps
    desk.character.skills = [{"name": "Brawling", "level": "14"}]
    desk.opponent_level = "10"
    assert desk.contest == "quick" and view.contest_options.objects == []  # the high-skill rule changes nothing here
    chart = view.contest_chart
    assert chart.values() == pytest.approx(
        [float(desk.contest_odds.p_a_wins), float(desk.contest_odds.p_tie), float(desk.contest_odds.p_b_wins)]
    )
    assert isinstance(chart.figure.y_range, Range1d)
    peak = max(chart.values())
    assert peak > 0.7 and chart.figure.y_range.end >= peak + 0.13  # the bar and its label inside the axis
    desk.contest = "regular"
    assert view.contest_options.objects == [view.hsr]
    chart = view.contest_chart
    assert list(chart.source.data["x"]) == ["You win", "Opponent wins"]  # no tie: a regular contest cannot end in one
    assert view.contest_chart_slot.objects[0].object is chart.figure
    assert sum(chart.values()) == pytest.approx(1.0) and chart.figure.y_range.end >= max(chart.values()) + 0.13


def test_the_duel_chart_keeps_its_bars_inside_the_axis_and_clear_of_the_legend():
    from bokeh.models import Range1d

    from webapp.views.fight_charts import LifeLeftChart

    chart = LifeLeftChart()
    chart.update({1: 0.1, 2: 0.6}, {1: 0.3})
    assert isinstance(chart.figure.y_range, Range1d) and chart.figure.y_range.end >= 0.6 * 1.15
    assert chart.legend in chart.figure.above and chart.legend not in chart.figure.center


def test_the_one_ring_play_view_rolls_each_ability_from_its_row_in_each_language(app):
    view = app.view_of("one-ring")
    sheet = app.state.one_ring.character
    sheet.param.update(awareness="2", fav_awareness=True, name_text=XSS)
    view.view.value = "play"
    assert view.play_sheet.visible and not view.sheet.visible
    rows = [r["key"] for column in view.play_sheet.columns for group in column for r in group["rows"]]
    assert len(rows) == len(set(rows)) == 24  # 18 skills, 4 combat proficiencies, Valour and Wisdom
    assert len(view.play_sheet.columns) == 4  # three attributes' skills, then proficiencies, Valour and Wisdom
    row = view.play_sheet.row("awareness")
    assert (row["label"], row["value"], row["description"]) == ("Awareness", "2 ★", "Roll Awareness")
    sheet.awareness = "3"
    assert view.play_sheet.row("awareness")["value"] == "3 ★"  # the row follows the sheet
    view.play_sheet.press("awareness")
    assert app.state.one_ring.ability == "awareness" and app.state.one_ring.last.check.rating == 3
    assert view.play_sheet.ack == 1  # the tap answered: the sheet takes taps again
    app.tr.lang = "ru"
    row = view.play_sheet.row("awareness")
    assert (row["label"], row["value"], row["description"]) == ("Внимательность", "3 ★", "Бросок: Внимательность")
    assert "Сила · ЦЧ 15" in view.play_sheet.titles
    assert XSS not in str(view.play_sheet.columns)  # the hero's name is not on the rows
    view.view.value = "edit"
    assert view.sheet.visible and not view.play_sheet.visible


def test_a_filled_in_character_opens_in_play_and_a_new_one_in_edit(app):
    view = app.view_of("one-ring")
    roster = app.state.rosters["one-ring"]
    assert view.view.value == "edit" and view.sheet.visible  # a new hero: the form to fill in
    roster.load({"current": 0, "characters": [{"name": "Hanar", "awareness": "2"}, {"name": "Bofur"}]})
    assert view.view.value == "play" and view.play_sheet.visible and not view.sheet.visible
    view.view.value = "edit"
    app.state.one_ring.character.awareness = "3"
    assert view.view.value == "edit"  # the player's choice stands while the hero is changed
    roster.select(1)
    assert view.view.value == "play"  # another hero put on the sheet: its rows
    roster.add()
    assert view.view.value == "edit" and view.sheet.visible  # a new one: the form
    gurps = app.view_of("gurps")
    assert gurps.view.value == "edit"
    app.state.rosters["gurps"].load({"current": 0, "characters": [{"name": "Mara", "will": "12"}]})
    assert (
        gurps.view.value == "play" and gurps.play_sheet.visible and gurps.play_rows_sheet.row("will")["value"] == "12"
    )


def test_the_gurps_play_view_rolls_will_per_the_defences_and_each_skill_from_its_row(app):
    view = app.view_of("gurps")
    sheet = app.state.gurps.character
    sheet.param.update(
        will="12",
        dodge="8",
        skills=[{"name": "Broadsword", "level": "14"}, {"name": "", "level": "11"}, {"name": XSS, "level": "9"}],
    )
    assert view.view.value == "edit" and view.play_rows == []  # nothing drawn for a view not shown
    view.view.value = "play"
    assert view.play_sheet.visible and not view.sheet.visible
    rows = view.play_rows_sheet
    fixed = rows.columns[0][0]["rows"]
    assert [(r["label"], r["value"]) for r in fixed] == [
        ("Will", "12"),
        ("Per", "10"),
        ("Dodge", "8"),
        ("Parry", "8"),
        ("Block", "8"),
    ]
    assert [(r["label"], r["value"], r["description"]) for r in view.play_rows] == [
        ("Broadsword", "14", "Roll Broadsword"),  # the unnamed row has no row here
        (XSS, "9", f"Roll {XSS}"),  # text for the button's own textContent, never markup
    ]
    assert rows.titles == ["", "Skills"] and rows.row_width > 0  # side by side
    rows.press("skill:2")
    assert app.state.gurps.skill_index == 2 and app.state.gurps.last.roll.check.skill == 9
    rows.press("skill:0")  # as the ⚄ beside Broadsword on the sheet
    desk = app.state.gurps
    assert (desk.target, desk.skill_index, desk.last.roll.check.skill, desk.last.ability) == (
        "skill",
        0,
        14,
        "Broadsword",
    )
    rows.press("dodge")
    assert desk.target == "dodge" and desk.last.roll.check.defence and desk.last.roll.check.skill == 8
    count = len(app.state.rolls.log.entries)
    rows.press("skill:1")  # the unnamed skill has no row: a tap sent for it rolls nothing
    assert len(app.state.rolls.log.entries) == count and rows.ack == int(rows.tap.partition(":")[0])
    sheet.skills = [{"name": "Broadsword", "level": "15"}, *sheet.skills[1:]]
    assert (rows.row("skill:0")["label"], rows.row("skill:0")["value"]) == ("Broadsword", "15")  # follows the sheet
    app.tr.lang = "ru"
    assert rows.row("skill:0")["description"] == "Бросок: Broadsword"
    assert (rows.row("will")["label"], rows.row("will")["description"]) == ("Воля", "Бросок: Воля")
    assert rows.row("dodge")["label"] == "Уклонение" and rows.titles == ["", "Навыки"]
    view.view.value = "edit"
    assert view.sheet.visible and not view.play_sheet.visible


def test_the_gurps_play_view_draws_twenty_skill_rows_at_a_time(app):
    view = app.view_of("gurps")
    app.state.gurps.character.skills = [{"name": f"Skill no. {i + 1}", "level": str(10 + i % 5)} for i in range(50)]
    view.view.value = "play"
    assert len(view.play_rows) == 20 and (view.play_rows[0]["label"], view.play_rows[0]["value"]) == (
        "Skill no. 1",
        "10",
    )
    assert "Rows 1–20 of 50" in view.play_where.object and view.play_previous.disabled
    view.play_next.clicks += 1
    view.play_next.clicks += 1
    assert len(view.play_rows) == 10 and view.play_rows[0]["label"] == "Skill no. 41"
    assert "Rows 41–50 of 50" in view.play_where.object and view.play_next.disabled
    view.play_rows_sheet.press(view.play_rows[-1]["key"])
    assert app.state.gurps.skill_index == 49 and app.state.gurps.last.ability == "Skill no. 50"


def test_a_fate_roll_is_named_by_its_skill_in_the_result_in_each_language(app):
    from webapp.words.result import ability_text

    view = app.view_of("fate")
    app.state.fate.character.name_text = "Vlasta"
    view.roll()
    entry = app.state.rolls.log.entries[-1]
    assert ability_text(app.tr, entry) == "Skill"
    app.tr.lang = "cs"
    assert ability_text(app.tr, entry) == "Dovednost"


def test_the_result_panel_charts_the_check_being_set_up_as_its_inputs_change(app):
    box = app.result_panel.box
    desk = app.state.one_ring
    desk.character.param.update(wits="4", awareness="2")  # 2 success dice against TN 16
    assert 'data-testid="next-odds"' in box.odds and "Next roll: Awareness" in box.odds
    assert f"{percent(desk.odds.p_success)} chance of success" in box.odds
    # the bar's parts are the degrees' exact chances, from worst to best, and add up to the whole
    widths = [float(w) for w in re.findall(r'style="width:([\d.]+)%;', box.odds)]
    degrees = [p for p in desk.odds.degrees.values() if p > 0]
    assert widths == pytest.approx([float(p) * 100 for p in degrees], abs=1e-3) and sum(widths) == pytest.approx(100)
    before = box.odds
    desk.character.awareness = "3"  # a change on the sheet: the chart follows at once
    assert box.odds != before and f"{percent(desk.odds.p_success)} chance" in box.odds
    desk.character.awareness = "x"
    assert box.odds == ""  # no check while a field is wrong: no chart, and nothing old left
    desk.character.awareness = "3"
    app.tr.lang = "cs"
    assert "Ostražitost" in box.odds
    app.tr.lang = "en"
    app.state.system = "gurps"
    gurps = app.state.gurps
    gurps.character.skills = [{"name": XSS, "level": "12"}]
    assert XSS not in box.odds and escape(XSS) in box.odds  # a sheet's text is shown, never run
    assert "Critical failure" in box.odds and f"{percent(gurps.odds.p_success)} chance" in box.odds
    assert f"background:{OUTCOME_COLOURS['critical_success']}" in box.odds  # the colours of the GURPS chart
    app.state.system = "fate"
    assert "Next roll: Skill" in box.odds
    app.view_of("fate").switch.value = "fight"
    assert box.odds == ""  # the fight screen sets up no check of its own
    app.view_of("fate").switch.value = "check"
    assert "Next roll: Skill" in box.odds


def test_only_the_sheet_shown_is_in_the_page(app):
    """Play and Edit are not both drawn: the one not shown is left out of the layout (a switch to the
    screen draws half as much), and comes back, with what was typed, when asked for."""

    def drawn(view: Any) -> list[Any]:
        return [o for o in view.__panel__().select() if o is view.play_sheet or o is view.sheet]

    for system in ("one-ring", "gurps"):
        view = app.view_of(system)
        view.view.value = "edit"
        assert drawn(view) == [view.sheet], system
        view.view.value = "play"
        assert drawn(view) == [view.play_sheet], system
    view = app.view_of("one-ring")
    view.view.value = "edit"
    app.state.one_ring.character.awareness = "3"
    view.view.value = "play"
    assert view.play_sheet.row("awareness")["value"] == "3"
    view.view.value = "edit"
    assert [f["value"] for f in number_fields(view.sheet) if f["label"] == "Awareness"] == ["3"]


def test_each_screens_charts_fold_away_until_asked_for_and_stay_up_to_date(app):
    from bokeh.models import Plot

    def figures(view: Any) -> list[Any]:
        return [p.object for p in view.__panel__().select(pn.pane.Bokeh) if isinstance(p.object, Plot)]

    view = app.view_of("one-ring")
    assert figures(view) == [] and view.charts.toggle.name == "Show the charts"
    before = list(view.degree_chart.source.data["p"])
    app.state.one_ring.character.awareness = "4"
    assert list(view.degree_chart.source.data["p"]) != before  # kept up to date while folded
    view.charts.toggle.clicks += 1
    assert figures(view) == [view.degree_chart.figure, view.tn_chart.figure]
    assert view.charts.toggle.name == "Hide the charts"
    app.tr.lang = "cs"
    assert view.charts.toggle.name == "Skrýt grafy"
    view.charts.toggle.clicks += 1
    assert figures(view) == [] and view.charts.toggle.name == "Ukázat grafy"
    for system in ("gurps", "fate"):
        screen = app.view_of(system)
        assert screen.chart.figure not in figures(screen), system  # (GURPS's contest has its own chart)
        screen.charts.opened = True
        assert screen.chart.figure in figures(screen), system


def test_each_screens_big_roll_button_names_what_it_rolls_in_each_language(app):
    one_ring_view, gurps_view, fate = (app.view_of(s) for s in ("one-ring", "gurps", "fate"))
    big = one_ring_view.roll_button
    assert (big.label, big.description) == ("Roll Awareness", "Roll Awareness with the chosen options")
    one_ring_view.desk.ability = "axes"
    assert big.label == "Roll Axes"
    app.tr.lang = "ru"
    assert (big.label, big.description) == ("Бросок: Топоры", "Бросок: Топоры с выбранными настройками")
    app.tr.lang = "en"

    app.state.gurps.character.skills = [{"name": XSS, "level": "14"}, {"name": "", "level": "11"}]
    button = gurps_view.roll_button
    assert button.label == f"Roll {XSS}"  # the name as written; the button sets it as text
    gurps_view.skill.value = 1
    assert button.label == "Roll Skill 2"  # a skill without a name is named by its row
    gurps_view.skill.value = "dodge"
    assert button.label == "Roll Dodge"
    app.tr.lang = "cs"
    assert button.label == "Hod: Úhyb"
    assert fate.roll_button.label == "Hod: Dovednost"


def started_app(doc: Document) -> KostkaApp:
    """An app drawn in ``doc`` whose start-up is over (the page drawn, the stored data read): what
    is shown from then on stays in the page. Call inside ``set_curdoc(doc)``."""
    app = KostkaApp()
    doc.add_root(app.__panel__().get_root(doc))
    app.page_ready()
    app.store.param.update(values={}, loaded=True)
    return app


def test_a_screen_shown_before_stays_in_the_page_and_coming_back_to_it_draws_nothing():
    """A switch back to a system only shows what was drawn and hid: no model is made again, and the
    screen left is hidden, not taken out of the page."""
    doc = Document()
    with set_curdoc(doc):
        app = started_app(doc)
        for system in ("gurps", "fate", "one-ring"):
            app.state.system = system
    drawn = {model.id for model in doc.models}

    def shown(view: Any) -> bool:
        """Whether ``view``'s layout and every layout above it are visible in the page."""
        models = [m for m in doc.models if isinstance(m, LayoutDOM | Pane)]
        children = (
            (m, c)
            for m in models
            for c in getattr(m, "children", None) or getattr(m, "elements", None) or []
            if isinstance(c, LayoutDOM | Pane)
        )
        parents = {child.id: m for m, child in children}
        model = view.__panel__()._models[doc.roots[0].ref["id"]][0]
        while model is not None:
            if not model.visible:
                return False
            model = parents.get(model.id)
        return True

    for system in ("one-ring", "gurps", "fate", "gurps", "one-ring"):
        with set_curdoc(doc):
            app.state.system = system
        assert {model.id for model in doc.models} == drawn, system  # nothing made, nothing dropped
        for other in ("one-ring", "gurps", "fate"):
            assert shown(app.view_of(other)) == (other == system), (system, other)


def test_a_screen_the_player_has_not_seen_is_replaced_not_kept():
    """Panel's server applies the address before drawing the page, and the site's loading screen
    covers it until the stored data is read: a system chosen by then replaces the first screen."""
    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        app.state.system = "gurps"  # as webapp.app.main applies ?sys=gurps
        doc.add_root(app.__panel__().get_root(doc))
        app.page_ready()
        app.state.system = "fate"  # as the site applies ?sys=fate once the page is drawn
    assert len(app.screen.objects) == 1
    assert app.view_of("fate").__panel__() in app.screen.objects[0].parts
    with set_curdoc(doc):
        app.store.param.update(values={}, loaded=True)
        app.state.system = "one-ring"  # the player's own switch, once started: Fate & Doom stays
    assert len(app.screen.objects) == 2


def test_the_fight_opened_at_once_shows_the_screen_drawn_ahead_while_another_system_was_shown():
    """Fate & Doom shown and *Fight* tapped at once, before any still moment there: the fight drawn
    hidden in still moments on another system's screen is only shown, nothing is made."""
    doc = Document()
    with set_curdoc(doc):
        app = started_app(doc)
        app.still.delay = 0
        moment = 0
        while app.still.more and moment < 20:
            moment += 1
            app.still.still = moment
        fate = app.view_of("fate")
        made = fate.fight_place
        assert made is not None and not made.visible and not app.still.more
        drawn = {model.id for model in doc.models}
        app.state.system = "fate"
        fate.switch.value = "fight"
        assert fate.fight_place is made and made.visible and not fate.check_place.visible
    assert {model.id for model in doc.models} == drawn  # nothing made, nothing dropped


def test_a_still_page_makes_the_other_screens_one_step_at_a_time_and_draws_them_hidden():
    """Each still moment (``StillPage``: the player's hands still for a moment) makes one thing:
    Fate & Doom's hidden fight screen while its check is shown, else for the next system in the
    switch, the Python objects of its screen, then the screen drawn in the page, hidden; then the
    fight screen's objects, then the fight drawn in Fate & Doom's hidden screen, hidden too. A first
    switch then only shows a screen, in the language chosen since. Before start-up is over nothing
    is made; once all is made the page stops asking."""
    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        doc.add_root(app.__panel__().get_root(doc))
        app.page_ready()
        app.still.delay = 0  # still moments at once (a document changed less than the delay ago is busy)
        app.still.still = 1  # the storage has not answered: nothing is made yet, and more is to come
        assert set(app._views) == {"one-ring"} and app.still.more and app.still.answered == 1
        app.store.param.update(values={}, loaded=True)
        models = len(doc.models)
        app.still.still = 2
        assert set(app._views) == {"one-ring", "gurps"} and app.still.answered == 2
        assert list(app._screens) == ["one-ring"] and len(doc.models) == models  # nothing drawn
        app.still.still = 3  # then GURPS's screen in the page, hidden
        assert list(app._screens) == ["one-ring", "gurps"] and len(doc.models) > models
        assert not app._screens["gurps"].visible and app._screens["one-ring"].visible
        app.still.still = 4
        fate = app.view_of("fate")
        assert set(app._views) == {"one-ring", "gurps", "fate"} and fate._fight is None
        app.still.still = 5
        assert list(app._screens) == ["one-ring", "gurps", "fate"] and not app._screens["fate"].visible
        app.still.still = 6  # the fight's objects
        assert fate._fight is not None and fate.fight_place is None and app.still.more
        app.still.still = 7  # then the fight in Fate & Doom's hidden screen, hidden itself
        assert fate.fight_place is not None and not fate.fight_place.visible and fate.check_place.visible
        app.still.still = 8
        assert not app.still.more  # all made: the page stops asking
        drawn = {model.id for model in doc.models}
        app.lang.value = "cs"  # another language: the screens drawn hidden speak it too
        app.state.system = "gurps"  # a first switch only shows the screen
        assert app._screens["gurps"].visible and not app._screens["one-ring"].visible
    assert app.view_of("gurps").__panel__() in app.screen.objects[1].parts
    assert drawn <= {model.id for model in doc.models}  # the very models drawn ahead
    texts = [str(getattr(m, "text", "")) for m in doc.models]
    assert any("Efektivní dovednost" in t for t in texts) and not any("Effective skill" in t for t in texts)


def test_each_screen_is_laid_out_on_its_own_in_the_page():
    """Every system's screen, and Fate & Doom's skill check and fight, hangs in the page under a
    Bokeh ``Pane`` (its place), which is no layout: the browser works each screen's layout out
    alone, not with the header, the menu and the screens hidden beside it. The place carries the
    screen's visibility and no sizes of its own."""
    doc = Document()
    with set_curdoc(doc):
        app = started_app(doc)
        for system in ("gurps", "fate", "one-ring"):
            app.state.system = system
        fate = app.view_of("fate")
        fate.switch.value = "fight"
    root = doc.roots[0].ref["id"]
    places = [app._screens[s] for s in ("one-ring", "gurps", "fate")] + [fate.check_place, fate.fight_place]
    for place in places:
        assert isinstance(place, ScreenPlace)
        pane = place._models[root][0]
        (column,) = pane.elements
        assert type(pane) is Pane and isinstance(column, LayoutDOM) and not isinstance(pane, LayoutDOM)
        assert column is place.objects[0]._models[root][0]  # the screen's own column, a layout root
    shown = [place._models[root][0].visible for place in places]
    assert shown == [True, False, False, False, True]  # The One Ring shown; the fight open, hidden with its system


def test_a_screen_place_takes_new_parts_in_the_page_and_forgets_the_old_ones():
    """A place whose objects are replaced in a drawn page sends its new column as its one element
    and drops the old column's models, as a layout does."""
    doc = Document()
    with set_curdoc(doc):
        place = ScreenPlace(pn.pane.Markdown("one"))
        page = ScreenPlaces(pn.pane.Markdown("header"), place, sizing_mode="stretch_width")
        doc.add_root(page.get_root(doc))
        root = doc.roots[0].ref["id"]
        old = place.objects[0]
        new = pn.Column(pn.pane.Markdown("two"), sizing_mode="stretch_width")
        place.objects = [new]
        place.visible = False
    pane = place._models[root][0]
    assert pane.elements == [new._models[root][0]] and not pane.visible
    model = new._models[root][0]
    assert root not in old._models and doc.get_model_by_id(model.id) is model
    assert doc.roots[0].sizing_mode == "stretch_width"  # the page's own sizes, from its other parts


def test_each_component_is_drawn_from_its_module_as_it_is_imported_once_per_class():
    """Every component of the app's own in the page names a bundle, one per class: the page runs its
    module as it is, imported once, instead of transforming it for each component drawn."""
    doc = Document()
    with set_curdoc(doc):
        app = started_app(doc)
        for system in ("gurps", "fate"):
            app.state.system = system
        app.view_of("fate").switch.value = "fight"
    components = [m for m in doc.models if hasattr(m, "esm")]
    names: dict[str, set[str]] = {}
    for model in components:
        names.setdefault(model.class_name, set()).add(model.bundle)
    assert {"NumberInput", "RollButton", "EditSheet", "EncounterBoard", "StillPage", "BrowserStore"} <= set(names)
    assert all(len(bundles) == 1 and None not in bundles for bundles in names.values()), names
    assert len({bundle for bundles in names.values() for bundle in bundles}) == len(names)


def test_a_component_is_drawn_without_looking_for_files(monkeypatch):
    """No file-system lookup for a bundle file each time a component is drawn (slow in the
    browser's worker): the component's module is its text."""
    looked: list[str] = []
    for name in ("is_file", "exists", "stat"):
        real = getattr(Path, name)
        monkeypatch.setattr(
            Path, name, lambda self, *a, _real=real, **k: looked.append(str(self)) or _real(self, *a, **k)
        )
    doc = Document()
    with set_curdoc(doc):
        field = NumberInput(value="3")
        model = field.get_root(doc)
    assert looked == [] and model.bundle and "export function render" in model.esm


def test_a_wrapping_row_asks_the_layouts_around_it_for_no_width():
    """Its objects wrap onto further lines: the page around it is not widened to hold them side by
    side (four 300 px fields would make a tablet's page 1,200 px wide)."""
    doc = Document()
    with set_curdoc(doc):
        row = wrap_row(*(pn.widgets.TextInput(width=300) for _ in range(4)), sizing_mode="stretch_width")
        page = pn.Column(pn.widgets.TextInput(width=200), row, sizing_mode="stretch_width")
        model = page.get_root(doc)
    assert not row._models[model.ref["id"]][0].min_width
    assert model.min_width is not None and model.min_width < 300  # the widest other part's


def test_pane_parts_show_each_readout_in_order_in_one_pane():
    parts = PaneParts(html_pane(""), 3)
    first, second, third = parts.parts
    third.object = "<p>c</p>"
    first.object = "<p>a</p>"
    assert parts.pane.object == "<p>a</p><p>c</p>"
    second.object = "<p>b</p>"
    first.object = ""
    assert parts.pane.object == "<p>b</p><p>c</p>" and second.object == "<p>b</p>"
