"""What the site is built from and where it goes: the pins, the paths, the site's layout and its
Content-Security-Policy. Constants only: nothing here changes while a build runs.

Stack pin — why and how to lift it
----------------------------------
Pyodide 0.29.5 (Python 3.13) with panel 1.9.4 and bokeh 3.9.2: the newest releases that fit
together and build on a Python 3.11 host. Pyodide 0.28 fixed the runtime's iOS check, which took
an iPad (whose Safari reports ``navigator.platform === "MacIntel"``) for a Mac and started the
runtime on a path iPadOS 18 breaks; the build refuses a runtime whose check would still do so
(:func:`kostka_build.verify.check_ios_detection`). Not yet Panel 1.10 (alpha only, Python >= 3.12
on the build host, bokeh 3.10) nor Pyodide 314 (it refuses classic workers, and cannot restore a
snapshot whose heap is larger than its 30 MB default: the app's is about 75 MB).
To lift: change the constants below together, re-pin ``PURE_WHEELS`` to what the new panel needs,
update :mod:`kostka_build.internals` until ``tests/test_build_internals.py`` passes, run
``python build.py --force`` and the browser tests (Chromium and WebKit), and re-read
``static/worker.js`` against the new panel's ``pyodide_worker.js`` template.
"""

from __future__ import annotations

import re
from pathlib import Path

# --------------------------------------------------------------------------- pins

PYODIDE_VERSION = "0.29.5"  # npm package "pyodide": the core runtime only
PANEL_VERSION = "1.9.4"
BOKEH_VERSION = "3.9.2"
PYODIDE_PYTHON_FULL = "3.13.2"  # the Python of that Pyodide release (its lock's info.python)
PYODIDE_PYTHON = PYODIDE_PYTHON_FULL.rpartition(".")[0]
SITE_PACKAGES = f"/lib/python{PYODIDE_PYTHON}/site-packages"  # inside the runtime's file system

# A source of Pyodide's own binary wheels for this release (each is checked against npm pyodide's
# lock, so the source does not matter), as a PyPI package that carries them and the folder inside
# it. None is known for 0.29: no Pyodide build of numpy or pandas for 0.28 and later can be had
# offline here, and the site needs none (below).
BINARY_WHEELS_SOURCE: str | None = None
BINARY_WHEELS_DIR = ""
# Packages taken from Pyodide's own lock (binary, or Pyodide's build of a pure package). None at
# present: the app needs neither numpy nor pandas (below). Listing one here fetches it from
# BINARY_WHEELS_SOURCE, checks it against the official lock and ships it; if the app then imports
# a shared library, the interpreter snapshot cannot be made and the build says so.
LOCK_PACKAGES: tuple[str, ...] = ()
# Bokeh and Panel import numpy and pandas only to ask "is this a numpy/pandas object?" about the
# plain lists the app gives them; stand-in modules (static/standins/) answer "no". This saves
# 10 MB of downloads (numpy, pandas, pytz, dateutil, six) and, above all, leaves the interpreter
# without shared libraries, so that the worker can restore it from a memory snapshot taken after
# Panel and the app were imported (Pyodide snapshots cannot hold shared libraries). The
# narwhals and nh3 stand-ins likewise answer Bokeh's "is this a dataframe?" and escape the texts
# Panel would sanitise (nh3 is a Rust extension with no build for the browser here): a smaller
# snapshot, and fewer modules to import on a fresh boot.
STANDINS = "standins"
STANDINS_WHEEL = "kostka-standins"

# Pure-Python wheels from PyPI, exact versions (the combination tested with `panel serve`).
PURE_WHEELS = {
    "panel": PANEL_VERSION,
    "bokeh": BOKEH_VERSION,
    "param": "2.4.2",
    "pyviz-comms": "3.0.6",
    "jinja2": "3.1.6",
    "xyzservices": "2026.9.1",
    "packaging": "26.2",
    "typing-extensions": "4.15.0",
    "tqdm": "4.70.1",
    "segno": "1.6.6",  # QR codes for share links (webapp/qr.py)
}
# Packages with C speed-ups and a pure fallback, built from their sdists with no C compiler (their
# build tools come as ordinary wheels; only these two are built here).
SDIST_PURE_WHEELS = {"pyyaml": "6.0.2", "markupsafe": "3.0.2"}
# What makes each of them leave its extension out instead of trying to compile it.
SDIST_PURE_ENV = {"CC": "/bin/false", "CXX": "/bin/false", "PYYAML_FORCE_LIBYAML": "0"}
# The build tools of the three wheels built here (ours and those two): what their pyproject.toml
# files ask for, without pyyaml's Cython (its pure build does not use it). Installed once into
# .cache/build-tools and shared by the three builds, instead of pip installing them afresh into an
# isolated environment for each build.
BUILD_TOOLS = ("setuptools>=70.1", "wheel")

