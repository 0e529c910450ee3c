"""The page's still moments: when the player has left the page alone for a moment, Python may
make, one small step at a time, what it may be asked for next.

The browser watches the player's hands (taps, keys, typing, scrolling) and the page (Python's
changes coming in). Once both have been still for ``delay`` milliseconds, and Python has answered
the moment before, it sends the next moment as ``still``; the callback given to
:meth:`StillPage.on_still` makes one step and Python answers with ``more``, whether anything is
left to make. Each touch of the page, and each change drawn, waits the delay again: a step never
starts while the player is busy, and a tap lands behind one step at most. Each step is timed in
the page, from the moment sent until its answer is taken in (a ``kostka-still-step`` performance
measure, which ``benchmarks/bench_table.py`` reads).

It also tells Python when the page has drawn what it was sent (:meth:`StillPage.after_drawn`):
a screen made on a tap sends its first screen, and the rest once the page has shown it.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, ClassVar

import panel as pn
import param
from panel.io.state import set_curdoc

from .common import after_this_change, drawn_by
from .component import Component

__all__ = ["StillPage"]


class StillPage(Component):
    """Sends ``still`` (the n-th still moment) once the player's hands and the page have been still
    for ``delay`` ms; Python answers each in ``answered`` and says in ``more`` whether to go on."""

    delay = param.Integer(default=1500, bounds=(0, None), doc="How long a still moment is, in ms")
    still = param.Integer(default=0, doc="The last still moment the browser has sent")
    answered = param.Integer(default=0, doc="The last still moment Python has answered")
    more = param.Boolean(default=True, doc="Whether Python has anything left to make")
    drawing = param.Integer(default=0, doc="The last change Python has asked the page to say it has drawn")
    drawn = param.Integer(default=0, doc="The last such change the page has drawn")
    settle = param.Integer(default=200, bounds=(0, None), doc="How long the page waits still before it says so, in ms")

    #: The parameters the moments and their answers travel in: their changes leave the page still.
    _OWN: ClassVar[frozenset[str]] = frozenset({"delay", "still", "answered", "more", "drawing", "drawn", "settle"})

    #: How long a step waits for the page to say it has drawn what came before it (an answer lost
    #: on the way never holds it back for longer), in seconds.
    DRAWN_WAIT = 2.0

    _esm = """
export function render({ model, view }) {
  let timer = null;
  let asked = null;  // the moment sent, and when: its step is timed until the answer is taken in
  const arm = () => {
    clearTimeout(timer);
    timer = null;
    if (asked && model.answered >= asked.moment) {
      performance.measure("kostka-still-step", {start: asked.at});
      asked = null;
    }
    if (!model.more || model.still !== model.answered) return;  // nothing to make, or a step on its way
    timer = setTimeout(() => {
      asked = {moment: model.answered + 1, at: performance.now()};
      model.still = asked.moment;
    }, model.delay);
  };
  // Python asks when what it sent before ``drawing`` is on screen: answered once the page and the
  // player's hands have been still for a short moment since (a frame has shown it, and a tap
  // meanwhile reaches Python first: it waits behind no rest of a screen).
  let settle = null;
  const answerLater = () => {
    clearTimeout(settle);
    settle = model.drawing > model.drawn ? setTimeout(() => { model.drawn = model.drawing; }, model.settle) : null;
  };
  const touched = () => { arm(); answerLater(); };
  for (const kind of ["pointerdown", "click", "keydown", "input", "focusin", "wheel", "scroll"]) {
    document.addEventListener(kind, touched, { capture: true, passive: true });
  }
  // A page still taking in Python's changes (a screen being drawn) is not still either. The next
  // moment is counted once an answer has been taken in (a change made while the page applies
  // Python's changes is not sent back).
  view.model.document?.on_change(() => queueMicrotask(touched), true);
  arm();
}
"""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._step: Callable[[], bool] = lambda: False
        self._watched: Any = None  # the document whose changes are watched
        self._last_change = -math.inf
        self._after_drawn: list[tuple[int, Callable[[], None]]] = []  # (its number, the step)
        self._asked = 0  # the last question's number
        self._asking = False  # whether it is still to be sent
        self.param.watch(self._still, "still")
        self.param.watch(self._drawn, "drawn")

    def on_still(self, step: Callable[[], bool]) -> None:
        """Call ``step()`` in each still moment; it makes one thing and says whether more is left."""
        self._step = step

    def watch(self, doc: Any) -> None:
        """Watch ``doc``'s changes from now on (the page is drawn), as if it had just changed: the
        first still moment can then make a step. (Unwatched, the first moment only starts watching.)"""
        if doc is not None and doc is not self._watched:
            self._watched = doc
            doc.on_change(self._changed)
            self._last_change = time.monotonic()
            drawn_by[doc] = self.after_drawn

    def after_drawn(self, step: Callable[[], None]) -> None:
        """Run ``step`` once the page has drawn what is being changed now and been still for
        ``settle`` ms since: the page shows a screen's first part before it takes in the next, and
        a tap meanwhile is answered before it. The question follows this callback's changes, so
        the page answers after taking them in; no answer within ``DRAWN_WAIT`` s counts as one.
        In the browser's worker (its event loop running), through
        :func:`~webapp.views.common.after_drawn` once the page is watched."""
        if self._asking:  # the same question as the steps before it in this callback
            self._after_drawn.append((self._asked, step))
            return
        self._asked += 1
        number = self._asked
        self._after_drawn.append((number, step))
        self._asking = True

        def ask() -> None:
            self._asking = False
            doc = pn.state.curdoc
            self.drawing = number
            asyncio.get_running_loop().call_later(self.DRAWN_WAIT, lambda: self._run_drawn(number, doc))

        after_this_change(ask)

    def _drawn(self, event: Any) -> None:
        self._run_drawn(event.new, pn.state.curdoc)

    def _run_drawn(self, upto: int, doc: Any) -> None:
        due = [step for number, step in self._after_drawn if number <= upto]
        self._after_drawn = [(number, step) for number, step in self._after_drawn if number > upto]
        with set_curdoc(doc) if doc is not None else nullcontext():
            for step in due:
                step()

    def wake(self) -> None:
        """There may be something to make again (a new screen was shown)."""
        self.more = True

    def _changed(self, event: Any) -> None:
        """A model changed in the document, unless the change is one of this component's own
        parameters (the moments and their answers). Other events (a server's callbacks added and
        removed) are not changes."""
        if getattr(event, "model", None) is not None and getattr(event, "attr", None) not in self._OWN:
            self._last_change = time.monotonic()

    def _still(self, event: Any) -> None:
        # The browser cannot see Python at work: a moment sent while Python was busy (a screen being
        # made) is only answered, unless the document has been still for the delay as well.
        self.watch(pn.state.curdoc)  # unwatched till now: watched from this first moment on
        more = True  # a step that fails is tried again in the next moment
        try:
            if time.monotonic() - self._last_change >= self.delay / 1000:
                more = self._step()
        finally:
            self.param.update(more=more, answered=event.new)
