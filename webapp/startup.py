"""The app a restored interpreter hands to the visitor.

The static site's worker (``static/worker.js``) starts from a memory snapshot of the interpreter
that ``build.py`` takes after running the page's code (``webapp/app.py`` as ``panel convert``
wraps it) up to, not including, writing the document for the page: the app is built and its
Bokeh document made, in English, for nobody yet. :func:`keep` marks that app. A restored
interpreter then has only :func:`welcome` left to run before the document is written: the app
switches to the visitor's language, which is a fraction of building it.

The prepared app holds no visitor's data: the address, the browser's storage and the theme reach
it once the page is drawn (``KostkaApp.page_ready``), as they do after a fresh boot. Roll seeds are
drawn from the browser's crypto source when a roll is made, never from the interpreter's state.
"""

from __future__ import annotations

from panel.io.state import state

from webapp.i18n import normalise_language
from webapp.views.shell import KostkaApp

__all__ = ["keep", "welcome"]

_prepared: KostkaApp | None = None


def keep(app: KostkaApp) -> None:
    """Remember ``app`` (drawn into the current document) for :func:`welcome`."""
    global _prepared
    _prepared = app


def welcome(language: str) -> KostkaApp:
    """Hand the prepared app to the visitor, in ``language``; the document is ready to be written.

    Raises RuntimeError when there is no prepared app, or it was handed out already.
    """
    global _prepared
    app, doc = _prepared, state.curdoc
    if app is None or doc is None:
        raise RuntimeError("no prepared app to hand out")
    _prepared = None
    # Panel's worker holds the document's changes until the page has drawn it, then sends them.
    # Every change made here is in the document the page is about to get, and nothing listens yet:
    # the switch runs unheld, each change handled at once as on Panel's server, and the page is
    # not sent them again once it is linked.
    doc.unhold()
    app.tr.lang = normalise_language(language)
    # Panel's own hold(), which a JS component's update uses, ends on a document not yet drawn by
    # leaving its changes queued, to be delivered after that update has stopped waiting for their
    # echoes (which would then look like the page's own changes). On a drawn document they would
    # have been delivered as expected echoes, and ignored: drop them, as Panel itself does with a
    # document's queue when it patches stylesheets (panel.io.resources).
    doc.callbacks._held_events = []
    doc.hold()  # as the worker had it, for what happens before the page is linked
    return app
