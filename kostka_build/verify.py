"""The checks on a built site: every referenced file exists, and no fetched URL
(``src``/``href``/``url()``/``@import``/``import``/``importScripts``/``fetch``/``indexURL``/
``micropip.install``/Bokeh stylesheet ``url``) points to another host. Other ``http(s)://`` text
inside big JS bundles (XML namespaces, licence and documentation links) is inert and allowed."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from . import config, internals
from .convert import css_references
from .util import BuildError

FETCH_PATTERNS = [
    re.compile(r"""\b(?:src|href|action|poster)\s*=\s*["']?(https?://[^"'\s>]+)""", re.I),
    re.compile(r"""url\(\s*["']?(https?://[^"')\s]+)"""),
    re.compile(r"""@import\s+(?:url\()?\s*["'](https?://[^"']+)"""),
    re.compile(r"""\bimportScripts\(\s*["'`](https?://[^"'`]+)"""),
    re.compile(r"""\bimport\s*\(\s*["'`](https?://[^"'`]+)"""),
    re.compile(r"""\bfrom\s*["'](https?://[^"']+)["']"""),
    re.compile(r"""\bfetch\(\s*["'`](https?://[^"'`]+)"""),
    re.compile(r"""\bindexURL\s*[:=]\s*["'`](https?://[^"'`]+)"""),
    re.compile(r"""micropip\.install\(\s*\[?\s*["'](https?://[^"']+)"""),
    re.compile(r"""\bnew\s+(?:Shared)?Worker\(\s*["'`](https?://[^"'`]+)"""),
    re.compile(r""""url"\s*:\s*"(https?://[^"]+)\""""),
]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def scan_foreign_urls(site: Path = config.SITE) -> list[str]:
    """Fetched URLs to other hosts in the HTML/JS/CSS/JSON we serve (inert text in bundles is ignored)."""
    bad = []
    for path in sorted(site.rglob("*")):
        if (
            path.suffix not in {".html", ".js", ".mjs", ".css", ".json", ".webmanifest"}
            or path.name == "pyodide-lock.json"
        ):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for pat in FETCH_PATTERNS:
            bad += [
                f"{path.relative_to(site)}: {m.group(1)}"
                for m in pat.finditer(text)
                if urlsplit(m.group(1)).hostname not in LOCAL_HOSTS
            ]
    return bad


def check_local_references(site: Path = config.SITE) -> list[str]:
    missing = []
    for html in site.glob("*.html"):
        text = html.read_text(encoding="utf-8")
        for ref in re.findall(r"""<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)\"""", text):
            if not re.match(r"^(https?:|data:|#)", ref) and not (site / ref.split("?")[0]).is_file():
                missing.append(f"{html.name} -> {ref}")
    for css in site.rglob("*.css"):
        for ref in css_references(css.read_text(encoding="utf-8", errors="replace")):
            if not (css.parent / ref.split("?")[0].split("#")[0]).resolve().is_file():
                missing.append(f"{css.relative_to(site)} -> {ref}")
    for m in json.loads((site / "manifest.webmanifest").read_text())["icons"]:
        if not (site / m["src"]).is_file():
            missing.append(f"manifest.webmanifest -> {m['src']}")
    return missing


def verify_site(site: Path, packages: list[str], lock_packages: dict) -> None:
    for name in ["index.html", "app.js", "sw.js", *config.STATIC_FILES, config.APP_CSS.name]:
        if not (site / name).is_file():
            raise BuildError(f"site/{name} was not written")
    for p in packages:
        if not (site / config.PYODIDE_SITE_DIR / lock_packages[p]["file_name"]).is_file():
            raise BuildError(f"site lacks the wheel of {p}")
    for name in (config.SNAPSHOT_PART.format(0), config.STDLIB_ZIP, config.STDLIB_REST):
        if not (site / config.PYODIDE_SITE_DIR / name).is_file():
            raise BuildError(f"site lacks {config.PYODIDE_SITE_DIR}{name}")
    check_ios_detection((site / config.PYODIDE_SITE_DIR / "pyodide.asm.js").read_text(encoding="utf-8"))
    missing = check_local_references(site)
    if missing:
        raise BuildError("references to files missing from site/:\n  " + "\n  ".join(missing))
    foreign = scan_foreign_urls(site)
    if foreign:
        raise BuildError("the site would fetch from other hosts:\n  " + "\n  ".join(foreign[:40]))


