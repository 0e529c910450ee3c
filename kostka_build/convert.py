"""``panel convert --to pyodide-worker`` and the rewriting of its page: local copies of every file
it takes from a CDN, our loader and worker, the page's policy, no inline script."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from . import config, internals
from .util import BuildError, log, write


def panel_convert(cache: Path = config.CACHE) -> tuple[str, str]:
    """panel convert's app.html and app.js for webapp/app.py."""
    out = cache / "convert"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    # The worker loads every wheel itself (static/worker.js); this explicit list only keeps
    # panel convert from guessing requirements ('auto'): a name, as it no longer takes a wheel's
    # path that is not there yet.
    req = "kostka"
    log("panel convert webapp/app.py --to pyodide-worker")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "panel",
            "convert",
            str(config.APP),
            "--to",
            "pyodide-worker",
            "--out",
            str(out),
            "--requirements",
            req,
            "--disable-http-patch",
        ],
        capture_output=True,
        text=True,
        cwd=config.ROOT,
    )
    html, js = out / "app.html", out / "app.js"
    if (
        proc.returncode != 0
        or "Failed to convert" in proc.stdout + proc.stderr
        or not html.is_file()
        or not js.is_file()
    ):
        raise BuildError(
            "panel convert failed (app.html/app.js missing or error reported):\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
        )
    return html.read_text(encoding="utf-8"), js.read_text(encoding="utf-8")


def extract_app_code(worker_js: str) -> str:
    """The Python code panel convert generated (PRE + app source + POST), unescaped from its JS template literal."""
    m = internals.APP_CODE.search(worker_js)
    if not m:
        raise BuildError("cannot find the app code in panel convert's app.js (see kostka_build/internals.py)")
    code = m.group(1).replace("\\`", "`").encode("ascii").decode("unicode_escape")
    if "write_doc" not in code or "init_doc" not in code:
        raise BuildError("panel convert's app code lacks init_doc/write_doc")
    # panel convert puts its own lines before the app's source: a `from __future__` import in the
    # app would then be a SyntaxError, so such imports move to the very top.
    future = re.findall(r"^from __future__ import [^\n]+$", code, re.M)
    code = re.sub(r"^from __future__ import [^\n]+$", "", code, flags=re.M)
    return "\n".join([*future, code.strip()]) + "\n"


def css_references(css: str) -> list[str]:
    refs = re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css) + re.findall(r"@import\s+['\"]([^'\"]+)['\"]", css)
    return [r for r in refs if not r.startswith(("data:", "#", "http:", "https:", "//"))]


class Assets:
    """Files copied into the site from the pinned panel and bokeh wheels."""

    def __init__(self, site: Path, panel_whl: Path, bokeh_whl: Path):
        self.site = site
        self.panel = zipfile.ZipFile(panel_whl)
        self.bokeh = zipfile.ZipFile(bokeh_whl)

    def panel_file(self, rel: str) -> str:
        """Copy panel/dist/<rel> (and the files its CSS refers to) into the site; return the site path."""
        rel = rel.split("?")[0].split("#")[0]
        target = config.PANEL_SITE_DIR + rel
        if (self.site / target).exists():
            return target
        try:
            data = self.panel.read(internals.PANEL_DIST + rel)
        except KeyError:
            raise BuildError(f"panel {config.PANEL_VERSION} wheel has no dist/{rel}") from None
        write(self.site / target, data)
        if rel.endswith(".css"):
            for ref in css_references(data.decode("utf-8", "replace")):
                self.panel_file(os.path.normpath(os.path.join(os.path.dirname(rel), ref)).replace(os.sep, "/"))
        return target

    def bokeh_file(self, cdn_name: str) -> str:
        name = cdn_name.replace(f"-{config.BOKEH_VERSION}", "")  # CDN bokeh-3.9.2.min.js is the wheel's bokeh.min.js
        target = config.BOKEH_SITE_DIR + name
        try:
            data = self.bokeh.read(internals.BOKEH_JS + name)
        except KeyError:
            raise BuildError(f"bokeh {config.BOKEH_VERSION} wheel has no server/static/js/{name}") from None
        for old, new in internals.BOKEH_JS_PATCHES.get(name, []):
            if data.count(old) != 1:
                raise BuildError(f"cannot patch {name}: expected text not found once (see kostka_build/internals.py)")
            data = data.replace(old, new)
        for extra, content in internals.BOKEH_EXTRA_FILES.items():
            write(self.site / config.BOKEH_SITE_DIR / extra, content)
        write(self.site / target, data)
        return target

    def ship_panel_runtime_css(self) -> None:
        for name in self.panel.namelist():
            rel = name.removeprefix(internals.PANEL_DIST)
            if (
                name.startswith(internals.PANEL_DIST)
                and rel.startswith(config.PANEL_DIST_SHIPPED)
                and not name.endswith("/")
            ):
                self.panel_file(rel)

    def localise_url(self, url: str) -> str | None:
        """Local site path for a CDN URL from panel convert's output; None if it is to be dropped."""
        if url.startswith(internals.PANEL_CDN):
            return self.panel_file(url[len(internals.PANEL_CDN) :])
        if url.startswith(internals.BOKEH_CDN):
            return self.bokeh_file(url[len(internals.BOKEH_CDN) :].split("?")[0])
        if urlsplit(url).hostname in config.DROPPED_HOSTS:
            return None
        raise BuildError(f"panel convert's page refers to {url}, which the build does not know how to mirror")


