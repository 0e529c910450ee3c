"""The engine under real Pyodide (WebAssembly, in Node) behaves exactly as under CPython.

Uses Node.js and npm ``pyodide`` of the same version as the static site (fetched by
``build.fetch_pyodide_core`` into ``.cache/``). Skipped when ``node`` is missing,
except in CI (``CI`` set), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kostka_build.config import PYODIDE_PYTHON

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("run_in_pyodide.js")
VECTORS = ROOT / "tests" / "engine" / "vectors.json"
pytestmark = pytest.mark.node

# Pure wheels that let pytest itself run inside Pyodide (versions of the development set-up).
TEST_WHEELS = ["pytest==9.0.3", "hypothesis==6.155.2", "icepool==2.1.3", "segno==1.6.6"]
# Engine tests that cannot run inside Pyodide: they start processes (the command line, Node),
# or import test_documents, which needs jsonschema (its rpds-py has no WebAssembly build here).
NOT_IN_PYODIDE = [
    "test_engine_cli.py",
    "test_fate_cli.py",
    "test_links_pyodide.py",
    "test_documents.py",
    "test_documents_fuzz.py",
    "test_links_fuzz.py",
    "test_sheet_schemas.py",  # jsonschema, a test dependency
]
DESELECTED = ["tests/engine/test_engine_api.py::test_engine_imports_only_the_standard_library"]  # starts a process


def _need(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required in CI")
    pytest.skip(f"needs {what}")


@pytest.fixture(scope="module")
def pyodide_dir() -> Path:
    if shutil.which("node") is None:
        _need("node (Node.js)")
    sys.path.insert(0, str(ROOT))
    try:
        import build
    finally:
        sys.path.remove(str(ROOT))
    try:
        return build.fetch_pyodide_core()
    except build.BuildError as exc:
        _need(f"npm pyodide@{build.PYODIDE_VERSION} ({exc})")


@pytest.fixture(scope="module")
def test_wheels() -> list[str]:
    """pytest, hypothesis, icepool and their dependencies as pure wheels, cached in .cache/."""
    dest = ROOT / ".cache" / "pyodide-test-wheels"
    stamp = dest / "wanted.txt"
    wanted = "\n".join([f"python {PYODIDE_PYTHON}", *TEST_WHEELS])
    if not (stamp.is_file() and stamp.read_text() == wanted):
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "-d",
                str(dest),
                "--only-binary=:all:",
                "--python-version",
                PYODIDE_PYTHON,
                "--platform",
                "any",
                "--implementation",
                "py",
                *TEST_WHEELS,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            _need(f"pure wheels of {TEST_WHEELS} from PyPI:\n{proc.stderr[-1500:]}")
        stamp.write_text(wanted)
    return [str(p) for p in sorted(dest.glob("*.whl"))]


def run_in_pyodide(pyodide: Path, code: str, wheels: list[str] | None = None, timeout: int = 900) -> str:
    job = {"pyodide": str(pyodide), "repo": str(ROOT), "wheels": wheels or [], "code": code}
    # a larger JS stack: deep Python recursion in some tests overflows Node's default
    proc = subprocess.run(
        ["node", "--stack-size=4000", str(RUNNER)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert proc.returncode == 0, f"Pyodide run failed:\n{proc.stderr[-4000:]}"
    run_in_pyodide.last_output = proc.stderr  # Python's own output
    return proc.stdout


REPLAY = """
import json, platform, sys
from engine import CHECKS, roll_check
vectors = json.load(open("tests/engine/vectors.json", encoding="utf-8"))
records = [roll_check(CHECKS[v["system"]].from_dict(v["check"]), v["seed"]).to_dict() for v in vectors]
RESULT = json.dumps({"platform": sys.platform, "version": sys.version_info[:2], "records": records})
"""


def test_seeded_rolls_equal_cpython_vector_for_vector(pyodide_dir):
    vectors = json.loads(VECTORS.read_text(encoding="utf-8"))
    assert vectors, "tests/engine/vectors.json is empty"
    out = json.loads(run_in_pyodide(pyodide_dir, REPLAY))
    assert out["platform"] == "emscripten" and out["version"] == [int(n) for n in PYODIDE_PYTHON.split(".")]
    assert len(out["records"]) == len(vectors)
    for i, (vector, record) in enumerate(zip(vectors, out["records"], strict=False)):
        assert record == vector["record"], (
            f"vector {i} ({vector['system']}, seed {vector['seed']}) differs under Pyodide"
        )
    # and CPython, here, gives the very same records
    from engine import CHECKS, roll_check

    here = [
        json.loads(json.dumps(roll_check(CHECKS[v["system"]].from_dict(v["check"]), v["seed"]).to_dict()))
        for v in vectors
    ]
    assert here == out["records"]


PYTEST = """
import json, sys
import pytest

from kostka_build.config import PYODIDE_PYTHON
args = ["tests/engine", "-q", "-p", "no:cacheprovider", "-m", "not slow", "-W", "ignore::pytest.PytestUnraisableExceptionWarning",
        *[f"--ignore=tests/engine/{name}" for name in IGNORED], *[f"--deselect={name}" for name in DESELECTED]]
code = pytest.main(args)
RESULT = json.dumps({"exit": int(code)})
"""


@pytest.mark.slow
def test_engine_test_suite_passes_under_pyodide(pyodide_dir, test_wheels):
    present = {p.name for p in (ROOT / "tests" / "engine").glob("test_*.py")}
    ignored = [name for name in NOT_IN_PYODIDE if name in present]
    code = f"IGNORED = {ignored!r}\nDESELECTED = {DESELECTED!r}\n" + PYTEST
    out = json.loads(run_in_pyodide(pyodide_dir, code, test_wheels, timeout=1500).strip().splitlines()[-1])
    assert out["exit"] == 0, "tests/engine failed under Pyodide:\n" + run_in_pyodide.last_output[-6000:]
