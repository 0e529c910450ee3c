"""Pieces every screen uses: translated labels, validated text fields, touch-sized widgets."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from html import escape
from pathlib import Path
from typing import Any, ClassVar

import panel as pn
import param
from panel.custom import JSComponent

from engine import InputError

from ..i18n import N_, Translator, error_text, percent

__all__ = [
    "APP_CSS",
    "APP_CSS_FILE",
    "SHEET_VIEWS",
    "Binder",
    "NumberInput",
    "TextField",
    "button",
    "checkbox",
    "hidden_html",
    "html_pane",
    "percent",
    "models_frozen",
    "secret_checkbox",
    "select",
    "view_switch",
]

#: The two views of a sheet: play (one-tap rows) and edit (the whole form).
SHEET_VIEWS = {"play": N_("Play"), "edit": N_("Edit")}

#: Kostka's own stylesheet (``webapp/kostka.css``), applied inside every component: touch-sized
#: controls, readable type, colours from the page palette, the dice. The static site serves it under
#: the same name; there every component links this one file instead of carrying its own copy of the
#: text (which made the first page's document five times bigger).
APP_CSS_FILE = "kostka.css"
APP_CSS = (Path(__file__).resolve().parents[1] / APP_CSS_FILE).read_text(encoding="utf-8")


def models_frozen(doc: Any) -> AbstractContextManager:
    """While it lasts, Bokeh walks the document's models once, at the end, instead of each time a
    model is added (a root, a tooltip…). No document (plain Python): nothing to freeze."""
    return doc.models.freeze() if doc is not None else nullcontext()


class Binder:
    """Keeps translated texts on widgets up to date with the session's language."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr
        self._updates: list[Callable[[], None]] = []
        tr.param.watch(self._refresh, "lang")

    def _refresh(self, *_: Any) -> None:
        # a text can bring a new model: a button's description is a tooltip
        with models_frozen(pn.state.curdoc):
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


#: What a number field accepts while it is typed: digits with an optional leading sign (the
#: minus may be typed as "-" or "\u2212"). A value outside it is marked wrong, never refused.
SIGNED_PATTERN = "[\\-+\u2212]?[0-9]*"  # (the "-" escaped: browsers read a pattern in Unicode-sets mode)
UNSIGNED_PATTERN = "[0-9]*"


class NumberInput(JSComponent):
    """A labelled text field for a whole number, with its error written under it.

    Bokeh's own text input draws itself again whenever its title changes, which
    throws the user out of the field (and closes a tablet's keyboard) in the
    middle of typing "-2". Here the label, the error line and the red frame are
    changed in place, the typed text is never rewritten while the user types,
    and the field asks for a numeric keyboard (``inputmode``) with a
    ``pattern`` that allows a leading minus where the value can be negative.
    ``value_input`` follows every key, ``value`` each committed change.
    """

    value = param.String(default="")
    value_input = param.String(default="")
    label = param.String(default="")
    error = param.String(default="", doc="The reason the value is wrong ('' when it is right)")
    placeholder = param.String(default="")
    inputmode = param.Selector(default="numeric", objects=["numeric", "decimal", "text"])
    pattern = param.String(default=SIGNED_PATTERN)

    _priority_changes: ClassVar[list[str]] = ["value", "value_input"]

    _esm = """
export function render({ model, el }) {
  const label = document.createElement("label");
  label.htmlFor = "number-input";
  label.className = "number-label";
  const input = document.createElement("input");
  input.id = "number-input";
  input.type = "text";
  input.className = "bk-input";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.setAttribute("autocapitalize", "off");
  const error = document.createElement("div");
  error.id = "number-error";
  error.className = "field-error";
  error.setAttribute("aria-live", "polite");
  el.classList.add("number-field");
  el.append(label, input, error);
  // What was typed since the field took focus: Python's echo of an earlier key must not
  // overwrite the keys typed after it.
  let typed = [];
  const show = () => {
    label.textContent = model.label;
    input.inputMode = model.inputmode;
    if (model.pattern) input.pattern = model.pattern; else input.removeAttribute("pattern");
    input.placeholder = model.placeholder;
    error.textContent = model.error;
    if (model.error) {
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-describedby", "number-error");
      el.classList.add("invalid");
    } else {
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-describedby");
      el.classList.remove("invalid");
    }
  };
  const focused = () => el.getRootNode().activeElement === input;
  input.value = model.value;
  input.addEventListener("focus", () => { typed = []; });
  input.addEventListener("input", () => {
    typed.push(input.value);
    if (typed.length > 100) typed.shift();
    model.value_input = input.value;
  });
  input.addEventListener("change", () => { model.value = input.value; });
  model.on("value", () => {
    if (input.value === model.value || (focused() && typed.includes(model.value))) return;
    input.value = model.value;
  });
  for (const name of ["label", "error", "placeholder", "inputmode", "pattern"]) model.on(name, show);
  show();
}
"""

    _stylesheets: ClassVar[list[str]] = [
        """
.number-field { display: flex; flex-direction: column; }
.number-label { font-size: 15px; margin-bottom: 2px; }
input.bk-input { width: 100%; box-sizing: border-box; padding: 0 8px; border: 1px solid var(--k-border, #6b7781);
  border-radius: 4px; }
input.bk-input:focus { outline: 3px solid var(--k-accent, #0b5cad); outline-offset: 0; }
.number-field.invalid input.bk-input { border: 3px solid var(--k-bad, #b3261e); }
.number-field.invalid .number-label { color: var(--k-bad, #b3261e); font-weight: 600; }
.field-error:empty { display: none; }
"""
    ]


