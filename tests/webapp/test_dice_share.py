"""Free dice rolls share like any roll: the card's link and QR code, the link opened, session numbering."""

from __future__ import annotations

import pytest

from engine import links
from engine.roller import parse_dice
from webapp.state.links import entry_link
from webapp.views.shell import KostkaApp


@pytest.fixture
def app():
    return KostkaApp()


def test_the_free_dice_card_shares_its_roll_with_a_link_and_a_qr_code(app):
    view = app.dice_card.open()
    view.field.value_input = "4d6 keep 3"
    entry = view.roll(seed=7)
    panel = app.share_panels[("dice", "dice")]
    assert view.share_panel is panel and len(view._layout.objects) == 5  # under the roll's result
    assert panel.url.endswith("#r=" + links.encode_roll_link(parse_dice("4d6k3"), seed=7))
    assert panel.shows(panel.copy) and not panel.shows(panel.check_button)
    assert panel.qr.object == "" and not panel.shows(panel.qr)  # the QR code waits until asked for
    panel.qr_button.clicks += 1
    assert "share-qr" in panel.qr.object and panel.shows(panel.qr) and panel.qr_button.name == "Hide the QR code"
    view.roll(seed=8)
    assert panel.url.endswith("#r=" + links.encode_roll_link(parse_dice("4d6k3"), seed=8))
    assert panel.shows(panel.qr) and panel.url.split("#r=")[1][:20] in panel.link_text.object  # the next one's code
    view.roll(seed=7)
    # the other screens' panels do not show it
    assert app.share_panels[("one-ring", "roll")].url == ""
    opened = app.share.open(panel.url)
    assert opened.status == "verified" and opened.roll == entry.roll
    body = app.link_panel.body.object
    assert "Free dice: 4d6k3, seed 7" in body and "Total 9" in body and "(2) 3 3 3" in body


def test_a_dice_roll_takes_the_session_number_of_the_character_on_screen(app):
    app.state.one_ring.character.name_text = "Ada"
    app.share.session.set_code("Friday")
    one_ring = app.state.rolls.roll(app.state.one_ring.check, character="Ada", ability="Awe")
    assert one_ring.session_number == 1
    view = app.dice_card.open()
    view.field.value_input = "3d6"
    entry = view.roll()
    assert (entry.character, entry.session_code, entry.session_number) == ("Ada", "Friday", 2)
    assert entry.seed == links.session_roll_seed("Friday", 2, parse_dice("3d6"), "Ada")
    assert "Session Friday, roll no. 2" in view.status.object
    link = links.decode_link(entry_link(entry).link)
    assert (link.system, link.session_code, link.number, link.name) == ("dice", "Friday", 2, "Ada")
    (group,) = app.share.gaps(app.state.rolls.log.entries)
    assert group.numbers == (1, 2) and not group.missing
    assert "numbers 1–2 — no gaps" in app.session_panel.report.object


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The dice in this link cannot be rolled: Roll from 1 to 100 dice at a time."),
        ("ru", "Кости"),
        ("cs", "Kostky"),
    ],
)
def test_a_hostile_dice_link_gets_a_message_in_words(app, lang, words):
    body = bytes([3, 1, 5, 1]) + bytes([0x80] * 9 + [1]) + bytes([6, 0, 0, 0, 0, 0]) + bytes(8) + b"\0"
    payload = links._b64encode(body + links._digest(body))
    app.tr.lang = lang
    opened = app.share.open(payload)
    assert opened.status == "unreadable"
    assert words in app.link_panel.body.object
    assert "<script" not in app.link_panel.body.object
