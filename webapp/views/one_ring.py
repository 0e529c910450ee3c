"""The One Ring screen: hero sheet, one-tap rolls, dice, icon picker, odds charts."""

from __future__ import annotations

from html import escape
from typing import Any

import panel as pn
import param

from engine import InputError, one_ring

from ..i18n import N_, error_text
from ..state.app import AppState
from ..state.one_ring import (
    OR_DEGREE_LABELS,
    OR_LABELS,
    OR_PROFICIENCIES,
    OR_SKILLS,
    OR_SPECIAL_LABELS,
    OneRingDesk,
)
from .charts import BAD, EXTRA, GOOD, GREAT, BarChart, ProbabilityByValueChart
from .common import (
    Binder,
    ChartFold,
    TextField,
    alert_html,
    attempt,
    checkbox,
    html_pane,
    name_field,
    percent,
    secret_checkbox,
    select,
    view_switch,
)
from .edit import EditSheet, field_row
from .play import PlaySheet
from .result import RollActions, big_roll_button, name_big_roll, roll_button, roll_name

__all__ = ["OneRingView"]

FEAT_MODE_LABELS = {
    "auto": N_("As on the sheet"),
    "normal": N_("Normal"),
    "favoured": N_("Favoured"),
    "ill_favoured": N_("Ill-favoured"),
}
DEGREES = ["failure", "success", "great", "extraordinary"]

#: The rolled abilities as both views lay them out, a list of groups per column: each attribute's
#: skills, then the combat proficiencies with Valour and Wisdom under them (four columns).
ABILITY_COLUMNS: list[list[tuple[str, list[str]]]] = [
    *[[(attr, [s for s in OR_SKILLS if one_ring.SKILLS[s] == attr])] for attr in one_ring.ATTRIBUTES],
    [("proficiencies", list(OR_PROFICIENCIES)), ("valour-wisdom", ["valour", "wisdom"])],
]
#: Every ability a row of either view rolls.
ROLLED = frozenset(a for column in ABILITY_COLUMNS for _, abilities in column for a in abilities)


