"""The snapshot's last step (``kostka_build/programs/snapshot.js``'s ``zeroFreed``, running
``snapshot_zero.py``) overwrites with zeros the memory the interpreter has freed, under real
Pyodide in Node: what Python has let go is not carried to every visitor in the snapshot, what it
holds is kept, the memory does not grow, and Python works on."""

from __future__ import annotations

import json
import re
import subprocess

import pytest
from test_engine_in_pyodide import pyodide_dir  # noqa: F401 (a fixture)

from kostka_build.util import program

pytestmark = pytest.mark.node

# Loads Pyodide, lets go of a block of marked bytes while holding another, then runs zeroFreed as
# the snapshot does and reports what the memory holds before and after.
SCRIPT = r"""
const job = JSON.parse(require("fs").readFileSync(0, "utf8"));
const { loadPyodide } = require(job.pyodide + "/pyodide.js");
eval(job.zeroFreed + "; globalThis.zeroFreed = zeroFreed;");
(async () => {
  const py = await loadPyodide({indexURL: job.pyodide + "/"});
  py.runPython(`
kept = b"KOSTKA-KEPT-" * 20000
let_go = [bytes(f"KOSTKA-GONE-{i:06}", "ascii") * 5000 for i in range(40)]
del let_go
`);
  const holds = (text) => Buffer.from(py._module.HEAPU8.buffer).indexOf(Buffer.from(text)) >= 0;
  const before = {gone: holds("KOSTKA-GONE-000017"), kept: holds("KOSTKA-KEPT-"), size: py._module.HEAPU8.length};
  zeroFreed(py, job.zero);
  const after = {gone: holds("KOSTKA-GONE-000017"), kept: holds("KOSTKA-KEPT-"), size: py._module.HEAPU8.length};
  const works = py.runPython("len(kept) + sum(range(10))");
  process.stdout.write(JSON.stringify({before, after, works}));
})().catch((e) => { console.error(e); process.exit(1); });
"""


def test_the_snapshot_holds_no_copy_of_what_python_let_go(pyodide_dir):  # noqa: F811
    source = program("snapshot.js")
    zero_freed = re.search(r"^function zeroFreed\(.*?^}$", source, re.S | re.M)
    assert zero_freed is not None
    job = {"pyodide": str(pyodide_dir), "zeroFreed": zero_freed.group(0), "zero": program("snapshot_zero.py")}
    proc = subprocess.run(
        ["node", "-e", SCRIPT], input=json.dumps(job), capture_output=True, text=True, timeout=300, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout)
    assert seen["before"]["gone"] and seen["before"]["kept"]  # freed, yet still in the memory
    assert not seen["after"]["gone"] and seen["after"]["kept"]
    assert seen["after"]["size"] == seen["before"]["size"]
    assert seen["works"] == 240_000 + 45
