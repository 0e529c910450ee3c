"""Pieces every screen uses: translated labels, validated text fields, touch-sized widgets."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any, ClassVar

import panel as pn
import param

from ..dice import DICE_CSS
from ..i18n import N_, Translator, error_text

__all__ = ["APP_CSS", "Binder", "TextField", "button", "checkbox", "html_pane", "select"]

#: Applied inside every component (Panel adds ``raw_css`` to each shadow root):
#: touch-sized controls, readable type, and colours from the page palette.
APP_CSS = (
    """
:host {
  color: var(--k-fg, #14171a); font-size: 16px;
  --panel-background-color: var(--k-bg, #ffffff); --panel-on-background-color: var(--k-fg, #14171a);
  --panel-surface-color: var(--k-surface, #f2f4f6); --panel-on-surface-color: var(--k-fg, #14171a);
}
div, span, label, p { color: inherit; }
.bk-input, select.bk-input, input.bk-input {
  min-height: 44px; font-size: 16px; background-color: var(--k-input-bg, #fff);
  color: var(--k-fg, #14171a); border-color: var(--k-border, #6b7781);
}
.bk-btn { min-height: 44px; font-size: 16px; }
.bk-btn-default { background-color: var(--k-surface, #f2f4f6) !important; color: var(--k-fg, #14171a) !important;
  border-color: var(--k-border, #6b7781) !important; }
.bk-btn-default.bk-active { background-color: var(--k-accent, #0b5cad) !important; color: var(--k-on-accent, #fff) !important; }
.bk-btn-primary { background-color: var(--k-accent, #0b5cad); border-color: var(--k-accent, #0b5cad);
  color: var(--k-on-accent, #fff); }
label { color: var(--k-fg, #14171a); }
.bk-input-group label, .bk-input-group > label { font-size: 15px; }
input[type="checkbox"] { width: 24px; height: 24px; margin: 10px 8px 10px 0; }
.bk-checkbox, .bk-input-group:has(input[type=checkbox]) { min-height: 44px; display: flex; align-items: center; }
/* A Checkbox is tapped anywhere on its box, label included: the (restyled) input covers the whole box
   and draws its 28 px square at the left; the label sits beside the square. */
:host(.bk-Checkbox) { position: relative; min-height: 44px; min-width: 44px; display: flex; align-items: center; }
:host(.bk-Checkbox) input[type="checkbox"] {
  appearance: none; -webkit-appearance: none; position: absolute; inset: 0; width: 100%; height: 100%;
  margin: 0; z-index: 1; cursor: pointer; border: 0; border-radius: 6px;
  background: linear-gradient(var(--k-input-bg, #fff), var(--k-input-bg, #fff)) 6px 50% / 22px 22px no-repeat,
    linear-gradient(var(--k-border, #6b7781), var(--k-border, #6b7781)) 3px 50% / 28px 28px no-repeat;
}
:host(.bk-Checkbox) input[type="checkbox"]:checked {
  background: url("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 28 28'%3E%3Cpath d='M6 14.5l5.5 5.5L22 8.5' fill='none' stroke='%23fff' stroke-width='3.5' stroke-linecap='round' stroke-linejoin='round'/%3E%3C/svg%3E") 3px 50% / 28px 28px no-repeat,
    linear-gradient(var(--k-accent, #0b5cad), var(--k-accent, #0b5cad)) 3px 50% / 28px 28px no-repeat;
}
:host(.bk-Checkbox) input[type="checkbox"]:focus-visible { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: -3px; }
:host(.bk-Checkbox) input[type="checkbox"]:disabled { cursor: default; opacity: 0.5; }
:host(.bk-Checkbox) .bk-label { padding-left: 36px; line-height: 1.25; }
/* Button groups (e.g. the special-success picker) wrap rather than run off the screen. */
.bk-btn-group { flex-wrap: wrap; }
/* Phones: rows wrap and nothing is wider than the screen. */
@media (max-width: 600px) {
  :host { max-width: min(100%, calc(100vw - 20px)); min-width: 0 !important; }
  :host(.bk-Row) { flex-wrap: wrap; }
}
:host(.invalid) .bk-input { border: 3px solid var(--k-bad, #b3261e); }
:host(.invalid) label { color: var(--k-bad, #b3261e); font-weight: 600; }
.field-error { color: var(--k-bad, #b3261e); font-size: 14px; font-weight: 600; min-height: 0; }
.muted { color: var(--k-muted, #4a5560); }
.readout { font-size: 17px; }
.readout b { font-size: 19px; }
.outcome { font-size: 22px; font-weight: 700; }
.outcome.good { color: var(--k-good, #1b7a3a); }
.outcome.bad { color: var(--k-bad, #b3261e); }
.card-title { font-size: 18px; font-weight: 700; margin: 4px 0; }
table.log { border-collapse: collapse; width: 100%; font-size: 15px; }
table.log th, table.log td { border-bottom: 1px solid var(--k-border, #6b7781); padding: 6px 4px; text-align: left; vertical-align: top; }
.note { font-size: 14px; color: var(--k-muted, #4a5560); }
"""
    + DICE_CSS
)


class Binder:
    """Keeps translated texts on widgets up to date with the session's language."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr
        self._updates: list[Callable[[], None]] = []
        tr.param.watch(self._refresh, "lang")

    def _refresh(self, *_: Any) -> None:
        for update in self._updates:
            update()

    def on_lang(self, update: Callable[[], None]) -> None:
        """Run ``update`` now and after every language change."""
        self._updates.append(update)
        update()

    def text(self, obj: Any, attr: str, msgid: str, **fmt: Any) -> Any:
        """Set ``obj.attr`` to the translation of ``msgid`` (now and on every switch)."""
        self.on_lang(lambda: setattr(obj, attr, self.tr(msgid, **fmt)))
        return obj

    def options(self, widget: Any, labels: dict[str, str]) -> Any:
        """Give a Select/RadioButtonGroup translated option labels for fixed values."""

        def update() -> None:
            value = widget.value
            widget.options = {self.tr(msg): key for key, msg in labels.items()}
            if isinstance(value, list):
                widget.value = [v for v in value if v in labels]
            elif value in labels:
                widget.value = value

        self.on_lang(update)
        return widget


class TextInput(pn.widgets.TextInput):
    """A text input whose typed text reaches Python before any later tap.

    Panel delays a widget's value changes by 50 ms on a server but handles a
    button's click on the next tick, so "type 200, tap Simulate" could run
    with the old number. Changes marked as priority are queued like clicks,
    in the order they happened.
    """

    _priority_changes: ClassVar[list[str]] = ["value", "value_input"]


def button(label: str = "", kind: str = "default", **kw: Any) -> pn.widgets.Button:
    kw.setdefault("min_width", 44)
    kw.setdefault("height", 48)
    return pn.widgets.Button(name=label, button_type=kind, **kw)


def checkbox(label: str = "", **kw: Any) -> pn.widgets.Checkbox:
    kw.setdefault("height", 44)
    return pn.widgets.Checkbox(name=label, **kw)


def select(**kw: Any) -> pn.widgets.Select:
    kw.setdefault("height", 66)
    return pn.widgets.Select(**kw)


def html_pane(text: str = "", **kw: Any) -> pn.pane.HTML:
    if "width" not in kw:
        kw.setdefault("sizing_mode", "stretch_width")
    kw.setdefault("margin", (2, 5))
    return pn.pane.HTML(text, **kw)


class TextField(pn.viewable.Viewer):
    """A text input bound to a ``param.String`` of ``model``, showing its own error.

    The raw text stays in the model whatever it is; ``model.errors[key]``
    (an :class:`engine.InputError`) is shown translated right on the field:
    appended to its label (so screen readers announce it too) with a red frame.
    """

    def __init__(
        self,
        binder: Binder,
        model: param.Parameterized,
        pname: str,
        label: str,
        *,
        errors_of: param.Parameterized | None = None,
        error_key: str | None = None,
        width: int = 120,
        placeholder: str = "",
        **label_fmt: Any,
    ) -> None:
        super().__init__()
        self.binder = binder
        self.model = model
        self.pname = pname
        self.label = label
        self.label_fmt = label_fmt
        self.errors_of = errors_of or model
        self.error_key = error_key or pname
        self.input = TextInput(value=getattr(model, pname), width=width, margin=(2, 5))
        if placeholder:
            binder.text(self.input, "placeholder", placeholder)
        self.input.param.watch(self._typed, "value_input")
        self.input.param.watch(self._typed, "value")
        model.param.watch(self._model_changed, pname)
        self.errors_of.param.watch(self._show_error, "errors")
        binder.on_lang(self._show_error)

    def _typed(self, event: Any) -> None:
        if event.new is not None and getattr(self.model, self.pname) != event.new:
            setattr(self.model, self.pname, event.new)

    def _model_changed(self, event: Any) -> None:
        if self.input.value != event.new:
            self.input.value = event.new

    @property
    def error_message(self) -> str:
        error = self.errors_of.errors.get(self.error_key)
        return error_text(self.binder.tr, error) if error is not None else ""

    def _show_error(self, *_: Any) -> None:
        label = self.binder.tr(self.label, **self.label_fmt)
        message = self.error_message
        self.input.param.update(
            name=f"{label} — {message}" if message else label,
            css_classes=["invalid"] if message else [],
        )

    def __panel__(self) -> pn.viewable.Viewable:
        return self.input


def alert_html(text: str) -> str:
    """A message shown beside a field or button: escaped text, announced by screen readers."""
    return f'<div class="field-error" role="alert">{escape(text)}</div>'


def name_field(binder: Binder, sheet: Any) -> TextInput:
    """The character's name, kept in step with ``sheet.name_text`` both ways (raw text, as typed)."""
    name = TextInput(value=sheet.name_text, width=260, height=70, max_length=60)
    binder.text(name, "name", N_("Name"))
    name.param.watch(lambda e: setattr(sheet, "name_text", e.new or ""), "value_input")
    sheet.param.watch(lambda e: setattr(name, "value", e.new) if name.value != e.new else None, "name_text")
    return name


def percent(p: Any) -> str:
    return f"{float(p):.1%}"
