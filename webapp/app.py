"""Entry module for both ``panel serve webapp/app.py`` and the static build (``panel convert``)."""

from __future__ import annotations

import os
import sys

try:  # running from a source checkout without installing the package
    import webapp  # noqa: F401
except ImportError:  # pragma: no cover - depends on how the app is started
    if "__file__" not in globals():  # the browser build installs the package: nothing to add
        raise
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import panel as pn

from webapp.i18n import normalise_language
from webapp.views.callbacks import check_signatures_once
from webapp.views.common import APP_CSS, APP_CSS_FILE, models_frozen
from webapp.views.shell import KostkaApp

#: The static site serves the stylesheet as a file: one shared link instead of a copy per component.
STYLESHEET = {"css_files": [APP_CSS_FILE]} if sys.platform == "emscripten" else {"raw_css": [APP_CSS]}
pn.extension(notifications=False, **STYLESHEET)
check_signatures_once()  # each model made links a score of callbacks: their signatures checked once


def use_stylesheet() -> None:
    """Give the current document Kostka's stylesheet. Panel keeps ``pn.extension``'s stylesheets per
    document, and its server runs this module again for each page, but the static site's snapshot
    draws one app per language into documents of their own from one run of it (webapp/startup.py):
    without this, all but the first would be drawn with no stylesheet."""
    for key, sheets in STYLESHEET.items():
        current = getattr(pn.config, key)
        missing = [sheet for sheet in sheets if sheet not in current]
        if missing:
            setattr(pn.config, key, [*current, *missing])


def main() -> KostkaApp:
    app = KostkaApp()
    # The static site's loader has chosen the language (the address's ?lang=, storage, then the
    # browser's): draw the first screen in it rather than switching after the first paint.
    chosen = os.environ.get("KOSTKA_LANG", "")
    if chosen:
        app.tr.lang = normalise_language(chosen)
    location = pn.state.location
    if location is not None and location.search:
        app.apply_url()  # the server knows the address already: draw the right screen at once
    doc = pn.state.curdoc
    if doc is not None:
        # (Panel's Pyodide worker marks the document as loaded once the page has drawn it, as its
        # server does: panel.io.pyodide._link_docs_worker, since Panel 1.8.)
        # drawn and linked: apply the address (if not yet) and storage
        doc.on_event("document_ready", app.page_ready)
    return app


def serve() -> KostkaApp:
    """Draw a new app into the current document: a page of Panel's server, or the static site's."""
    use_stylesheet()
    with models_frozen(pn.state.curdoc):  # its roots: the app, its location…
        app = main()
        app.servable(title="Kostka")
    if sys.platform == "emscripten":
        # The static site's interpreter snapshot is taken after this: its visitors start from
        # this app (webapp/startup.py).
        from webapp.startup import keep

        keep(app)
    return app


if __name__.startswith("bokeh") or __name__ == "__main__":
    serve()
