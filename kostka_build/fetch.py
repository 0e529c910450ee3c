"""The ingredients of the site, fetched into the git-ignored ``.cache/`` once: npm ``pyodide``
(the core runtime), Pyodide's binary wheels (checked against its lock), pure wheels from PyPI, and
the two packages built from their sdists without a compiler. The three downloads run at once."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tarfile
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from . import config
from .util import BuildError, Timings, log, norm, run, sha256

T = TypeVar("T")


def fetch_pyodide_core(cache: Path = config.CACHE) -> Path:
    """npm pyodide@PYODIDE_VERSION unpacked into .cache/npm/pyodide-<v>/package."""
    version = config.PYODIDE_VERSION
    dest = cache / "npm" / f"pyodide-{version}"
    pkg = dest / "package"
    if not (pkg / "pyodide-lock.json").exists():
        dest.mkdir(parents=True, exist_ok=True)
        log(f"npm pack pyodide@{version}")
        out = run(["npm", "pack", f"pyodide@{version}", "--silent"], cwd=dest).stdout.strip().splitlines()[-1]
        with tarfile.open(dest / out) as tar:
            tar.extractall(dest, filter="data")
    for name in [*config.CORE_FILES, "pyodide-lock.json"]:
        if not (pkg / name).is_file():
            raise BuildError(f"npm pyodide@{version} lacks {name}: delete {dest} and retry")
    lock = json.loads((pkg / "pyodide-lock.json").read_text())
    if lock["info"]["version"] != version:
        raise BuildError(f"npm pyodide lock is for {lock['info']['version']}, expected {version}")
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


def fetch_lock_wheels(
    lock: dict, cache: Path = config.CACHE, packages: tuple[str, ...] = config.LOCK_PACKAGES
) -> dict[str, Path]:
    """Pyodide's own wheels of ``packages``, each verified against the official lock's sha256."""
    src = cache / "pyodide-wheels"
    out: dict[str, Path] = {}
    missing = [n for n in packages if not (src / lock["packages"][n]["file_name"]).exists()]
    if missing:
        dl = cache / "dl"
        if not list(dl.glob("*.whl")):
            log(f"pip download {config.BINARY_WHEELS_SOURCE} (Pyodide {config.PYODIDE_VERSION} wheels)")
            pip_download([config.BINARY_WHEELS_SOURCE], dl)
        bundle = next(dl.glob("*.whl"))
        src.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(bundle) as zf:
            for name in missing:
                fname = lock["packages"][name]["file_name"]
                try:
                    data = zf.read(config.BINARY_WHEELS_DIR + fname)
                except KeyError:
                    raise BuildError(f"{bundle.name} has no {fname}; change BINARY_WHEELS_SOURCE") from None
                (src / fname).write_bytes(data)
    for name in packages:
        entry = lock["packages"][name]
        path = src / entry["file_name"]
        digest = sha256(path.read_bytes())
        if digest != entry["sha256"]:
            raise BuildError(
                f"sha256 MISMATCH for {path.name}: got {digest}, Pyodide {config.PYODIDE_VERSION}'s lock says "
                f"{entry['sha256']}. Refusing to ship an unverified binary wheel (delete {src} to refetch)."
            )
        out[name] = path
    if out:
        log(f"verified {len(out)} Pyodide wheels against pyodide-lock.json sha256")
    return out


def fetch_pure_wheels(cache: Path = config.CACHE) -> dict[str, Path]:
    dest = cache / "pure"
    todo = []
    for name, ver in config.PURE_WHEELS.items():
        try:
            find_wheel(dest, name, ver)
        except BuildError:
            todo.append(f"{name}=={ver}")
    if todo:
        log(f"pip download {len(todo)} pure wheels")
        pip_download(
            todo,
            dest,
            "--only-binary=:all:",
            "--python-version",
            config.PYODIDE_PYTHON,
            "--platform",
            "any",
            "--implementation",
            "py",
        )
    out = {name: find_wheel(dest, name, ver) for name, ver in config.PURE_WHEELS.items()}
    for path in out.values():
        if not path.name.endswith("-none-any.whl"):
            raise BuildError(f"{path.name} is not a pure wheel")
    return out


def build_sdist_pure_wheels(cache: Path = config.CACHE) -> dict[str, Path]:
    """pyyaml / markupsafe: built from their sdists in their pure mode (no C compiler, libyaml off),
    checked to hold no compiled extension and tagged py3-none-any. Only these two are built from
    source: their build tools come as ordinary wheels."""
    dest = cache / "sdist-pure"
    out, todo = {}, {}
    for name, ver in config.SDIST_PURE_WHEELS.items():
        try:
            out[name] = find_wheel(dest, name, ver)
        except BuildError:
            todo[name] = ver
    if todo:
        work = cache / "sdist-work"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        log(f"building pure {', '.join(todo)} from their sdists (no compiler)")
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "-q",
                "--no-deps",
                "--no-binary",
                ",".join(todo),
                "-w",
                str(work),
                *(f"{n}=={v}" for n, v in todo.items()),
            ],
            env={**os.environ, **config.SDIST_PURE_ENV},
        )
        for name, ver in todo.items():
            out[name] = retag_pure(find_wheel(work, name, ver), dest)
        shutil.rmtree(work, ignore_errors=True)
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
                data = re.sub(rb"Tag: .*", b"Tag: py3-none-any", data).replace(
                    b"Root-Is-Purelib: false", b"Root-Is-Purelib: true"
                )
            zout.writestr(item.filename, data)
    return target


def fetch_all(
    cache: Path = config.CACHE, timings: Timings | None = None
) -> tuple[Path, dict, dict[str, Path], dict[str, Path]]:
    """Everything the site is made of that is not ours, fetched at once (each step waits on the
    network more than on the machine): the Pyodide core and its lock, its binary wheels, and the
    pure wheels (PyPI's and the two built here)."""
    timings = timings or Timings()
    cache.mkdir(exist_ok=True)

    def timed(name: str, job: Callable[[Path], T]) -> Callable[[], T]:
        def run_timed() -> T:
            with timings.step(name, alone=False):
                return job(cache)

        return run_timed

    with timings.step("fetching, all at once"), ThreadPoolExecutor(3) as pool:
        core = pool.submit(timed("  npm pyodide", fetch_pyodide_core))
        pure = pool.submit(timed("  pure wheels from PyPI", fetch_pure_wheels))
        sdist = pool.submit(timed("  pyyaml, markupsafe built pure", build_sdist_pure_wheels))
        core_dir = core.result()
        lock = json.loads((core_dir / "pyodide-lock.json").read_text())
        lock_wheels = fetch_lock_wheels(lock, cache)
        return core_dir, lock, lock_wheels, {**pure.result(), **sdist.result()}
