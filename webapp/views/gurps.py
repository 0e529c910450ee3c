"""GURPS screen: sheet with a skill list, modifiers adding up live, 3d6 rolls, secret rolls, contests."""

from __future__ import annotations

from html import escape
from typing import Any

import panel as pn
import param

from engine import InputError
from engine.gurps import MODIFIER_RANGE, SKILL_RANGE

from ..i18n import N_, error_text
from ..state.app import AppState
from ..state.gurps import (
    GURPS_ATTRIBUTES,
    GURPS_DEFENCES,
    GURPS_LABELS,
    GURPS_OUTCOMES,
    GURPS_POOL_STATES,
    GURPS_ROLLS,
    MAX_ROWS,
    GurpsDesk,
)
from .charts import BAD, GOOD, NEUTRAL, OUTCOME_COLOURS, BarChart, GurpsDistributionChart
from .common import (
    LESS_LABEL,
    MORE_LABEL,
    Binder,
    ChartFold,
    TextField,
    TextInput,
    alert_html,
    attempt,
    button,
    checkbox,
    choice,
    html_pane,
    name_field,
    number_input,
    percent,
    select,
    show_text,
    view_switch,
    wrap_row,
)
from .edit import EditSheet, field_row
from .play import PlaySheet
from .result import RollActions, big_roll_button, name_big_roll, roll_button, roll_name

__all__ = ["GurpsView"]

CONTEST_LABELS = {"quick": N_("Quick contest"), "regular": N_("Regular contest")}


#: Rows of a list drawn at a time: each row is five widgets, and a page of a real GCS sheet's 120
#: rows drawn at once takes over a minute under Pyodide; the rest are a tap on *Next rows* away.
PAGE_ROWS = 20


