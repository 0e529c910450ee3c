"""Make the README's screenshots: each system's screen as a player at the table sees it, after a roll.

A touch tablet's window (and one phone's), the sheet in its Play view where it has one, a one-tap
roll, and what the window shows then: the result panel beside the sheet or over its lower part.

    python docs/screenshots.py            # writes docs/screenshots/*.png

Starts ``panel serve webapp/app.py`` on a free port and drives Debian's
chromium (``/usr/bin/chromium``, or ``$KOSTKA_CHROMIUM``) with Playwright, as the
browser tests do (tests/browsing.py).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT / "tests"))
from browsing import launch_options, served_app  # noqa: E402

# A Fate & Doom heroine, shown in English on a tablet and in Czech on a phone.
VLASTA = {
    "sys": "fate",
    "name": "Vlasta",
    "skill": 8,
    "favour": 3,
    "favour_max": 3,
    "life": 11,
    "life_max": 12,
    "r_difficulty": 2,
    "r_spend": 1,
}

#: The Play view's button in each language.
PLAY = {"en": "Play", "ru": "Игра", "cs": "Hra"}

SHOTS = [
    # (file, viewport, query, button to press: its accessible name)
    (
        "one-ring.png",
        (768, 1024),
        {
            "lang": "en",
            "sys": "one-ring",
            "name": "Hanar",
            "strength": 7,
            "heart": 4,
            "wits": 5,
            "awareness": 2,
            "scan": 3,
            "lore": 1,
            "fav": "awareness",
            "valour": 2,
            "wisdom": 1,
            "r_ability": "awareness",
        },
        "Roll Awareness",
    ),
    (
        "gurps.png",
        (768, 1024),
        {
            "lang": "en",
            "sys": "gurps",
            "name": "Dai Blackthorn",
            "dx": 13,
            "iq": 11,
            "skills": '[{"name":"Lockpicking","level":"9"},{"name":"Stealth","level":"14"}]',
            "r_mods": '[{"name":"Tools","value":"-5"},{"name":"Time taken","value":"+10"}]',
        },
        "Roll Stealth",
    ),
    (
        "fate.png",
        (768, 1024),
        {**VLASTA, "lang": "en"},
        "Roll Skill with the chosen options",
    ),
    (
        "one-ring-ru-landscape.png",
        (1024, 768),
        {
            "lang": "ru",
            "sys": "one-ring",
            "name": "Ханар",
            "strength": 7,
            "awareness": 2,
            "r_ability": "awareness",
        },
        "Бросок: Внимательность",
    ),
    (
        "fate-phone.png",
        (390, 844),
        {**VLASTA, "lang": "cs"},
        "Hod: Dovednost se zvolenými možnostmi",
    ),
]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, served_app(Path(tmp) / "serve.log") as base, sync_playwright() as p:
        browser = p.chromium.launch(**launch_options())
        for name, (width, height), query, button in SHOTS:
            # touch, but not is_mobile: panel serve's page has no viewport tag (the built site's has)
            context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
            page = context.new_page()
            page.goto(f"{base}?{urlencode(query)}")
            page.locator("html[data-kostka=ready]").wait_for(state="attached")
            play = page.get_by_role("button", name=PLAY[query["lang"]], exact=True)
            if play.count():
                play.click()
                page.locator(".k-play-row button").first.wait_for(state="visible")
            page.get_by_role("button", name=button, exact=True).first.click()
            page.get_by_test_id("result-outcome").wait_for()
            page.wait_for_timeout(1500)  # the dice's short roll has ended
            page.screenshot(path=str(OUT / name))
            print("wrote", OUT / name)
            context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
