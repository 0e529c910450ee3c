"""The free dice roller: type an expression (3d6, 2d6+3, 4d6 keep 3, d12, d100), see its exact odds, roll.

The card opens with *Free dice*; its view is built the first time it opens
(nothing of it runs at start-up). The distribution is charted live as the
expression is typed; *Roll* draws the dice from the seeded generator, puts the
result in the page's status region and in the roll log (with its seed, so
``python -m engine roll dice EXPR --seed N`` gives the same dice). A roll is the
roll of the character on screen: with a session code set it takes that
character's next running number and the session's seed for it, like any roll,
and the card's share panel gives its link and QR code.
"""

from __future__ import annotations

from html import escape
from typing import Any

import panel as pn
from bokeh.models import ColumnDataSource, Span

from engine import InputError, links
from engine.roller import DiceExpression, parse_dice

from ..i18n import N_
from ..state.log import LogEntry
from ..words.rolls import dice_error_text, faces_text
from .charts import GOOD, GREAT, HIGHLIGHT, new_figure
from .common import Binder, TextInput, button, html_pane

__all__ = ["DiceCard", "DiceView"]

DEFAULT = "3d6"


class _DistributionChart:
    """P(total) for every total of the expression, the last roll's total marked."""

    def __init__(self, height: int = 230) -> None:
        self.source = ColumnDataSource({"x": [], "p": [], "colour": []})
        self.figure = new_figure(height)
        self.figure.vbar(x="x", top="p", width=0.9, source=self.source, fill_color="colour", line_color=None)
        self.marker = Span(
            location=0, dimension="height", line_color=HIGHLIGHT, line_width=3, line_dash="dashed", visible=False
        )
        self.figure.add_layout(self.marker)

    def set_labels(self, x_title: str, y_title: str) -> None:
        self.figure.xaxis.axis_label = x_title
        self.figure.yaxis.axis_label = y_title

    def update(self, probs: dict[int, float] | None, rolled: int | None = None) -> None:
        xs = sorted(probs) if probs else []
        ps = [probs[x] for x in xs] if probs else []
        self.source.data = {"x": xs, "p": ps, "colour": [GREAT if x == rolled else GOOD for x in xs]}
        self.figure.y_range.end = max(ps, default=0.25) * 1.15 or 0.25
        self.marker.visible = rolled is not None
        if rolled is not None:
            self.marker.location = rolled


