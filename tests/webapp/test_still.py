"""The page's still moments (``webapp.views.still``): one step each, each answered."""

from __future__ import annotations

import time

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc
from worker import in_the_worker

from webapp.views.still import StillPage


def test_each_still_moment_makes_one_step_and_is_answered_with_whether_more_is_left():
    with set_curdoc(Document()):  # a page of its own, whatever document earlier tests left current
        page = StillPage(delay=0)  # the page counts as still at once
        left = [3, 2, 1]
        page.on_still(lambda: bool(left.pop(0) > 1))
        page.still = 1
        assert (page.answered, page.more) == (1, True)
        page.still = 2
        assert (page.answered, page.more) == (2, True)
        page.still = 3
        assert (page.answered, page.more) == (3, False)  # the browser stops asking
        page.wake()
        assert page.more  # a new screen: ask again


def test_a_step_that_fails_is_answered_and_tried_again_in_the_next_moment():
    def step() -> bool:
        raise RuntimeError("broken")

    with set_curdoc(Document()):
        page = StillPage(delay=0)
        page.on_still(step)
        with pytest.raises(RuntimeError):
            page.still = 1
        assert (page.answered, page.more) == (1, True)  # the browser is not left waiting


def test_a_moment_sent_while_python_was_busy_is_answered_without_a_step():
    """The browser cannot see Python at work: a still moment that reaches Python just after it made
    changes is answered, and the step waits for a moment with the document still as well."""
    doc = Document()
    with set_curdoc(doc):
        page = StillPage(delay=60_000)
        other = pn.widgets.TextInput()
        doc.add_root(pn.Column(page, other).get_root(doc))
        steps = []
        page.on_still(lambda: steps.append(1) or True)
        page.still = 1  # the first moment: the document is watched from now on, as if just changed
        assert steps == [] and (page.answered, page.more) == (1, True)
        page.delay = 0
        page.still = 2
        assert steps == [1] and page.answered == 2
        page.delay = 60_000
        other.value = "typed"  # Python at work
        page.still = 3
        assert steps == [1] and (page.answered, page.more) == (3, True)
        page.delay = 0
        page.still = 4
        assert steps == [1, 1] and page.answered == 4


def test_the_moments_and_their_answers_leave_the_document_still():
    """Only the page's own changes make it busy, not the moments coming in (as the browser sends
    them) nor Python's answers: a moment right after the answer before is a still moment."""
    doc = Document()
    with set_curdoc(doc):
        page = StillPage(delay=50)
        model = page.get_root(doc)
        doc.add_root(model)
        steps = []
        page.on_still(lambda: steps.append(1) or True)
        model.data.still = 1  # from the browser; the document is watched from now on
        time.sleep(0.06)
        model.data.still = 2
        assert steps == [1] and page.answered == 2
        model.data.still = 3  # just after the answer to 2
        assert steps == [1, 1] and page.answered == 3


def test_a_page_watched_from_the_start_makes_a_step_in_its_first_still_moment():
    doc = Document()
    with set_curdoc(doc):
        page = StillPage(delay=50)
        doc.add_root(pn.Column(page).get_root(doc))
        steps = []
        page.on_still(lambda: steps.append(1) or True)
        page.watch(doc)  # the page is drawn
        time.sleep(0.06)  # and has been still for the delay since
        page.still = 1
        assert steps == [1] and page.answered == 1


def first_switch_in_the_worker(monkeypatch, answer: bool, first_screens: bool = False) -> dict:
    """A first switch to Fate & Doom once start-up is over, as the browser's worker runs it (each
    change sent as made, on an event loop), the page answering that it has drawn the first part
    (``answer``) or never answering; with ``first_screens``, each screen's first screen drawn
    hidden at start, as the static site's snapshot has them."""
    import asyncio

    from webapp.views.shell import KostkaApp

    # a page that answers is never given up on here, however slow the machine; one that never
    # answers is, soon
    monkeypatch.setattr(StillPage, "DRAWN_WAIT", 30 if answer else 0.3)
    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        doc.add_root(app.__panel__().get_root(doc))
        if first_screens:
            app.make_screens()
            app.place_first_screens()
        app.page_ready()
        app.store.param.update(values={}, loaded=True)
    check = app.view_of("fate").check_view
    seen: dict = {}

    async def tap() -> None:
        models = set(doc.models)
        with set_curdoc(doc):
            app.state.system = "fate"
        seen["new models"] = len(set(doc.models) - models)
        seen["sent"] = list(check._layout.objects)
        seen["share sent"] = list(app.view_of("fate").share_slot.objects)
        await asyncio.sleep(0.05)  # the worker's next turns: the question goes to the page
        seen["asked"] = app.still.drawing
        seen["before the answer"] = list(check._layout.objects)
        if answer:
            with set_curdoc(doc):
                app.still.drawn = app.still.drawing
            seen["answered"] = list(check._layout.objects)
        else:
            await asyncio.sleep(0.5)
            seen["given up"] = list(check._layout.objects)

    in_the_worker(monkeypatch, tap)
    seen["whole"] = list(check._layout.objects)
    seen["check"] = check
    return seen