# What browsers on the devices at a table report (navigator.userAgent, .platform, .maxTouchPoints),
# and whether Pyodide's runtime must take each for iOS or iPadOS. Since iPadOS 13, Safari on an
# iPad asks for desktop pages: it reports a Mac's user agent and platform, and only its touch
# points tell it from one.
SAFARI_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15"
DEVICES = {
    "iPad (iPadOS 18, Safari)": ({"userAgent": SAFARI_UA, "platform": "MacIntel", "maxTouchPoints": 5}, True),
    "iPhone (iOS 18, Safari)": (
        {
            "userAgent": "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "platform": "iPhone",
            "maxTouchPoints": 5,
        },
        True,
    ),
    "Mac (macOS, Safari)": ({"userAgent": SAFARI_UA, "platform": "MacIntel", "maxTouchPoints": 0}, False),
    "Android tablet (Chrome)": (
        {
            "userAgent": "Mozilla/5.0 (Linux; Android 14; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/131.0.0.0 Safari/537.36",
            "platform": "Linux armv8l",
            "maxTouchPoints": 10,
        },
        False,
    ),
}
# Runs the runtime's own expression once per device, each in a fresh context whose navigator is it.
_IOS_PROBE = """
const vm = require("vm");
const job = JSON.parse(require("fs").readFileSync(0, "utf8"));
const seen = job.devices.map((nav) => Boolean(vm.runInNewContext(`globalThis.navigator = nav; (${job.check})`, {nav})));
process.stdout.write(JSON.stringify(seen));
"""


def ios_detection(runtime_js: str) -> dict[str, bool]:
    """Whether the Pyodide runtime ``runtime_js`` (the text of pyodide.asm.js) takes each of
    :data:`DEVICES` for iOS or iPadOS, found by running its own check in Node."""
    found = internals.PYODIDE_IOS_CHECK.findall(runtime_js)
    if len(found) != 1:
        raise BuildError(
            f"Pyodide's iOS check found {len(found)} times in pyodide.asm.js, expected once (internals.PYODIDE_IOS_CHECK)"
        )
    job = json.dumps({"check": found[0], "devices": [nav for nav, _ in DEVICES.values()]})
    try:
        proc = subprocess.run(["node", "-e", _IOS_PROBE], input=job, capture_output=True, text=True, timeout=60)
    except FileNotFoundError as exc:
        raise BuildError(f"checking Pyodide's iOS check needs Node.js (the 'node' command): {exc}") from exc
    if proc.returncode != 0:
        raise BuildError(f"Pyodide's iOS check failed to run:\n{proc.stderr[-2000:]}")
    return dict(zip(DEVICES, json.loads(proc.stdout), strict=True))


def check_ios_detection(runtime_js: str) -> None:
    """Refuse a runtime that would take an iPad (Safari reporting "MacIntel" with touch points) for
    a Mac, or any of :data:`DEVICES` for what it is not: on an iPad, a runtime that thinks it runs
    on a Mac starts on a path iPadOS 18's Safari breaks, and the site never starts there."""
    seen = ios_detection(runtime_js)
    wrong = [
        f"{device}: taken for {'iOS' if seen[device] else 'not iOS'}"
        for device, (_, ios) in DEVICES.items()
        if seen[device] != ios
    ]
    if wrong:
        raise BuildError(
            f"Pyodide {config.PYODIDE_VERSION}'s runtime tells iOS wrongly, and would not start on such devices:\n  "
            + "\n  ".join(wrong)
        )
