"""The fight's encounter board: who waits on each side's bench, and the formations' places.

One component draws every creature's button and every place (a fight of four formations would
otherwise be some forty Bokeh models, each made in Python and drawn on its own when the fight
screen opens). The fight screen (:mod:`webapp.views.fight`) hands it what to show and hears its taps.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import param

from .result import BUTTON_CSS
from .taps import TapAnswered, with_taps

__all__ = ["EncounterBoard", "PLACES"]

#: A formation's places from left to right, as the board draws a line: the heroes' defending and
#: attacking places, the front, then the monsters' attacking and defending places.
PLACES = (("heroes", "defending"), ("heroes", "attacking"), ("monsters", "attacking"), ("monsters", "defending"))


class EncounterBoard(TapAnswered):
    """The benches and the formations, each creature and place a button.

    ``benches`` is ``[{"side", "label", "names", "selected"}]``, the heroes' bench then the monsters':
    who waits there (``selected``: the one tapped, or ``""``). ``heads`` are the four places' heads,
    in :data:`PLACES` order. ``lines`` are the formations, each four places in that order:
    ``{"name", "selected", "hidden"}`` (a hidden place keeps its room, so that the sides' lines stay
    face to face). ``actions`` are the buttons under the formations, ``[{"key", "label"}]`` (adding
    and removing formations, taking a creature out). Texts are set as text, never as markup.

    A tap is sent as ``tap`` (``"<n>:bench:<side>:<name>"``, ``"<n>:place:<side>:<k>:<pos>"`` or
    ``"<n>:act:<key>"``, the board's n-th tap) and Python answers it in ``ack``. Taps are kept in
    order in the browser and sent one at a time, each once the one before is answered: a creature
    and then its place, tapped quickly, both count. The tapped button is pressed at once; a second tap on it before it is
    answered is dropped.
    """

    benches = param.List(default=[], doc="The benches (see the class)")
    heads = param.List(default=[], doc="The four places' heads")
    lines = param.List(default=[], doc="The formations' places (see the class)")
    actions = param.List(default=[], doc="The buttons under the formations (see the class)")

    _esm = with_taps("""
export function render({ model, el }) {
  const board = document.createElement("div");
  board.className = "k-board";
  el.append(board);
  const SIDES = [["heroes", "defending"], ["heroes", "attacking"], ["monsters", "attacking"], ["monsters", "defending"]];
  const taps = answeredTaps(model, { queue: true });
  // Every element is kept by its key and updated in place: a button keeps its focus and its
  // pressed look through the redraws that answer taps.
  let kept = new Map();
  const keep = (key, make) => {
    const element = kept.get(key) || make();
    fresh.set(key, element);
    return element;
  };
  let fresh = new Map();
  const makeButton = (key) => {
    const b = document.createElement("button");
    b.type = "button";
    return taps.bind(b, key);
  };
  const button = (key, text, selected) => {
    const b = keep(key, () => makeButton(key));
    b.className = "k-btn" + (selected ? " primary" : "");
    taps.look(b, key);
    b.textContent = text;
    b.setAttribute("aria-pressed", selected ? "true" : "false");
    return b;
  };
  const cell = (key, className, ...children) => {
    const div = keep(key, () => document.createElement("div"));
    div.className = className;
    div.replaceChildren(...children);
    return div;
  };
  const text = (key, className, words) => {
    const div = keep(key, () => document.createElement("div"));
    div.className = className;
    div.textContent = words;
    return div;
  };
  const draw = () => {
    fresh = new Map();
    const parts = [];
    for (const bench of model.benches || []) {
      const side = bench.side;
      const seats = bench.names.map((name) => {
        const key = `bench:${side}:${name}`;
        return cell(`seat:${key}`, "k-seat", button(key, name, name === bench.selected));
      });
      if (!seats.length) seats.push(text(`none:${side}`, "muted", "\u2014"));
      parts.push(cell(`bench:${side}`, `k-bench bench-${side}`, text(`label:${side}`, "k-bench-label muted", bench.label), ...seats));
    }
    const heads = (model.heads || []).map((words, i) => text(`head:${i}`, "", words));
    if (heads.length === 4) heads.splice(2, 0, text("head:front", "k-front", ""));
    parts.push(cell("heads", "k-place-head", ...heads));
    (model.lines || []).forEach((line, k) => {
      const places = line.map((place, i) => {
        const [side, pos] = SIDES[i];
        const key = `place:${side}:${k}:${pos}`;
        const b = button(key, place.name, place.selected);
        b.disabled = place.hidden;
        b.tabIndex = place.hidden ? -1 : 0;
        return cell(`cell:${key}`, `k-place place-${side}-${k + 1}-${pos}` + (place.hidden ? " k-hidden" : ""), b);
      });
      places.splice(2, 0, text(`front:${k}`, "k-front", `\u2694 ${k + 1}`));
      parts.push(cell(`line:${k}`, "k-line", ...places));
    });
    const actions = (model.actions || []).map(({ key, label }) => {
      const b = button(`act:${key}`, label, false);
      b.classList.add("k-act");
      return b;
    });
    if (actions.length) parts.push(cell("actions", "k-actions", ...actions));
    const focused = el.getRootNode().activeElement;
    board.replaceChildren(...parts);
    kept = fresh;
    if (focused && focused.isConnected && el.getRootNode().activeElement !== focused) focused.focus();
  };
  model.on(["benches", "heads", "lines", "actions"], draw);
  draw();
}
""")

    _stylesheets: ClassVar[list[str]] = [
        BUTTON_CSS,
        """
.k-board { display: flex; flex-direction: column; gap: 4px; }
.k-bench { display: flex; flex-wrap: wrap; align-items: center; }
.k-bench-label { width: 170px; margin: 0 5px; }
.k-seat { width: 150px; height: 48px; margin: 5px 10px; }
.k-seat .k-btn, .k-place .k-btn { font-size: 16px; }
.k-place-head, .k-line { display: flex; align-items: center; }
.k-place-head { font-weight: 600; font-size: 15px; line-height: 1.2; align-items: flex-end; margin-top: 6px; }
.k-place-head > div { width: 150px; text-align: center; }
.k-place { width: 130px; height: 48px; margin: 4px 10px; }
.k-front { width: 60px; flex: 0 0 auto; text-align: center; font-weight: 700; }
.k-place-head > div.k-front { width: 60px; }
.k-hidden { visibility: hidden; }
.k-actions { display: flex; flex-wrap: wrap; margin-top: 6px; }
.k-btn.k-act { width: auto; min-width: 200px; max-width: calc(100% - 20px); min-height: 48px; height: auto;
  margin: 5px 10px; padding: 6px 14px; white-space: normal; line-height: 1.2; font-size: 16px; }
.k-place .k-btn, .k-seat .k-btn { padding: 0 6px; }
@media (max-width: 600px) {
  .k-bench-label { width: 100%; }
  .k-seat { width: 150px; margin: 4px 5px; }
  .k-place-head { font-size: 13px; }
  .k-place-head > div { width: 74px; }
  .k-place-head > div.k-front, .k-front { width: 34px; }
  .k-place { width: 70px; margin: 4px 2px; }
  .k-place .k-btn { padding: 0 3px; font-size: 14px; }
}
""",
    ]

    def on_tap(self, callback: Callable[[list[str]], Any]) -> None:
        """Call ``callback(parts)`` on each tap: ``["bench", side, name]``, ``["place", side, k, pos]``
        or ``["act", key]``."""
        super().on_tap(callback)

    def waiting(self, side: str) -> list[str]:
        """The names on ``side``'s bench, as drawn."""
        return next(b["names"] for b in self.benches if b["side"] == side)

    def place(self, side: str, k: int, pos: str) -> dict[str, Any]:
        """The place of formation ``k`` (from 0), as drawn."""
        return self.lines[k][PLACES.index((side, pos))]

    def _read(self, key: str) -> list[str] | None:
        """A tap's key (``"bench:heroes:Ada"``, ``"place:heroes:0:attacking"``, ``"act:add:heroes"``)
        as its parts."""
        kind, _, rest = key.partition(":")
        if kind == "act":
            return [kind, rest] if rest else None
        parts = [kind, *rest.split(":", 2 if kind == "place" else 1)]
        return parts if kind in ("bench", "place") and len(parts) == (4 if kind == "place" else 3) else None
