"""What the build relies on in Panel's, Bokeh's and Pyodide's internals (kostka_build/internals.py),
checked against the pinned versions: a version bump fails here, naming what moved, before the
browser shows anything."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
import zipfile
from fnmatch import fnmatchcase
from pathlib import Path

import bokeh.document
import bokeh.models
import panel
import panel.custom
import panel.io.location
import pytest

from kostka_build import config, internals

PANEL = Path(panel.__file__).resolve().parent
SITE_PACKAGES = PANEL.parent
NPM = config.CACHE / "npm" / f"pyodide-{config.PYODIDE_VERSION}" / "package"


def test_the_installed_panel_and_bokeh_are_the_pinned_ones():
    # the app is served and converted with the installed ones; the site ships the pinned wheels
    assert importlib.metadata.version("panel") == config.PANEL_VERSION == config.PURE_WHEELS["panel"]
    assert importlib.metadata.version("bokeh") == config.BOKEH_VERSION == config.PURE_WHEELS["bokeh"]
    pins = (config.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"panel=={config.PANEL_VERSION}"' in pins and f'"bokeh=={config.BOKEH_VERSION}"' in pins


@pytest.mark.parametrize("path", sorted(internals.PANEL_PATCHES))
def test_each_patch_to_panel_finds_its_text_once(path):
    old, _ = internals.PANEL_PATCHES[path]
    assert (SITE_PACKAGES / path).read_bytes().count(old) == 1, f"{path} changed: see internals.PANEL_PATCHES"


def test_each_patch_to_bokehjs_finds_its_text_once():
    for name, patches in internals.BOKEH_JS_PATCHES.items():
        data = (SITE_PACKAGES / internals.BOKEH_JS / name).read_bytes()
        for old, _ in patches:
            assert data.count(old) == 1, f"{name} changed: see internals.BOKEH_JS_PATCHES"
    assert (PANEL / "dist" / "panel.min.js").is_file()  # internals.PANEL_DIST


def test_panel_runs_a_bundled_component_module_as_it_is():
    for name, texts in internals.PANEL_JS_TEXTS.items():
        data = (PANEL / "dist" / name).read_bytes()
        for text in texts:
            assert text in data, f"{name} changed: see internals.PANEL_JS_TEXTS"


def test_panel_converts_pages_as_the_build_expects():
    templates = PANEL / "_templates"
    worker = (templates / "pyodide_worker.js").read_text(encoding="utf-8")
    assert internals.APP_CODE.search(worker), "pyodide_worker.js no longer holds `const code = ...` before `try {`"
    handler = (templates / "pyodide_handler.js").read_text(encoding="utf-8").replace("{{ name }}", "app")
    assert len(re.findall(internals.PAGE_WORKER, handler)) == 1
    resources = (templates / "js_resources.html").read_text(encoding="utf-8")
    assert re.search(internals.PAGE_ESMS_OPTIONS, resources), "es-module-shims' options moved"
    assert "es-module-shims" in (PANEL / "models" / "esm.py").read_text(encoding="utf-8")  # internals.PAGE_ESMS
    # the document drawn at build time, which the build leaves out, is embedded by Bokeh's doc_js.js
    doc_js = (SITE_PACKAGES / "bokeh" / "core" / "_templates" / "doc_js.js.jinja").read_text(encoding="utf-8")
    assert "root.Bokeh.embed.embed_items(docs_json, render_items" in doc_js, "see internals.PAGE_PRERENDER"
    # the page's code ends with writing the document: the snapshot is taken just before it
    assert internals.WRITE_DOC + '"""' in (PANEL / "io" / "convert.py").read_text(encoding="utf-8")


