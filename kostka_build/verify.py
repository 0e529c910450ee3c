"""The checks on a built site: every referenced file exists, and no fetched URL
(``src``/``href``/``url()``/``@import``/``import``/``importScripts``/``fetch``/``indexURL``/
``micropip.install``/Bokeh stylesheet ``url``) points to another host. Other ``http(s)://`` text
inside big JS bundles (XML namespaces, licence and documentation links) is inert and allowed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urlsplit

from . import config
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
    missing = check_local_references(site)
    if missing:
        raise BuildError("references to files missing from site/:\n  " + "\n  ".join(missing))
    foreign = scan_foreign_urls(site)
    if foreign:
        raise BuildError("the site would fetch from other hosts:\n  " + "\n  ".join(foreign[:40]))
