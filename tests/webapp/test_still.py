"""The page's still moments (``webapp.views.still``): one step each, each answered."""

from __future__ import annotations

import time

import panel as pn
import pytest
from bokeh.document import Document
from panel.io.state import set_curdoc

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
