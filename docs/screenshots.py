"""Make the README's screenshots: each system's screen at tablet size (and one on a phone), after a roll.

    python docs/screenshots.py            # writes docs/screenshots/*.png

Starts ``panel serve webapp/app.py`` on a free port and drives Debian's
chromium (``/usr/bin/chromium``, or ``$KOSTKA_CHROMIUM``) with Playwright.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlencode

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("KOSTKA_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]

SHOTS = [
    # (file, viewport, query, button to press)
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
        "Roll",
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
        "Roll",
    ),
    (
        "fate.png",
        (768, 1024),
        {
            "lang": "en",
            "sys": "fate",
            "name": "Vlasta",
            "skill": 8,
            "favour": 3,
            "favour_max": 3,
            "life": 11,
            "life_max": 12,
            "r_difficulty": 2,
            "r_spend": 1,
        },
        "Roll",
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
        "Бросить",
    ),
    (
        "fate-phone.png",
        (390, 844),
        {
            "lang": "cs",
            "sys": "fate",
            "name": "Vlasta",
            "skill": 8,
            "favour": 3,
            "favour_max": 3,
            "life": 11,
            "life_max": 12,
            "r_difficulty": 2,
            "r_spend": 1,
        },
        "Hodit",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "panel",
            "serve",
            "webapp/app.py",
            "--port",
            str(port),
            "--address",
            "127.0.0.1",
            "--allow-websocket-origin",
            f"127.0.0.1:{port}",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/app"
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        for _ in range(200):
            try:
                direct.open(base, timeout=10).close()
                break
            except OSError:
                time.sleep(0.3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for name, (width, height), query, button in SHOTS:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{base}?{urlencode(query)}")
                page.locator("html[data-kostka=ready]").wait_for(state="attached")
                page.get_by_role("button", name=button, exact=True).click()
                page.get_by_test_id("outcome").wait_for()
                page.wait_for_timeout(500)
                page.screenshot(path=str(OUT / name), full_page=True)
                print("wrote", OUT / name)
                page.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
