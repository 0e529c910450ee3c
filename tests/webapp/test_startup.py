"""What the static site's interpreter snapshot relies on: the stand-ins (numpy, pandas, narwhals,
nh3) carry the whole app, and the app built into it is handed to its visitor in their language."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bokeh.document import Document
from bokeh.io.doc import curdoc as bokeh_curdoc
from panel.io.state import set_curdoc, state

from webapp import startup
from webapp.startup import keep, make_screens, prepared_languages, welcome, write_prepared
from webapp.views.shell import SCREENS, KostkaApp

ROOT = Path(__file__).resolve().parents[2]
STANDINS = ROOT / "static" / "standins"

# Run in a fresh interpreter whose numpy and pandas are the site's stand-ins: draw the app,
# roll in every system (odds charts included), serialise the document as the worker does.
WITH_STANDINS = r"""
import json, sys
from bokeh.document import Document
from bokeh.io.doc import curdoc as bokeh_curdoc
from webapp.state.forms import SYSTEMS
from webapp.views.shell import KostkaApp

app = KostkaApp()
doc = Document()
doc.add_root(app.__panel__().get_root(doc))
rolled = {}
for system in SYSTEMS:
    app.state.system = system
    app.view_of(system).roll()
    rolled[system] = len(app.state.rolls.log.entries)
app.view_of("fate").switch.value = "fight"  # the fight screen
app.lang.value = "cs"
size = len(json.dumps(doc.to_json(deferred=False)))
print(json.dumps({
    "standins": {name: getattr(sys.modules.get(name), "__kostka_standin__", name in sys.modules and "real") for name in STANDINS},
    "rolled": rolled, "size": size,
    "real_modules": sorted(m for m in sys.modules if m.startswith(("numpy.", "narwhals._", "nh3."))),
    # not shipped at all (build.NOT_SHIPPED): only Panel's Markdown pane uses them
    "unshipped": sorted(
        m for m in sys.modules
        if m.split(".")[0] in ("markdown", "markdown_it", "mdit_py_plugins", "linkify_it", "uc_micro", "mdurl")
    ),
}))
"""
STANDIN_NAMES = ["numpy", "pandas", "narwhals", "nh3"]


def test_the_app_draws_rolls_and_serialises_with_the_stand_ins():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(STANDINS), str(ROOT)])}
    code = WITH_STANDINS.replace("in STANDINS}", f"in {STANDIN_NAMES!r}}}")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    # none is the real one; numpy and nh3 are imported (Bokeh 3.9 and Panel 1.9 import pandas and
    # narwhals only when given a dataframe, which the app never does: their stand-ins are a guard)
    assert "real" not in report["standins"].values()
    assert report["standins"]["numpy"] is True and report["standins"]["nh3"] is True
    assert report["rolled"] == {"one-ring": 1, "gurps": 2, "fate": 3}
    assert report["size"] > 50_000
    assert report["real_modules"] == []
    assert report["unshipped"] == []


def stand_in(module: str):
    """Import ``module`` from the site's stand-ins without disturbing the real one of this process."""
    name = module.split(".")[0]
    saved = {m: sys.modules.pop(m) for m in list(sys.modules) if m == name or m.startswith(name + ".")}
    sys.path.insert(0, str(STANDINS))
    try:
        return importlib.import_module(module)
    finally:
        sys.path.remove(str(STANDINS))
        for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            del sys.modules[m]
        sys.modules.update(saved)


def test_the_nh3_stand_in_escapes_all_markup():
    nh3 = stand_in("nh3")
    assert nh3.__kostka_standin__
    assert nh3.clean("wrap") == "wrap"
    assert nh3.clean('<b onclick="x()">bold</b> & <script>alert(1)</script>') == (
        '&lt;b onclick="x()"&gt;bold&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;'
    )
    with pytest.raises(TypeError):
        nh3.clean(b"bytes")
    with pytest.raises(AttributeError, match="nh3.clean_text is not available"):
        nh3.clean_text  # noqa: B018


