"""The built site under its Content-Security-Policy: the <meta> tag every page carries and the
header of ``build.py --serve`` (which also covers the app's worker). The app starts and rolls in
every system, from the interpreter snapshot and from a fresh boot, and the browser reports no
violation: neither on the page (``securitypolicyviolation`` events) nor anywhere else (the
reports the policy's ``report-uri`` sends, which cover the workers too)."""

from __future__ import annotations

import functools
import http.server
import json
import re
import threading

import pytest
from pages import big_roll, build, damage_snapshot, start
from playwright.sync_api import Browser, expect
from test_site import roll_in_each_system, runtime

pytestmark = [pytest.mark.browser, pytest.mark.site]

LISTEN = """window.kostkaViolations = [];
document.addEventListener("securitypolicyviolation", (e) => window.kostkaViolations.push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


class ReportingHandler(build.SiteHandler):
    """build.py's handler; its policy also asks the browser to report every violation here."""

    reports: list[dict] = []

    def send_header(self, keyword, value):
        if keyword == "Content-Security-Policy":
            value += "; report-uri /csp-report"
        super().send_header(keyword, value)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.reports.append(json.loads(body or b"{}"))
        self.send_response(204)
        self.end_headers()


@pytest.fixture
def reporting(site):
    ReportingHandler.reports = []
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(ReportingHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_every_page_carries_the_policy(site):
    for page in site.glob("*.html"):
        meta = re.search(
            r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page.read_text(encoding="utf-8")
        )
        assert meta and meta.group(1) == build.CSP, page
    assert "'unsafe-inline'" not in build.CSP.split("script-src")[1].split(";")[0]  # no inline script runs
    assert "'unsafe-eval'" not in build.WORKER_CSP and "frame-ancestors 'none'" in build.CSP_HEADER


@pytest.mark.parametrize("boot", [False, True], ids=["snapshot", "fresh-boot"])
def test_the_app_starts_and_rolls_with_no_policy_violation(browser: Browser, reporting: str, boot: bool):
    context = browser.new_context()
    context.add_init_script(LISTEN)
    if boot:  # a damaged snapshot: the worker boots Python and installs the wheels itself
        damage_snapshot(context)
    page = context.new_page()
    start(page, reporting + "?lang=en")
    assert runtime(page) == ("boot" if boot else "snapshot")
    roll_in_each_system(page)
    page.get_by_role("button", name=re.compile("^☰")).first.click()  # the menu: language, theme, characters
    page.get_by_role("button", name="Čeština").click()  # a language switch redraws every text
    expect(big_roll(page)).to_contain_text("Hod: ")
    page.wait_for_timeout(500)  # reports are sent asynchronously
    assert page.evaluate("window.kostkaViolations") == []
    context.close()
    assert ReportingHandler.reports == []