class DiceView(pn.viewable.Viewer):
    """The roller itself: expression field, live odds, Roll, result."""

    def __init__(self, app: Any, binder: Binder, share_panel: Any = None) -> None:
        super().__init__()
        self.app, self.binder, self.tr = app, binder, binder.tr
        self.share_panel = share_panel
        tr = self.tr
        self.expression: DiceExpression | None = None
        self.error: InputError | None = None
        self.last: Any = None
        self.field = TextInput(value=DEFAULT, width=260, max_length=100)
        binder.text(self.field, "name", N_("Dice (e.g. 3d6, 2d6+3, 4d6 keep 3, d100)"))
        self.field.param.watch(lambda e: self._typed(e.new), "value_input")
        self.roll_button = button("", kind="primary", width=180, height=56, margin=(22, 8, 0, 8))
        binder.text(self.roll_button, "name", N_("Roll"))
        self.roll_button.on_click(lambda e: self.roll())
        self.readout = html_pane("")
        self.status = html_pane("")
        self.chart = _DistributionChart()
        binder.on_lang(lambda: self.chart.set_labels(tr(N_("Total")), tr(N_("Chance"))))
        binder.on_lang(self._show)
        self._layout = pn.Column(
            pn.Row(self.field, self.roll_button, margin=0),
            self.readout,
            pn.pane.Bokeh(self.chart.figure, sizing_mode="stretch_width", height=240),
            self.status,
            *([share_panel] if share_panel is not None else []),
            sizing_mode="stretch_width",
        )
        self._typed(DEFAULT)

    def _typed(self, text: Any) -> None:
        try:
            self.expression, self.error = parse_dice(text or ""), None
        except InputError as error:
            self.expression, self.error = None, error
        self.last = None
        self._show()

    def _show(self, *_: Any) -> None:
        tr = self.tr
        expr = self.expression
        label = tr(N_("Roll {ability}"), ability=expr.text if expr is not None else tr(N_("the dice")))
        self.roll_button.description = label
        self.roll_button.disabled = expr is None
        if expr is None:
            message = dice_error_text(tr, self.error) if self.error is not None else ""
            self.field.css_classes = ["invalid"] if message else []
            self.readout.object = f'<div class="readout muted" data-testid="dice-odds">{escape(message)}</div>'
            self.chart.update(None)
        else:
            self.field.css_classes = []
            dist = expr.odds()
            probs = dist.to_floats()
            mean = float(dist.mean())
            self.readout.object = (
                f'<div class="readout" data-testid="dice-odds">{escape(expr.text)}: '
                f"{escape(tr(N_('from {low} to {high}, on average {mean}'), low=min(dist), high=max(dist), mean=f'{mean:.2f}'))}</div>"
            )
            self.chart.update(probs, self.last.roll.total if self.last is not None else None)
        self._show_status()

    def _show_status(self) -> None:
        tr = self.tr
        if self.last is None:
            body = ""
        else:
            roll = self.last.roll
            body = (
                f'<div class="outcome" data-testid="dice-total">{escape(tr(N_("Total {total}"), total=roll.total))}</div>'
                f'<div class="readout"><span data-testid="dice-faces">{escape(faces_text(roll))}</span> · '
                f"{escape(tr(N_('seed {seed}'), seed=self.last.seed))}{escape(self._session_text())}</div>"
            )
        self.status.object = f'<div role="status" aria-live="polite" data-testid="dice-result">{body}</div>'

    def _session_text(self) -> str:
        entry = self.last
        if entry is None or not entry.session_code:
            return ""
        return " · " + self.tr(N_("Session {code}, roll no. {n}"), code=entry.session_code, n=entry.session_number)

    def character(self) -> str:
        """The name of the character on screen (whose roll this is), as a link carries it."""
        desk = getattr(self.app, "desks", {}).get(getattr(self.app, "system", ""))
        name = getattr(getattr(desk, "character", None), "name_text", "") or ""
        return links.link_text("name", name, links.MAX_NAME_LENGTH, links.MAX_NAME_BYTES)

    def roll(self, seed: int | None = None) -> LogEntry | None:
        """Roll the expression on the field (a seed given, or a fresh one); the entry goes to the roll log.

        With a session code (and no seed given) the roll takes the character's next running number
        and the session's seed for it, as every roll does."""
        if self.expression is None:
            self._show()
            return None
        entry = self.app.rolls.free_dice(self.expression, character=self.character(), seed=seed)
        self.last = entry
        self._show()
        return entry

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout


class DiceCard(pn.viewable.Viewer):
    """*Free dice*: a button that opens (and the first time builds) the roller."""

    def __init__(self, app: Any, binder: Binder, share_panel: Any = None) -> None:
        super().__init__()
        self.app, self.binder = app, binder
        self.share_panel = share_panel
        self.view: DiceView | None = None
        self.toggle = pn.widgets.Toggle(value=False, height=48, width=200)
        binder.text(self.toggle, "name", N_("Free dice"))
        self.toggle.param.watch(self._toggled, "value")
        self.body = pn.Column(sizing_mode="stretch_width", margin=0)
        self._layout = pn.Column(self.toggle, self.body, sizing_mode="stretch_width")

    def open(self) -> DiceView:
        if self.view is None:
            self.view = DiceView(self.app, self.binder, self.share_panel)
        self.body.objects = [self.view]
        if not self.toggle.value:
            self.toggle.value = True
        return self.view

    def _toggled(self, event: Any) -> None:
        if event.new:
            self.open()
        else:
            self.body.objects = []

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
