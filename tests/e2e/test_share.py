"""Share links in headless Chromium against ``panel serve``: copy, reopen elsewhere, tamper, XSS, secrets, QR."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest
from pages import SERVED_TIMEOUT, big_roll, open_served
from playwright.sync_api import Page, expect

from engine import links

pytestmark = pytest.mark.browser

XSS = "<img src=x onerror=alert(1)>"
DICE = "[data-testid=result-dice] svg.die"


def open_app(page: Page, url: str) -> None:
    open_served(page, url)
    page.get_by_test_id("pinged").wait_for(state="attached")  # the link panel has drawn itself again


def fresh_page(browser) -> Page:
    """A new browser context: no storage, no cookies, nothing but the address."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(SERVED_TIMEOUT)
    return page


def dice_labels(page: Page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")


def roll_fate(page: Page, app_url: str, name: str) -> None:
    open_app(page, app_url + "?lang=en&sys=fate")
    page.get_by_label("Name").filter(visible=True).first.fill(name)
    page.get_by_label("Skill", exact=True).fill("8")
    expect(page.get_by_test_id("p-success").filter(visible=True)).to_be_visible()
    big_roll(page).click()
    expect(page.locator(DICE)).to_have_count(2)


def shared_link(page: Page) -> str:
    link = page.get_by_test_id("share-link").filter(visible=True)
    expect(link).to_contain_text("#r=")
    return link.inner_text().strip()


def test_copied_link_opens_the_same_roll_as_verified_in_a_fresh_browser(page: Page, app_url: str, browser):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    roll_fate(page, app_url, "Vlasta")
    url = shared_link(page)
    page.get_by_test_id("copy-link").click()
    expect(page.get_by_test_id("copy-link")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == url
    faces = dice_labels(page, DICE)
    outcome = page.get_by_test_id("result-outcome").inner_text()

    other = fresh_page(browser)
    open_app(other, url)
    verdict = other.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "verified")
    expect(verdict).to_have_text("This roll follows from this link.")
    expect(other.get_by_test_id("link-character")).to_have_text("Vlasta")
    assert dice_labels(other, "[data-testid=link-dice] svg.die") == faces
    expect(other.get_by_test_id("link-outcome")).to_contain_text(outcome)
    other.get_by_role("button", name="Close", exact=True).click()
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_count(0)
    expect(other).not_to_have_url(re.compile("#r="))
    other.context.close()


def test_an_altered_link_is_marked_as_altered(page: Page, app_url: str, browser):
    roll_fate(page, app_url, "Bohdan")
    url = shared_link(page)
    link = links.decode_link(url)
    better = (1, 1) if link.claim.dice != (1, 1) else (2, 1)  # claim other dice, keep the old digest
    forged = links.encode_link(replace(link, claim=replace(link.claim, dice=better)), digest=link.digest)
    other = fresh_page(browser)
    open_app(other, links.link_url(url, forged))
    verdict = other.get_by_test_id("verdict").filter(visible=True)
    expect(verdict).to_have_attribute("data-status", "altered")
    expect(verdict).to_contain_text("This link was altered")
    expect(verdict).to_contain_text("the dice")
    other.context.close()
    # a link cut short is refused with a message, and the app keeps running
    cut = fresh_page(browser)
    open_app(cut, url[:-12])
    expect(cut.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "unreadable")
    expect(cut.get_by_test_id("verdict").filter(visible=True)).to_contain_text("This link could not be read")
    expect(big_roll(cut)).to_be_enabled()
    cut.context.close()


def test_a_hostile_name_shows_as_text(page: Page, app_url: str, browser):
    roll_fate(page, app_url, XSS)
    url = shared_link(page)
    other = fresh_page(browser)
    dialogs: list[str] = []
    other.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_app(other, url)
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(other.get_by_test_id("link-character")).to_have_text(XSS)
    assert other.evaluate(IMG_COUNT) == 0
    assert page.evaluate(IMG_COUNT) == 0
    assert dialogs == []
    other.context.close()


# <img> elements anywhere, shadow roots included (Panel draws each pane in one).
IMG_COUNT = """() => {
  let n = 0;
  const walk = (root) => {
    n += root.querySelectorAll('img').length;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) walk(el.shadowRoot);
  };
  walk(document);
  return n;
}"""


def test_a_secret_roll_stays_hidden_until_revealed(page: Page, app_url: str, browser):
    open_app(page, app_url + "?lang=en&sys=one-ring")
    page.get_by_label("Name").filter(visible=True).first.fill("Gandalf")
    page.get_by_label("Awareness", exact=True).fill("3")
    page.locator(".secret-roll input[type=checkbox]").check()
    expect(page).to_have_url(re.compile("r_secret=1"))  # the app has taken it
    big_roll(page).click()
    expect(page.get_by_test_id("result-outcome")).to_have_text("Secret roll: hidden until the GM reveals it.")
    expect(page.locator(DICE)).to_have_count(0)
    expect(page.get_by_test_id("log")).to_contain_text("hidden")
    sealed = shared_link(page)

    other = fresh_page(browser)
    open_app(other, sealed)
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "sealed")
    expect(other.locator("[data-testid=link-dice] svg.die")).to_have_count(0)

    page.get_by_role("button", name="Reveal", exact=True).click()
    expect(page.locator(DICE)).to_have_count(4)  # the feat die and three success dice
    code = page.get_by_test_id("reveal-code").inner_text().strip()
    faces = dice_labels(page, DICE)
    expect(page.get_by_test_id("log")).not_to_contain_text("hidden")

    other.get_by_label("Reveal code").fill(code)
    other.get_by_role("button", name="Open", exact=True).click()
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    assert dice_labels(other, "[data-testid=link-dice] svg.die") == faces
    other.context.close()