# Declared dependencies the site deliberately does not ship: nothing the app runs imports them.
NOT_SHIPPED = {
    "tornado": "server only (bokeh skips it on emscripten)",
    "numpy": "replaced by the stand-in in static/standins/ (bokeh and panel only ask isinstance questions)",
    "pandas": "replaced by the stand-in in static/standins/ (bokeh only asks isinstance questions)",
    "narwhals": "replaced by the stand-in in static/standins/ (bokeh only asks whether a dict is a dataframe)",
    "nh3": "replaced by the stand-in in static/standins/ (panel only escapes its components' texts)",
    "panel-material-ui": "panel's Material UI components and templates only: nothing the app runs imports it",
    "contourpy": "bokeh's contour plots only",
    "pillow": "bokeh's image helpers only",
    "requests": "panel's remote file helpers only",
    "pyodide-http": "only for requests",
    # panel's Markdown pane (and its notebook renderer) only: the app draws HTML panes
    "markdown": "panel's Markdown pane only",
    "markdown-it-py": "panel's Markdown pane only",
    "mdit-py-plugins": "panel's Markdown pane only",
    "linkify-it-py": "panel's Markdown pane only",
}

# Files dropped from wheels: tests, type stubs, static JS/CSS the page loads as separate files, the
# TypeScript sources of Panel's models (compiled into panel.min.js; never read at run time), the
# JupyterLab extension's bundles and Panel's npm lock (only their package.json is read), and this
# builder (it is in our own wheel, which the site does not need it in).
WHEEL_DROP = re.compile(
    r"(^|/)(tests?|__pycache__)/|\.pyi$|\.map$"
    r"|^panel/dist/|^bokeh/server/static/|^bokeh/sampledata/|^panel/(models/.*|index)\.ts$"
    r"|^pyviz_comms/labextension/(static|schemas)/|^panel/package-lock\.json$|^kostka_build/"
)

# Files of the wheels that the interpreter snapshot does not carry (kostka_build.snapshot), by
# pattern (fnmatch, on paths under site-packages; ".py*" for bytecode or source), each with why a
# restored interpreter never reads them: either it cannot import them (they import, at their top,
# a package the site does not ship), or nothing it runs imports them (tests/test_build_internals.py
# checks both against the pinned packages). A fresh boot still installs the whole wheels.
SNAPSHOT_LEFT_OUT = {
    "bokeh/sphinxext/*": "Sphinx extensions for Bokeh's own documentation: only Sphinx (not shipped) loads them",
    "panel/command/*": "the panel command line (panel serve, convert, bundle…): only `python -m panel` imports it",
    "tqdm/contrib/*": "tqdm's integrations (Telegram, Slack, Discord, process maps): only their users import them",
    "bokeh/_sri/*": "Subresource Integrity hashes of BokehJS on Bokeh's CDN, for every release (the pinned one's is kept)",
    "bokeh/server/*": "Bokeh's server: its modules import tornado (not shipped), most through bokeh.util.tornado",
    "bokeh/util/tornado.py*": "imports tornado (not shipped)",
    "bokeh/client/connection.py*": "Bokeh's client's connection to a server: imports tornado (not shipped)",
    "bokeh/client/websocket.py*": "Bokeh's client's websocket: imports tornado (not shipped)",
    "panel/auth.py*": "Panel's server logins: imports tornado (not shipped)",
    "panel/compiler.py*": "panel bundle's compiler: imports requests (not shipped)",
    "panel/io/server.py*": "Panel's server: imports tornado (not shipped)",
    "panel/io/rest.py*": "Panel's server's REST API: imports tornado (not shipped)",
    "panel/io/liveness.py*": "Panel's server's liveness endpoint: imports tornado (not shipped)",
    "panel/io/jupyter_server_extension.py*": "Panel's Jupyter server extension: imports tornado (not shipped)",
    "panel/io/jupyter_executor.py*": "Panel's Jupyter preview: imports tornado (not shipped)",
    "panel/io/ipywidget.py*": "Jupyter widgets in Panel: imports ipykernel (not shipped)",
    "panel/io/session.py*": "Panel's server sessions: imports bokeh.server.contexts (tornado)",
    "panel/io/admin.py*": "Panel's admin page on its server: imports panel.io.server (tornado)",
    "panel/io/django.py*": "Panel under Django: imports panel.io.server (tornado)",
    "panel/io/fastapi.py*": "Panel under FastAPI: imports panel.io.server (tornado)",
    "webapp/locale/*.po": "the translations' sources: gettext reads the compiled .mo files",
}
# ...but for these, which a restored interpreter may read:
SNAPSHOT_KEPT = (
    f"bokeh/_sri/{BOKEH_VERSION}.json",  # bokeh.resources reads the pinned release's hashes for its CDN URLs
    "bokeh/server/__init__.py*",  # these import no tornado (Bokeh's documents and Panel's import them)
    "bokeh/server/connection.py*",
    "bokeh/server/views/__init__.py*",
)

