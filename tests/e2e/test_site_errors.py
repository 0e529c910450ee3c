"""The loader's record of the page's errors (``KostkaLoader.errors``, static/loader.js), in Chromium.

The WebKit tests (tests/webkit) know of the page's uncaught errors only through that record: WebKit's
driver shows no console. Here Playwright sees them too: after a start and a roll the record is as
empty as Playwright's list, and an error thrown later, or a promise rejected with no one to catch
it, is in both.
"""

from __future__ import annotations

import pytest
from pages import big_roll, start
from playwright.sync_api import Browser, expect

pytestmark = [pytest.mark.browser, pytest.mark.site]


def test_the_loader_records_what_the_page_did_not_catch(browser: Browser, site_url: str):
    context = browser.new_context()
    page = context.new_page()
    seen: list[str] = []
    page.on("pageerror", lambda e: seen.append(str(e)))
    start(page, site_url + "?lang=en")
    big_roll(page).click()
    expect(page.get_by_test_id("result-outcome").first).not_to_be_empty()
    assert page.evaluate("KostkaLoader.errors") == []
    assert seen == []
    page.evaluate(
        "() => { setTimeout(() => { throw new Error('thrown here'); }); Promise.reject(new Error('rejected here')); }"
    )
    page.wait_for_function("KostkaLoader.errors.length === 2")
    recorded = sorted(page.evaluate("KostkaLoader.errors"))
    assert recorded[0].startswith("Uncaught Error: thrown here"), recorded
    assert recorded[1] == "unhandled rejection: rejected here", recorded
    assert len(seen) == 2
    context.close()
