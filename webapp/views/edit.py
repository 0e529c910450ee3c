"""A sheet's ratings as one form drawn by the browser from one list: each a number field with −/+,
and beside it, where the sheet has them, a ★ for favoured and a ⚄ that rolls it.

One component for a sheet's ratings, instead of a number field, a checkbox and a roll button
component for each: a switch to a new hero's sheet (which opens in Edit) draws one model where it
drew some hundred and thirty (The One Ring's 30 ratings, their stars and rolls, rows and titles).
:class:`~webapp.views.common.TextField` keeps the fields that stand alone (Hope, Endurance…).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

import param

from ..i18n import Translator, error_text
from .common import FIELD_CSS, LESS_LABEL, MORE_LABEL, SIGNED_PATTERN, UNSIGNED_PATTERN, field_bounds, stepper_width
from .result import BUTTON_CSS
from .taps import TapAnswered, with_taps

__all__ = ["EditSheet", "field_row"]


def field_row(
    tr: Translator,
    model: param.Parameterized,
    key: str,
    label: str,
    *,
    errors_of: param.Parameterized | None = None,
    bounds: tuple[int | None, int | None] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The row of ``model``'s field ``key`` for an :class:`EditSheet`: its translated label, raw
    text, translated error ('' when right), bounds and the −/+ buttons' names; ``extra`` adds the
    row's ``star`` and ``roll`` (see the class)."""
    low, high = field_bounds(model, key, bounds)
    error = (errors_of or model).errors.get(key)  # type: ignore[attr-defined]
    name = tr(label)
    return {
        "key": key,
        "label": name,
        "value": getattr(model, key),
        "error": error_text(tr, error) if error is not None else "",
        "low": low,
        "high": high,
        "pattern": SIGNED_PATTERN if low is None or low < 0 else UNSIGNED_PATTERN,
        "width": stepper_width(low, high),
        "less": tr(LESS_LABEL, field=name),
        "more": tr(MORE_LABEL, field=name),
        "note": "",
        "star": None,
        "roll": "",
        **extra,
    }


