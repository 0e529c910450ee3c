"""Links made in CPython open identically under Pyodide (in Node), and the other way round.

Needs Node.js and the npm ``pyodide`` package that ``python build.py`` unpacks
into ``.cache/npm/pyodide-<version>/package`` (or set ``KOSTKA_PYODIDE`` to
such a folder); skipped without them.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.node

# Runs in both interpreters: makes links of every kind and verifies the given ones.
SCRIPT = r"""
import json
from engine import CHECKS, links

CHECKS_USED = [
    ("one-ring", {"rating": 2, "tn": 13, "feat_mode": "favoured"}),
    ("one-ring", {"rating": 6, "tn": 20, "feat_mode": "ill_favoured", "bonus_dice": 2, "weary": True, "miserable": True}),
    ("gurps", {"skill": 9, "modifiers": [-5, 10]}),
    ("gurps", {"skill": 1, "defence": True}),
    ("gurps-quick", {"a": 14, "b": 12}),
    ("gurps-regular", {"a": -5, "b": -5}),
    ("fate", {"skill": 7, "difficulty": 2, "favour_spent": 1, "favour_held": 3}),
]

def make():
    out = []
    for i, (system, fields) in enumerate(CHECKS_USED):
        check = CHECKS[system].from_dict(fields)
        secret = links.encode_secret_link(check, seed=1000 + i, name="Šárka", session_code="Мория", number=i + 1)
        out += [
            links.encode_check_link(check, name="Фродо", label="Awareness"),
            links.encode_roll_link(check, seed=2**64 - 1 - i, name="Фродо"),
            links.encode_roll_link(check, session_code="Мория", number=i + 1, name="Фродо Торбинс"),
            secret.link,
            secret.revealed_link,
        ]
    return out

def check(texts):
    return [links.verify(t).to_dict() for t in texts]

MADE = make()
"""


def _pyodide_dir() -> Path | None:
    candidates = [
        os.environ.get("KOSTKA_PYODIDE", ""),
        *sorted((ROOT / ".cache" / "npm").glob("pyodide-*/package"), reverse=True),
    ]
    for candidate in candidates:
        if (
            candidate
            and (Path(candidate) / "pyodide.js").is_file()
            and (Path(candidate) / "pyodide.asm.wasm").is_file()
        ):
            return Path(candidate)
    return None


def _run_in_pyodide(code: str) -> str:
    node = shutil.which("node")
    pyodide = _pyodide_dir()
    if node is None or pyodide is None:
        pytest.skip("needs node and the npm pyodide package (python build.py fetches it)")
    files = {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in sorted((ROOT / "engine").rglob("*.py"))}
    runner = r"""
const { loadPyodide } = require(process.argv[1]);
const payload = JSON.parse(require("fs").readFileSync(0, "utf8"));
(async () => {
  const py = await loadPyodide({ indexURL: process.argv[1] + "/" });
  for (const [name, text] of Object.entries(payload.files)) {
    py.FS.mkdirTree("/work/" + name.split("/").slice(0, -1).join("/"));
    py.FS.writeFile("/work/" + name, text);
  }
  py.runPython("import sys; sys.path.insert(0, '/work')");
  process.stdout.write(py.runPython(payload.code));
})().catch((e) => { console.error(e); process.exit(1); });
"""
    result = subprocess.run(
        [node, "-e", runner, str(pyodide)],
        input=json.dumps({"files": files, "code": code}),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


def test_links_are_the_same_in_cpython_and_pyodide():
    namespace: dict = {}
    exec(SCRIPT, namespace)  # noqa: S102 - our own fixed script, run here as in Pyodide
    made_here = namespace["MADE"]
    verdicts_here = namespace["check"](made_here)
    code = SCRIPT + "\njson.dumps({'made': MADE, 'theirs': check(json.loads(" + repr(json.dumps(made_here)) + "))})"
    there = json.loads(_run_in_pyodide(code))
    # the same inputs give the same links, byte for byte ...
    assert there["made"] == made_here
    # ... and links made here verify there with the same dice
    assert there["theirs"] == verdicts_here
    assert {v["status"] for v in verdicts_here} == {"verified", "sealed"}