def test_panel_sanitises_its_components_texts_with_the_nh3_stand_in():
    """Panel 1.8+ imports nh3 lazily, on the first text it sanitises (``panel.util.HTML_SANITIZER``):
    with the stand-in, the markup in a text reaches the page escaped."""
    from panel.util import LazyHTMLSanitizer

    saved = {m: sys.modules.pop(m) for m in list(sys.modules) if m == "nh3" or m.startswith("nh3.")}
    sys.path.insert(0, str(STANDINS))
    try:
        assert LazyHTMLSanitizer(strip=True).clean("<i>x</i>") == "&lt;i&gt;x&lt;/i&gt;"
        assert sys.modules["nh3"].__kostka_standin__
    finally:
        sys.path.remove(str(STANDINS))
        sys.modules.pop("nh3", None)
        sys.modules.update(saved)


def test_the_narwhals_stand_in_sees_no_dataframe():
    assert stand_in("narwhals").__kostka_standin__
    nw = stand_in("narwhals.stable.v1")  # as Bokeh imports it
    assert not nw.dependencies.is_into_dataframe({"x": [1, 2]}) and not nw.dependencies.is_into_series([1, 2])
    with pytest.raises(AttributeError, match="narwhals.stable.v1.from_native is not available"):
        nw.from_native  # noqa: B018


def test_the_numpy_stand_in_answers_no_and_refuses_everything_else():
    numpy = stand_in("numpy")
    assert numpy.__kostka_standin__
    assert not isinstance([1.0, 2.0], numpy.ndarray) and not isinstance(3, numpy.integer)
    assert issubclass(numpy.float32, numpy.floating) and issubclass(numpy.int64, numpy.integer)
    assert numpy.dtype(numpy.float32) == numpy.dtype(numpy.float32) != numpy.dtype(numpy.int8)
    for make in (numpy.ndarray, numpy.float64):
        try:
            make(3)
        except TypeError as exc:
            assert "not available" in str(exc)
        else:
            raise AssertionError(f"{make.__name__} was made")
    assert not hasattr(numpy, "asarray")
    try:
        numpy.isnan(1.0)
    except AttributeError as exc:
        assert "numpy.isnan is not available" in str(exc)
    else:
        raise AssertionError("numpy.isnan answered")


def _serialise(doc):  # a stand-in for panel.io.pyodide._doc_json, which needs a browser
    return json.dumps(doc.to_json(deferred=False)), "[]", json.dumps([root.id for root in doc.roots])


def _prepared_app(lang: str) -> tuple[KostkaApp, Document]:
    """An app drawn as the page's code draws it in the static site's worker (init_doc, main)."""
    doc = Document()
    doc.hold()
    with set_curdoc(doc):
        app = KostkaApp()
        app.tr.lang = lang
        doc.add_root(app.__panel__().get_root(doc))
        doc.add_root(state.location.get_root(doc))  # as Panel draws a page, with its location
        keep(app)
    assert doc.callbacks._held_events  # the build's changes, held
    return app, doc


def _welcomed_app() -> tuple[KostkaApp, Document]:
    """An app prepared with every screen made, as the snapshot holds it, handed to a visitor."""
    app, doc = _prepared_app("en")
    make_screens()
    welcome("en")
    return app, doc


@pytest.fixture
def page_doc(monkeypatch):
    """No prepared app before; after, put back the current document that welcome() sets."""
    from bokeh.io.state import curstate

    monkeypatch.setattr(startup, "_prepared", {})
    monkeypatch.setattr(startup, "visitor", None)
    monkeypatch.setattr(startup, "_spare", None)
    monkeypatch.setattr(curstate(), "_document", curstate().document)
    with set_curdoc(None):
        yield


