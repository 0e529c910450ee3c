"""The app a restored interpreter hands to the visitor.

The static site's worker (``static/worker.js``) starts from a memory snapshot of the interpreter
that ``build.py`` takes after running the page's code (``webapp/app.py`` as ``panel convert``
wraps it) up to, not including, writing the document for the page, and then serving the app once
more for each of the other languages: one app per language is built, its Bokeh document made and
serialised (:func:`write_prepared`), for nobody yet. :func:`keep` marks each such app. A restored
interpreter then has only :func:`welcome` left to run: it hands out the visitor's language's app
and its document as already written, which is a small fraction of building and writing it.

The browser runs code it has not run since the page opened several times slower than the next
time: it compiles the interpreter's WebAssembly and JavaScript as they are first used, and none of
that is in the snapshot (a roll made before the snapshot was taken leaves a visitor's first roll as
slow). While the page draws the visitor's document the worker has nothing to do: it then rolls once
with another language's app, which nobody sees (:func:`rehearse`), and lets that app go. The
visitor's first roll then runs code the browser has compiled.

A prepared app holds no visitor's data: the loader hands the worker the page's address and what the
browser holds for the app as it starts it, and the app reads them while the page draws the document
(:func:`take_visit`, ``KostkaApp.visit``), as it does after a fresh boot, and sends what they
changed at once, in one patch (:func:`send_held`), which the page takes in as soon as it has drawn
the document. Roll seeds are drawn from the browser's crypto source when a roll is made, never from
the interpreter's state.

The worker calls this module's functions itself, restored or booted afresh: :func:`link` links the
page once it has drawn the document, and :func:`take_page_patch` applies each patch of the page's
changes (:func:`apply_page_patch`).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bokeh.core.serialization import Serialized
from bokeh.document import Document
from bokeh.io.doc import set_curdoc as set_bokeh_curdoc
from panel.io.state import set_curdoc, state
from panel.models.location import Location as LocationModel
from panel.util import edit_readonly

from webapp.i18n import normalise_language
from webapp.views.shell import KostkaApp

__all__ = [
    "apply_page_patch",
    "keep",
    "link",
    "make_screens",
    "prepared_languages",
    "rehearse",
    "send_held",
    "take_location",
    "take_visit",
    "visitor",
    "welcome",
    "write_prepared",
]

#: The JSON texts Panel's worker sends the page to draw a document: the document, its render
#: items and its roots' ids (``panel.io.pyodide.write_doc``).
Written = tuple[str, str, str]


@dataclass
class _Prepared:
    app: KostkaApp
    doc: Document
    written: Written | None = None


_prepared: dict[str, _Prepared] = {}
#: Another language's prepared app, kept by :func:`welcome` for :func:`rehearse`.
_spare: _Prepared | None = None
#: The app handed out by :func:`welcome`, if any.
visitor: KostkaApp | None = None


def keep(app: KostkaApp) -> None:
    """Remember ``app``, drawn into the current document, for a visitor of its language."""
    doc = state.curdoc
    if doc is None:
        raise RuntimeError("the app is not drawn into a document")
    _prepared[app.tr.lang] = _Prepared(app, doc)


def prepared_languages() -> list[str]:
    return list(_prepared)


def make_screens() -> None:
    """Make every screen's Python objects in each prepared app (:meth:`KostkaApp.make_screens`),
    and draw the first screen of each one not shown into its document, hidden
    (:meth:`KostkaApp.place_first_screens`): the snapshot holds them, and a visitor's first switch
    to a system, or to Fate & Doom's fight, shows a first screen the page has already drawn."""
    for prepared in _prepared.values():
        with set_curdoc(prepared.doc):
            prepared.app.make_screens()
            prepared.app.place_first_screens()


def write_prepared(serialise: Callable[[Document], Written]) -> None:
    """Serialise each prepared document now with ``serialise``, as Panel's worker does for the page
    (``panel.io.pyodide._doc_json``). Nothing may change the documents after this."""
    for prepared in _prepared.values():
        prepared.written = serialise(prepared.doc)


