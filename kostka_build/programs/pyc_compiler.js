// Compiles .py to .pyc inside wheels with Pyodide's own Python, run by Node (kostka_build.wheels).
// Reads its job (JSON) on stdin: the Pyodide folder, the wheels' folder and names, and the Python to run.
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