def test_each_language_has_its_app_prepared_and_written(page_doc):
    prepared = {lang: _prepared_app(lang) for lang in ("en", "ru", "cs")}
    assert prepared_languages() == ["en", "ru", "cs"]
    write_prepared(_serialise)
    app, doc = prepared["ru"]
    written = _serialise(doc)

    assert welcome("ru-RU") == written  # as written before: no need to serialise it again
    assert startup.visitor is app
    assert state.curdoc is doc and bokeh_curdoc() is doc
    # held again for the page, with nothing queued to send it twice: the document has it all
    assert doc.callbacks.hold_value == "combine" and doc.callbacks._held_events == []
    assert doc.session_context is None  # as Panel's write_doc leaves it
    assert "Бросить" in json.dumps(json.loads(written[0]), ensure_ascii=False)
    with pytest.raises(RuntimeError, match="no prepared app"):
        welcome("en")  # one visitor: the other languages' apps are let go


def test_another_languages_app_rehearses_a_roll_that_reaches_neither_the_visitor_nor_the_page(page_doc):
    """While the page draws the visitor's document, the worker rolls once with another language's
    prepared app, in that app's own document, and then lets it go."""
    prepared = {lang: _prepared_app(lang) for lang in ("en", "ru", "cs")}
    write_prepared(_serialise)
    app, doc = prepared["en"]
    welcome("en")
    visitor_json = json.dumps(doc.to_json(deferred=False))
    events = []
    doc.on_change(events.append)
    spare = startup._spare
    assert spare is not None and spare.app is not app and spare.app.tr.lang in ("ru", "cs")

    assert startup.rehearse()
    assert [entry.kind for entry in spare.app.state.rolls.log.entries] == ["roll"]
    assert spare.app.state.rolls.log.entries[0].ability == "awareness"
    assert app.state.rolls.log.entries == [] and events == []
    assert json.dumps(doc.to_json(deferred=False)) == visitor_json
    assert state.curdoc is doc and bokeh_curdoc() is doc  # still the visitor's
    assert startup._spare is None and not startup.rehearse()  # let go: once only


def test_with_one_language_prepared_there_is_nothing_to_rehearse_with(page_doc):
    _prepared_app("en")
    welcome("en")
    assert not startup.rehearse()


def drawn_in(doc: Document, part) -> bool:
    """Whether Panel's ``part`` has a model in ``doc``."""
    return any(model.document is doc for model, _ in part._models.values())


def test_every_screen_of_a_prepared_app_is_made_ahead_and_each_first_screen_drawn_hidden(page_doc):
    """The snapshot holds each prepared app's screens as Python objects, the fight's included, and
    its document holds each screen not shown with only its first screen, hidden: a visitor's first
    switch to a system, or to the fight, shows what the page has already drawn; the rest follows."""
    prepared = {lang: _prepared_app(lang) for lang in ("en", "ru")}
    made = {lang: set(app._views) for lang, (app, _) in prepared.items()}
    make_screens()
    for lang, (app, doc) in prepared.items():
        assert made[lang] == {"one-ring"} and set(app._views) == set(SCREENS)
        fate = app.view_of("fate")
        assert fate._fight is not None  # the fight's objects too
        assert [app._screens[system].visible for system in SCREENS] == [True, False, False]
        assert fate.fight_place is not None and not fate.fight_place.visible
        for view in (app.view_of("gurps"), fate.check_view, fate.fight_view):
            parts = view._layout.objects
            assert len(parts) == view.FIRST_PARTS and all(drawn_in(doc, part) for part in parts)
        assert fate.share_slot.objects == []
    app, doc = prepared["ru"]
    gurps = app.view_of("gurps")
    held = gurps._layout.objects[0]
    welcome("ru")
    with set_curdoc(doc):
        app.page_ready()
        app.store.param.update(values={}, loaded=True)
        app.state.system = "gurps"  # the rest follows at once outside the browser's worker
    assert app.view_of("gurps") is gurps and gurps._layout.objects[0] is held and len(gurps._layout.objects) > 3
    assert all(drawn_in(doc, part) for part in gurps._layout.objects) and app._screens["gurps"].visible
    assert "Бросок: Воля" in json.dumps(doc.to_json(deferred=False), ensure_ascii=False)


