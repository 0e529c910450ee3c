// Makes the interpreter snapshot (job.mode "make") or checks one ("check"), under Pyodide in Node
// (kostka_build.snapshot). Reads its job (JSON) on stdin.
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
// Python overwrites the memory it has freed with zeros (snapshot_zero.py) while the WebAssembly
// memory cannot grow: an allocation that finds no room fails instead of growing it (Pyodide's runtime
// grows it by the memory's grow(), kostka_build/internals.py PYODIDE_GROW_MEMORY).
function zeroFreed(py, code) {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = () => { throw new RangeError("the memory may not grow now"); };
  try {
    py.runPython(code);
  } finally {
    WebAssembly.Memory.prototype.grow = grow;
  }
}
(async () => {
  if (job.mode === "make") {
    const py = await loadPyodide({indexURL: job.pyodide + "/", _makeSnapshot: true});
    py.FS.mkdirTree("/tmp/wheels");
    for (const wheel of job.wheels) py.FS.writeFile(`/tmp/wheels/${wheel.split("/").pop()}`, fs.readFileSync(wheel));
    py.globals.set("panel_root", job.panelRoot);
    py.globals.set("left_out", py.toPy(job.leftOut));  // snapshot_pack.py (config.SNAPSHOT_LEFT_OUT)
    py.globals.set("kept", py.toPy(job.kept));
    for (const code of job.python) await py.runPythonAsync(code);
    for (const name of ["files", "stdlib"]) {
      fs.writeFileSync(job[name], py.FS.readFile(`/tmp/${name}.zip`));
      py.FS.unlink(`/tmp/${name}.zip`);
    }
    zeroFreed(py, job.zero);
    fs.writeFileSync(job.memory, py.makeMemorySnapshot({serializer}));
  } else {
    // restored with the standard library the site's worker restores it with (snapshot_pack.py)
    const py = await loadPyodide({indexURL: job.pyodide + "/", stdLibURL: job.stdlib, _loadSnapshot: fs.readFileSync(job.memory), _snapshotDeserializer: deserializer});
    py.FS.writeFile("/tmp/files.zip", fs.readFileSync(job.files));
    // the files written, and only site-packages' finders told, as the worker does (not
    // importlib.invalidate_caches(), which would also read the standard library's zip again)
    py.runPython(`import os, sys, zipfile, random
site_packages = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
with zipfile.ZipFile("/tmp/files.zip") as z:
    z.extractall(site_packages)
os.remove("/tmp/files.zip")
for path, finder in list(sys.path_importer_cache.items()):
    if path.startswith(site_packages) and hasattr(finder, "invalidate_caches"):
        finder.invalidate_caches()
random.seed()`);
    const stdlib = py.runPython(job.stdlibCheck);  // before the app imports anything
    py.globals.set("sendPatch", () => {});
    py.globals.set("kostka_language", "ru");
    const [docs] = (await py.runPythonAsync(job.code)).toJs();
    const text = JSON.stringify(JSON.parse(docs));  // its Russian unescaped
    const rolls = py.runPython(job.use);  // and the app works on: rolls, switches language
    process.stdout.write(JSON.stringify({docs: docs.length, roll: text.includes("\u0411\u0440\u043e\u0441\u0438\u0442\u044c"), rolls, stdlib}));
  }
})().catch((e) => { console.error(e); process.exit(1); });
