"""The base of the app's own browser components (Panel ``JSComponent``)."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any, ClassVar

from panel.custom import JSComponent

__all__ = ["Component", "LockedChanges"]


class LockedChanges:
    """Mixed into a component whose changes from the page are *priority* changes (a tap, a
    keystroke: ``_priority_changes``), so that on Panel's server they are handled with the
    document's lock held, as Panel before 1.8 handled them. Panel 1.8 and later schedule a priority
    change through its asynchronous executor (``panel.io.server.async_execute``), which holds the
    lock only for a callback that says so with a ``lock`` attribute; the app's callbacks change
    Bokeh models directly (a chart's data), and Bokeh's server refuses a change made without the
    lock, so a keystroke with the charts open was lost. (In the browser's worker there is no lock
    to take: nothing changes there.)"""

    async def _change_coroutine(self, doc: Any, event_id: str | None = None) -> None:
        await super()._change_coroutine(doc, event_id=event_id)  # type: ignore[misc]

    _change_coroutine.lock = True  # type: ignore[attr-defined]


@cache
def _bundle(cls: type, esm: str) -> str:
    """The name the page keeps ``cls``'s module under: its class and a digest of its text."""
    return f"{cls.__module__}.{cls.__qualname__}-{hashlib.sha256(esm.encode()).hexdigest()[:16]}"


class Component(LockedChanges, JSComponent):
    """A ``JSComponent`` whose ES module (``_esm``) is plain JavaScript, given to the page as a
    *bundle*: the page imports each class's module once, under its name, and runs it as it is. A
    module that is no bundle is transformed (from TypeScript, by the page's sucrase) for each
    component drawn, even when its module was imported before: some 10 ms a component with the CPU
    4× slower, and a sheet draws a dozen number fields. (The private names relied on are listed in
    ``kostka_build/internals.py``.)"""

    #: No bundle file lies beside the module: Panel looks for one on disk (some ten file-system
    #: lookups) each time a component is drawn, unless the class says where it is.
    _bundle_path: ClassVar[None] = None

    def _get_properties(self, doc: Any) -> dict[str, Any]:
        props = super()._get_properties(doc)
        if props.get("bundle") is None:
            props["bundle"] = _bundle(type(self), props["esm"])
        return props
