"""The Share QR code scans from the screen, at every size and in both themes, on the built site.

The code was drawn at a fixed 392 px with no ``viewBox`` and shown in a narrower box, so it was
clipped, not scaled: it decoded only on the portrait tablet. Read here as a phone reads it: a
viewport screenshot through zxing-cpp, which must find exactly the link shown beside it."""

from __future__ import annotations

import io

import pytest
from pages import big_roll, seeded, start
from playwright.sync_api import Browser, expect

zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")

pytestmark = [pytest.mark.browser, pytest.mark.site]

SIZES = {"tablet upright": (768, 1024), "tablet lying": (1024, 768), "phone": (390, 844)}


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_share_qr_code_scans_from_the_screen(browser: Browser, site_url: str, size: str, theme: str):
    width, height = SIZES[size]
    context = seeded(browser, {"kostka.theme": theme}, viewport={"width": width, "height": height}, has_touch=True)
    try:
        page = context.new_page()
        start(page, f"{site_url}?lang=en&sys=gurps")
        assert page.evaluate("() => document.documentElement.dataset.theme") == theme
        big_roll(page).click()
        panel = page.get_by_test_id("result-panel")
        panel.get_by_role("button", name="Share", exact=True).click()
        qr = page.get_by_test_id("result-qr")
        expect(qr).to_be_visible()
        link = page.get_by_test_id("result-link").inner_text().strip()
        qr.scroll_into_view_if_needed()
        box = qr.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        shot = Image.open(io.BytesIO(page.screenshot())).convert("L")
        found = [r.text for r in zxingcpp.read_barcodes(shot)]
        assert found == [link], (size, theme, found)
    finally:
        context.close()
