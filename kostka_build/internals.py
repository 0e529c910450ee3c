"""Every place the build relies on Panel's, Bokeh's or Pyodide's internals, for the pinned versions
(:mod:`kostka_build.config`): the byte patches it makes to their files, the regular expressions it
runs over ``panel convert``'s output, and the private names the build's programs, the site's
worker and the app use. ``tests/test_build_internals.py`` checks each of them against the pinned
packages, so that a version bump fails there, with the name of what moved, before a browser shows
anything. When it fails: read the new version's code at that place, and change the entry here and
the code that relies on it together.
"""

from __future__ import annotations

import re

from .config import BOKEH_VERSION, PANEL_VERSION, PYODIDE_VERSION

# --------------------------------------------------------------------------- panel convert's page

# Where the CDN URLs of `panel convert`'s output point, mirrored from the pinned wheels.
PANEL_CDN = f"https://cdn.holoviz.org/panel/{PANEL_VERSION}/dist/"
BOKEH_CDN = "https://cdn.bokeh.org/bokeh/release/"
# Anchors in panel convert's app.html (panel/_templates/): each must be found exactly once.
PAGE_HEAD = r"<head>"
PAGE_BODY = r"<body([^>]*)>"
PAGE_WORKER = r'new Worker\("\./app\.js"\)'  # pyodide_handler.js: where the page starts its worker
PAGE_ESMS_OPTIONS = r'<script type="esms-options">[^<]*</script>'  # js_resources.html
PAGE_ESMS = r'<script type="text/javascript" src="[^"]*/es-module-shims[^"]*"></script>'
PAGE_FAVICON = '<link rel="icon" href="./favicon.ico" type="">'
# The document drawn at build time, and the script that embeds it at DOMContentLoaded (Bokeh's
# file.html `plot_script`: a JSON data block, then doc_js.js inside try_run.js). The loading screen
# covers it, and on a slow tablet the worker's document could arrive before it was embedded: both
# were drawn, one under the other. The build leaves it out; the worker's document is the only one.
PAGE_PRERENDER = (
    r'(?s)\s*<script type="application/json" id="[^"]+">.*?</script>\s*<script(?: type="text/javascript")?>'
    r"(?:(?!</script>).)*?root\.Bokeh\.embed\.embed_items\(docs_json, render_items\);(?:(?!</script>).)*</script>"
)
# The Python code panel convert puts into app.js (pyodide_worker.js: the template literal that
# `runPythonAsync(\`{{ code }}\`)` runs, escaped by panel.io.convert as unicode_escape with each
# backtick as \`), and the last step of that code, writing the document (the snapshot is taken
# just before it).
APP_CODE = re.compile(r"= await self\.pyodide\.runPythonAsync\(`((?:[^`\\]|\\.)*)`\)", re.S)
WRITE_DOC = "await write_doc()"

# --------------------------------------------------------------------------- patches to the wheels