class EditSheet(TapAnswered):
    """Columns of titled groups of rows. Each row is a number field with its label above it, − and +
    beside it and its error under it; then, when the row has them, its ``note`` (a TN), a ★ toggle
    (``star``: ``{"on", "name"}``, the toggle's accessible name) and a ⚄ that rolls it (``roll``: its
    accessible name, '' for none).

    ``columns`` is ``[[{"title": str, "rows": [row]}]]`` (a row as :func:`field_row` makes it).
    Texts are set as text, never as markup. What is typed or stepped is sent as ``edit``
    (``[n, key, text]``), each key at once; a star as ``[n, "star:" + key, "1" | ""]``. The typed
    text is never rewritten while it is typed: Python's echo of what a field sent is known as
    such, and only a value from Python itself (another hero, a loaded sheet) replaces it. A ⚄
    tap is sent as ``tap`` and answered in ``ack`` (:class:`~webapp.views.taps.TapAnswered`).
    Rows whose keys stay the same are updated in place, so the field being typed in keeps its
    focus, caret and keyboard.
    """

    columns = param.List(default=[], doc="The columns of groups of rows (see the class)")
    column_width = param.Integer(default=250)
    flow = param.Boolean(default=False, doc="A group's rows side by side, as many as the column holds")
    edit = param.String(default="", doc="The last edit, as JSON: [n, key, text]")

    _priority_changes: ClassVar[list[str]] = ["tap", "edit"]

    _esm = with_taps("""
export function render({ model, el }) {
  const sheet = document.createElement("div");
  sheet.className = "k-edit-sheet";
  el.append(sheet);
  const taps = answeredTaps(model);
  let rows = new Map();  // key -> {input, less, more, label, error, note, star, roll, row}
  let shape = "";
  let edits = 0;
  // The texts each field sent that Python has not echoed yet: its echoes come in order, so the
  // echo of an earlier one must not overwrite what was typed after it.
  const pending = new Map();
  const send = (key, text) => {
    const sent = pending.get(key) || [];
    sent.push(text);
    if (sent.length > 100) sent.shift();
    pending.set(key, sent);
    edits += 1;
    model.edit = JSON.stringify([edits, key, text]);
  };
  // Python's value for a key: an echo of what was sent leaves the field as it is
  const echoed = (key, value) => {
    const sent = pending.get(key) || [];
    const i = sent.indexOf(value);
    if (i >= 0) { sent.splice(0, i + 1); return true; }
    pending.set(key, []);
    return false;
  };
  const read = (input) => {
    const text = input.value.trim().replace(/^\\u2212/, "-");
    return /^[-+]?[0-9]+$/.test(text) ? parseInt(text, 10) : null;
  };
  const bounds = (parts) => {
    const n = read(parts.input), row = parts.row;
    parts.less.disabled = n !== null && row.low !== null && n <= row.low;
    parts.more.disabled = n !== null && row.high !== null && n >= row.high;
  };
  const make = (tag, className) => {
    const element = document.createElement(tag);
    element.className = className;
    if (tag === "button") element.type = "button";
    return element;
  };
  const build = (row) => {
    const id = `f-${row.key}`;
    const line = make("div", "k-edit-row");
    const field = make("div", "number-field has-stepper");
    const label = make("label", "number-label");
    label.htmlFor = id;
    const input = make("input", "bk-input");
    input.id = id;
    input.type = "text";
    input.autocomplete = "off";
    input.spellcheck = false;
    input.inputMode = "numeric";
    input.setAttribute("autocapitalize", "off");
    const less = make("button", "bk-btn bk-btn-default number-step number-less");
    less.textContent = "\\u2212";
    const more = make("button", "bk-btn bk-btn-default number-step number-more");
    more.textContent = "+";
    const stepper = make("div", "number-row");
    stepper.append(less, input, more);
    const error = make("div", "field-error");
    error.id = `e-${row.key}`;
    error.setAttribute("aria-live", "polite");
    field.append(label, stepper, error);
    const note = make("div", "readout k-edit-note");
    line.append(field, note);
    const parts = {line, input, less, more, label, error, note, field, row, star: null, roll: null};
    if (row.star) {
      const star = make("button", "k-btn k-star");
      star.addEventListener("click", () => {
        const on = star.getAttribute("aria-pressed") !== "true";
        star.setAttribute("aria-pressed", on ? "true" : "false");
        star.textContent = on ? "\\u2605" : "\\u2606";
        send(`star:${row.key}`, on ? "1" : "");
      });
      line.append(star);
      parts.star = star;
    }
    if (row.roll) {
      const roll = make("button", "k-btn k-roll");
      roll.textContent = "\\u2684";
      taps.bind(roll, row.key);
      taps.look(roll, row.key);
      line.append(roll);
      parts.roll = roll;
    }
    input.addEventListener("input", () => { send(row.key, input.value); bounds(parts); });
    const step = (delta) => {
      const n = read(input), r = parts.row;
      let next = (n === null ? 0 : n) + delta;
      if (r.low !== null && next < r.low) next = r.low;
      if (r.high !== null && next > r.high) next = r.high;
      input.value = String(next);
      send(row.key, input.value);
      bounds(parts);
    };
    less.addEventListener("click", () => step(-1));
    more.addEventListener("click", () => step(1));
    return parts;
  };
  const fill = (parts, row) => {
    parts.row = row;
    parts.label.textContent = row.label;
    parts.input.pattern = row.pattern;
    parts.field.style.width = `${row.width}px`;
    parts.less.setAttribute("aria-label", row.less);
    parts.less.title = row.less;
    parts.more.setAttribute("aria-label", row.more);
    parts.more.title = row.more;
    if (!echoed(row.key, row.value) && parts.input.value !== row.value) parts.input.value = row.value;
    parts.error.textContent = row.error;
    parts.field.classList.toggle("invalid", !!row.error);
    if (row.error) {
      parts.input.setAttribute("aria-invalid", "true");
      parts.input.setAttribute("aria-describedby", parts.error.id);
    } else {
      parts.input.removeAttribute("aria-invalid");
      parts.input.removeAttribute("aria-describedby");
    }
    parts.note.textContent = row.note;
    if (parts.star) {
      const on = row.star.on ? "1" : "";
      if (!echoed(`star:${row.key}`, on)) {
        parts.star.setAttribute("aria-pressed", on ? "true" : "false");
        parts.star.textContent = on ? "\\u2605" : "\\u2606";
      }
      parts.star.setAttribute("aria-label", row.star.name);
      parts.star.title = row.star.name;
    }
    if (parts.roll) {
      parts.roll.setAttribute("aria-label", row.roll);
      parts.roll.title = row.roll;
    }
    bounds(parts);
  };
  const draw = () => {
    const columns = model.columns || [];
    const now = JSON.stringify(columns.map((c) => c.map((g) => g.rows.map((r) => [r.key, !!r.star, !!r.roll]))));
    if (now !== shape) {
      shape = now;
      rows = new Map();
      const boxes = [];
      for (const column of columns) {
        const box = make("div", "k-edit-column");
        box.style.width = `${model.column_width}px`;
        for (const group of column) {
          box.append(make("div", "card-title edit-title"));
          const holder = model.flow ? make("div", "k-flow") : box;
          if (model.flow) box.append(holder);
          for (const row of group.rows) {
            const parts = build(row);
            rows.set(row.key, parts);
            holder.append(parts.line);
          }
        }
        boxes.push(box);
      }
      sheet.replaceChildren(...boxes);
    }
    const titles = sheet.querySelectorAll(".edit-title");
    columns.flat().forEach((group, i) => { titles[i].textContent = group.title; });
    for (const column of columns) for (const group of column) for (const row of group.rows) fill(rows.get(row.key), row);
  };
  model.on("columns", draw);
  draw();
}
""")

    _stylesheets: ClassVar[list[str]] = [
        BUTTON_CSS,
        FIELD_CSS,
        """
.k-edit-sheet { display: flex; flex-wrap: wrap; }
.k-edit-column { box-sizing: border-box; max-width: 100%; margin: 5px 10px; }
.edit-title:empty { display: none; }
.k-edit-row { display: flex; align-items: flex-start; gap: 4px; margin: 2px 0; }
.k-flow { display: flex; flex-wrap: wrap; column-gap: 14px; }
.k-edit-row .number-field { flex: 0 0 auto; }
.k-edit-note { margin-top: 28px; }
.k-edit-note:empty { display: none; }
.k-edit-row .k-btn { flex: 0 0 auto; width: 48px; height: 48px; margin-top: 22px; padding: 0; }
.k-edit-row .k-star { font-size: 24px; }
.k-edit-row .k-star[aria-pressed="true"] { color: var(--k-accent, #0b5cad); }
.k-edit-row .k-roll { width: 52px; }
""",
    ]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._edit_callbacks: list[Callable[[str, str], Any]] = []
        self._edits = 0
        self.param.watch(self._edited, "edit")

    def on_edit(self, callback: Callable[[str, str], Any]) -> None:
        """Call ``callback(key, text)`` on each edit (a star's key is ``"star:" + key``)."""
        self._edit_callbacks.append(callback)

    def type(self, key: str, text: str) -> None:
        """Type ``text`` into the field of ``key`` (or, for ``"star:" + key``, set its star), as the browser does."""
        self._edits += 1
        self.edit = json.dumps([self._edits, key, text])

    def row(self, key: str) -> dict[str, Any]:
        """The row of ``key`` as it is drawn."""
        return next(r for r in self.rows if r["key"] == key)

    @property
    def rows(self) -> list[dict[str, Any]]:
        return [r for column in self.columns for group in column for r in group["rows"]]

    @property
    def titles(self) -> list[str]:
        return [group["title"] for column in self.columns for group in column]

    def _edited(self, event: Any) -> None:
        try:
            _count, key, text = json.loads(event.new)
        except (TypeError, ValueError):
            return
        if not isinstance(key, str) or not isinstance(text, str):
            return
        for callback in self._edit_callbacks:
            callback(key, text)
