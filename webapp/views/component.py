"""The base of the app's own browser components (Panel ``JSComponent``)."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any, ClassVar

from panel.custom import JSComponent

__all__ = ["Component"]


@cache
def _bundle(cls: type, esm: str) -> str:
    """The name the page keeps ``cls``'s module under: its class and a digest of its text."""
    return f"{cls.__module__}.{cls.__qualname__}-{hashlib.sha256(esm.encode()).hexdigest()[:16]}"


class Component(JSComponent):
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