class OneRingView(pn.viewable.Viewer):
    """The One Ring's screen: the sheet (Play and Edit), the roll's options and odds, and what a roll's
    success icons buy, offered under the roll in the result panel (:meth:`roll_actions`)."""

    roll_words = param.Event(doc="What roll_actions says has changed")

    def _trackers(self) -> pn.viewable.Viewable:
        """Endurance, Shadow (points and scars), Load and Fatigue; Weary follows Endurance ≤ Load + Fatigue when switched on."""
        binder, tr, char = self.binder, self.tr, self.char
        title = html_pane("")
        binder.on_lang(
            lambda: setattr(
                title, "object", f'<div class="card-title">{escape(tr(N_("Endurance, Shadow, Load")))}</div>'
            )
        )
        field = lambda key, width=90: TextField(binder, char, key, OR_LABELS[key], width=width, stepper=True)  # noqa: E731
        auto = checkbox(value=char.weary_auto)
        binder.text(auto, "name", N_("Weary when Endurance is at or below Load + Fatigue"))
        auto.link(char, value="weary_auto", bidirectional=True)
        self.weary_state = html_pane("")
        char.param.watch(lambda *_: self._show_weary(), ["endurance", "gear_load", "fatigue", "weary", "weary_auto"])
        binder.on_lang(self._show_weary)
        return pn.Column(
            title,
            pn.Row(field("endurance"), TextField(binder, char, "endurance_max", OR_LABELS["endurance_max"], width=128)),
            pn.Row(field("gear_load"), field("fatigue")),
            pn.Row(field("shadow"), field("shadow_scars")),
            auto,
            self.weary_state,
            width=290,
            margin=(5, 10),
        )

    def _show_weary(self, *_: Any) -> None:
        rule = self.char.weary_by_endurance()
        if self.char.weary:
            text = self.tr(N_("Weary: success dice showing 1–3 count 0."))
            if self.char.weary_auto and rule:
                text += " " + self.tr(N_("(Endurance is at or below Load + Fatigue.)"))
            self.weary_state.object = f'<div class="note warn" data-testid="weary-state">{escape(text)}</div>'
        else:
            self.weary_state.object = ""

    def __init__(self, app: AppState, binder: Binder) -> None:
        super().__init__()
        self.app = app
        self.desk: OneRingDesk = app.one_ring
        self.char = self.desk.character
        self.binder = binder
        tr = binder.tr
        self.tr = tr

        # -- the sheet --------------------------------------------------------------
        name = name_field(binder, self.char)

        # the ratings (attributes, skills with ★ and ⚄, proficiencies, Valour and Wisdom): one form
        self._edit_sheet()
        hope_title = html_pane("")
        binder.on_lang(lambda: setattr(hope_title, "object", f'<div class="card-title">{escape(tr(N_("Hope")))}</div>'))
        flags = []
        for flag, msg in (("weary", N_("Weary")), ("miserable", N_("Miserable")), ("inspired", N_("Inspired"))):
            box = checkbox(value=getattr(self.char, flag))
            binder.text(box, "name", msg)
            box.link(self.char, value=flag, bidirectional=True)
            flags.append(box)
        state = pn.Column(
            hope_title,
            pn.Row(
                TextField(binder, self.char, "hope", N_("Hope"), stepper=True),
                TextField(binder, self.char, "hope_max", N_("Hope (max)"), width=90),
            ),
            *flags,
            width=250,
            margin=(5, 10),
        )
        # armour: Protection on the sheet, the blow's Injury typed in, a one-tap Protection roll with its odds
        armour_title = html_pane("")
        binder.on_lang(
            lambda: setattr(armour_title, "object", f'<div class="card-title">{escape(tr(N_("Armour")))}</div>')
        )
        self.protection_button = roll_button()
        binder.on_lang(
            lambda: setattr(self.protection_button, "description", tr(N_("Roll Protection against the blow's Injury")))
        )
        self.protection_button.on_click(lambda _: self.roll_protection())
        self.protection_odds = html_pane("")
        armour = pn.Column(
            armour_title,
            pn.Row(
                TextField(binder, self.char, "protection", N_("Protection"), stepper=True),
                TextField(
                    binder, self.desk, "injury", N_("Injury of the blow"), stepper=True, bounds=one_ring.INJURY_RANGE
                ),
                self.protection_button,
                margin=0,
            ),
            self.protection_odds,
            width=340,
            margin=(5, 10),
        )
        self.char.param.watch(self._show_protection_odds, ["protection", "weary", "miserable"])
        self.desk.param.watch(self._show_protection_odds, ["injury"])
        binder.on_lang(self._show_protection_odds)
        self.sheet = pn.FlexBox(self.edit_sheet, state, armour, self._trackers(), flex_wrap="wrap")
        self.play_sheet = self._play_sheet()
        binder.on_lang(self._show_play)
        # Play: the abilities as one-tap rows; Edit: the whole sheet (where a new hero is filled in).
        self.name_field = name
        self.view = view_switch(binder, app.rosters["one-ring"])
        #: The sheet shown: Play's rows, or Edit's name and form. The other is left out of the page
        #: until asked for, so a switch to this screen draws one of the two.
        self.sheet_slot = pn.Column(margin=0, sizing_mode="stretch_width")
        self.view.param.watch(self._show_view, "value")
        self._show_view()

        # -- the next roll ---------------------------------------------------------------
        self.ability = select(value=self.desk.ability, width=220)
        binder.text(self.ability, "name", N_("Ability"))
        binder.options(
            self.ability, {a: OR_LABELS[a] for a in OR_SKILLS + OR_PROFICIENCIES + ("valour", "wisdom", "protection")}
        )
        self.ability.link(self.desk, value="ability", bidirectional=True)
        self.feat_mode = select(value=self.desk.feat_mode, width=200)
        binder.text(self.feat_mode, "name", N_("Feat dice"))
        binder.options(self.feat_mode, FEAT_MODE_LABELS)
        self.feat_mode.link(self.desk, value="feat_mode", bidirectional=True)
        bonus = TextField(binder, self.desk, "bonus_dice", N_("Bonus dice (support)"), width=200, stepper=True)
        # at most one Hope a roll: a switch, not a number
        self.hope_box = hope_box = checkbox(value=self.desk.hope_spend == "1", width=230, css_classes=["spend-hope"])
        self.hope_error = html_pane("")
        binder.on_lang(self._hope_label)
        self.char.param.watch(lambda *_: self._hope_label(), "inspired")
        hope_box.param.watch(lambda e: setattr(self.desk, "hope_spend", "1" if e.new else "0"), "value")
        self.desk.param.watch(lambda e: setattr(hope_box, "value", e.new.strip() not in ("", "0")), "hope_spend")
        self.desk.param.watch(lambda *_: self._hope_label(), "errors")
        hope = pn.Column(hope_box, self.hope_error, margin=0)
        tn = TextField(binder, self.desk, "tn_override", N_("TN (by hand)"), width=110, placeholder=N_("auto"))
        self.parry_field = TextField(
            binder, self.desk, "parry", N_("Adversary's Parry"), width=150, stepper=True, bounds=one_ring.PARRY_RANGE
        )
        self.parry_box = pn.Column(self.parry_field, margin=0, visible=self.desk.is_attack)
        self.desk.param.watch(lambda *_: setattr(self.parry_box, "visible", self.desk.is_attack), "ability")
        self.roll_button = big_roll_button()
        name_roll = lambda *_: name_big_roll(self.roll_button, tr, tr(OR_LABELS[self.desk.ability]))  # noqa: E731
        binder.on_lang(name_roll)
        self.desk.param.watch(name_roll, "ability")
        self.roll_button.on_click(lambda e: self.roll())
        self.summary = html_pane("", css_classes=["readout"])
        self.roll_error = html_pane("")
        self.rules_note = html_pane("")
        binder.on_lang(
            lambda: setattr(
                self.rules_note,
                "object",
                f'<details class="rules"><summary>{escape(tr(N_("Rules readings")))}</summary><div class="note">'
                + escape(
                    tr(
                        N_(
                            "Readings used: combat proficiencies roll against the Strength TN, Valour against Heart and Wisdom "
                            "against Wits. A hero spends at most one Hope on a roll, for one bonus success die (two when Inspired); "
                            "a companion's support is a bonus die of its own. The TN can always be typed in by hand."
                        )
                    )
                )
                + " "
                + escape(
                    tr(
                        N_(
                            "Attack rolls (a combat proficiency): the TN is the Strength TN plus the adversary's Parry. Protection rolls: "
                            "as many success dice as the armour's Protection, against the blow's Injury as the TN; Weary applies as "
                            "to any roll."
                        )
                    )
                )
                + "</div></details>",
            )
        )
        roll_panel = pn.Column(
            pn.FlexBox(self.ability, self.parry_box, self.feat_mode, bonus, hope, tn, flex_wrap="wrap"),
            pn.Row(self.roll_button, secret_checkbox(binder, self.desk), self.summary),
            self.roll_error,
            self.rules_note,
            sizing_mode="stretch_width",
        )

        # -- odds ---------------------------------------------------------------------------
        self.odds_readout = html_pane("", css_classes=["readout"])
        self.degree_chart = BarChart(DEGREES, [BAD, GOOD, GREAT, EXTRA])
        self.tn_chart = ProbabilityByValueChart(list(range(5, 31)))
        binder.on_lang(self._chart_labels)
        # folded away until asked for: the result panel charts the next roll, and a switch to this screen draws less
        self.charts = charts = ChartFold(
            binder,
            pn.FlexBox(
                pn.pane.Bokeh(self.degree_chart.figure, min_width=300, sizing_mode="stretch_width", height=230),
                pn.pane.Bokeh(self.tn_chart.figure, min_width=300, sizing_mode="stretch_width", height=230),
                flex_wrap="wrap",
                sizing_mode="stretch_width",
            ),
        )

        # -- result: in the result panel, with the picker of special successes for its success icons
        # (roll_actions, offered to the panel by the shell; roll_words counts their changes)
        self._special_problem = ""
        self.desk.param.watch(lambda *_: self.param.trigger("roll_words"), ["last", "picked"])

        self.desk.param.watch(self._show_odds, ["check", "odds", "tn_odds", "errors"])
        self.desk.param.watch(self._show_result, ["last"])
        binder.on_lang(self._show_odds)
        binder.on_lang(self._show_result)

        self._layout = pn.Column(
            self.view,
            self.sheet_slot,
            pn.layout.Divider(),
            roll_panel,
            self.odds_readout,
            charts,
            sizing_mode="stretch_width",
        )

    #: The parts a first screen needs at once: the view switch and the sheet.
    FIRST_PARTS = 2

    @property
    def first_screen(self) -> tuple[tuple[pn.Column, int], ...]:
        """What a first screen shows at once (:func:`~webapp.views.common.hold_back`): the sheet;
        the roll's options, its chance and the charts can follow."""
        return ((self._layout, self.FIRST_PARTS),)

    def _hope_label(self) -> None:
        tr = self.tr
        self.hope_box.name = (
            tr(N_("Spend 1 Hope: +2 success dice")) if self.char.inspired else tr(N_("Spend 1 Hope: +1 success die"))
        )
        error = self.desk.errors.get("hope_spend")
        self.hope_error.object = alert_html(error_text(tr, error)) if error is not None else ""

    # -- play view ----------------------------------------------------------------------------
    def _play_sheet(self) -> PlaySheet:
        """Each ability one compact row, its name and rating on a button that rolls it: the 18 skills,
        the proficiencies, Valour and Wisdom on one screen beside the result."""
        sheet = PlaySheet(column_width=166, visible=False, sizing_mode="stretch_width")
        sheet.on_tap(self._roll_ability)
        watched = [*ROLLED, *[f"fav_{s}" for s in OR_SKILLS], *one_ring.ATTRIBUTES]
        self.char.param.watch(self._show_play, watched)
        return sheet

    def _show_play(self, *_: Any) -> None:
        tr = self.tr

        def row(ability: str) -> dict[str, str]:
            rating = str(getattr(self.char, ability) or "0").strip() or "0"
            star = " ★" if getattr(self.char, f"fav_{ability}", False) else ""
            label = tr(OR_LABELS[ability])
            return {"key": ability, "label": label, "value": f"{rating}{star}", "description": roll_name(tr, label)}

        def title(key: str) -> str:
            if key in one_ring.ATTRIBUTES:
                return f"{self._group_title(key)} · {tr(N_('TN {tn}'), tn=self.char.tn_of(key))}"
            return self._group_title(key)

        columns = [
            [{"title": title(key), "rows": [row(a) for a in abilities]} for key, abilities in column]
            for column in ABILITY_COLUMNS
        ]
        if columns != self.play_sheet.columns:
            self.play_sheet.columns = columns

    def _show_view(self, *_: Any) -> None:
        play = self.view.value == "play"
        self.play_sheet.visible = play
        self.sheet.visible = not play
        self.name_field.visible = not play
        self.sheet_slot.objects = [self.play_sheet] if play else [self.name_field, self.sheet]

    def _roll_ability(self, ability: str) -> None:
        """A tap on an ability's row (Play) or its ⚄ (Edit): roll it; anything else rolls nothing."""
        if ability in ROLLED:
            self.desk.ability = ability
            self.roll()

    def _group_title(self, key: str) -> str:
        """The title of a group of abilities in either view: its attribute, or what it holds."""
        tr = self.tr
        if key in one_ring.ATTRIBUTES:
            return tr(OR_LABELS[key])
        return tr(N_("Combat proficiencies")) if key == "proficiencies" else tr(N_("Valour and Wisdom"))

    # -- edit view --------------------------------------------------------------------------
    def _edit_sheet(self) -> None:
        """The ratings as one form: each attribute with its TN over its three skills (each with ★ and
        ⚄), then the proficiencies, Valour and Wisdom (each with ⚄)."""
        #: the play view's groups, each attribute's field at the head of its skills
        self._edit_columns = [
            [(key, [key, *abilities] if key in one_ring.ATTRIBUTES else abilities) for key, abilities in column]
            for column in ABILITY_COLUMNS
        ]
        self.edit_sheet = sheet = EditSheet(sizing_mode="stretch_width", margin=0)
        fields = [k for column in self._edit_columns for _, group in column for k in group]

        def edited(key: str, text: str) -> None:
            kind, _, skill = key.partition(":")
            if kind == "star" and skill in OR_SKILLS:
                setattr(self.char, f"fav_{skill}", text == "1")
            elif key in fields:
                setattr(self.char, key, text)

        sheet.on_edit(edited)
        sheet.on_tap(self._roll_ability)
        self.char.param.watch(self._show_edit, [*fields, *[f"fav_{s}" for s in OR_SKILLS], "errors"])
        self.binder.on_lang(self._show_edit)

    def _show_edit(self, *_: Any) -> None:
        tr, char = self.tr, self.char

        def row(key: str) -> dict[str, Any]:
            extra: dict[str, Any] = {}
            if key in one_ring.ATTRIBUTES:
                tn = char.tn_of(key)
                extra["note"] = tr(N_("TN {tn}"), tn=tn) if tn is not None else ""
            else:
                label = tr(OR_LABELS[key])
                extra["roll"] = roll_name(tr, label)
                if key in OR_SKILLS:
                    extra["star"] = {
                        "on": bool(getattr(char, f"fav_{key}")),
                        "name": tr(N_("Favoured: {skill}"), skill=label),
                    }
            return field_row(tr, char, key, OR_LABELS[key], **extra)

        columns = [
            [{"title": self._group_title(key), "rows": [row(k) for k in keys]} for key, keys in column]
            for column in self._edit_columns
        ]
        if columns != self.edit_sheet.columns:
            self.edit_sheet.columns = columns

    def _chart_labels(self) -> None:
        tr = self.tr
        self.degree_chart.set_labels({d: tr(OR_DEGREE_LABELS[d]) for d in DEGREES}, tr(N_("Chance")))
        self.tn_chart.set_labels(tr(N_("Target Number (TN)")), tr(N_("Chance of success")))

    # -- live odds -------------------------------------------------------------------------
    def _show_odds(self, *_: Any) -> None:
        tr = self.tr
        odds = self.desk.odds
        check = self.desk.check
        if odds is None or check is None:
            self.degree_chart.update(None)
            self.tn_chart.update({}, None)
            text = escape(tr(N_("Correct the marked fields to see the odds.")))
            self.odds_readout.object = f'<div class="readout muted" data-testid="odds-readout">{text}</div>'
            self.summary.object = ""
            return
        last = self.desk.last
        marked = str(last.roll.degree) if last is not None and not last.hidden and last.roll.check == check else None
        self.degree_chart.update({str(d): p for d, p in odds.degrees.items()}, marked)
        self.tn_chart.update(self.desk.tn_odds, check.tn)
        self.odds_readout.object = (
            f'<div class="readout" data-testid="odds-readout">{escape(tr(N_("Chance of success")))}: '
            f'<b data-testid="p-success">{percent(odds.p_success)}</b> · {escape(tr(N_("Great success")))}: {percent(odds.p_great)}'
            f" · {escape(tr(N_('Extraordinary success')))}: {percent(odds.p_extraordinary)}</div>"
        )
        mode = {"normal": "", "favoured": tr(N_("Favoured")), "ill_favoured": tr(N_("Ill-favoured"))}[
            str(check.feat_mode)
        ]
        parts = [tr.ngettext("{n} success die", "{n} success dice", check.success_dice)]
        parry = self.desk.parry_value() if self.desk.is_attack else 0
        if self.desk.ability == "protection":
            parts.append(tr(N_("TN {tn} = the blow's Injury"), tn=check.tn))
        elif parry:
            parts.append(tr(N_("TN {tn} = {base} + Parry {parry}"), tn=check.tn, base=check.tn - parry, parry=parry))
        else:
            parts.append(tr(N_("TN {tn}"), tn=check.tn))
        if mode:
            parts.append(mode)
        if check.weary:
            parts.append(tr(N_("Weary")))
        if check.miserable:
            parts.append(tr(N_("Miserable")))
        self.summary.object = f'<div class="readout" style="margin-top:12px">{escape(" · ".join(parts))}</div>'

    def _show_protection_odds(self, *_: Any) -> None:
        tr = self.tr
        try:
            check = self.desk.protection_check()
        except InputError as error:
            if error.field == "injury" and not self.desk.injury.strip():
                text = tr(N_("Type the blow's Injury to see the chance of the Protection roll."))
            else:
                text = error_text(tr, error)
            self.protection_odds.object = f'<div class="note" data-testid="protection-odds">{escape(text)}</div>'
            return
        p = one_ring.odds(check).p_success
        text = tr(
            N_("Protection roll (success dice: {n}, TN {tn}): {p} chance to avoid the wound."),
            n=check.success_dice,
            tn=check.tn,
            p=percent(p),
        )
        self.protection_odds.object = f'<div class="readout" data-testid="protection-odds">{escape(text)}</div>'

    def roll_protection(self) -> None:
        """One tap: the Protection roll against the Injury typed in."""
        self.desk.ability = "protection"
        self.roll()

    # -- rolling -----------------------------------------------------------------------------
    def roll(self) -> None:
        attempt(lambda: self.app.roll("one-ring"), self.roll_error, lambda error: error_text(self.tr, error))

    def _show_result(self, *_: Any) -> None:
        """The TN chart marks the last roll's total (the roll itself is in the result panel)."""
        entry = self.desk.last
        shown = entry is not None and not entry.hidden and entry.roll is not None
        self.tn_chart.mark(entry.roll.total if shown else None)
        self._special_problem = ""
        if shown:
            self._show_odds()

    # -- special successes, picked in the result panel -----------------------------------------------------
    def _spendable(self) -> Any:
        """The last roll, if it is shown and has success icons to spend; else None."""
        entry = self.desk.last
        if entry is None or entry.hidden or entry.roll is None or not (entry.roll.success and entry.roll.icons):
            return None
        return entry.roll

    def roll_actions(self, entry: Any) -> RollActions | None:
        """Under the last roll in the result panel, if it has success icons: what they can buy."""
        tr, roll = self.tr, self._spendable()
        if roll is None or entry is not self.desk.last:
            return None
        picked = self.desk.picked
        text = tr(N_("Spend your success icons ({n}) on special successes:"), n=roll.icons)
        if picked:
            text += " " + tr(
                N_("Spent on: {choices}. Icons left: {n}."),
                choices=", ".join(tr(OR_SPECIAL_LABELS[c]) for c in picked),
                n=roll.icons - len(picked),
            )
        if self._special_problem:
            text += " " + self._special_problem
        actions = [(key, tr(label), False) for key, label in OR_SPECIAL_LABELS.items()]
        actions.append(("take-back", tr(N_("Take back the last choice")), not picked))
        return RollActions(text, actions, self._special_tapped)

    def _special_tapped(self, key: str) -> None:
        self._special_problem = ""
        if key == "take-back":
            if self.desk.picked:
                self.desk.pick_special(self.desk.picked[:-1])
            return
        if key not in OR_SPECIAL_LABELS:
            return
        try:
            self.desk.pick_special([*self.desk.picked, key])
        except InputError as error:
            self._special_problem = error_text(self.tr, error)
            self.param.trigger("roll_words")

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