def welcome(language: str) -> Written | None:
    """Hand the prepared app of ``language`` to the visitor and make its document the current one.

    Returns the document as written when it was prepared. Where no app of that language was
    prepared, another one is switched to it and None is returned: the document is then still to
    be written (``panel.io.pyodide.write_doc``). Raises RuntimeError when no app is left.
    """
    global visitor, _spare
    lang = normalise_language(language)
    if not _prepared:
        raise RuntimeError("no prepared app to hand out")
    prepared = _prepared.pop(lang, None) or _prepared.pop(next(iter(_prepared)))
    # one visitor: the other languages' apps are never drawn, and one of them rehearses a roll
    _spare = _prepared.popitem()[1] if _prepared else None
    _prepared.clear()
    app, doc, written = prepared.app, prepared.doc, prepared.written
    set_bokeh_curdoc(doc)
    state.curdoc = doc
    # Panel's worker holds the document's changes until the page has drawn it, then sends them.
    # Every change made so far is in the document the page is about to get, and nothing listens
    # yet: a language switch runs unheld, each change handled at once as on Panel's server, and
    # the page is not sent them again once it is linked.
    doc.unhold()
    if app.tr.lang != lang:
        app.tr.lang = lang
        written = None
    # Panel's own hold(), which a JS component's update uses, ends on a document not yet drawn by
    # leaving its changes queued, to be delivered after that update has stopped waiting for their
    # echoes (which would then look like the page's own changes). On a drawn document they would
    # have been delivered as expected echoes, and ignored: drop them, as Panel itself does with a
    # document's queue when it patches stylesheets (panel.io.resources).
    doc.callbacks._held_events = []
    doc.hold()  # as the worker had it, for what happens before the page is linked
    if written is not None:
        doc._session_context = None  # as write_doc leaves it: the page's changes apply at once
    visitor = app
    return written


def rehearse() -> bool:
    """Roll once with the spare app :func:`welcome` kept, in its own document, and let it go; what
    it does reaches neither the visitor's app nor the page. In the browser its changes are
    serialised as if for the page (and sent nowhere). Whether there was an app to roll with."""
    global _spare
    spare, _spare = _spare, None
    if spare is None:
        return False
    with set_curdoc(spare.doc):
        spare.doc.callbacks._held_events = []  # the build's, never to be sent
        spare.doc.unhold()
        if sys.platform == "emscripten":
            spare.doc.on_change(_serialise_for_nobody(spare.doc))
        spare.app.view_of("one-ring").play_sheet.press("awareness")
    return True


def _serialise_for_nobody(doc: Document) -> Callable[[Any], None]:
    """What Panel's worker does with each change before sending it to the page
    (``panel.io.pyodide._link_docs_worker``), for a rehearsal: the first roll's changes then take a
    path the browser has compiled too. Nothing is sent."""

    def serialise(event: Any) -> None:
        _for_page(doc, [event])

    return serialise


def _for_page(doc: Document, events: list[Any]) -> tuple[Any, ...]:
    """``events`` of ``doc`` as one message's arguments for the page's ``sendPatch`` (static/worker.js):
    the patch and its buffers, serialised as Panel's worker serialises each change
    (``panel.io.pyodide._link_docs_worker``), and no message id. In the browser's worker only."""
    import js  # type: ignore[import-not-found]
    from panel.io.pyodide import _dict_converter, _process_document_events  # (a browser's module)
    from pyodide.ffi import to_js  # type: ignore[import-not-found]

    patch, buffers = _process_document_events(doc, events)
    # (Pyodide 0.29's to_js makes a dict a JS Object, no longer a Map: a Map of its entries)
    return to_js(patch, dict_converter=_dict_converter), js.Map.new(js.Object.entries(to_js(buffers))), None


def take_visit(location: str, stored: str, send: Callable[..., None] | None = None) -> None:
    """What the visit brings, handed to the worker with its start (``static/loader.js``): the page's
    address (``location``: ``window.location`` as JSON, as Panel's page sends it once drawn) and the
    browser's stored texts (``stored``: a JSON object of key and text). The worker calls this while
    the page draws the document, restored or booted afresh: the app reads both at once
    (:meth:`KostkaApp.visit`), and its changes are sent with ``send``, the worker's ``sendPatch``,
    at once and in one patch (:func:`send_held`): the page takes them in as soon as it has drawn
    the document, and linking it (:func:`link`) has nothing left to send. The page's storage
    component, told by the loader, reports nothing itself; a tap on the first screen finds the
    reading done.
    """
    doc = state.curdoc
    app = visitor or next((kept.app for kept in _prepared.values() if kept.doc is doc), None)
    if app is None:
        raise RuntimeError("no app drawn for the visit")
    take_location(location)
    texts = json.loads(stored)
    app.visit(texts if isinstance(texts, dict) else {})
    if send is not None:
        send_held(doc, send)


