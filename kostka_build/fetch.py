"""The ingredients of the site, fetched into the git-ignored ``.cache/`` once: npm ``pyodide``
(the core runtime), Pyodide's binary wheels (checked against its lock), pure wheels from PyPI, the
build tools, and the two packages built from their sdists without a compiler. (They are fetched at
once: :func:`kostka_build.assemble.gather`.)"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

from . import config
from .util import BuildError, log, norm, run, sha256


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
    # the package's version (the lock no longer names it), and the Python its lock is for
    got = json.loads((pkg / "package.json").read_text())["version"]
    python = json.loads((pkg / "pyodide-lock.json").read_text())["info"].get("python")
    if got != version or python != config.PYODIDE_PYTHON_FULL:
        raise BuildError(
            f"npm pyodide is {got} for Python {python}, expected {version} for {config.PYODIDE_PYTHON_FULL}: "
            f"delete {dest} and retry"
        )
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
        if config.BINARY_WHEELS_SOURCE is None:
            raise BuildError(
                f"LOCK_PACKAGES asks for {missing}, but no source of Pyodide {config.PYODIDE_VERSION}'s "
                "binary wheels is known (config.BINARY_WHEELS_SOURCE)"
            )
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


def fetch_build_tools(cache: Path = config.CACHE) -> Path:
    """setuptools and wheel (``BUILD_TOOLS``) in .cache/build-tools, for :func:`pip_wheel`."""
    dest = cache / "build-tools"
    done = dest / ".installed"
    if not done.is_file() or done.read_text() != repr(config.BUILD_TOOLS):
        shutil.rmtree(dest, ignore_errors=True)
        log(f"pip install {' '.join(config.BUILD_TOOLS)} (the build tools)")
        run([sys.executable, "-m", "pip", "install", "-q", "--target", str(dest), *config.BUILD_TOOLS])
        done.write_text(repr(config.BUILD_TOOLS))
    return dest


def pip_wheel(specs: list[str], dest: Path, tools: Path, *extra: str, env: dict[str, str] | None = None) -> None:
    """``pip wheel --no-deps`` of ``specs`` into ``dest``, built with the build tools in ``tools``
    (:func:`fetch_build_tools`) rather than in an isolated environment of their own."""
    path = os.pathsep.join(p for p in [str(tools), os.environ.get("PYTHONPATH", "")] if p)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(dest),
            *extra,
            *specs,
        ],
        env={**os.environ, **(env or {}), "PYTHONPATH": path},
    )


def build_sdist_pure_wheels(tools: Callable[[], Path], cache: Path = config.CACHE) -> dict[str, Path]:
    """pyyaml / markupsafe: built from their sdists in their pure mode (no C compiler, libyaml off),
    checked to hold no compiled extension and tagged py3-none-any. Only these two are built from
    source: their build tools come as ordinary wheels (``tools()`` gives their folder, asked for
    only when a wheel is to be built)."""
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
        pip_wheel(
            [f"{n}=={v}" for n, v in todo.items()],
            work,
            tools(),
            "--no-binary",
            ",".join(todo),
            env=config.SDIST_PURE_ENV,
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