def top_level_names(module: str) -> set[str]:
    """Names a module defines or imports at its top level, read from its source (some of them,
    such as panel.io.pyodide, import only under Pyodide)."""
    tree = ast.parse(Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def test_panel_takes_its_cdn_root_from_the_environment():
    # static/worker.js and the snapshot's install program point it at the site's copy
    code = "import panel.io.resources as r, panel; print(r.CDN_ROOT, panel.config.cdn_root)"
    env = {**os.environ, internals.PANEL_CDN_ROOT_ENV: config.PANEL_ROOT}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == [config.PANEL_ROOT, config.PANEL_ROOT]
    for source in (config.STATIC / "worker.js", config.ROOT / "kostka_build" / "programs" / "snapshot_install.py"):
        assert f'os.environ["{internals.PANEL_CDN_ROOT_ENV}"]' in source.read_text(encoding="utf-8"), source


@pytest.mark.parametrize("module", sorted(internals.PYTHON_NAMES))
def test_the_private_python_names_are_there(module):
    missing = [name for name in internals.PYTHON_NAMES[module] if name not in top_level_names(module)]
    assert missing == [], f"{module} lacks {missing}"


@pytest.mark.parametrize(("what", "name"), internals.OBJECT_NAMES)
def test_the_private_attributes_are_there(what, name):
    objects = {
        "panel.io.state.state": panel.state,
        "bokeh.document.Document()": bokeh.document.Document(),
        "bokeh.document.Document().callbacks": bokeh.document.Document().callbacks,
        "bokeh.document.Document().models": bokeh.document.Document().models,
        "bokeh.models.Div()": bokeh.models.Div(),
        "panel.io.location.Location": panel.io.location.Location,
        "panel.io.location.Location()": panel.io.location.Location(),
        "panel.Column()": panel.Column(),
        "panel.custom.JSComponent": panel.custom.JSComponent,
        "panel.widgets.TextInput": panel.widgets.TextInput,
    }
    assert hasattr(objects[what], name), f"{what} has no {name}"


def test_panels_server_holds_the_lock_for_a_change_handler_that_asks_for_it():
    # webapp/views/component.py (LockedChanges): a priority change runs through async_execute, which
    # holds the document's lock only for a callback whose function has a true `lock` attribute
    import inspect

    import panel.io.server
    import panel.reactive

    source = inspect.getsource(panel.io.server.async_execute)
    assert "hasattr(func.func, 'lock')" in source and "getattr(func, 'lock', False)" in source
    assert "state.execute(cb, schedule=True)" in inspect.getsource(panel.reactive.Syncable._server_change)
    from webapp.views.common import NumberInput, TextInput

    for cls in (NumberInput, TextInput):
        assert cls._change_coroutine.lock is True and inspect.iscoroutinefunction(cls._change_coroutine)


def test_the_page_and_the_worker_speak_the_same_messages():
    handler = (PANEL / "_templates" / "pyodide_handler.js").read_text(encoding="utf-8")
    worker = (config.STATIC / "worker.js").read_text(encoding="utf-8")
    for kind in internals.WORKER_SENDS:
        assert re.search(rf"type: ?[\"']{kind}[\"']", worker), f"static/worker.js no longer sends {kind!r}"
        assert re.search(rf"msg\.type === [\"']{kind}[\"']", handler), f"Panel's page no longer handles {kind!r}"
    for kind in internals.WORKER_HANDLES:
        assert re.search(rf"msg\.type === [\"']{kind}[\"']", worker), f"static/worker.js no longer handles {kind!r}"
        assert re.search(rf"[\"']?type[\"']?: ?[\"']{kind}[\"']", handler), f"Panel's page no longer sends {kind!r}"
    for kind in internals.WORKER_LEAVES:
        assert re.search(rf"[\"']?type[\"']?: ?[\"']{kind}[\"']", handler), f"Panel's page no longer sends {kind!r}"
        assert not re.search(rf"msg\.type === [\"']{kind}[\"']", worker), f"static/worker.js handles {kind!r} again"


@pytest.mark.skipif(not NPM.is_dir(), reason="the npm pyodide package is fetched by python build.py")
def test_pyodide_has_the_snapshot_api_the_worker_uses():
    assert json.loads((NPM / "package.json").read_text())["version"] == config.PYODIDE_VERSION
    assert json.loads((NPM / "pyodide-lock.json").read_text())["info"]["python"] == config.PYODIDE_PYTHON_FULL
    code = (NPM / "pyodide.js").read_text(encoding="utf-8") + (NPM / "pyodide.asm.js").read_text(encoding="utf-8")
    missing = [name for name in internals.PYODIDE_NAMES if name not in code]
    assert missing == [], f"pyodide {config.PYODIDE_VERSION} lacks {missing}"
    assert internals.PYODIDE_GROW_MEMORY in code, "Pyodide's runtime grows its memory otherwise"
    with zipfile.ZipFile(NPM / "python_stdlib.zip") as stdlib:
        for module, names in internals.PYODIDE_STDLIB_NAMES.items():
            source = stdlib.read(module).decode("utf-8")
            missing = [name for name in names if not re.search(rf"^def {name}\b", source, re.M)]
            assert missing == [], f"pyodide {config.PYODIDE_VERSION}'s {module} lacks {missing}"
    worker = (config.STATIC / "worker.js").read_text(encoding="utf-8")
    assert f"const SNAPSHOT_MAGIC = {internals.PYODIDE_SNAPSHOT_MAGIC};" in worker
    for name in ("_loadSnapshot", "_snapshotDeserializer"):
        assert name in worker


# ---- what the interpreter snapshot leaves out of the wheels (config.SNAPSHOT_LEFT_OUT)

NOT_SHIPPED_TOPS = {"tornado", "requests", "ipykernel", "sphinx", "docutils", "IPython", "ipywidgets", "jupyter_server"}


def module_of(rel: str) -> str:
    return rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def module_imports(rel: str, at_top: bool) -> set[str]:
    """The modules a source file of site-packages imports: at its top only (not under a condition,
    a try or a function: what importing it always imports), or anywhere."""
    tree = ast.parse((SITE_PACKAGES / rel).read_text(encoding="utf-8"))
    package = module_of(rel).split(".") if rel.endswith("__init__.py") else module_of(rel).split(".")[:-1]
    found: set[str] = set()
    todo = list(tree.body) if at_top else list(ast.walk(tree))
    for node in todo:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = (
                ".".join(package[: len(package) - node.level + 1] + [node.module or ""]) if node.level else node.module
            )
            found.add((base or "").strip("."))
            found.update(f"{base}.{alias.name}".strip(".") for alias in node.names)
    return found


def left_out(rel: str) -> bool:
    def matches(patterns) -> bool:
        return any(fnmatchcase(rel, p) for p in patterns)

    return matches(config.SNAPSHOT_LEFT_OUT) and not matches(config.SNAPSHOT_KEPT)


def shipped_sources() -> list[str]:
    tops = ("bokeh/", "panel/", "param/", "pyviz_comms/", "jinja2/", "tqdm/", "xyzservices/", "segno/", "packaging/")
    return sorted(
        p.relative_to(SITE_PACKAGES).as_posix()
        for top in tops
        for p in (SITE_PACKAGES / top).rglob("*.py")
        if "/tests/" not in p.as_posix()
    )


def test_what_the_snapshot_leaves_out_a_restored_interpreter_never_imports():
    """Each module the snapshot leaves out either cannot be imported in the browser (it imports, at
    its top, a package the site does not ship, or another module left out for that reason), or
    nothing else imports it (only its own package, tests and ``python -m``)."""
    sources = shipped_sources()
    gone = [rel for rel in sources if left_out(rel)]
    assert len(gone) > 50  # the patterns still match the pinned packages
    unimportable: set[str] = set()
    for _ in range(5):  # through modules that import one another
        for rel in gone:
            imports = module_imports(rel, at_top=True)
            if any(m.split(".")[0] in NOT_SHIPPED_TOPS for m in imports) or imports & unimportable:
                unimportable.add(module_of(rel))
    importers: dict[str, set[str]] = {}
    for rel in sources:
        if not left_out(rel) and not rel.endswith("__main__.py"):
            for name in module_imports(rel, at_top=False):
                importers.setdefault(name, set()).add(rel)
    unproven = []
    for rel in gone:
        name = module_of(rel)
        users = {u for m, us in importers.items() if m == name or m.startswith(name + ".") for u in us}
        if name not in unimportable and users:
            unproven.append(f"{rel}, imported by {sorted(users)[:3]}")
    assert unproven == [], "left out of the snapshot, but importable and imported:\n" + "\n".join(unproven)
    for rel in sources:  # what is kept imports none of what is left out at its top
        if not left_out(rel):
            bad = {m for m in module_imports(rel, at_top=True) if m in {module_of(g) for g in gone}}
            assert bad - unimportable == set(), f"{rel} imports {bad}"
