"""A share link opened in the built static site (Pyodide in the browser, no server of ours).

One start of the real build: the address carries a roll link with a hostile
name; the page shows the roll verified, the name as text, and *Close* takes the
link out of the address. (Everything else about links is tested against
``panel serve`` in test_share.py; this checks the browser build draws the link
panel at all, which it cannot do for models sent before the page is linked.)
"""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from engine import FateCheck, links

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))

pytestmark = [pytest.mark.browser, pytest.mark.site]

START_TIMEOUT = 300_000  # Pyodide on two shared cores: generous, and no timing asserts
STEP_TIMEOUT = 60_000
XSS = "<img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def site_url():
    try:
        if not build.is_up_to_date():
            build.build()
    except build.BuildError as exc:
        pytest.fail(f"python build.py failed: {exc}")
    httpd = build.make_server(0, build.SITE)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


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
    page.goto(links.link_url(site_url + "?lang=en", payload))
    page.wait_for_selector(
        "html[data-kostka-loader=ready], html[data-kostka-loader=error]", state="attached", timeout=START_TIMEOUT
    )
    assert page.locator("html[data-kostka-loader=ready]").count() == 1, page.locator("#kostka-loader").inner_text()
    page.set_default_timeout(STEP_TIMEOUT)
    page.get_by_test_id("pinged").wait_for(state="attached")  # the link panel has drawn itself again
    verdict = page.get_by_test_id("verdict")
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
    roll = page.get_by_role("button", name="Roll", exact=True).first
    roll.click()
    qr = page.get_by_test_id("share-qr")
    expect(qr).to_be_visible()
    first_link, first_qr = page.get_by_test_id("share-link").inner_text(), qr.inner_html()
    roll.click()
    expect(page.get_by_test_id("share-link")).not_to_have_text(first_link)
    for _ in range(100):  # the QR code's own change follows the link's
        if qr.inner_html() != first_qr:
            break
        page.wait_for_timeout(100)
    assert qr.inner_html() != first_qr
    assert unknown == []
    context.close()
