"""Taps that Python answers one at a time: every component that takes them shares one script and
one way of answering."""

import pytest

from webapp.views.encounter import EncounterBoard
from webapp.views.play import PlaySheet
from webapp.views.result import ResultBox, RollButton
from webapp.views.shell import KostkaApp
from webapp.views.taps import TAPS_JS, TapAnswered


@pytest.mark.parametrize("component", [PlaySheet, EncounterBoard, ResultBox, RollButton])
def test_each_component_carries_the_one_script_of_taps(component):
    esm = component._esm
    assert esm.startswith(TAPS_JS) and esm.count("function answeredTaps") == 1
    assert "answeredTaps(model" in esm[len(TAPS_JS) :]
    assert "setTimeout" not in esm[len(TAPS_JS) :]  # no copy of its own of the lock and its release


def test_every_tap_is_answered_in_order_whatever_its_callback_does():
    sheet = TapAnswered()
    heard = []

    def callback(key):
        heard.append(key)
        if key == "boom":
            raise ValueError(key)

    sheet.on_tap(callback)
    sheet.press("awareness")
    assert (heard, sheet.ack) == (["awareness"], 1)
    with pytest.raises(ValueError):
        sheet.press("boom")
    assert sheet.ack == 2  # answered all the same: the browser's button is not left locked
    sheet.tap = "7:"  # a tap with no key calls nothing, and is answered
    assert (heard, sheet.ack) == (["awareness", "boom"], 7)
    sheet.tap = "garbled"  # no count: nothing to answer, nothing called
    assert (heard, sheet.ack) == (["awareness", "boom"], 7)


def test_the_board_reads_its_keys_as_parts_and_drops_the_rest():
    board = EncounterBoard()
    heard = []
    board.on_tap(heard.append)
    keys = (
        "bench:heroes:Ada",
        "place:heroes:0:attacking",
        "act:add:heroes",
        "bench:heroes",
        "place:x:0",
        "act:",
        "nonsense",
    )
    for key in keys:
        board.press(key)
    assert heard == [["bench", "heroes", "Ada"], ["place", "heroes", "0", "attacking"], ["act", "add:heroes"]]
    assert board.ack == len(keys)


def test_a_tap_on_an_action_under_the_roll_is_answered_by_the_panel():
    panel = KostkaApp().result_panel
    panel.press("reveal")  # no roll shown: nothing to reveal, answered all the same
    assert panel.box.ack == 1