def test_a_screen_drawn_on_a_tap_sends_its_first_screen_then_the_rest_once_the_page_has_shown_it(monkeypatch):
    """Fate & Doom shown for the first time on a tap: its check's row, error and chance go to the
    page first; the page is asked to say when it has drawn them (and been still a moment), and the
    sheet, the table's options, the charts and the share panel are sent on its answer."""
    seen = first_switch_in_the_worker(monkeypatch, answer=True)
    check = seen["check"]
    assert seen["sent"] == seen["whole"][: check.FIRST_PARTS] and len(seen["whole"]) > check.FIRST_PARTS
    assert check.odds_readout in seen["sent"] and seen["share sent"] == []
    assert seen["asked"] == 1 and seen["before the answer"] == seen["sent"]  # it waits for the page
    assert seen["answered"] == seen["whole"]


def test_a_page_that_never_answers_gets_the_rest_of_the_screen_all_the_same(monkeypatch):
    seen = first_switch_in_the_worker(monkeypatch, answer=False)
    assert seen["before the answer"] == seen["sent"] != seen["whole"]
    assert seen["given up"] == seen["whole"]


def test_a_first_screen_drawn_at_start_is_only_shown_on_a_tap_and_the_rest_follows(monkeypatch):
    """As the static site starts: Fate & Doom's first screen is in the page, hidden, and a first
    switch to it makes no model on the tap; the rest is sent once the page has shown it."""
    seen = first_switch_in_the_worker(monkeypatch, answer=True, first_screens=True)
    check = seen["check"]
    assert seen["new models"] == 0 and seen["share sent"] == []
    assert seen["sent"] == seen["whole"][: check.FIRST_PARTS] and len(seen["whole"]) > check.FIRST_PARTS
    assert seen["asked"] == 1 and seen["before the answer"] == seen["sent"]
    assert seen["answered"] == seen["whole"]


def test_the_rest_of_a_screen_follows_one_part_per_drawing_while_it_is_shown(monkeypatch):
    """GURPS shown for the first time on a tap: each time the page says it has drawn what came
    before, one more part is sent (a tap meanwhile waits for one part, not for the whole rest).
    Switched away, the rest waits; shown again, it follows on as before."""
    import asyncio

    from webapp.views.shell import KostkaApp

    monkeypatch.setattr(StillPage, "DRAWN_WAIT", 30)  # the page answers every time here
    doc = Document()
    with set_curdoc(doc):
        app = KostkaApp()
        doc.add_root(app.__panel__().get_root(doc))
        app.page_ready()
        app.store.param.update(values={}, loaded=True)
    gurps = app.view_of("gurps")
    counts: list[int] = []

    async def draw() -> None:
        """The page draws what it was sent and says so."""
        await asyncio.sleep(0.01)
        with set_curdoc(doc):
            app.still.drawn = app.still.drawing
        counts.append(len(gurps._layout.objects))

    async def taps() -> None:
        with set_curdoc(doc):
            app.state.system = "gurps"
        counts.append(len(gurps._layout.objects))
        await draw()
        await draw()
        with set_curdoc(doc):
            app.state.system = "one-ring"
        for _ in range(3):
            await draw()
        with set_curdoc(doc):
            app.state.system = "gurps"
        for _ in range(8):
            await draw()

    in_the_worker(monkeypatch, taps)
    whole = len(gurps._layout.objects)
    first = gurps.FIRST_PARTS
    assert whole >= first + 3  # parts enough to follow one at a time
    assert counts[:3] == [first, first + 1, first + 2]
    assert counts[3:6] == [first + 2] * 3  # hidden: the rest waits (the still moments make it, in turn)
    assert counts[6:] == [min(first + 3 + i, whole) for i in range(8)]