def test_the_screen_the_storage_names_is_whole_before_the_page_is_shown(page_doc):
    """A returning player's stored system is shown whole while the loading screen still covers the
    page, and the still moments draw the rest of each other screen, hidden, one part per step."""
    app, doc = _welcomed_app()
    fate = app.view_of("fate")
    with set_curdoc(doc):
        app.page_ready()
        app.state.system = "fate"  # what the storage said, read before the page is shown
        assert len(fate.check_view._layout.objects) > fate.check_view.FIRST_PARTS and fate.share_slot.objects
        assert len(app.view_of("gurps")._layout.objects) == app.view_of("gurps").FIRST_PARTS
        app.store.param.update(values={}, loaded=True)
        gurps, fight = app.view_of("gurps"), fate.fight_view
        counts = []
        while app._prepare_step("fate"):
            counts.append((len(fight._layout.objects), len(gurps._layout.objects), len(gurps._contest.objects)))
    # the rest of the fight, then of GURPS's screen, then of its contest, one part per step (The One
    # Ring's is whole)
    assert counts == [
        *[(3, 3, 2), (4, 3, 2), (5, 3, 2), (5, 4, 2), (5, 5, 2), (5, 6, 2), (5, 7, 2)],
        *[(5, 7, n) for n in range(3, 10)],
    ]
    for view in (app.view_of("gurps"), fate.check_view, fate.fight_view):
        assert len(view._layout.objects) > view.FIRST_PARTS
        assert all(drawn_in(doc, part) for part in view._layout.objects)
    assert all(drawn_in(doc, part) for part in gurps._contest.objects)


def test_each_still_step_adds_its_models_without_walking_the_whole_document(page_doc, monkeypatch):
    """A still moment's step adds its part's models to the document by a walk under its column
    only: after each step the document holds exactly the models Bokeh's own whole walk finds."""
    app, doc = _welcomed_app()
    walks = []
    recompute = doc.models.recompute
    monkeypatch.setattr(doc.models, "recompute", lambda: walks.append(1) or recompute())
    with set_curdoc(doc):
        app.page_ready()
        app.store.param.update(values={}, loaded=True)
        before = len(doc.models)
        steps = 0
        while app._prepare_step("one-ring"):
            steps += 1
            whole = set().union(*(root.references() for root in doc.roots))
            assert {model.id for model in whole} == {model.id for model in doc.models}
            assert all(model.document is doc for model in whole)
    assert steps >= 10 and len(doc.models) > before + 50
    assert walks == []


def test_models_joining_inside_a_freeze_leaves_the_whole_walk_to_it(page_doc):
    import panel as pn

    from webapp.views.common import models_joining

    doc = Document()
    column = pn.Column(pn.pane.HTML("a"))
    with set_curdoc(doc):
        doc.add_root(column.get_root(doc))
        walks = []
        recompute = doc.models.recompute
        doc.models.recompute = lambda: walks.append(1) or recompute()
        added = pn.pane.HTML("b")
        with doc.models.freeze(), models_joining(doc, column):
            column.append(added)
            assert walks == []
        assert walks == [1]  # the freeze's own walk, at its end
        later = pn.pane.HTML("c")
        with models_joining(doc, column):
            column.append(later)
        assert walks == [1]
    for part in (added, later):
        assert any(model.document is doc and model.id in doc.models for model, _ in part._models.values())


def test_a_start_without_a_link_sends_no_link_panel_again(page_doc):
    """The link panel is sent again once the page is drawn only when the address opened a link."""
    app, doc = _welcomed_app()
    events = []
    with set_curdoc(doc):
        reveal = app.link_panel.reveal_button
        doc.on_change(events.append)
        app.page_ready()
    assert app.link_panel.reveal_button is reveal
    panel_models = {
        model.id for part in (app.link_panel.body, app.link_panel.rolled) for model, _ in part._models.values()
    }
    assert not [event for event in events if getattr(getattr(event, "model", None), "id", None) in panel_models]


