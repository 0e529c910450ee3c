"""The site put together: every step in order (:func:`build`), the app's worker configured for
this build, the static files, and the service worker with the build's manifest."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from . import config
from .convert import Assets, extract_app_code, panel_convert, rewrite_html
from .fetch import (
    build_sdist_pure_wheels,
    fetch_build_tools,
    fetch_lock_wheels,
    fetch_pure_wheels,
    fetch_pyodide_core,
    find_wheel,
)
from .snapshot import make_snapshot
from .util import BuildError, Timings, cpu_seconds, integrity, log, program, sha256_integrity, write
from .verify import verify_site
from .wheels import assemble_packages, build_own_wheel, check_app_imports

T = TypeVar("T")


def write_worker(
    site: Path, code: str, packages: list[str], lock_packages: dict, snapshot: list[Path], stdlib: Path
) -> None:
    """The app's worker (app.js): static/worker.js with this build's configuration."""
    template = (config.STATIC / "worker.js").read_text(encoding="utf-8")
    pyodide_dir = site / config.PYODIDE_SITE_DIR
    # what the worker fetches (pyodide.js and pyodide.asm.js arrive as scripts, not counted)
    runtime = sum((pyodide_dir / n).stat().st_size for n in ["pyodide.asm.wasm", "pyodide-lock.json"])
    wheels = [pyodide_dir / lock_packages[p]["file_name"] for p in packages]
    settings = {
        "pyodideDir": config.PYODIDE_SITE_DIR,
        "sitePackages": config.SITE_PACKAGES,
        "panelRoot": config.PANEL_ROOT,
        "packages": packages,
        # restored instead of a boot (see kostka_build.snapshot): the memory, and the files beside
        # it; and the standard library without the modules it holds
        "snapshot": [{"file": p.name, "integrity": integrity(p.read_bytes())} for p in snapshot],
        "stdlib": stdlib.name,
        # on a fresh boot: fetched and unpacked by the worker itself while the runtime boots
        # (Subresource Integrity from our lock's sha256); Pyodide's loadPackage of "packages" is
        # their fallback
        "wheels": [
            {"file": lock_packages[p]["file_name"], "integrity": sha256_integrity(lock_packages[p]["sha256"])}
            for p in packages
        ],
        "downloadBytes": {
            "snapshot": runtime + sum(p.stat().st_size for p in [*snapshot, stdlib]),
            "boot": runtime + sum(p.stat().st_size for p in [*wheels, pyodide_dir / config.STDLIB_ZIP]),
        },
        "wasmBytes": (pyodide_dir / "pyodide.asm.wasm").stat().st_size,
        "code": code,  # after a fresh boot
        "welcome": program("welcome.py"),  # after a restore
    }
    if "/*KOSTKA_CONFIG*/" not in template:
        raise BuildError("static/worker.js lacks the /*KOSTKA_CONFIG*/ placeholder")
    write(site / "app.js", template.replace("/*KOSTKA_CONFIG*/", "const KOSTKA = " + json.dumps(settings) + ";"))


def copy_static(site: Path) -> None:
    for name in config.STATIC_FILES:
        shutil.copy2(config.STATIC / name, site / name)
    shutil.copy2(config.APP_CSS, site / config.APP_CSS.name)  # the app links it from every component (webapp/app.py)
    shutil.copytree(config.STATIC / "icons", site / "icons", ignore=shutil.ignore_patterns("*.py"))


def write_service_worker(site: Path = config.SITE) -> str:
    """Write sw.js with the build's manifest: its version and the sha256 of every file (as
    Subresource Integrity), which the service worker checks each file against. Returns the version."""
    files = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and p.name not in ("sw.js", ".build-stamp")
    )
    digests = {rel: hashlib.sha256((site / rel).read_bytes()).digest() for rel in files}
    h = hashlib.sha256()
    for rel in files:
        h.update(rel.encode() + b"\0" + digests[rel])
    version = h.hexdigest()[:16]
    sri = {rel: "sha256-" + base64.b64encode(digest).decode() for rel, digest in digests.items()}
    # The wheels and the whole standard library serve only a start that cannot restore the
    # interpreter snapshot: cached when first fetched, not downloaded on every first visit. The
    # page is "./" (index.html).
    full_stdlib = config.PYODIDE_SITE_DIR + config.STDLIB_ZIP
    on_demand = {f: sri[f] for f in files if f.endswith(".whl") or f == full_stdlib}
    precache = {"./": sri["index.html"], **{f: sri[f] for f in files if f not in on_demand and f != "index.html"}}
    template = (config.STATIC / "sw.js").read_text(encoding="utf-8")
    if "/*KOSTKA_PRECACHE*/" not in template:
        raise BuildError("static/sw.js lacks the /*KOSTKA_PRECACHE*/ placeholder")
    body = template.replace(
        "/*KOSTKA_PRECACHE*/",
        f"const VERSION = {json.dumps(version)};\n"
        f"const PRECACHE = {json.dumps(precache, indent=0)};\n"
        f"const ON_DEMAND = {json.dumps(on_demand, indent=0)};",
    )
    write(site / "sw.js", body)
    return version


def source_fingerprint() -> str:
    """Hash of everything the site is built from; an unchanged fingerprint means site/ is up to date."""
    root = config.ROOT
    h = hashlib.sha256()
    paths = [
        root / "build.py",
        root / "pyproject.toml",
        *config.STATIC.rglob("*"),
        *root.glob("kostka_build/**/*"),
        *root.glob("engine/**/*"),
        *root.glob("webapp/**/*"),
    ]
    for p in sorted(paths):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def is_up_to_date(site: Path = config.SITE) -> bool:
    stamp = site / ".build-stamp"
    return stamp.is_file() and stamp.read_text() == source_fingerprint()


def gather(
    cache: Path = config.CACHE, timings: Timings | None = None
) -> tuple[Path, dict, dict[str, Path], dict[str, Path], Path, tuple[str, str]]:
    """What the site is made from, fetched and made at once (the downloads wait on the network more
    than on the machine, and the steps of a first build use both cores): the Pyodide core and its
    lock, its binary wheels, the pure wheels (PyPI's and the two built here), our wheel, and
    ``panel convert``'s page and worker."""
    timings = timings or Timings()
    cache.mkdir(exist_ok=True)

    def timed(name: str, job: Callable[[], T]) -> Callable[[], T]:
        def run_timed() -> T:
            with timings.step("  " + name, alone=False):
                return job()

        return run_timed

    def converted(tools: Future[Path]) -> tuple[Path, tuple[str, str]]:
        own = build_own_wheel(tools.result(), cache)
        return own, panel_convert(cache)

    with timings.step("fetched and made at once"), ThreadPoolExecutor(5) as pool:
        core = pool.submit(timed("npm pyodide", lambda: fetch_pyodide_core(cache)))
        pure = pool.submit(timed("pure wheels from PyPI", lambda: fetch_pure_wheels(cache)))
        tools = pool.submit(timed("build tools", lambda: fetch_build_tools(cache)))
        sdist = pool.submit(
            timed("pyyaml, markupsafe built pure", lambda: build_sdist_pure_wheels(tools.result, cache))
        )
        page = pool.submit(timed("our wheel, then panel convert", lambda: converted(tools)))
        lock = json.loads((core.result() / "pyodide-lock.json").read_text())
        lock_wheels = fetch_lock_wheels(lock, cache)
        own, converted_page = page.result()
        return core.result(), lock, lock_wheels, {**pure.result(), **sdist.result()}, own, converted_page


def build(site: Path = config.SITE, cache: Path = config.CACHE, timings: Timings | None = None) -> dict:
    """Build the whole site into ``site`` (written beside it first, then put in its place); the
    wall and CPU time of each step is printed at the end (and kept in ``timings``)."""
    timings = timings or Timings()
    started, cpu = time.perf_counter(), cpu_seconds()
    fingerprint = source_fingerprint()
    core, lock, lock_wheels, pure, own, (html, worker_js) = gather(cache, timings)
    tmp = site.with_name(site.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    pyodide_dir = tmp / config.PYODIDE_SITE_DIR
    pyodide_dir.mkdir(parents=True)
    for name in config.CORE_FILES:
        shutil.copy2(core / name, pyodide_dir / name)
    packages, lock_packages = assemble_packages(core, lock, lock_wheels, pure, own, pyodide_dir, cache, timings)
    check_app_imports(lock_packages)
    with timings.step("the page rewritten, Panel's and Bokeh's files copied"):
        assets = Assets(
            tmp,
            find_wheel(cache / "pure", "panel", config.PANEL_VERSION),
            find_wheel(cache / "pure", "bokeh", config.BOKEH_VERSION),
        )
        assets.ship_panel_runtime_css()
        strings = {"panel": config.PANEL_VERSION, "bokeh": config.BOKEH_VERSION, "pyodide": config.PYODIDE_VERSION}
        write(tmp / "index.html", rewrite_html(html, assets, strings))
        code = extract_app_code(worker_js)
    snapshot, stdlib = make_snapshot(
        core, [pyodide_dir / lock_packages[p]["file_name"] for p in packages], code, pyodide_dir, cache, timings
    )
    with timings.step("worker, static files, service worker, checks"):
        write_worker(tmp, code, packages, lock_packages, snapshot, stdlib)
        copy_static(tmp)
        version = write_service_worker(tmp)
        verify_site(tmp, packages, lock_packages)
    (tmp / ".build-stamp").write_text(fingerprint)
    shutil.rmtree(site, ignore_errors=True)
    tmp.rename(site)
    files = [p for p in site.rglob("*") if p.is_file() and p.name != ".build-stamp"]
    total = sum(p.stat().st_size for p in files)
    log(f"site/ built: {total / 1e6:.1f} MB in {len(files)} files, cache version {version}")
    log(f"{time.perf_counter() - started:.1f} s (CPU {cpu_seconds() - cpu:.1f} s), by step:\n" + timings.table())
    return {"bytes": total, "version": version, "packages": packages, "timings": timings.steps}