def sub_once(pattern: str, repl: str | Callable[[re.Match], str], text: str, what: str) -> str:
    new, n = re.subn(pattern, repl, text, count=1)
    if n != 1:
        raise BuildError(f"cannot find {what} in panel convert's app.html (see kostka_build/internals.py)")
    return new


def rewrite_html(html: str, assets: Assets, strings: dict) -> str:
    """panel convert's page as the site serves it (inline scripts written into ``assets.site``)."""

    def tag(m: re.Match) -> str:  # <link ...href="https://..."> and <script src="https://..."></script>
        whole, url = m.group(0), m.group(2)
        if "apple-touch-icon" in whole:
            return '<link rel="apple-touch-icon" href="icons/icon-192.png">'
        local = assets.localise_url(url)
        return "" if local is None else whole.replace(url, local)

    # es-module-shims (Panel's importShim) cannot run under the page's policy: the browser's own
    # import() in its place (static/import-shim.js)
    html = sub_once(internals.PAGE_ESMS_OPTIONS, "", html, "es-module-shims' options")
    html = sub_once(internals.PAGE_ESMS, '<script src="import-shim.js"></script>', html, "es-module-shims")
    html = re.sub(r"<(link|script)\b[^>]*?(?:href|src)=\"(https?://[^\"]+)\"[^>]*>(?:</script>)?", tag, html)
    html = html.replace(internals.PAGE_FAVICON, "")
    html = sub_once(internals.PAGE_PRERENDER, "", html, "the document drawn at build time")
    # Any other URL into Panel's CDN (none in the pinned Panel's page) points at our copy.
    html = re.sub(re.escape(internals.PANEL_CDN) + r"([^\"'\s]+)", lambda m: assets.panel_file(m.group(1)), html)

    head = (
        f'<meta http-equiv="Content-Security-Policy" content="{config.CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="theme-color" content="#7a3b1d">\n'
        '<link rel="manifest" href="manifest.webmanifest">\n'
        '<link rel="icon" href="icons/icon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="loader.css">\n'
        f"<script>window.KOSTKA_BUILD = {json.dumps(strings)};</script>\n"
        '<script src="loader.js"></script>\n'
    )
    html = sub_once(internals.PAGE_HEAD, "<head>\n" + head, html, "the <head> tag")
    overlay = (config.STATIC / "loader.html").read_text(encoding="utf-8")
    html = sub_once(internals.PAGE_BODY, lambda m: m.group(0) + "\n" + overlay, html, "the <body> tag")
    html = sub_once(internals.PAGE_WORKER, 'KostkaLoader.worker("./app.js")', html, "the worker start")
    return external_scripts(html, assets.site)


def external_scripts(html: str, site: Path) -> str:
    """Each inline script of the page as a file of its own, in its place: the page's policy runs no
    inline script. (Data blocks, such as the document's JSON, stay: they are not run.)"""
    count = 0

    def move(m: re.Match) -> str:
        nonlocal count
        attrs, body = m.group(1), m.group(2)
        kind = re.search(r'\btype="([^"]*)"', attrs)
        if "src=" in attrs or (kind and kind.group(1) not in ("text/javascript", "module")):
            return m.group(0)
        count += 1
        name = f"page-{count}.js"
        write(site / name, body.strip() + "\n")
        return f'<script{attrs} src="{name}"></script>'

    return re.sub(r"<script\b([^>]*)>(.*?)</script>", move, html, flags=re.S)