def test_a_start_that_reads_the_address_and_storage_copies_no_parameters(page_doc, monkeypatch):
    """The snapshot's state objects own their parameters already (AppState.own_parameters): reading
    a returning player's address and stored characters makes no copies of them."""
    import panel as pn
    import param.parameterized
    from panel.util import edit_readonly

    from webapp.state.app import AppState

    stored = AppState()
    stored.one_ring.character.param.update(name_text="Tilda", awareness="2")
    characters = stored.characters_json()
    app, doc = _welcomed_app()
    copied = []
    copy = param.parameterized._instantiate_param_obj
    monkeypatch.setattr(
        param.parameterized, "_instantiate_param_obj", lambda p, obj: copied.append(obj) or copy(p, obj)
    )
    search = "?sys=one-ring&name=Bilbo&awareness=3&r_ability=awareness"
    with set_curdoc(doc):
        app.page_ready()
        with edit_readonly(pn.state.location):
            pn.state.location.param.update(href="http://kostka.test/" + search, search=search)
        app.store.param.update(values={"kostka.characters": characters}, loaded=True)
    assert app.state.one_ring.character.name_text == "Bilbo"
    assert [type(obj).__name__ for obj in copied if type(obj).__module__.startswith("webapp.state")] == []


def test_a_screen_shown_while_the_still_moments_draw_its_rest_gets_all_of_the_rest(page_doc):
    """A switch to a screen whose rest the still moments have begun to draw puts back all of it."""
    app, doc = _welcomed_app()
    gurps = app.view_of("gurps")
    with set_curdoc(doc):
        app.page_ready()
        app.store.param.update(values={}, loaded=True)
        while len(gurps._layout.objects) == gurps.FIRST_PARTS:
            assert app._prepare_step("one-ring")
        assert len(gurps._layout.objects) == gurps.FIRST_PARTS + 1  # one part of the rest
        app.state.system = "gurps"  # the rest follows at once outside the browser's worker
        whole = list(gurps._layout.objects)
        assert len(whole) == 7 and all(drawn_in(doc, part) for part in whole)
        assert app._prepare_step("gurps")  # the next step: the rest of another screen
        assert gurps._layout.objects == whole


def test_a_language_without_a_prepared_app_is_switched_to(page_doc, monkeypatch):
    app, doc = _prepared_app("en")
    write_prepared(_serialise)
    walks = []
    recompute = doc.models.recompute
    monkeypatch.setattr(doc.models, "recompute", lambda: walks.append(1) or recompute())

    assert welcome("cs-CZ") is None  # the document is still to be written
    assert startup.visitor is app and (app.tr.lang, app.lang.value) == ("cs", "cs")
    # every new tooltip made one walk over the document's models before Binder froze them
    assert len(walks) == 1
    assert doc.callbacks.hold_value == "combine" and doc.callbacks._held_events == []
    text = json.dumps(doc.to_json(deferred=False), ensure_ascii=False)
    assert '"Hod: Ostražitost"' in text and '"Roll"' not in text and "Roll Awareness" not in text


def test_a_language_switch_walks_the_document_once(monkeypatch):
    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        doc.add_root(app.__panel__().get_root(doc))
        walks = []
        recompute = doc.models.recompute
        monkeypatch.setattr(doc.models, "recompute", lambda: walks.append(1) or recompute())
        app.lang.value = "ru"  # the visitor taps a language
        assert len(walks) == 1 and app.tr.lang == "ru"
        assert "Бросить" in json.dumps(doc.to_json(deferred=False), ensure_ascii=False)


