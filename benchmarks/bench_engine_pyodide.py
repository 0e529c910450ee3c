"""The engine's exact odds under Pyodide (WebAssembly in Node), one runtime beside another.

    python benchmarks/bench_engine_pyodide.py [--pyodide 0.27.7 --pyodide 0.29.5] [--rounds 2]

Times the engine's side of ``bench_engine.py``'s cases (which that script compares with icepool
exactly under CPython) inside each Pyodide release given, fetched once with npm into the git-ignored ``.cache/``,
in turns (A, B, A, B…) so that both meet the machine in the same state, and prints one Markdown
table: the best cold and warm time of each case under each runtime, and their ratio.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "pyodide"))
sys.path.insert(0, str(ROOT))

from test_engine_in_pyodide import TEST_WHEELS, run_in_pyodide  # noqa: E402

from kostka_build.config import PYODIDE_VERSION  # noqa: E402

# bench_engine.py's cases, the engine's side of each: cold and warm, each the best of its runs (the
# results were compared with icepool's under CPython by bench_engine.py itself)
CODE = """
import json, sys
sys.path.insert(0, "/repo/benchmarks")
import bench_engine as b
RESULT = json.dumps([[name, b.best(case, cold=True), b.best(case, cold=False)] for name, case, _ in b.cases()])
"""


def npm_pyodide(version: str) -> Path:
    """npm pyodide@version unpacked into .cache/npm/pyodide-<version>/package."""
    dest = ROOT / ".cache" / "npm" / f"pyodide-{version}"
    package = dest / "package"
    if not (package / "pyodide.asm.wasm").is_file():
        dest.mkdir(parents=True, exist_ok=True)
        out = subprocess.run(
            ["npm", "pack", f"pyodide@{version}", "--silent"], cwd=dest, capture_output=True, text=True, check=True
        )
        with tarfile.open(dest / out.stdout.strip().splitlines()[-1]) as tar:
            tar.extractall(dest, filter="data")
    return package


def wheels_for(python: str) -> list[str]:
    """icepool and its dependencies as pure wheels for that Python (bench_engine.py compares with it)."""
    dest = ROOT / ".cache" / f"bench-wheels-{python}"
    if not list(dest.glob("icepool-*.whl")):
        wanted = [w for w in TEST_WHEELS if w.startswith("icepool")]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "-d", str(dest), "--only-binary=:all:"]
            + ["--python-version", python, "--platform", "any", "--implementation", "py", *wanted],
            check=True,
        )
    return [str(p) for p in sorted(dest.glob("*.whl"))]


def python_of(package: Path) -> str:
    return json.loads((package / "pyodide-lock.json").read_text())["info"]["python"].rpartition(".")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pyodide", action="append", help=f"a Pyodide release (default: 0.27.7 and {PYODIDE_VERSION})")
    parser.add_argument("--rounds", type=int, default=2, help="runs of the whole table under each runtime, in turns")
    args = parser.parse_args()
    versions = args.pyodide or ["0.27.7", PYODIDE_VERSION]
    packages = {v: npm_pyodide(v) for v in versions}
    wheels = {v: wheels_for(python_of(p)) for v, p in packages.items()}
    best: dict[str, dict[str, tuple[float, float]]] = {v: {} for v in versions}
    for _ in range(args.rounds):
        for version in versions:
            rows = json.loads(run_in_pyodide(packages[version], CODE, wheels[version], timeout=1800))
            for case, cold, warm in rows:
                cold, warm = cold * 1000, warm * 1000
                was = best[version].get(case, (cold, warm))
                best[version][case] = (min(was[0], cold), min(was[1], warm))
    first, *others = versions
    head = " | ".join(f"Pyodide {v} cold / warm (ms)" for v in versions)
    print(f"Best of {args.rounds} runs of bench_engine.py's cases under each runtime (each its own best of 7).\n")
    print(f"| case | {head} | " + " | ".join(f"{v} / {first} cold" for v in others) + " |")
    print("|:--|" + "--:|" * (len(versions) + len(others)))
    for case, (cold, _warm) in best[first].items():
        cells = [f"{best[v][case][0]:.3f} / {best[v][case][1]:.3f}" for v in versions]
        ratios = [f"{best[v][case][0] / cold:.2f}" for v in others]
        print(f"| {case} | " + " | ".join(cells + ratios) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