def send_held(doc: Document, send: Callable[..., None]) -> None:
    """Send what ``doc`` holds for the page now, as one patch, and hold it again (before the page
    has linked it: Panel's worker holds a document's changes until then, and then sends each
    change as a message of its own, each serialised on its own, while a tap waits behind them).
    Each change is handled as on unholding: its model's own callbacks run, and what they change is
    sent in the same patch.

    A change to a model the page does not know is left out: one that has left the document since,
    or one added since, which the patch brings whole, as it is now. The page drops a patch whole
    for one such change (sent one change a message, only that change was lost)."""
    policy = doc.callbacks.hold_value
    if policy is None:
        return  # nothing held
    events: list[Any] = []

    def take(event: Any) -> None:
        events.append(event)

    doc.on_change(take)
    try:
        doc.unhold()
    finally:
        doc.remove_on_change(take)
        doc.hold(policy)
    known = doc.models.synced_references if events else set()
    events = [event for event in events if (model := getattr(event, "model", None)) is None or model in known]
    if events:
        send(*_for_page(doc, events))


def link(send: Callable[..., None]) -> None:
    """Link the current document to the page, which has drawn it: each change is sent with
    ``send`` (the worker's ``sendPatch``) as Panel's worker does (``_link_docs_worker``), and the
    document is ready. The worker calls this function itself, where running a snippet of code
    would compile it anew."""
    from panel.io.pyodide import _link_docs_worker  # (a browser's module: it imports js)

    _link_docs_worker(state.curdoc, send, setter="js")


def take_location(location: str) -> None:
    """The page's address (``window.location`` as JSON) into Panel's location of the current document.

    The page's own location model reads the same from the browser as it is drawn (Panel's
    ``LocationView.initialize``): while the document holds its changes, those this makes to the
    location model are left out of them rather than sent back to the page (six messages, each
    serialised and taken in as the page links)."""
    data = json.loads(location)
    if state.location is None or not isinstance(data, dict):
        return
    doc = state.curdoc
    callbacks = doc.callbacks if doc is not None else None
    before = len(callbacks._held_events) if callbacks is not None and callbacks.hold_value else None
    with edit_readonly(state.location):
        state.location.param.update({key: value for key, value in data.items() if key in state.location.param})
    if callbacks is not None and before is not None:
        held = callbacks._held_events
        callbacks._held_events = held[:before] + [
            event for event in held[before:] if not isinstance(getattr(event, "model", None), LocationModel)
        ]


def _removed(doc: Document, event: Any) -> bool:
    """Whether ``event`` (a patch's event, as JSON) changes a model that has left ``doc``."""
    ref = event.get("model") if isinstance(event, dict) else None
    if not isinstance(ref, dict) or set(ref) != {"id"}:
        return False  # no model, or a model the page made (defined in the patch itself)
    model_id = ref["id"]
    return doc.get_model_by_id(model_id) is None and doc.models.seen(model_id)


async def take_page_patch(patch: Any) -> None:
    """The page's changes as its message brings them (a JavaScript object, static/worker.js),
    applied to the current document (:func:`apply_page_patch`). The worker calls this function
    itself, where running a snippet of code would compile it anew for every tap."""
    from panel.io.pyodide import _convert_json_patch  # (a browser's module: it imports js)

    apply_page_patch(state.curdoc, _convert_json_patch(patch))


def apply_page_patch(doc: Document, patch: Serialized[Any]) -> None:
    """Apply a patch of the page's changes to ``doc``, as the page's own (``setter='js'``), without
    the changes to models that have left the document since.

    The page sends the changes it made while Python was busy as one patch. A change to a model
    Python has removed meanwhile is stale and harmless; but Bokeh drops a patch that refers to such
    a model whole, and the other changes in it with it. At a phone's width the first screen's charts
    report their sizes while the address's system replaces that screen: the browser storage's
    answer, in the same patch, was lost, and the stored data never read.
    """
    content = patch.content
    events = content.get("events") if isinstance(content, dict) else None
    if isinstance(events, list):
        kept = [event for event in events if not _removed(doc, event)]
        if not kept:
            return
        if len(kept) != len(events):
            patch = Serialized(content={**content, "events": kept}, buffers=patch.buffers)
    doc.apply_json_patch(patch, setter="js")
