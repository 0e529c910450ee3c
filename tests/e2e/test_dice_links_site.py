"""Free dice shared as a link in the built static site (Pyodide in the browser).

A player rolls free dice under a session code; the card's share panel gives the
link and its QR code; the same link opened in a new page shows the very same
dice, verified. A link whose dice are beyond the roller's bounds is refused in
words.
"""

from __future__ import annotations

import re

import pytest
from pages import start
from playwright.sync_api import Browser, expect

from engine import links

pytestmark = [pytest.mark.browser, pytest.mark.site]


def test_free_dice_shared_as_a_link_open_with_the_same_dice(browser: Browser, site_url: str):
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start(page, site_url + "?lang=en")
    page.get_by_label("Session code", exact=True).fill("Friday")
    page.get_by_role("button", name="Free dice", exact=True).click()
    page.get_by_label(re.compile("^Dice")).fill("4d6 keep 3")
    expect(page.get_by_test_id("dice-odds")).to_contain_text("4d6k3: from 3 to 18")
    page.get_by_role("button", name="Roll", exact=True).last.click()
    status = page.locator("[role=status][data-testid=dice-result]")
    expect(status).to_contain_text("Session Friday, roll no. 1")
    faces = status.get_by_test_id("dice-faces").inner_text()
    total = status.get_by_test_id("dice-total").inner_text()
    assert re.fullmatch(r"4d6k3: [()1-6 ]+", faces), faces
    share = page.get_by_test_id("share-link").filter(visible=True)
    expect(share).to_have_count(1)  # the free dice card's own panel
    expect(page.get_by_test_id("share-qr")).to_have_count(0)  # folded away until asked for
    page.get_by_role("button", name="Show the QR code", exact=True).click()
    expect(page.get_by_test_id("share-qr")).to_be_visible()
    expect(page.get_by_test_id("share-note").filter(visible=True)).to_have_text("Session Friday, roll no. 1")
    url = share.inner_text()
    link = links.decode_link(url)
    assert (link.system, link.session_code, link.number) == ("dice", "Friday", 1)
    # the engine agrees with what the page shows
    roll = links.verify(url).roll
    assert total == f"Total {roll.total}"

    other = context.new_page()  # a new page of the same browser: the link opened from its address
    other.on("pageerror", lambda e: errors.append(str(e)))
    start(other, url)
    other.get_by_test_id("pinged").wait_for(state="attached")
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(other.get_by_test_id("link-dice").get_by_test_id("dice-faces")).to_have_text(faces)
    expect(other.get_by_test_id("link-dice").get_by_test_id("dice-faces-total")).to_have_text(total)
    expect(other.get_by_test_id("link-inputs")).to_contain_text(f"Free dice: 4d6k3, seed {roll.seed}")
    expect(other.get_by_test_id("link-session")).to_have_text("Session Friday, roll no. 1")

    # a hand-edited link asking for 10**20 dice: refused in words, nothing else changes
    body = bytes([3, 1, 5, 1]) + bytes([0x80] * 9 + [1]) + bytes([6, 0, 0, 0, 0, 0]) + bytes(8) + b"\0"
    hostile = links.link_url(site_url + "?lang=cs", links._b64encode(body + links._digest(body)))
    third = context.new_page()
    third.on("pageerror", lambda e: errors.append(str(e)))
    start(third, hostile)
    third.get_by_test_id("pinged").wait_for(state="attached")
    verdict = third.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "unreadable")
    expect(verdict).to_have_text("Kostky z tohoto odkazu nelze hodit: Házej 1 až 100 kostek najednou.")
    context.close()
    assert errors == []