def test_the_app_starts_in_the_language_the_loading_screen_chose(monkeypatch):
    from webapp.app import main

    monkeypatch.setenv("KOSTKA_LANG", "ru-RU")
    app = main()
    assert (app.tr.lang, app.lang.value) == ("ru", "ru")
    assert app.character.options and next(iter(app.character.options)) == "Персонаж 1"
    monkeypatch.setenv("KOSTKA_LANG", "xx")  # nothing we speak: English
    assert main().tr.lang == "en"
    monkeypatch.delenv("KOSTKA_LANG")
    assert main().tr.lang == "en"


def test_a_page_patch_keeps_its_other_changes_when_one_model_has_left_the_document(page_doc):
    """The page's changes, sent as one patch while Python was busy, may include a chart's new size
    while the charts have been folded away since: the storage's answer beside it still arrives."""
    from bokeh.core.serialization import Serialized
    from bokeh.models import Plot

    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        doc.add_root(app.__panel__().get_root(doc))
        app.view_of("one-ring").charts.opened = True
    charts = [model.id for model in doc.models if isinstance(model, Plot)]
    assert charts  # the first screen's odds charts, opened
    with set_curdoc(doc):
        app.view_of("one-ring").charts.opened = False
    gone = [model_id for model_id in charts if doc.get_model_by_id(model_id) is None]
    assert gone
    store = next(ref for ref in app.store._models.values() if ref[0].document is doc)[0].data
    patch = {
        "events": [
            {"kind": "ModelChanged", "model": {"id": gone[0]}, "attr": "outer_width", "new": 370},
            {"kind": "ModelChanged", "model": {"id": store.id}, "attr": "loaded", "new": True},
        ]
    }
    with set_curdoc(doc):
        startup.apply_page_patch(doc, Serialized(content=patch, buffers=[]))
    assert store.loaded


def _visit(search: str, stored: dict) -> tuple[str, str]:
    """A visit as the static site's loader hands it to the worker: the address and the stored texts."""
    location = {"href": "http://kostka.test/" + search, "search": search, "hash": "", "pathname": "/"}
    return json.dumps(location), json.dumps(stored)


def _serialised(doc: Document, events: list) -> str:
    """``events`` as the page gets them, as JSON (``panel.io.pyodide._process_document_events``)."""
    from bokeh.core.serialization import Serializer

    return json.dumps(Serializer(references=doc.models.synced_references).encode(events))


def test_the_visit_is_read_while_the_page_draws_and_sent_at_once_in_one_patch(page_doc, monkeypatch):
    """The worker reads the address and the stored data the loader handed it while the page draws
    the document, and sends what they changed at once, as one patch (the page takes it in as soon
    as it has drawn the document): linking the page then finds nothing held, and the
    ``document_ready`` that follows finds the start done."""
    from panel.models.location import Location as LocationModel

    from webapp.state.app import AppState

    stored = AppState()
    stored.one_ring.character.param.update(name_text="Tilda", awareness="2")
    texts = {
        "kostka.characters": stored.characters_json(),
        "kostka.theme": "dark",
        "kostka.lang": 3,  # not a text: not read
        "kostka.elsewhere": "not one of the store's keys",
    }
    app, doc = _welcomed_app()
    doc.models.flush_synced()  # written for the page to draw (panel.io.pyodide.write_doc)
    # in the browser, the events are serialised into one patch for the worker's sendPatch
    monkeypatch.setattr(startup, "_for_page", lambda doc, events: (list(events), _serialised(doc, events)))
    patches: list[list] = []
    texts_sent: list[str] = []
    with set_curdoc(doc):
        startup.take_visit(
            *_visit("?sys=gurps", texts), lambda events, text: patches.append(events) or texts_sent.append(text)
        )
        assert app.state.system == "gurps" and app.state.one_ring.character.name_text == "Tilda"
        assert app.store.ready and app.theme.value
        assert set(app.store.values) == set(app.store.keys) and app.store.values["kostka.lang"] == ""
        assert len(patches) == 1  # one message
        assert doc.callbacks.hold_value and not doc.callbacks._held_events  # held again, with nothing left
        # the page's location model has the address already: only the app's rewrite of it is sent
        located = [event for event in patches[0] if isinstance(event.model, LocationModel)]
        assert [event.attr for event in located] == ["search"] and located[0].new.startswith("?lang=en&sys=gurps")
        changed = [(getattr(event, "attr", None), getattr(event, "new", None)) for event in patches[0]]
        assert ("ready", True) in changed
        assert '\\"name\\":\\"Tilda\\"' in texts_sent[0]  # the stored characters, saved back
        # only changes to models the page has (a hidden sheet's name field, not drawn, is left out)
        assert all(doc.get_model_by_id(event.model.id) is event.model for event in patches[0])
        sent = []
        doc.on_change(sent.append)  # the page links (panel.io.pyodide._link_docs_worker)
        doc.unhold()
        url_applied = app.apply_url
        app.apply_url = lambda: pytest.fail("the address applied twice")
        app.page_ready()  # document_ready
        app.apply_url = url_applied
    assert sent == []