def test_the_qr_code_on_the_page_decodes_back_to_the_link(page: Page, app_url: str):
    zxingcpp = pytest.importorskip("zxingcpp")
    image = pytest.importorskip("PIL.Image")
    roll_fate(page, app_url, "Čeněk")
    url = shared_link(page)
    expect(page.get_by_test_id("share-qr")).to_have_count(0)  # folded away until asked for
    page.get_by_role("button", name="Show the QR code", exact=True).click()
    png = page.get_by_test_id("share-qr").locator("svg").screenshot()
    results = zxingcpp.read_barcodes(image.open(io.BytesIO(png)).convert("L"))
    assert [r.text for r in results] == [url]


def test_a_prepared_check_link_opens_with_a_roll_button(page: Page, app_url: str, browser):
    open_app(page, app_url + "?lang=en&sys=one-ring&r_ability=awareness")
    page.get_by_label("Name").filter(visible=True).first.fill("Hanar")
    page.get_by_label("Strength", exact=True).fill("7")
    page.get_by_label("Awareness", exact=True).fill("2")
    expect(page.get_by_text("2 success dice · TN 13")).to_be_visible()
    page.get_by_role("button", name="Link to this check").click()
    url = shared_link(page)
    other = fresh_page(browser)
    open_app(other, url)
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(other.get_by_test_id("link-inputs")).to_contain_text("Awareness, rating 2, TN 13")
    other.get_by_role("button", name="Roll Awareness", exact=True).first.click()  # the link panel comes first
    expect(other.locator("[data-testid=link-roll-result] svg.die")).to_have_count(3)
    expect(other.get_by_test_id("log")).to_contain_text("Hanar")
    other.context.close()


def test_a_session_code_numbers_the_rolls_and_is_remembered(page: Page, app_url: str, browser):
    open_app(page, app_url + "?lang=en&sys=fate")
    page.get_by_label("Name").filter(visible=True).first.fill("Hanar")
    expect(page.get_by_test_id("session-help")).to_contain_text("cryptographic hash")
    page.get_by_label("Session code").fill("ABC")
    page.get_by_label("Session code").press("Enter")
    page.wait_for_function("() => (localStorage.getItem('kostka.session') || '').includes('ABC')")
    big_roll(page).click()
    expect(page.get_by_test_id("log")).to_contain_text("Session ABC, roll no. 1")
    big_roll(page).click()
    expect(page.get_by_test_id("log")).to_contain_text("Session ABC, roll no. 2")
    expect(page.get_by_test_id("numbering")).to_contain_text("Hanar: numbers 1–2 — no gaps")
    url = shared_link(page)
    other = fresh_page(browser)
    open_app(other, url)
    expect(other.get_by_test_id("verdict").filter(visible=True)).to_have_attribute("data-status", "verified")
    expect(other.get_by_test_id("link-session")).to_have_text("Session ABC, roll no. 2")
    expect(other.get_by_test_id("numbering")).to_contain_text("missing: 1")  # roll no. 1 was never shared
    other.context.close()
    open_app(page, app_url + "?lang=en&sys=fate")  # remembered across a reload
    expect(page.get_by_label("Session code")).to_have_value("ABC")
