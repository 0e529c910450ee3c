// Runs Python code under real Pyodide (WebAssembly) in Node, with this repository mounted.
//
//   node tests/pyodide/run_in_pyodide.js < job.json
//
// job.json: {"pyodide": "<folder of npm pyodide>", "repo": "<repository root>",
//            "wheels": ["<pure wheel>", ...], "code": "<Python source>"}
// The wheels are unpacked into site-packages, the repository is mounted at /repo (first on
// sys.path, current directory), then the code runs; whatever it assigns to the global
// RESULT (a str) is written to stdout. Python's own output goes to stderr.
"use strict";
const fs = require("fs");
const path = require("path");

async function main() {
  const job = JSON.parse(fs.readFileSync(0, "utf8"));
  const { loadPyodide } = require(path.join(job.pyodide, "pyodide.js"));
  const py = await loadPyodide({
    indexURL: job.pyodide + path.sep,
    stdout: (line) => process.stderr.write(line + "\n"),
    stderr: (line) => process.stderr.write(line + "\n"),
  });
  const sitePackages = py.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const wheel of job.wheels || []) {
    const bytes = fs.readFileSync(wheel);
    py.unpackArchive(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), "wheel", {extractDir: sitePackages});
  }
  py.FS.mkdirTree("/repo");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: job.repo }, "/repo");
  py.runPython("import os, sys; sys.path.insert(0, '/repo'); os.chdir('/repo')");
  await py.runPythonAsync(job.code);
  const result = py.globals.get("RESULT");
  process.stdout.write(result === undefined ? "" : String(result));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error) + "\n");
  process.exit(1);
});
