"""Getting the browser's interpreter ready before the first page asks for the app.

The static site's worker (``static/worker.js``) keeps a memory snapshot of the interpreter
with Panel and the app imported. :func:`warm_up` runs just before that snapshot is taken:
it draws the app once into a document that nobody sees and lets it go, so that the snapshot
also holds everything Bokeh, Panel and the app import or compile on their first use. A later
start restores the snapshot and builds the visitor's own app on a warm interpreter: about
half the time of a first build.
"""

from __future__ import annotations

import gc

from bokeh.document import Document
from panel.io.state import state

from webapp.views.shell import KostkaApp


def warm_up() -> None:
    """Build, serialise and discard one app; leave no trace in Panel's global state."""
    _draw_once()
    gc.collect()  # the app is a web of cycles (widgets watching each other): free it now


def _draw_once() -> None:
    doc = Document()
    layout = KostkaApp().__panel__()
    root = layout.get_root(doc)
    doc.add_root(root)
    doc.to_json()  # what panel's write_doc sends to the page: warms Bokeh's serialiser too
    layout._cleanup(root)
    doc.clear()
    state._views.pop(root.ref["id"], None)