# --------------------------------------------------------------------------- paths

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache"
SITE = ROOT / "site"
STATIC = ROOT / "static"
APP = ROOT / "webapp" / "app.py"
APP_CSS = ROOT / "webapp" / "kostka.css"  # served as APP_CSS_FILE of webapp/views/common.py
CORE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
# Copied from static/ as they are (the worker, service worker and page are written by the build).
STATIC_FILES = ("loader.js", "loader.css", "import-shim.js", "manifest.webmanifest")

# --------------------------------------------------------------------------- the site's layout

PANEL_SITE_DIR = f"vendor/panel/{PANEL_VERSION}/dist/"  # mirrors the CDN layout
BOKEH_SITE_DIR = f"vendor/bokeh/{BOKEH_VERSION}/"
PYODIDE_SITE_DIR = "pyodide/"
PANEL_ROOT = "vendor/panel/"  # Panel's CDN_ROOT in the browser (relative: resolved against the page)
# Panel assets loaded at run time by components (stylesheets), shipped whole: they are small.
PANEL_DIST_SHIPPED = ("css/", "bundled/theme/", "assets/")
# <link>s to hosts we drop instead of mirroring (web fonts: the page falls back to system fonts).
DROPPED_HOSTS = frozenset({"fonts.googleapis.com", "fonts.gstatic.com"})
# The interpreter snapshot's parts (kostka_build.snapshot)
SNAPSHOT_PART = "app-snapshot-{:02d}.bin"
SNAPSHOT_PART_BYTES = 2_000_000
SNAPSHOT_DEFLATE_LEVEL = 12  # libdeflate's highest: still plain gzip, for any gzip reader
# Pyodide's standard library: whole for a fresh boot (fetched on demand, like the wheels), and
# without the modules the snapshot holds in memory for a restored interpreter (kostka_build.snapshot)
STDLIB_ZIP = "python_stdlib.zip"
STDLIB_REST = "python_stdlib_rest.zip"

# --------------------------------------------------------------------------- Content-Security-Policy

# The policy of every page: the page's <meta> tag, and the header of `build.py --serve` (which adds
# frame-ancestors, ignored in a <meta>). Everything comes from this site; what is still allowed,
# and why:
# - script-src blob: Panel's JSComponents (the app's storage, copy button and page ping) import
#   their ES modules from blob: URLs that Panel makes of their code on the page;
# - script-src 'unsafe-eval' (the page only): Panel's FlexBox, which the screens lay out their
#   rows of buttons with, is a ReactiveHTML component, whose template Panel's page code compiles
#   with `new Function` (panel.min.js, ReactiveHTML._render_html); laying those rows out with
#   another layout would lift it;
# - style-src 'unsafe-inline': BokehJS and Panel style every component with <style> elements and
#   style attributes they write at run time;
# - img-src data: the icons inside Panel's and Bokeh's stylesheets.
# The app's worker (and the service worker) gets WORKER_CSP, its header: 'wasm-unsafe-eval' to
# compile the Python runtime's WebAssembly, and no 'unsafe-eval' (the worker evaluates no
# JavaScript source: see kostka_build.internals.PANEL_PATCHES).
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' blob: 'unsafe-eval'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'none'",
    ]
)
CSP_HEADER = CSP + "; frame-ancestors 'none'"
WORKER_CSP = CSP_HEADER.replace("script-src 'self' blob: 'unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval'")
WORKER_SCRIPTS = ("app.js", "sw.js")

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
    ".ico": "image/x-icon",
}
