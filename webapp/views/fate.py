"""Fate & Doom screen: hero, 2d6 skill check with difficulty and favour, odds per favour spend."""

from __future__ import annotations

from html import escape
from typing import Any

import panel as pn
import param

from ..i18n import N_, error_text
from ..state.app import AppState
from ..state.fate import FateDesk
from ..words.rolls import tie_reading
from .charts import ProbabilityByValueChart
from .common import (
    Binder,
    ChartFold,
    TextField,
    attempt,
    checkbox,
    html_pane,
    name_field,
    percent,
    secret_checkbox,
    wrap_row,
)
from .result import RollActions, big_roll_button, name_big_roll

__all__ = ["FateView"]


class FateView(pn.viewable.Viewer):
    """Fate & Doom's skill check: the sheet, the roll's options and odds; under a roll in the result
    panel, the favour left (:meth:`roll_actions`)."""

    roll_words = param.Event(doc="What roll_actions says has changed")

    def __init__(self, app: AppState, binder: Binder) -> None:
        super().__init__()
        self.app = app
        self.desk: FateDesk = app.fate
        self.char = self.desk.character
        self.binder = binder
        self.tr = tr = binder.tr

        name = name_field(binder, self.char)
        skill = TextField(binder, self.char, "skill", N_("Skill"), stepper=True)
        sheet = pn.Column(
            name,
            pn.Row(
                TextField(binder, self.char, "favour", N_("Favour of the gods"), width=150, stepper=True),
                TextField(binder, self.char, "favour_max", N_("Favour (max)"), width=110),
            ),
            pn.Row(
                TextField(binder, self.char, "life", N_("Life"), stepper=True),
                TextField(binder, self.char, "life_max", N_("Life (max)"), width=110),
            ),
            width=330,
            margin=(5, 10),
        )
        self.roll_button = big_roll_button()
        binder.on_lang(lambda: name_big_roll(self.roll_button, tr, tr(N_("Skill"))))
        self.roll_button.on_click(lambda e: self.roll())
        self.roll_error = html_pane("")
        self.note = note = html_pane("")
        self.ties_box = ties = checkbox(value=self.desk.ties_succeed, width=300, css_classes=["ties-succeed"])
        binder.text(ties, "name", N_("Table option: ties succeed"))
        ties.link(self.desk, value="ties_succeed", bidirectional=True)
        self.desk.param.watch(lambda *_: self._show_note(), "ties_succeed")
        binder.on_lang(self._show_note)
        # The sheet is one skill: the check is played from its first row (skill, difficulty, favour
        # to spend, Roll), the rest of the sheet and the table's options under it.
        play = wrap_row(
            skill,
            TextField(binder, self.desk, "difficulty", N_("Difficulty"), stepper=True),
            TextField(binder, self.desk, "favour_spend", N_("Favour to spend"), width=150, stepper=True),
            pn.Column(self.roll_button, margin=(18, 0, 0, 0)),
            sizing_mode="stretch_width",
        )
        roll_panel = pn.Column(
            secret_checkbox(binder, self.desk),
            ties,
            note,
            width=360,
            margin=(5, 10),
        )
        self.odds_readout = html_pane("")
        self.chart = ProbabilityByValueChart(list(range(0, 4)))
        binder.on_lang(lambda: self.chart.set_labels(tr(N_("Favour spent")), tr(N_("Chance of success"))))

        self.desk.param.watch(self._show_odds, ["check", "odds", "by_favour", "errors"])
        self.desk.param.watch(self._show_result, "last")
        binder.on_lang(self._show_odds)
        binder.on_lang(self._show_result)
        # folded away until asked for: the result panel charts the next roll
        self.charts = ChartFold(binder, pn.pane.Bokeh(self.chart.figure, sizing_mode="stretch_width", height=230))
        # the check's chance under its row, then the rest of the sheet and the table's options
        self._layout = pn.Column(
            play,
            self.roll_error,
            self.odds_readout,
            wrap_row(sheet, roll_panel),
            self.charts,
            sizing_mode="stretch_width",
        )

    #: The parts a first screen needs at once: the check's row, its error and its chance.
    FIRST_PARTS = 3

    @property
    def first_screen(self) -> tuple[tuple[pn.Column, int], ...]:
        """What a first screen shows at once (:func:`~webapp.views.common.hold_back`): the check's
        row and its chance; the sheet and the rest can follow."""
        return ((self._layout, self.FIRST_PARTS),)

    def _show_note(self) -> None:
        tr = self.tr
        self.note.object = (
            f'<div class="note" data-testid="tie-reading">{escape(tr(N_("Roll 2d6, add the difficulty, subtract the favour spent.")))} '
            f"{escape(tie_reading(tr, self.desk.ties_succeed))} "
            f"{escape(tr(N_('Favour is declared before the roll and deducted.')))}</div>"
        )

    def _show_odds(self, *_: Any) -> None:
        tr = self.tr
        odds, check = self.desk.odds, self.desk.check
        if odds is None or check is None:
            text = escape(tr(N_("Correct the marked fields to see the odds.")))
            self.odds_readout.object = f'<div class="readout muted" data-testid="odds-readout">{text}</div>'
            self.chart.update({}, None)
            return
        self.odds_readout.object = (
            f'<div class="readout" data-testid="odds-readout">{escape(tr(N_("Chance of success")))}: '
            f'<b data-testid="p-success">{percent(odds.p_success)}</b></div>'
        )
        self.chart.update(self.desk.by_favour, check.favour_spent)

    def roll(self) -> None:
        attempt(lambda: self.app.roll("fate"), self.roll_error, lambda error: error_text(self.tr, error))

    def _show_result(self, *_: Any) -> None:
        """The chart marks the favour the last roll spent (the roll itself is in the result panel)."""
        entry = self.desk.last
        shown = entry is not None and not entry.hidden
        self.chart.mark(entry.roll.favour_spent if shown else None)
        self.param.trigger("roll_words")

    def roll_actions(self, entry: Any) -> RollActions | None:
        """Under the last roll in the result panel: the favour the hero has left."""
        if entry is None or entry is not self.desk.last or entry.hidden or entry.roll.favour_left is None:
            return None
        return RollActions(self.tr(N_("Favour left: {n}"), n=entry.roll.favour_left))

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
