"""Buttons drawn in the browser whose taps Python answers one at a time.

A roll's button, a play sheet's row, a creature on the fight's board, a special success under a
roll: each is pressed the moment it is tapped, and stays pressed, deaf to further taps, until
Python has answered that tap (a double tap never makes two rolls). The browser's side is
:data:`TAPS_JS`, one function added to each such component's module; Python's side is
:class:`TapAnswered`, the ``tap`` and ``ack`` of the component and the answering of each tap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import param

from .component import Component

__all__ = ["TAPS_JS", "TapAnswered", "with_taps"]

#: ``answeredTaps(model, {send, ack, queue})``, in the browser: ``bind(button, key)`` makes a button
#: send its key when tapped, as ``model.tap = "<n>:<key>"`` (the component's n-th tap) unless
#: ``send(n, key)`` says otherwise; Python answers ``n`` in ``model[ack]``. Until then the button
#: stays pressed (``k-pressed``, ``aria-busy``) and another tap is dropped, or, with ``queue``, kept
#: and sent in turn once the one before is answered (a creature and then its place, tapped quickly,
#: both count; a second tap on a button still waiting is dropped either way). ``busy(key)`` tells a
#: redraw which buttons to draw pressed (``look(button, key)``). An answer lost on the way never
#: locks the component: after 8 s it counts as given. A tap kept waiting is sent just after the
#: answer before it has been taken in (a model change made while the page applies Python's changes
#: is not sent back).
TAPS_JS = """
function answeredTaps(model, { send = null, ack = "ack", queue = false } = {}) {
  const line = [];  // keys tapped and not sent yet
  const pressed = new Map();  // button -> key, drawn pressed until its key is answered
  let waiting = null, taps = 0, timer = null;
  const busy = (key) => waiting === key || line.includes(key);
  const look = (b, key) => {
    if (busy(key)) {
      b.classList.add("k-pressed");
      b.setAttribute("aria-busy", "true");
      pressed.set(b, key);
    }
  };
  const next = () => {
    if (waiting !== null || !line.length) return;
    waiting = line.shift();
    taps = Math.max(taps, model[ack]) + 1;
    timer = setTimeout(answered, 8000);
    if (send) send(taps, waiting); else model.tap = `${taps}:${waiting}`;
  };
  const answered = () => {
    clearTimeout(timer);
    waiting = null;
    for (const [b, key] of [...pressed]) {
      if (busy(key)) continue;
      b.classList.remove("k-pressed");
      b.removeAttribute("aria-busy");
      pressed.delete(b);
    }
    // The next tap is sent once the page has taken in this answer: a change made while it does
    // so would never reach Python.
    queueMicrotask(next);
  };
  model.on(ack, answered);
  const bind = (b, key) => {
    b.addEventListener("pointerdown", () => { if (!b.disabled) b.classList.add("k-pressed"); });
    for (const kind of ["pointerup", "pointercancel", "pointerleave"]) {
      b.addEventListener(kind, () => { if (!pressed.has(b)) b.classList.remove("k-pressed"); });
    }
    b.addEventListener("click", (event) => {
      event.stopPropagation();
      if (b.disabled || busy(key) || (!queue && waiting !== null)) return;
      line.push(key);
      look(b, key);
      next();
    });
    return b;
  };
  return { bind, busy, look };
}
"""


def with_taps(module: str) -> str:
    """A component's ES module with :data:`TAPS_JS` before it."""
    return TAPS_JS + module


class TapAnswered(Component):
    """A component whose buttons send ``tap`` (``"<n>:<key>"``) and whose n-th tap Python answers in
    ``ack`` (see the module), the answer given whatever the callbacks do. A key that :meth:`_read`
    cannot read (``None``) calls no callback, and is answered too."""

    tap = param.String(default="", doc="The last tap: '<n>:<key>'")
    ack = param.Integer(default=0, doc="The last tap Python has answered")

    _priority_changes: ClassVar[list[str]] = ["tap"]

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._tap_callbacks: list[Callable[[Any], Any]] = []
        self.param.watch(self._tapped, "tap")

    def on_tap(self, callback: Callable[[Any], Any]) -> None:
        """Call ``callback(what)`` on each tap (``what``: the key, as :meth:`_read` reads it)."""
        self._tap_callbacks.append(callback)

    def press(self, key: str) -> None:
        """Tap the button of ``key``, as the browser does."""
        self.tap = f"{self.ack + 1}:{key}"

    def _read(self, key: str) -> Any:
        """What a tap's key stands for (the key itself); None for a key that says nothing."""
        return key or None

    def _tapped(self, event: Any) -> None:
        count, _, key = event.new.partition(":")
        try:
            what = self._read(key)
            if what is not None:
                for callback in self._tap_callbacks:
                    callback(what)
        finally:
            if count.isdigit():
                self.ack = int(count)
