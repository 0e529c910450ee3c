"""Bokeh's check of a callback's signature, once for each method Panel links models with."""

from __future__ import annotations

import functools

import pytest
from bokeh.document import Document
from bokeh.models import Div
from bokeh.util import callback_manager
from panel.io.state import set_curdoc

from webapp.views import callbacks
from webapp.views.common import NumberInput


@pytest.fixture
def signatures(monkeypatch):
    """The check installed, with nothing checked yet; the signatures Bokeh reads, counted."""
    read: list[object] = []
    signature = callback_manager.signature
    monkeypatch.setattr(callback_manager, "signature", lambda fn: read.append(fn) or signature(fn))
    monkeypatch.setattr(callbacks, "_checked", set())
    monkeypatch.setattr(callbacks, "_nargs_read", {})
    monkeypatch.setattr(callback_manager, "_check_callback", callback_manager._check_callback)
    monkeypatch.setattr(callback_manager, "_nargs", callback_manager._nargs)
    callbacks.check_signatures_once()
    return read


def test_panels_linked_callbacks_are_checked_once_for_all_models(signatures):
    doc = Document()
    with set_curdoc(doc):
        model = NumberInput(value="1").get_root(doc)
        first = len(signatures)
        NumberInput(value="2").get_root(doc)
    linked = [c for m in (model, model.data) for callbacks in m._callbacks.values() for c in callbacks]
    assert len(linked) > 10 and all(isinstance(c, functools.partial) for c in linked)
    assert 1 <= first <= 3  # each of Panel's two methods read once (an event's: its count, then checked)
    assert len(signatures) == first  # the second field's callbacks: none checked again


class Listener:
    def changed(self, doc, attr, old, new) -> None: ...

    def wrong(self, doc, attr, old) -> None: ...


def test_a_wrong_signature_is_still_refused_each_time(signatures):
    model = Div()
    for _ in range(2):
        with pytest.raises(ValueError, match="must have signature"):
            model.on_change("text", functools.partial(Listener().wrong, None))
        with pytest.raises(ValueError, match="must have signature"):
            model.on_change("text", lambda attr, old: None)
    model.on_change("text", functools.partial(Listener().changed, None))
    model.on_change("text", functools.partial(Listener().changed, None))  # another listener: known
    assert len(signatures) == 5
    with pytest.raises(ValueError, match="must have signature"):
        model.on_change("text", functools.partial(Listener().changed, None, "attr"))  # one more argument given
