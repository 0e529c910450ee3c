"""A share link opened in the built static site (Pyodide in the browser, no server of ours).

One start of the real build: the address carries a roll link with a hostile
name; the page shows the roll verified, the name as text, and *Close* takes the
link out of the address. (Everything else about links is tested against
``panel serve`` in test_share.py; this checks the browser build draws the link
panel at all, which it cannot do for models sent before the page is linked.)
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from pages import big_roll, start
from playwright.sync_api import Browser, expect

from engine import FateCheck, links

pytestmark = [pytest.mark.browser, pytest.mark.site]

XSS = "<img src=x onerror=alert(1)>"


def test_a_roll_link_opens_verified_in_the_browser_build(browser: Browser, site_url: str):
    check = FateCheck(skill=8, difficulty=1)
    payload = links.encode_roll_link(check, seed=20261130, name=XSS)
    expected = links.verify(payload).roll
    context = browser.new_context()  # no storage
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    unknown: list[str] = []  # Bokeh's complaint about a change to a model the page never received
    page.on("console", lambda m: "isn't known" in m.text and unknown.append(m.text))
    start(page, links.link_url(site_url + "?lang=en", payload))
    page.get_by_test_id("pinged").wait_for(state="attached")  # the link panel has drawn itself again
    verdict = page.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "verified")
    expect(page.get_by_test_id("link-character")).to_have_text(XSS)
    faces = page.locator("[data-testid=link-dice] svg.die").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert faces == [f"Die showing {f}" for f in expected.dice]
    assert page.locator("img").count() == 0 and dialogs == []
    page.get_by_role("button", name="Close", exact=True).click()
    expect(verdict).to_have_count(0)
    # the closed link leaves the address (its own change, which may reach the page a moment later)
    expect(page).not_to_have_url(re.compile(r"#r="))
    # a roll of one's own: the share panel gains its QR code (a new child of a layout), and the
    # next roll changes it in place
    roll = big_roll(page)
    roll.click()
    page.get_by_role("button", name="Show the QR code", exact=True).first.click()
    qr = page.get_by_test_id("share-qr")
    expect(qr).to_be_visible()
    first_link, first_qr = page.get_by_test_id("share-link").filter(visible=True).inner_text(), qr.inner_html()
    roll.click()
    expect(page.get_by_test_id("share-link").filter(visible=True)).not_to_have_text(first_link)
    for _ in range(100):  # the QR code's own change follows the link's
        if qr.inner_html() != first_qr:
            break
        page.wait_for_timeout(100)
    assert qr.inner_html() != first_qr
    assert unknown == []
    context.close()


def test_an_altered_link_draws_no_dice_as_a_result(browser: Browser, site_url: str):
    """A link whose dice were changed is said to be altered, and the dice it claims are not drawn
    under the warning as if they were a roll (with a bold "Success" beside them, they used to be)."""
    payload = links.encode_roll_link(FateCheck(skill=8, difficulty=1), seed=20261207, name="Bohdan")
    link = links.decode_link(payload)
    dice = (1, 1) if link.claim.dice != (1, 1) else (6, 6)
    forged = links.encode_link(replace(link, claim=replace(link.claim, dice=dice)), digest=link.digest)
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        start(page, links.link_url(site_url + "?lang=en", forged))
        verdict = page.get_by_test_id("verdict").filter(visible=True)
        expect(verdict).to_have_attribute("data-status", "altered")
        expect(page.get_by_test_id("link-not-shown")).to_be_visible()
        expect(page.get_by_test_id("link-character")).to_have_text("Bohdan")
        assert page.get_by_test_id("link-dice").count() == 0
        assert page.get_by_test_id("link-outcome").count() == 0
    finally:
        context.close()


def test_a_mistyped_reveal_code_keeps_the_sealed_link_and_the_field(browser: Browser, site_url: str):
    """A code with a letter too many, one wrong or one too few does not open the roll: the page says
    so (each try in another language, so that each answer is a new one), the sealed link stays as it
    was and the field keeps what was typed; the right code opens it."""
    secret = links.encode_secret_link(FateCheck(skill=8), seed=424_242, name="Vlasta")
    code = secret.reveal
    wrong = "A" if code[3] != "A" else "B"
    tries = [
        (None, code + "x", "Reveal code", "Open", "This reveal code does not open this secret roll."),
        ("Čeština", code[:3] + wrong + code[4:], "Kód k odhalení", "Otevřít", "Tento kód tento tajný hod neodhalí."),
        ("Русский", code[:-1], "Код раскрытия", "Открыть", "Этот код не раскрывает этот тайный бросок."),
    ]
    context = browser.new_context()
    page = context.new_page()
    start(page, links.link_url(site_url + "?lang=en", secret.link))
    page.get_by_test_id("pinged").wait_for(state="attached")
    verdict = page.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "sealed")
    panel = page.get_by_test_id("shared-link").filter(visible=True)
    character = panel.get_by_test_id("link-character").inner_text()
    for language, typo, label, button, words in tries:
        if language:
            choice = page.get_by_role("button", name=language, exact=True)
            if not choice.is_visible():
                page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme…
            choice.click()
        field = page.get_by_label(label, exact=True).filter(visible=True)
        field.fill(typo)
        page.get_by_role("button", name=button, exact=True).click()
        expect(page.get_by_role("alert").filter(has_text=words)).to_have_count(1)
        expect(field).to_have_value(typo)  # still there, with what was typed
        expect(verdict).to_have_attribute("data-status", "sealed")
        expect(panel.get_by_test_id("link-character")).to_have_text(character)
    field.fill(code)
    page.get_by_role("button", name="Открыть", exact=True).click()
    expect(verdict).to_have_attribute("data-status", "verified")
    context.close()