def test_held_changes_are_sent_as_on_unholding(page_doc, monkeypatch):
    """Sending a held document's changes runs each one's model callbacks as unholding does; what
    those change goes in the same patch, in the order linking would have sent each, and the
    document is held as before."""
    from bokeh.models import Div

    monkeypatch.setattr(startup, "_for_page", lambda doc, events: (list(events),))
    doc = Document()
    source, echo = Div(text="a"), Div(text="")
    doc.add_root(source)
    doc.add_root(echo)
    source.on_change("text", lambda attr, old, new: setattr(echo, "text", new.upper()))
    doc.models.flush_synced()  # the page has both
    doc.hold("combine")
    source.text = "b"
    source.text = "c"  # combined with the one before
    assert echo.text == ""  # its callback waits with the change
    patches: list[list] = []
    startup.send_held(doc, patches.append)
    assert echo.text == "C"
    # in Bokeh's order: a change's model callbacks run before the document's (what they change first)
    assert [[(event.model, event.attr, event.new) for event in patch] for patch in patches] == [
        [(echo, "text", "C"), (source, "text", "c")]
    ]
    assert doc.callbacks.hold_value == "combine" and not doc.callbacks._held_events
    startup.send_held(doc, patches.append)  # nothing held: nothing sent
    assert len(patches) == 1
    doc.unhold()
    startup.send_held(doc, patches.append)  # not held: nothing to send
    assert len(patches) == 1 and doc.callbacks.hold_value is None


def test_held_changes_to_models_the_page_does_not_know_are_left_out(page_doc, monkeypatch):
    """A change to a model that has left the document, or to one added since it was last sent (the
    patch brings it whole), is not sent: the page would drop the whole patch for it."""
    from bokeh.models import Column, Div

    monkeypatch.setattr(startup, "_for_page", lambda doc, events: (list(events),))
    doc = Document()
    gone, kept, column = Div(text="a"), Div(text="b"), Column()
    doc.add_root(column)
    column.children = [gone, kept]
    doc.models.flush_synced()  # the page has all three
    doc.hold("combine")
    gone.text = "changed, then removed"
    column.children = [kept]
    added = Div(text="new")
    column.children = [kept, added]
    added.text = "changed once added"
    kept.text = "kept"
    patches: list[list] = []
    startup.send_held(doc, patches.append)
    assert [(event.model, event.attr) for event in patches[0]] == [(column, "children"), (kept, "text")]
    assert patches[0][0].new == [kept, added] and added.text == "changed once added"  # sent whole, as it is


def test_a_fresh_boot_reads_the_visit_with_its_only_app(page_doc):
    """Booted afresh (no snapshot), no app was handed out: the visit goes to the app drawn."""
    app, doc = _prepared_app("en")
    with set_curdoc(doc):
        startup.take_visit(*_visit("?sys=fate", {}))
    assert app.state.system == "fate" and app.store.ready