def number_input(label: str = "", value: str = "", *, signed: bool = True, width: int = 120, **kw: Any) -> NumberInput:
    """A :class:`NumberInput` (a numeric keyboard; a leading minus allowed when ``signed``)."""
    kw.setdefault("margin", (2, 5))
    return NumberInput(
        label=label,
        value=value,
        value_input=value,
        width=width,
        pattern=SIGNED_PATTERN if signed else UNSIGNED_PATTERN,
        **kw,
    )


class TextField(pn.viewable.Viewer):
    """A number field bound to a ``param.String`` of ``model``, showing its own error.

    The raw text stays in the model whatever it is; ``model.errors[key]``
    (an :class:`engine.InputError`) is shown translated under the field with a
    red frame, the label staying as it is (so the field keeps focus and caret
    while a half-typed value is marked wrong).
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
        signed: bool | None = None,
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
        if signed is None:  # a field whose bounds allow a negative value (or are unknown) takes a minus
            low = getattr(type(model), "BOUNDS", {}).get(pname, (None, None))[0]
            signed = low is None or low < 0
        self.input = number_input(value=getattr(model, pname), width=width, signed=signed)
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
            self.input.param.update(value=event.new, value_input=event.new)

    @property
    def error_message(self) -> str:
        error = self.errors_of.errors.get(self.error_key)
        return error_text(self.binder.tr, error) if error is not None else ""

    def _show_error(self, *_: Any) -> None:
        label = self.binder.tr(self.label, **self.label_fmt)
        message = self.error_message
        if (self.input.label, self.input.error) != (label, message):
            self.input.param.update(label=label, error=message)

    def __panel__(self) -> pn.viewable.Viewable:
        return self.input


def alert_html(text: str) -> str:
    """A message shown beside a field or button: escaped text, announced by screen readers."""
    return f'<div class="field-error" role="alert">{escape(text)}</div>'


def attempt(action: Callable[[], Any], message: pn.pane.HTML, explain: Callable[[InputError], str]) -> None:
    """Run ``action``; if it refuses the input, say why in ``message`` (else clear it) instead of failing."""
    try:
        action()
    except InputError as error:
        message.object = alert_html(explain(error))
        return
    message.object = ""


def name_field(binder: Binder, sheet: Any) -> TextInput:
    """The character's name, kept in step with ``sheet.name_text`` both ways (raw text, as typed)."""
    name = TextInput(value=sheet.name_text, width=260, height=70, max_length=60)
    binder.text(name, "name", N_("Name"))
    name.param.watch(lambda e: setattr(sheet, "name_text", e.new or ""), "value_input")
    # the sheet's value as it stands once its own watchers ran (it drops refused characters as typed)
    sheet.param.watch(
        lambda e: setattr(name, "value", sheet.name_text) if name.value != sheet.name_text else None, "name_text"
    )
    return name


def secret_checkbox(binder: Binder, desk: Any) -> pn.widgets.Checkbox:
    """The "secret roll" switch of a desk that has a ``secret`` parameter."""
    box = checkbox(value=desk.secret, width=200, css_classes=["secret-roll"])
    binder.text(box, "name", N_("Secret GM roll"))
    box.link(desk, value="secret", bidirectional=True)
    return box


def hidden_html(tr: Translator, head: str) -> str:
    """The result area of a secret roll that has not been revealed (no dice, no outcome)."""
    return (
        f'<div data-testid="roll-result">{head}<div class="outcome" data-testid="outcome">'
        f"{escape(tr(N_('Secret roll: hidden until the GM reveals it.')))}</div></div>"
    )


def view_switch(binder: Binder, roster: Any) -> pn.widgets.RadioButtonGroup:
    """Play or Edit, one tap apart above a sheet. A character that has been filled in opens in Play
    (a stored or imported hero, the one chosen from the list); a new one in Edit, where it is
    filled in. The player's own choice stands until another character is put on the sheet."""
    view = pn.widgets.RadioButtonGroup(height=44, width=220, css_classes=["k-view"])
    binder.options(view, SHEET_VIEWS)

    def first_view(*_: Any) -> None:
        view.value = "edit" if roster.is_blank() else "play"

    roster.param.watch(first_view, "selected")
    first_view()
    return view
