"""A sheet's play view drawn by the browser from one list: each ability a one-tap row.

One component for all the rows, instead of a button component per ability: a switch to a screen
in Play draws one model where it drew some sixty (the rows, their titles and columns).
"""

from __future__ import annotations

from typing import ClassVar

import param

from .result import BUTTON_CSS
from .taps import TapAnswered, with_taps

__all__ = ["PlaySheet"]


class PlaySheet(TapAnswered):
    """Columns of titled groups of rows; each row a button with the ability's name at the left and
    its rating at the right end, named by its ``description`` ("Roll Awareness").

    ``columns`` is ``[[{"title": str, "rows": [{"key", "label", "value", "description"}]}]]``: the
    columns, each a list of groups. The texts are set as text, never as markup. A tap is sent as
    ``tap`` (``"<n>:<key>"``, the sheet's n-th tap); Python answers it in ``ack``. Until then the
    tapped row stays pressed and further taps on the sheet are dropped (a second tap while a roll is
    on its way is no second roll). Rows whose keys stay the same are updated in place, so a row
    that has the keyboard's focus keeps it.
    """

    columns = param.List(default=[], doc="The columns of groups of rows (see the class)")
    column_width = param.Integer(default=166)
    row_width = param.Integer(default=0, doc="Rows this wide side by side in their group (0: one a line)")
    row_height = param.Integer(default=44)

    _esm = with_taps("""
export function render({ model, el }) {
  const sheet = document.createElement("div");
  sheet.className = "k-play-sheet";
  el.append(sheet);
  let buttons = new Map();  // key -> button
  let shape = "";
  const taps = answeredTaps(model);
  const fill = (b, row) => {
    b.querySelector(".k-name").textContent = row.label;
    b.querySelector(".k-value").textContent = row.value;
    b.setAttribute("aria-label", row.description);
    b.title = row.description;
  };
  const button = (row) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "k-btn";
    const name = document.createElement("span");
    name.className = "k-name";
    const value = document.createElement("span");
    value.className = "k-value";
    b.append(name, value);
    taps.bind(b, row.key);
    taps.look(b, row.key);
    return b;
  };
  const draw = () => {
    const columns = model.columns || [];
    const now = JSON.stringify(columns.map((c) => c.map((g) => g.rows.map((r) => r.key))));
    if (now === shape) {  // the same rows: new texts in place (a focused row keeps its focus)
      for (const column of columns) for (const group of column) for (const row of group.rows) {
        fill(buttons.get(row.key), row);
      }
      sheet.querySelectorAll(".play-title").forEach((title, i) => {
        title.textContent = columns.flat()[i].title;
      });
      return;
    }
    shape = now;
    buttons = new Map();
    const parts = [];
    for (const column of columns) {
      const box = document.createElement("div");
      box.className = "k-play-column";
      box.style.width = `${model.column_width}px`;
      for (const group of column) {
        const title = document.createElement("div");
        title.className = "card-title play-title";
        title.textContent = group.title;
        box.append(title);
        let rows = box;
        if (model.row_width > 0) {  // rows side by side, as many as the column holds
          rows = document.createElement("div");
          rows.className = "k-flow";
          box.append(rows);
        }
        for (const row of group.rows) {
          const holder = document.createElement("div");
          holder.className = "k-play-row";
          holder.style.height = `${model.row_height}px`;
          if (model.row_width > 0) holder.style.width = `${model.row_width}px`;
          const b = button(row);
          fill(b, row);
          buttons.set(row.key, b);
          holder.append(b);
          rows.append(holder);
        }
      }
      parts.push(box);
    }
    sheet.replaceChildren(...parts);
  };
  model.on("columns", draw);
  draw();
}
""")

    _stylesheets: ClassVar[list[str]] = [
        BUTTON_CSS,
        """
.k-play-sheet { display: flex; flex-wrap: wrap; }
.k-play-column { box-sizing: border-box; max-width: 100%; }
.k-play-column .play-title { margin: 6px 3px 0; }
.k-play-column .play-title:empty { display: none; }
.k-play-row { margin: 2px 3px; }
.k-flow { display: flex; flex-wrap: wrap; }
/* a phone holds two of the wider rows (GURPS skills) side by side */
@media (max-width: 600px) { .k-flow > .k-play-row { width: 164px !important; } }
""",
    ]

    def row(self, key: str) -> dict[str, str]:
        """The row of ``key`` as it is drawn (label, value, description)."""
        return next(r for column in self.columns for group in column for r in group["rows"] if r["key"] == key)

    @property
    def titles(self) -> list[str]:
        return [group["title"] for column in self.columns for group in column]