# Exact byte patches, each of which must match once (kostka_build.wheels.trim_wheel).
PANEL_PATCHES = {
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
# Panel in the worker builds stylesheet URLs from its CDN root, which it reads from this environment
# variable as it is imported (panel.config.cdn_root, Panel >= 1.8.10): static/worker.js and the
# snapshot's install program point it at the site's copy.
PANEL_CDN_ROOT_ENV = "PANEL_CDN_ROOT"
# BokehJS fetches MathJax from a CDN when a label holds TeX; we ship no MathJax, so it loads a
# local no-op script instead and TeX stays plain text.
BOKEH_JS_PATCHES = {
    "bokeh.min.js": [
        (
            b'"https://cdn.jsdelivr.net/npm/mathjax@3/es5/tex-svg.js"',
            b'"vendor/bokeh/' + BOKEH_VERSION.encode() + b'/no-mathjax.js"',
        ),
        # LayoutDOMView.layoutable_views: every change to a layout lays out the whole document
        # again from its root (invalidate_layout), reading the box of every view, shown or not.
        # A system's screen kept hidden in the page would be measured on every tap; a hidden view
        # is left out until shown (showing it lays the document out again, with it).
        (
            b"get layoutable_views(){return this.child_views.filter((t=>t instanceof w))}",
            b"get layoutable_views(){return this.child_views.filter((t=>t instanceof w&&t.model.visible))}",
        ),
    ],
}
# What the app relies on in Panel's script for the page (webapp/views/component.py): a component
# with a bundle has its module run as it is, not transformed, and imported once under the bundle's
# name. Each text must be found at least once.
PANEL_JS_TEXTS = {
    "panel.min.js": [
        b"compile(){if(null!=this.bundle)return this.esm;",
        b'"url"===this.bundle?this.esm:this.bundle||',
    ],
}
BOKEH_EXTRA_FILES = {"no-mathjax.js": "// MathJax is not shipped: TeX in Bokeh labels stays plain text.\n"}
# Where the wheels keep the files the page loads.
PANEL_DIST = "panel/dist/"
BOKEH_JS = "bokeh/server/static/js/"

# --------------------------------------------------------------------------- private names

# Private (or undocumented) Python names the site's code uses, by module: the build's programs
# (kostka_build/programs/), the worker's Python (static/worker.js) and the app's start-up
# (webapp/app.py, webapp/startup.py).
PYTHON_NAMES = {
    "panel.io.pyodide": [
        "_doc_json",
        "init_doc",
        "write_doc",
        # webapp/startup.py: the page linked (link), its changes taken in (take_page_patch), and
        # changes serialised as the worker serialises them for the page (send_held, rehearse)
        "_link_docs_worker",
        "_convert_json_patch",
        "_process_document_events",
        "_dict_converter",
    ],
    "panel.io.state": ["state"],
    "panel.util": ["edit_readonly"],
    "panel.io.resources": ["CDN_ROOT"],  # read from PANEL_CDN_ROOT_ENV as Panel is imported
    "panel.io.document": ["freeze_doc", "hold"],  # webapp/views/common.py (ScreenPlace)
    "panel.io.server": ["async_execute"],  # webapp/views/component.py (LockedChanges) reads its `lock` rule
    "panel.layout.base": ["Panel"],  # ScreenPlace: its update skips the layout's own, which reads sizes
    # webapp/views/callbacks.py: a callback's signature read once for all partials of its method
    "bokeh.util.callback_manager": ["_check_callback", "_nargs"],
}
# Attributes of live objects: (what, attribute). Panel's state, Bokeh's Document.
OBJECT_NAMES = [
    ("bokeh.document.Document()", "_session_context"),  # webapp/startup.py: as write_doc leaves it
    ("bokeh.document.Document().callbacks", "_held_events"),  # webapp/startup.py: held changes dropped
    ("bokeh.document.Document().models", "freeze"),  # webapp/views/common.py
    ("bokeh.document.Document().models", "seen"),  # webapp/startup.py: a model that has left the document
    # webapp/views/common.py (models_joining): models join a document without a walk through all of it
    ("bokeh.document.Document().models", "_freeze_count"),
    ("bokeh.document.Document().models", "_models"),
    ("bokeh.document.Document().models", "_models_by_name"),
    ("bokeh.document.Document().models", "_new_models"),
    ("bokeh.models.Div()", "_attach_document"),
    ("panel.Column()", "_models"),
    # webapp/views/shell.py (quiet_location): the watcher that parses the address for synced parameters
    ("panel.io.location.Location", "_update_synced"),
    ("panel.io.location.Location()", "_synced"),
    # webapp/views/common.py (ScreenPlace, ScreenPlaces): a list of components drawn as a Bokeh Pane,
    # whose update makes its objects' models as a layout does, and a layout's sizes from its parts
    ("panel.Column()", "_bokeh_model"),
    ("panel.Column()", "_rename"),
    ("panel.Column()", "_process_param_change"),
    ("panel.Column()", "_compute_sizing_mode"),
    ("panel.Column()", "_update_model"),
    ("panel.Column()", "_get_objects"),
    ("panel.Column()", "_preprocess"),
    ("panel.io.state.state", "_views"),
    # webapp/views/component.py: a component's model is given a bundle's name as it is made, and no
    # bundle file is looked for on disk
    ("panel.custom.JSComponent", "_get_properties"),
    ("panel.custom.JSComponent", "_bundle_path"),
    # webapp/views/component.py (LockedChanges): a priority change's handler, with the `lock` attribute
    # that panel.io.server.async_execute reads to hold the document's lock while it runs
    ("panel.custom.JSComponent", "_change_coroutine"),
    ("panel.widgets.TextInput", "_change_coroutine"),
]
# The messages between the page (Panel's pyodide_handler.js) and the site's worker
# (static/worker.js, in place of Panel's pyodide_worker.js): what the worker sends, which the page
# must handle, and what it handles, which the page must send.
WORKER_SENDS = ("patch", "render", "idle")
WORKER_HANDLES = ("rendered", "patch")
# What the page sends that the worker leaves: the address once the document is drawn ("location"),
# which the loader has handed over with the start already (static/loader.js, visit).
WORKER_LEAVES = ("location",)
# Pyodide's private loader options and snapshot API (static/worker.js, programs/snapshot.js), found
# in its pyodide.js / pyodide.asm.js.
PYODIDE_NAMES = ["_makeSnapshot", "_loadSnapshot", "_snapshotDeserializer", "makeMemorySnapshot"]
# Private names of Pyodide's own Python's standard library (python_stdlib.zip) that the build's
# programs use: the bytecode compiler (programs/pyc_compiler.py) writes .pyc files as the import
# system does.
PYODIDE_STDLIB_NAMES = {"importlib/_bootstrap_external.py": ["_code_to_timestamp_pyc"]}
# How Pyodide's Emscripten runtime grows the WebAssembly memory (pyodide.asm.js): from JavaScript,
# by the memory's grow(), a failure caught and reported to the allocator, which then fails the
# allocation. programs/snapshot.js relies on it to zero the freed memory without growing it.
PYODIDE_GROW_MEMORY = "try{wasmMemory.grow(pages);updateMemoryViews();return 1}catch(e){}"
# How Pyodide's runtime tells that it runs on iOS or iPadOS (pyodide.asm.js, getPyEMCountArgsPtr),
# where it must leave out a WebAssembly feature Safari breaks: the expression, in JavaScript, found
# by this pattern (kostka_build.verify.check_ios_detection runs it for an iPad, an iPhone and a Mac).
PYODIDE_IOS_CHECK = re.compile(r"let isIOS=(.+?);if\(isIOS\)\{return 0\}")
# The first word of a Pyodide memory snapshot (static/worker.js checks it before restoring).
PYODIDE_SNAPSHOT_MAGIC = 1886286592
PYODIDE_SNAPSHOT_RELEASE = PYODIDE_VERSION