class _ListRows(pn.viewable.Viewer):
    """Editable rows of ``{"name", <value_key>}`` dicts in a ``param.List`` of ``owner``.

    At most :data:`PAGE_ROWS` rows are on screen: a window from ``start`` over the list, drawn by
    the same widgets whichever rows they show (*Previous rows* / *Next rows* move it), so a sheet of
    200 skills costs what a sheet of 20 does. Widget ``k`` edits row ``start + k``.
    """

    def __init__(
        self,
        view: GurpsView,
        owner: Any,
        pname: str,
        value_key: str,
        name_label: str,
        value_label: str,
        error_prefix: str,
        add_label: str,
        roll_buttons: bool = False,
        keep_toggles: bool = False,
    ) -> None:
        super().__init__()
        self.view, self.owner, self.pname, self.value_key = view, owner, pname, value_key
        self.name_label, self.value_label, self.error_prefix = name_label, value_label, error_prefix
        self.roll_buttons = roll_buttons
        self.keep_toggles = keep_toggles
        self.start = 0
        # the widgets of every slot made so far: (name, value), the Keep box, the roll button, the row
        self._rows: list[tuple[Any, Any]] = []
        self._keeps: list[Any] = []
        self._rolls: list[Any] = []
        self._slots: list[Any] = []
        self.column = pn.Column(margin=0, sizing_mode="stretch_width")
        self.add = button("", width=200)
        view.binder.text(self.add, "name", add_label)
        self.add.on_click(self._add)
        self.previous = button("", width=150)
        view.binder.text(self.previous, "name", N_("Previous rows"))
        self.previous.on_click(lambda e: self.page(-1))
        self.next = button("", width=150)
        view.binder.text(self.next, "name", N_("Next rows"))
        self.next.on_click(lambda e: self.page(1))
        self.where = html_pane("")
        self.pager = pn.FlexBox(align_items="center", flex_wrap="wrap")
        # the last row deleted, with Undo until the rows change again
        self.removed: tuple[int, dict[str, Any], list[Any]] | None = None
        self.undo_note = html_pane("")
        self.undo = button("", width=200, visible=False)
        view.binder.text(self.undo, "name", N_("Bring the row back"))
        self.undo.on_click(lambda e: self._undo())
        owner.param.watch(self._sync, pname)
        view.desk.param.watch(self._errors, "errors")
        view.binder.on_lang(self._relabel)
        self._sync()

    @property
    def items(self) -> list[dict[str, str]]:
        return getattr(self.owner, self.pname)

    @property
    def shown(self) -> int:
        """How many rows are on screen."""
        return len(self.column.objects)

    @property
    def rows(self) -> list[tuple[Any, Any]]:
        """(name, value) fields of the rows on screen."""
        return self._rows[: self.shown]

    @property
    def keeps(self) -> list[Any]:
        return self._keeps[: self.shown]

    @property
    def roll_buttons_of(self) -> dict[int, Any]:
        """Slot on screen -> its roll button."""
        return dict(enumerate(self._rolls[: self.shown]))

    def page(self, step: int) -> None:
        """Show the previous (-1) or next (+1) rows."""
        start = self.start + step * PAGE_ROWS
        if 0 <= start < len(self.items):
            self.start = start
            self._sync()

    def _add(self, _: Any) -> None:
        if len(self.items) < MAX_ROWS:
            items = [*self.items, {"name": "", self.value_key: "10" if self.roll_buttons else "0"}]
            self.start = (len(items) - 1) // PAGE_ROWS * PAGE_ROWS  # the new row on screen
            setattr(self.owner, self.pname, items)

    def _set(self, slot: int, key: str, value: Any) -> None:
        index = self.start + slot
        items = [dict(r) for r in self.items]
        if index < len(items) and items[index].get(key) != value:
            items[index][key] = value
            if key == "keep" and not value:
                del items[index][key]
            setattr(self.owner, self.pname, items)

    def _remove(self, slot: int) -> None:
        """Delete the row in ``slot``; *Bring the row back* undoes it until the rows change again."""
        items = [dict(r) for r in self.items]
        index = self.start + slot
        if index < len(items):
            row = items.pop(index)
            if self.start >= len(items) and self.start:
                self.start -= PAGE_ROWS
            self.removed = (index, row, items)
            setattr(self.owner, self.pname, items)

    def _undo(self) -> None:
        if self.removed is None:
            return
        index, row, _ = self.removed
        self.removed = None
        items = [dict(r) for r in self.items]
        items.insert(min(index, len(items)), row)
        self.start = index // PAGE_ROWS * PAGE_ROWS  # the row back on screen
        setattr(self.owner, self.pname, items)

    def _show_undo(self) -> None:
        """The note of the last deletion and its Undo, while the rows are as the deletion left them."""
        if self.removed is not None and self.items is not self.removed[2]:
            self.removed = None  # the rows changed since (typed, added, another character): nothing to undo
        shown = self.removed is not None
        if self.removed is not None:
            index, row, _ = self.removed
            what = row.get("name") or self.view.tr(self.name_label, n=index + 1)
            text = escape(self.view.tr(N_("Deleted: {name}."), name=what))
            note = f'<div class="readout" role="status" data-testid="row-deleted">{text}</div>'
        else:
            note = ""
        if self.undo_note.object != note:
            self.undo_note.object = note
        if self.undo.visible != shown:
            self.undo.visible = shown

    def _slot(self, k: int) -> Any:
        """The widgets of slot ``k``, made once and reused for whatever row it shows."""
        name = TextInput(value="", width=170, height=70, max_length=60, margin=(2, 5))
        low, high = SKILL_RANGE if self.roll_buttons else MODIFIER_RANGE
        value = number_input(value="", stepper=True, minimum=low, maximum=high)
        name.param.watch(lambda e, k=k: self._set(k, "name", e.new or ""), "value_input")
        value.param.watch(lambda e, k=k: self._set(k, self.value_key, e.new or ""), "value_input")
        remove = button("✕", width=48, margin=(22, 4, 0, 4))
        remove.on_click(lambda e, k=k: self._remove(k))
        parts: list[Any] = [name, value]
        if self.keep_toggles:  # a standing modifier stays for every roll; the others go after one
            keep = checkbox(value=False, width=110, margin=(22, 4, 0, 4))
            keep.param.watch(lambda e, k=k: self._set(k, "keep", bool(e.new)), "value")
            self._keeps.append(keep)
            parts.append(keep)
        if self.roll_buttons:
            roll = roll_button()
            roll.on_click(lambda e, k=k: self.view.roll_skill(self.start + k))
            self._rolls.append(roll)
            parts.append(roll)
        parts.append(remove)
        self._rows.append((name, value))
        return pn.Row(*parts, margin=0)

    def _rebuild(self) -> None:
        self._sync()

    def _relabel(self) -> None:
        for keep in self._keeps:
            keep.name = self.view.tr(N_("Keep"))
        self._errors()
        self._show_undo()

    def _sync(self, *_: Any) -> None:
        items = self.items
        if self.start >= len(items):
            self.start = max(0, (len(items) - 1) // PAGE_ROWS * PAGE_ROWS)
        shown = items[self.start : self.start + PAGE_ROWS]
        while len(self._slots) < len(shown):
            self._slots.append(self._slot(len(self._slots)))
        for k, item in enumerate(shown):
            name, value = self._rows[k]
            show_text(name, item.get("name", ""))
            if value.value_input != item.get(self.value_key, ""):
                value.param.update(value=item.get(self.value_key, ""), value_input=item.get(self.value_key, ""))
            if self.keep_toggles and self._keeps[k].value != bool(item.get("keep")):
                self._keeps[k].value = bool(item.get("keep"))
        if len(self.column.objects) != len(shown):
            self.column.objects = self._slots[: len(shown)]
        self._relabel()
        self._show_pager()
        self._show_undo()

    def _show_pager(self) -> None:
        total = len(self.items)
        if total <= PAGE_ROWS and self.start == 0:
            if self.pager.objects:
                self.pager.objects = []
            return
        last = min(total, self.start + PAGE_ROWS)
        text = self.view.tr(N_("Rows {first}–{last} of {n}"), first=self.start + 1, last=last, n=total)
        self.where.object = f'<div class="note" data-testid="rows-shown">{escape(text)}</div>'
        self.previous.disabled = self.start == 0
        self.next.disabled = last >= total
        if not self.pager.objects:
            self.pager.objects = [self.previous, self.where, self.next]

    def _errors(self, *_: Any) -> None:
        tr = self.view.tr
        errors = self.view.desk.errors
        rolls = self.roll_buttons_of
        for k, (name, value) in enumerate(self.rows):
            i = self.start + k
            if name.name != tr(self.name_label, n=i + 1):
                name.name = tr(self.name_label, n=i + 1)
            if k in rolls and i < len(self.items):
                what = self.items[i].get("name") or tr(self.name_label, n=i + 1)
                described = roll_name(tr, what)
                if rolls[k].description != described:
                    rolls[k].description = described
            error = errors.get(f"{self.error_prefix}{i}")
            label = tr(self.value_label, n=i + 1)
            message = error_text(tr, error) if error is not None else ""
            if (value.label, value.error) != (label, message):
                value.param.update(label=label, error=message)
            # the stepper's buttons say whose value they change ("Increase Broadsword")
            row = (self.items[i].get("name") if i < len(self.items) else "") or tr(self.name_label, n=i + 1)
            less, more = tr(LESS_LABEL, field=row), tr(MORE_LABEL, field=row)
            if (value.less_label, value.more_label) != (less, more):
                value.param.update(less_label=less, more_label=more)
        if self.pager.objects:
            self._show_pager()

    def __panel__(self) -> pn.viewable.Viewable:
        return pn.Column(
            self.column,
            self.pager,
            wrap_row(self.undo_note, self.undo, align="center"),
            self.add,
            margin=0,
            sizing_mode="stretch_width",
        )


class GurpsView(pn.viewable.Viewer):
    """GURPS's screen: the sheet and its skills, the modifiers, the roll and its odds, the contests; under
    a roll in the result panel, the modifiers it used (:meth:`roll_actions`)."""

    roll_words = param.Event(doc="What roll_actions says has changed")

    def __init__(self, app: AppState, binder: Binder) -> None:
        super().__init__()
        self.app = app
        self.desk: GurpsDesk = app.gurps
        self.char = self.desk.character
        self.binder = binder
        self.tr = tr = binder.tr

        name = name_field(binder, self.char)
        # the attributes, then Will and Per, and the defences, each with its ⚄: one form each
        self.edit_sheet = self._edit_sheet((GURPS_ATTRIBUTES, GURPS_ROLLS))
        self.defence_sheet = self._edit_sheet((GURPS_DEFENCES,))
        self.pool_states = {p: html_pane("") for p in ("hp", "fp")}
        pools = pn.Column(*[self._pool(p) for p in ("hp", "fp")], margin=0)
        self.char.param.watch(lambda *_: self._show_pools(), ["hp", "hp_max", "fp", "fp_max"])
        binder.on_lang(self._show_pools)

        skills_title = html_pane("")
        binder.on_lang(
            lambda: setattr(skills_title, "object", f'<div class="card-title">{escape(tr(N_("Skills")))}</div>')
        )
        self.skill_rows = _ListRows(
            self,
            self.char,
            "skills",
            "level",
            N_("Skill {n}"),
            N_("Level"),
            "skill_",
            N_("Add a skill"),
            roll_buttons=True,
        )
        self.sheet = pn.Column(
            name, self.edit_sheet, pools, self.defence_sheet, skills_title, self.skill_rows, width=620, margin=(5, 10)
        )
        # Play: Will, Per, the defences and the skills as one-tap rows; Edit: the whole sheet.
        self.view = view_switch(binder, app.rosters["gurps"])
        self.play_sheet = self._play_sheet()
        #: The sheet shown (Play or Edit) and the roll controls; the other sheet is left out of the
        #: page until asked for, so a switch to this screen draws one of the two.
        self.body = wrap_row()

        # -- the roll ------------------------------------------------------------------------
        self.roll_button = big_roll_button()  # named by _skill_options, with the skill it rolls
        self.skill = select(width=260)
        binder.text(self.skill, "name", N_("Skill to roll"))
        self.char.param.watch(self._skill_options, "skills")
        binder.on_lang(self._skill_options)
        self.skill.param.watch(self._skill_chosen, "value")
        self.desk.param.watch(lambda *_: self._skill_options(), ["skill_index", "target"])
        self.char.param.watch(self._skill_options, [*GURPS_ROLLS, *GURPS_DEFENCES])

        mods_title = html_pane("")
        binder.on_lang(
            lambda: setattr(
                mods_title, "object", f'<div class="card-title">{escape(tr(N_("Modifiers for this roll")))}</div>'
            )
        )
        self.mod_rows = _ListRows(
            self,
            self.desk,
            "modifiers",
            "value",
            N_("Modifier {n}"),
            N_("Value"),
            "modifier_",
            N_("Add a modifier"),
            keep_toggles=True,
        )
        mods_note = html_pane("")
        binder.on_lang(
            lambda: setattr(
                mods_note,
                "object",
                '<div class="note" data-testid="modifiers-note">'
                + escape(
                    tr(
                        N_(
                            "A modifier is cleared after the roll it was added for; tick Keep for one that stands (a wound, "
                            "the light of the whole scene)."
                        )
                    )
                )
                + "</div>",
            )
        )
        self.defence = checkbox(value=self.desk.defence)
        binder.text(self.defence, "name", N_("Defence roll"))
        self.defence.link(self.desk, value="defence", bidirectional=True)
        self.secret = checkbox(value=self.desk.secret)
        binder.text(self.secret, "name", N_("Secret GM roll"))
        self.secret.link(self.desk, value="secret", bidirectional=True)
        tries = TextField(binder, self.desk, "tries", N_("Tries"), width=90)
        self.effective = html_pane("", css_classes=["readout"])
        self.roll_button.on_click(lambda e: self.roll())
        self.roll_error = html_pane("")
        #: below effective skill 3 only a defence may be rolled: said right above the Roll button
        self.not_allowed = html_pane("")
        roll_panel = pn.Column(
            self.skill,
            mods_title,
            mods_note,
            self.mod_rows,
            pn.Row(self.defence, self.secret),
            tries,
            self.effective,
            self.not_allowed,
            self.roll_button,
            self.roll_error,
            width=500,
            margin=(5, 10),
        )

        self.odds_readout = html_pane("")
        self.chart = GurpsDistributionChart()
        binder.on_lang(lambda: self.chart.set_labels(tr(N_("3d6 total")), tr(N_("Chance"))))
        self.legend = html_pane("")

        # -- contest ---------------------------------------------------------------------------
        contest_title = html_pane("")
        binder.on_lang(
            lambda: setattr(contest_title, "object", f'<div class="card-title">{escape(tr(N_("Contest")))}</div>')
        )
        self.contest_kind = choice(value=self.desk.contest, height=48)
        binder.options(self.contest_kind, CONTEST_LABELS)
        self.contest_kind.link(self.desk, value="contest", bidirectional=True)
        self.opponent = select(width=300)
        binder.text(self.opponent, "name", N_("Opponent"))
        app.gurps_roster.param.watch(lambda e: self._opponent_options(), "characters")
        binder.on_lang(self._opponent_options)
        self.opponent.param.watch(lambda e: setattr(self.desk, "opponent", e.new) if e.new else None, "value")
        self.desk.param.watch(lambda e: self._opponent_options(), "opponent")
        opp_level = TextField(binder, self.desk, "opponent_level", N_("Opponent's effective skill"), width=200)
        self.hsr = hsr = checkbox(value=self.desk.high_skill_rule)
        binder.text(hsr, "name", N_("High-skill rule (lower both to 14)"))
        hsr.link(self.desk, value="high_skill_rule", bidirectional=True)
        self.contest_readout = html_pane("")
        # A quick contest can end in a tie, a regular one cannot; the high-skill rule is the regular
        # contest's alone. Each kind shows only its own parts (changing children, not ``visible``).
        self.contest_charts = {
            "quick": BarChart(["a", "tie", "b"], [GOOD, NEUTRAL, BAD], height=200),
            "regular": BarChart(["a", "b"], [GOOD, BAD], height=200),
        }
        self._contest_panes = {
            kind: pn.pane.Bokeh(chart.figure, sizing_mode="stretch_width", height=210)
            for kind, chart in self.contest_charts.items()
        }
        self.contest_options = pn.Column(margin=0, sizing_mode="stretch_width")
        self.contest_chart_slot = pn.Column(margin=0, sizing_mode="stretch_width")
        self.desk.param.watch(lambda e: self._contest_parts(), "contest")
        self._contest_parts()
        self.contest_button = roll_button("", kind="primary", width=220, height=56, margin=(5, 10))
        binder.text(self.contest_button, "label", N_("Roll the contest"))
        self.contest_button.on_click(lambda e: self.roll_contest())
        self.contest_result = html_pane("")
        # The page puts the share panels here: a roll's link beside the roll (a secret roll's sealed
        # link beside the secret roll), a contest's beside the contest.
        self.share_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        self.contest_share_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        self._contest = contest = pn.Column(
            contest_title,
            self.contest_kind,
            pn.Row(self.opponent, opp_level),
            self.contest_options,
            self.contest_readout,
            ChartFold(
                binder,
                self.contest_chart_slot,
                show=N_("Show the contest's chart"),
                hide=N_("Hide the contest's chart"),
            ),
            self.contest_button,
            self.contest_result,
            self.contest_share_slot,
            sizing_mode="stretch_width",
        )

        self.desk.param.watch(
            self._show_odds, ["check", "odds", "effective", "p_any", "contest_odds", "check_error", "errors"]
        )
        self.desk.param.watch(self._show_result, "last")
        self.desk.param.watch(self._show_contest, ["last_contest", "last_contest_modifiers"])
        self.app.rolls.log.param.watch(lambda e: self._show_result(), "entries")
        binder.on_lang(self._show_odds)
        binder.on_lang(self._show_result)
        binder.on_lang(self._show_contest)

        # folded away until asked for: the result panel charts the next roll
        self.charts = ChartFold(
            binder, pn.pane.Bokeh(self.chart.figure, sizing_mode="stretch_width", height=230), self.legend
        )
        self._layout = pn.Column(
            self.view,
            self.body,
            self.odds_readout,
            self.charts,
            self.share_slot,
            pn.layout.Divider(),
            contest,
            sizing_mode="stretch_width",
        )
        self.roll_panel = roll_panel
        self.view.param.watch(self._show_view, "value")
        self._show_view()

    #: The parts a first screen needs at once: the view switch, the sheet and the roll's chance.
    FIRST_PARTS = 3
    #: The contest's parts that come with it: its title and kind; the rest follows one part at a time.
    CONTEST_FIRST_PARTS = 2

    @property
    def first_screen(self) -> tuple[tuple[pn.Column, int], ...]:
        """What a first screen shows at once (:func:`~webapp.views.common.hold_back`): the sheet and
        its roll; the charts, the share panel and the contest can follow, the contest's own parts
        (its fields, chart, button and result) one at a time too."""
        return ((self._layout, self.FIRST_PARTS), (self._contest, self.CONTEST_FIRST_PARTS))

    # -- the sheet's trackers and one-tap rolls -------------------------------------------------
    def _edit_sheet(self, groups: tuple[tuple[str, ...], ...]) -> EditSheet:
        """Fields of the sheet side by side in one form, each group on lines of its own: Will, Per
        and the defences with a ⚄ beside them (Will and Per roll like a skill, Dodge/Parry/Block as
        defence rolls)."""
        sheet = EditSheet(column_width=600, flow=True, sizing_mode="stretch_width", margin=0)
        fields = {key for group in groups for key in group}
        rolled = fields & {*GURPS_ROLLS, *GURPS_DEFENCES}

        def edited(key: str, text: str) -> None:
            if key in fields:
                setattr(self.char, key, text)

        def tap(key: str) -> None:
            if key in rolled:
                self.roll_target(key)

        def show(*_: Any) -> None:
            tr = self.tr

            def row(key: str) -> dict[str, Any]:
                label = tr(GURPS_LABELS[key])
                if key in GURPS_DEFENCES:
                    roll = tr(N_("Roll {ability} (defence roll)"), ability=label)
                else:
                    roll = roll_name(tr, label) if key in rolled else ""
                return field_row(tr, self.char, key, GURPS_LABELS[key], roll=roll)

            columns = [[{"title": "", "rows": [row(key) for key in group]} for group in groups]]
            if columns != sheet.columns:
                sheet.columns = columns

        sheet.on_edit(edited)
        sheet.on_tap(tap)
        self.char.param.watch(show, [*fields, "errors"])
        self.binder.on_lang(show)
        return sheet

    def _pool(self, pool: str) -> pn.viewable.Viewable:
        """Current (with its −/+ stepper, up to the maximum) / max of HP or FP and what GURPS says at that level."""
        current = TextField(self.binder, self.char, pool, GURPS_LABELS[pool], stepper=True)
        maximum = TextField(self.binder, self.char, f"{pool}_max", GURPS_LABELS[f"{pool}_max"], width=90)
        return pn.Column(pn.Row(current, maximum, margin=0), self.pool_states[pool], margin=0)

    # -- play view ------------------------------------------------------------------------------
    def _play_sheet(self) -> pn.viewable.Viewable:
        """Will, Per, Dodge, Parry, Block and each skill with a name and a level, one compact row each
        ("Broadsword 14": the name, the level at the right end) on a button that rolls it as its ⚄ on
        the sheet does, all drawn by one :class:`PlaySheet`. The skills come :data:`PAGE_ROWS` at a
        time, with *Previous rows* / *Next rows*."""
        self.play_rows_sheet = PlaySheet(column_width=440, row_width=210, sizing_mode="stretch_width", margin=0)
        self.play_rows_sheet.on_tap(self._play_tapped)
        self.play_start = 0
        #: the skill (its index in the sheet's list) each row on screen rolls
        self._play_skills: list[int] = []
        self.play_previous = button("", width=150)
        self.binder.text(self.play_previous, "name", N_("Previous rows"))
        self.play_previous.on_click(lambda e: self.play_page(-1))
        self.play_next = button("", width=150)
        self.binder.text(self.play_next, "name", N_("Next rows"))
        self.play_next.on_click(lambda e: self.play_page(1))
        self.play_where = html_pane("")
        self.play_pager = pn.FlexBox(align_items="center", flex_wrap="wrap", margin=0)
        self.char.param.watch(self._show_play, ["skills", *GURPS_ROLLS, *GURPS_DEFENCES])
        self.binder.on_lang(self._show_play)
        return pn.Column(self.play_rows_sheet, self.play_pager, width=440, margin=(5, 10), visible=False)

    def _play_tapped(self, key: str) -> None:
        if key in GURPS_ROLLS or key in GURPS_DEFENCES:
            self.roll_target(key)
        elif key.startswith("skill:") and key[6:].isdigit() and int(key[6:]) in self._play_skills:
            self.roll_skill(int(key[6:]))  # a row on screen (not one the sheet has dropped since)

    @property
    def play_rows(self) -> list[dict[str, str]]:
        """The skill rows of the play view on screen (key, label, value, description)."""
        groups = self.play_rows_sheet.columns[0] if self.play_rows_sheet.columns else []
        return list(groups[1]["rows"]) if len(groups) > 1 else []

    def _rollable_skills(self) -> list[int]:
        """The skills with a name and a level: the ones the play view has a row for."""
        return [
            i
            for i, s in enumerate(self.char.skills)
            if str(s.get("name") or "").strip() and str(s.get("level") or "").strip()
        ]

    def play_page(self, step: int) -> None:
        """Show the previous (-1) or next (+1) skills of the play view."""
        start = self.play_start + step * PAGE_ROWS
        if 0 <= start < len(self._rollable_skills()):
            self.play_start = start
            self._show_play()

    def _show_play(self, *_: Any) -> None:
        if self.view.value != "play":
            return  # drawn when the view is shown
        tr = self.tr
        fixed = []
        for key in (*GURPS_ROLLS, *GURPS_DEFENCES):
            name, level = tr(GURPS_LABELS[key]), str(getattr(self.char, key) or "").strip()
            # named as the ⚄ beside the field on the sheet names it
            if key in GURPS_DEFENCES:
                described = tr(N_("Roll {ability} (defence roll)"), ability=name)
            else:
                described = roll_name(tr, name)
            fixed.append({"key": key, "label": name, "value": level, "description": described})
        rollable = self._rollable_skills()
        if self.play_start >= len(rollable):
            self.play_start = max(0, (len(rollable) - 1) // PAGE_ROWS * PAGE_ROWS)
        self._play_skills = rollable[self.play_start : self.play_start + PAGE_ROWS]
        skills = []
        for i in self._play_skills:
            skill = self.char.skills[i]
            name, level = str(skill["name"]).strip(), str(skill["level"]).strip()
            skills.append({"key": f"skill:{i}", "label": name, "value": level, "description": roll_name(tr, name)})
        title = tr(N_("Skills")) if rollable else ""
        columns = [[{"title": "", "rows": fixed}, {"title": title, "rows": skills}]]
        if self.play_rows_sheet.columns != columns:
            self.play_rows_sheet.columns = columns
        if len(rollable) <= PAGE_ROWS:
            if self.play_pager.objects:
                self.play_pager.objects = []
            return
        last = self.play_start + len(self._play_skills)
        text = tr(N_("Rows {first}–{last} of {n}"), first=self.play_start + 1, last=last, n=len(rollable))
        self.play_where.object = f'<div class="note" data-testid="play-rows-shown">{escape(text)}</div>'
        self.play_previous.disabled = self.play_start == 0
        self.play_next.disabled = last >= len(rollable)
        if not self.play_pager.objects:
            self.play_pager.objects = [self.play_previous, self.play_where, self.play_next]

    def _show_view(self, *_: Any) -> None:
        play = self.view.value == "play"
        self._show_play()
        self.play_sheet.visible = play
        self.sheet.visible = not play
        self.body.objects = [self.play_sheet if play else self.sheet, self.roll_panel]

    def _show_pools(self, *_: Any) -> None:
        for pool, pane in self.pool_states.items():
            state = self.char.pool_state(pool)
            if state is None:
                pane.object = ""
                continue
            key, params = state
            good = "bad" if key in ("dead", "destroyed", "unconscious", "dying") else "warn"
            pane.object = f'<div class="note {good}" data-testid="{pool}-state">{escape(self.tr(GURPS_POOL_STATES[key], **params))}</div>'

    def roll_target(self, target: str) -> None:
        """Roll Will, Per or an active defence (chosen in *Skill to roll* as well, so the odds follow)."""
        self.desk.target = target
        self.roll()

    # -- options ---------------------------------------------------------------------------
    def _skill_label(self, index: int, item: dict[str, str]) -> str:
        name = item.get("name") or self.tr(N_("Skill {n}"), n=index + 1)
        return f"{name} ({item.get('level', '')})"

    def _skill_options(self, *_: Any) -> None:
        options: dict[str, Any] = {}
        for i, s in enumerate(self.char.skills):
            label = self._skill_label(i, s)
            while label in options:  # rows alike keep an option each (one option for two rows loops)
                label += " ·"
            options[label] = i
        for key in (*GURPS_ROLLS, *GURPS_DEFENCES):
            label = f"{self.tr(GURPS_LABELS[key])} ({getattr(self.char, key)})"
            label += f" — {self.tr(N_('Defence roll'))}" if key in GURPS_DEFENCES else ""
            while label in options:
                label += " ·"
            options[label] = key
        index = self.desk.skill_index if self.desk.skill_index < len(self.char.skills) else 0
        value = self.desk.target if self.desk.target != "skill" else index
        if self.skill.options != options:
            self.skill.options = options
        if options and self.skill.value != value and value in options.values():
            self.skill.value = value
        self._name_roll()

    def _name_roll(self) -> None:
        """The big Roll button names what it rolls: the chosen skill, Will, Per or a defence."""
        tr, desk, skills = self.tr, self.desk, self.char.skills
        if desk.target != "skill":
            name = tr(GURPS_LABELS[desk.target])
        elif desk.skill_index < len(skills):  # a skill without a name is named by its row, as in the list
            name = str(skills[desk.skill_index].get("name") or "").strip() or tr(
                N_("Skill {n}"), n=desk.skill_index + 1
            )
        else:
            name = tr(N_("Skill"))
        name_big_roll(self.roll_button, tr, name)

    def _skill_chosen(self, event: Any) -> None:
        if isinstance(event.new, str) and event.new != self.desk.target:
            self.desk.target = event.new
        elif isinstance(event.new, int) and (event.new != self.desk.skill_index or self.desk.target != "skill"):
            self.desk.param.update(skill_index=event.new, target="skill")

    def _opponent_options(self, *_: Any) -> None:
        options = {self.tr(N_("A number")): "number"}
        for ci, char in enumerate(self.app.gurps_roster.characters):
            who = char.get("name") or self.tr(N_("Character {n}"), n=ci + 1)
            for si, skill in enumerate(char.get("skills") or []):
                label = f"{who}: {self._skill_label(si, skill)}"
                while label in options:
                    label += " ·"
                options[label] = f"{ci}:{si}"
        self.opponent.options = options
        self.opponent.value = self.desk.opponent if self.desk.opponent in options.values() else "number"

    # -- odds --------------------------------------------------------------------------------
    def _show_odds(self, *_: Any) -> None:
        tr = self.tr
        desk = self.desk
        if desk.effective is not None:
            total = sum(
                int(m.get("value") or 0) for m in desk.modifiers if str(m.get("value", "")).lstrip("+-").isdigit()
            )
            self.effective.object = (
                f'<div class="readout">{escape(tr(N_("Effective skill")))}: <b data-testid="effective-skill">{desk.effective}</b>'
                f' <span class="muted">({escape(tr(N_("modifiers {total:+d}"), total=total))})</span></div>'
            )
        else:
            self.effective.object = ""
        error = desk.check_error
        blocked = error is not None and error.code == "rule" and error.field in ("skill", "effective_skill")
        self.not_allowed.object = (
            (
                '<div class="field-error" role="alert" data-testid="roll-not-allowed">'
                + escape(
                    tr(
                        N_(
                            "The roll is not allowed: effective skill {e} is below 3, and only a defence roll may be made below 3."
                        ),
                        e=desk.effective,
                    )
                )
                + "</div>"
            )
            if blocked
            else ""
        )
        self.roll_button.disabled = blocked
        odds = desk.odds
        if odds is None:
            msg = (
                error_text(tr, desk.check_error)
                if desk.check_error is not None
                else tr(N_("Correct the marked fields to see the odds."))
            )
            self.odds_readout.object = f'<div class="readout muted" data-testid="odds-readout">{escape(msg)}</div>'
            self.chart.update(None)
        else:
            extra = ""
            if desk.p_any is not None and self.desk.tries.strip() not in ("", "1"):
                tries = tr.ngettext(
                    "At least one success in {n} try", "At least one success in {n} tries", self.desk.tries.strip()
                )
                extra = f" · {escape(tries)}: {percent(desk.p_any)}"
            self.odds_readout.object = (
                f'<div class="readout" data-testid="odds-readout">{escape(tr(N_("Chance of success")))}: '
                f'<b data-testid="p-success">{percent(odds.p_success)}</b> · {escape(tr(N_("Critical success")))}: '
                f"{percent(odds.p_critical_success)} · {escape(tr(N_('Critical failure')))}: {percent(odds.p_critical_failure)}{extra}</div>"
            )
            last = desk.last
            rolled = last.roll.total if last is not None and not last.hidden and last.roll.check == desk.check else None
            self.chart.update(odds.by_roll, rolled)
        self.legend.object = (
            '<div class="note">'
            + " · ".join(
                f'<span style="color:{OUTCOME_COLOURS[o]}">■</span> {escape(tr(GURPS_OUTCOMES[o]))}'
                for o in ("critical_success", "success", "failure", "critical_failure")
            )
            + "</div>"
        )
        self._show_contest_odds()

    @property
    def contest_chart(self) -> BarChart:
        """The chart of the contest kind chosen now."""
        return self.contest_charts[self.desk.contest]

    def _contest_parts(self) -> None:
        options = [self.hsr] if self.desk.contest == "regular" else []
        if self.contest_options.objects != options:
            self.contest_options.objects = options
        pane = self._contest_panes[self.desk.contest]
        if self.contest_chart_slot.objects != [pane]:
            self.contest_chart_slot.objects = [pane]

    def _show_contest_odds(self) -> None:
        tr = self.tr
        odds = self.desk.contest_odds
        self.contest_chart.set_labels(
            {"a": tr(N_("You win")), "tie": tr(N_("Tie")), "b": tr(N_("Opponent wins"))}, tr(N_("Chance"))
        )
        if odds is None:
            self.contest_chart.update(None)
            self.contest_readout.object = (
                f'<div class="readout muted">{escape(tr(N_("Correct the marked fields to see the odds.")))}</div>'
            )
            return
        shown = {"a": odds.p_a_wins, "b": odds.p_b_wins}
        if hasattr(odds, "p_tie"):
            shown["tie"] = odds.p_tie
        self.contest_chart.update(shown)
        text = (
            f'{escape(tr(N_("You win")))}: <b data-testid="p-contest">{percent(odds.p_a_wins)}</b>'
            f" · {escape(tr(N_('Opponent wins')))}: {percent(odds.p_b_wins)}"
        )
        if hasattr(odds, "p_tie"):
            text += f" · {escape(tr(N_('Tie')))}: {percent(odds.p_tie)}"
        if hasattr(odds, "expected_rounds"):
            text += f" · {escape(tr(N_('Expected rounds')))}: {float(odds.expected_rounds):.1f}"
        self.contest_readout.object = f'<div class="readout">{text}</div>'

    # -- rolls ---------------------------------------------------------------------------------
    def roll_skill(self, index: int) -> None:
        self.desk.param.update(skill_index=index, target="skill")
        self.roll()

    def roll(self) -> None:
        attempt(lambda: self.app.roll("gurps"), self.roll_error, lambda error: error_text(self.tr, error))

    def _show_result(self, *_: Any) -> None:
        """The chart follows the last roll (the roll itself is in the result panel)."""
        entry = self.desk.last
        if entry is not None and entry.hidden:
            self.chart.update(self.desk.odds.by_roll if self.desk.odds else None, None)
        elif entry is not None:
            self._show_odds()
        self.param.trigger("roll_words")

    def roll_actions(self, entry: Any) -> RollActions | None:
        """Under the last roll or contest in the result panel: the modifiers it used, by name and value."""
        if entry is not None and entry is self.desk.last_contest:
            return RollActions(self._modifiers_text(self.desk.last_contest_modifiers))
        if entry is None or entry is not self.desk.last or entry.kind != "roll":
            return None
        return RollActions(self._modifiers_text(self.desk.last_modifiers))

    def _modifiers_text(self, used: Any) -> str:
        """Which modifiers a roll used, by name and value ("Darkness −2, Aim +1"), or that it used none."""
        tr = self.tr
        if not used:
            return tr(N_("No modifiers."))
        names = ", ".join(
            f"{name or tr(N_('Modifier {n}'), n=i + 1)} " + f"{value:+d}".replace("-", "\u2212")
            for i, (name, value) in enumerate(used)
        )
        return tr(N_("Modifiers used: {names}"), names=names)

    def roll_contest(self) -> None:
        try:
            entry = self.app.roll_contest()
        except InputError as error:
            self.contest_result.object = alert_html(error_text(self.tr, error))
            return
        self.desk.after_contest(entry)

    def _show_contest(self, *_: Any) -> None:
        """A new contest: the message beside it goes (the contest is in the result panel, with the modifiers it used)."""
        self.contest_result.object = ""
        self.param.trigger("roll_words")

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
