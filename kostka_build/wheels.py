"""The wheels the site ships: ours (the app, and the stand-ins), the others trimmed and compiled to
bytecode, and the site's ``pyodide-lock.json`` that lists exactly them."""

from __future__ import annotations

import ast
import email.message
import email.parser
import json
import os
import re
import shutil
import sys
import zipfile
from pathlib import Path

from . import config
from .fetch import find_wheel, pip_wheel
from .internals import PANEL_PATCHES
from .util import BuildError, Timings, log, norm, program, run_in_node, sha256


def build_standin_wheel(cache: Path = config.CACHE) -> Path:
    """Kostka's stand-ins (static/standins/: numpy, pandas, narwhals, nh3) as a tiny pure wheel."""
    dest = cache / "standin"
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    dist = config.STANDINS_WHEEL.replace("-", "_")
    wheel = dest / f"{dist}-1.0-py3-none-any.whl"
    info = f"{dist}-1.0.dist-info/"
    source = config.STATIC / config.STANDINS
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(source.rglob("*.py")):
            zf.write(path, path.relative_to(source).as_posix())
        zf.writestr(
            info + "METADATA",
            f"Metadata-Version: 2.1\nName: {config.STANDINS_WHEEL}\nVersion: 1.0\n"
            "Summary: Stand-ins for numpy, pandas, narwhals and nh3 in Kostka's static site (none is real)\n",
        )
        zf.writestr(
            info + "WHEEL", "Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        zf.writestr(info + "RECORD", "")
    return wheel


def build_own_wheel(tools: Path, cache: Path = config.CACHE) -> Path:
    """Our wheel (engine, webapp), built by pip with the build tools in ``tools``."""
    dest = cache / "own"
    shutil.rmtree(dest, ignore_errors=True)
    log("pip wheel --no-deps . (kostka)")
    pip_wheel([str(config.ROOT)], dest, tools)
    wheel = find_wheel(dest, "kostka")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    for po in sorted((config.ROOT / "webapp").glob("locale/*/LC_MESSAGES/*.po")):
        mo = po.relative_to(config.ROOT).with_suffix(".mo").as_posix()
        if mo not in names:
            raise BuildError(
                f"our wheel lacks {mo}: compile the catalogues (pybabel compile -d webapp/locale) "
                "and check package-data"
            )
    return wheel


def read_metadata(wheel: Path) -> tuple[email.message.Message, list[str]]:
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.parser.Parser().parsestr(zf.read(meta_name).decode())
        tops = sorted(
            {
                re.sub(r"\.pyc?$", "", n.split("/")[0])
                for n in zf.namelist()
                if not n.split("/")[0].endswith((".dist-info", ".data"))
            }
        )
    return meta, tops


def emscripten_requirements(meta: email.message.Message) -> list[str]:
    """Names a wheel requires in the browser (markers evaluated for Pyodide's Python)."""
    from packaging.requirements import Requirement

    env = {
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "os_name": "posix",
        "python_version": config.PYODIDE_PYTHON,
        "python_full_version": config.PYODIDE_PYTHON_FULL,
        "platform_machine": "wasm32",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }
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
            if config.WHEEL_DROP.search(item.filename) and not item.filename.endswith(".dist-info/RECORD"):
                continue
            data = zin.read(item)
            if item.filename in patch:
                old, new = patch.pop(item.filename)
                if data.count(old) != 1:
                    raise BuildError(
                        f"cannot patch {item.filename} in {src.name}: expected text not found once "
                        "(see kostka_build/internals.py)"
                    )
                data = data.replace(old, new)
            zout.writestr(item, data, zipfile.ZIP_DEFLATED, 9)  # its own date: the same wheel gives the same bytes
    if patch:
        raise BuildError(f"files to patch not found in {src.name}: {sorted(patch)}")
    return dest


def trim_wheels(
    lock: dict, lock_wheels: dict[str, Path], pure: dict[str, Path], own: Path, out_dir: Path, cache: Path
) -> tuple[dict[str, dict], dict[str, Path]]:
    """Every wheel trimmed into ``out_dir``: the lock's entries of Pyodide's own, and the others by name."""
    packages: dict[str, dict] = {}
    for name, path in lock_wheels.items():
        # verified against the official lock already; trimmed like the others, so our lock has its own hash
        trimmed = trim_wheel(path, out_dir)
        packages[name] = {**lock["packages"][name], "sha256": sha256(trimmed.read_bytes())}
    trimmed_wheels = {}
    for name, path in {**pure, "kostka": own, config.STANDINS_WHEEL: build_standin_wheel(cache)}.items():
        trimmed_wheels[name] = trim_wheel(path, out_dir, PANEL_PATCHES if name == "panel" else None)
    return packages, trimmed_wheels


def assemble_packages(
    core: Path,
    lock: dict,
    lock_wheels: dict[str, Path],
    pure: dict[str, Path],
    own: Path,
    out_dir: Path,
    cache: Path = config.CACHE,
    timings: Timings | None = None,
) -> tuple[list[str], dict]:
    """Copy/trim every wheel (``own`` is ours) into the site's Pyodide folder, check dependencies,
    write our pyodide-lock.json."""
    timings = timings or Timings()
    with timings.step("wheels trimmed"):
        packages, trimmed_wheels = trim_wheels(lock, lock_wheels, pure, own, out_dir, cache)
    # our own code stays source (readable tracebacks); third-party code ships as bytecode
    if not os.environ.get("KOSTKA_SOURCE_WHEELS"):  # set it to ship source (e.g. to debug in the browser)
        with timings.step("bytecode (Pyodide in Node)"):
            precompile_wheels(core, [w for n, w in trimmed_wheels.items() if n in pure], cache)
    requires = {}
    for name, trimmed in trimmed_wheels.items():
        meta, tops = read_metadata(trimmed)
        packages[name] = {
            "name": name,
            "version": meta["Version"],
            "file_name": trimmed.name,
            "install_dir": "site",
            "sha256": sha256(trimmed.read_bytes()),
            "package_type": "package",
            "imports": tops,
            "depends": [],
            "unvendored_tests": False,
            "shared_library": False,
        }
        requires[name] = emscripten_requirements(meta)

    shipped = set(packages)
    not_shipped = {k for k in config.NOT_SHIPPED if k not in config.LOCK_PACKAGES}
    problems = []
    for name, reqs in requires.items():
        packages[name]["depends"] = sorted(r for r in reqs if r in shipped)
        problems += [
            f"{name} requires {r}, which is neither shipped nor listed in NOT_SHIPPED"
            for r in reqs
            if r not in shipped and r not in not_shipped
        ]
    if problems:
        raise BuildError(
            "unresolved dependencies:\n  "
            + "\n  ".join(problems)
            + "\nAdd them to PURE_WHEELS (or LOCK_PACKAGES) in kostka_build/config.py."
        )
    our_lock = {"info": lock["info"], "packages": dict(sorted(packages.items()))}
    (out_dir / "pyodide-lock.json").write_text(json.dumps(our_lock, indent=1))
    return sorted(packages), packages


def precompile_wheels(core: Path, wheels: list[Path], cache: Path = config.CACHE) -> None:
    """Ship bytecode instead of source in the third-party pure wheels: the browser skips compiling
    thousands of modules at start-up. Compiled by Pyodide's own Python, run by Node (no CPython of
    that version needed); results are cached by the source wheel's sha256 and the runtime's release."""
    store = cache / "pyc"
    store.mkdir(parents=True, exist_ok=True)
    todo = []
    for wheel in wheels:
        # bytecode is for one Python: the runtime's release is part of the key
        key = store / f"pyodide-{config.PYODIDE_VERSION}-{sha256(wheel.read_bytes())[:20]}-{wheel.name}"
        if key.is_file():
            shutil.copy2(key, wheel)
        else:
            todo.append((wheel, key))
    if not todo:
        return
    log(f"compiling {len(todo)} wheels to Python {config.PYODIDE_PYTHON} bytecode (Pyodide in Node)")
    work = store / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    for wheel, _ in todo:
        shutil.copy2(wheel, work / wheel.name)
    job = {
        "pyodide": str(core),
        "dir": str(work),
        "wheels": [w.name for w, _ in todo],
        "code": program("pyc_compiler.py"),
    }
    run_in_node("pyc_compiler.js", job, "compiling wheels")
    for wheel, key in todo:
        shutil.copy2(work / wheel.name, key)
        shutil.copy2(work / wheel.name, wheel)
    shutil.rmtree(work, ignore_errors=True)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (read by type checkers only)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def check_app_imports(packages: dict) -> None:
    """Every module webapp/ and engine/ import must be stdlib, ours, or shipped: else fail clearly."""
    provided = {"engine", "webapp", "js", "pyodide", "pyodide_js", "__future__"} | set(sys.stdlib_module_names)
    for entry in packages.values():
        provided.update(entry["imports"])
    problems = []
    for path in sorted([*config.ROOT.glob("webapp/**/*.py"), *config.ROOT.glob("engine/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _run_time_nodes(tree):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                mods = [node.module]
            else:
                continue
            problems += [
                f"{path.relative_to(config.ROOT)}:{node.lineno} imports {mod!r}"
                for mod in mods
                if mod.split(".")[0] not in provided
            ]
    if problems:
        raise BuildError(
            "the app imports modules the site does not ship:\n  "
            + "\n  ".join(problems)
            + "\nAdd the package to PURE_WHEELS in kostka_build/config.py (or drop the import)."
        )
