"""Refusing hostile files: the importer before and after its scans were bounded, side by side in one run.

    python benchmarks/bench_bounds.py                 # a Markdown table on stdout (takes ~10 min: the old code is slow)
    python benchmarks/bench_bounds.py --before-limit 60000   # the old code only on files up to 60 KB
    python benchmarks/bench_bounds.py --pyodide       # "after" only, under Pyodide (WebAssembly in Node)

"Before" is ``engine/documents.py`` and ``engine/gcs.py`` as they were at ``--before`` (by default where
this branch left ``main``), read with ``git show`` and loaded beside the current engine; "after" is this
checkout. Both read the same bytes (``read_document``; GCS sheets ``read_gcs``), as the app's *Import
characters* hands them over. Each "after" figure is the best of 3 runs; a "before" figure is one run
(minutes). Peak memory is traced (``tracemalloc``) in a separate run from the timing. ``--pyodide`` times
"after" inside the site's Pyodide release (fetched with npm into ``.cache/``, as bench_engine_pyodide.py does).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine import InputError  # noqa: E402
from engine import gcs as gcs_after  # noqa: E402
from engine.documents import MAX_DOCUMENT_BYTES  # noqa: E402
from engine.documents import read_document as read_after  # noqa: E402


def load_before(ref: str, name: str) -> ModuleType:
    """``engine/<name>.py`` at ``ref``, loaded as ``engine._before_<name>`` (its relative imports are today's)."""
    source = subprocess.run(
        ["git", "show", f"{ref}:engine/{name}.py"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    spec = importlib.util.spec_from_loader(f"engine._before_{name}", loader=None)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "engine"
    sys.modules[spec.name] = module  # (dataclasses look their module up)
    exec(compile(source, f"{ref}:engine/{name}.py", "exec"), module.__dict__)
    return module


def sized(make: Callable[[int], bytes], size: int) -> bytes:
    unit = len(make(2)) - len(make(1))
    return make(max(1, (size - len(make(0))) // unit))


#: The shapes of JSON text that froze the app (escaped quotes, a string left open) and two plain ones.
DOCUMENTS: dict[str, Callable[[int], bytes]] = {
    'escaped quotes and brackets `["\\"[\\"[…`': lambda n: b'["' + b'\\"[' * n,
    'escaped quotes, then brackets `["\\"\\"…[[[`': lambda n: b'["' + b'\\"' * n + b"[" * 20,
    'escaped backslashes and quotes `{"a":"\\\\\\"…{{{`': lambda n: b'{"a":"' + b'\\\\\\"' * n + b"{" * 20,
    "deep nesting `[[[…]]]`": lambda n: b"[" * n + b"]" * n,
    'brackets in one long string `["[[[…"]`': lambda n: b'["' + b"[" * n + b'"]',
    'many empty strings `["","",…`': lambda n: b"[" + b'"",' * n,
}
DOCUMENT_SIZES = (60_000, 200_000, MAX_DOCUMENT_BYTES)

GIANT_RAT = json.loads((ROOT / "tests" / "data" / "gcs" / "giant-rat.gcs").read_text(encoding="utf-8"))


def gcs_bomb(count: int, replacement: int) -> bytes:
    """A GCS sheet whose one skill's name is ``count`` placeholders of a ``replacement``-character text."""
    doc = dict(GIANT_RAT)
    doc["skills"] = [
        {"id": "s", "name": "@a@" * count, "replacements": {"a": "x" * replacement}, "calc": {"level": 10}}
    ]
    return json.dumps(doc).encode()


#: (what it fills in to, the sheet)
GCS_BOMBS = {
    "1 MB": gcs_bomb(10, 100_000),
    "20 MB": gcs_bomb(20, 1_000_000),
    "100 MB": gcs_bomb(100, 1_000_000),
    "1 GB": gcs_bomb(1000, 1_000_000),
}
#: Not run before: 100 MB took ~1 GB of memory, 1 GB ended the browser's Python (MemoryError).
GCS_BEFORE_LIMIT = 20_000_000


def refusal_time(read: Callable[[bytes], Any], data: bytes, repeats: int) -> tuple[float, str]:
    """The best time to refuse ``data`` (it must be refused), and the refusal."""
    best, said = float("inf"), ""
    for _ in range(repeats):
        start = time.perf_counter()
        try:
            result = read(data)
        except InputError as error:
            said = error.message
        else:
            said = f"read: {result!r:.60}"
        best = min(best, time.perf_counter() - start)
    return best, said


def peak_memory(read: Callable[[bytes], Any], data: bytes) -> int:
    tracemalloc.start()
    try:
        read(data)
    except InputError:
        pass
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return peak


def gcs_outcome(read: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    """What a GCS import gives: a refusal, or the row names and what was left out (never the whole text)."""

    def run(data: bytes) -> Any:
        result = read(data)
        return [len(row["name"]) for row in result.character["skills"]], result.skipped[:1]

    return run


def seconds(value: float | None) -> str:
    if value is None:
        return "not run"
    return f"{value:.3f}" if value < 10 else f"{value:.0f}"


def after_rows() -> list[tuple[str, str, float]]:
    """(file, size, seconds) of this checkout's refusal of every file (best of 3), as plain data."""
    rows = []
    for name, make in DOCUMENTS.items():
        for size in DOCUMENT_SIZES:
            data = sized(make, size)
            rows.append((name, f"{len(data) / 1000:,.0f} KB", refusal_time(read_after, data, 3)[0]))
    for name, data in GCS_BOMBS.items():
        after = refusal_time(gcs_outcome(gcs_after.read_gcs), data, 3)[0]
        rows.append((f"GCS sheet whose name fills in to {name}", f"{len(data) / 1e6:.1f} MB", after))
    return rows


PYODIDE_CODE = """
import json, sys
sys.path.insert(0, "/repo/benchmarks")
import bench_bounds
RESULT = json.dumps(bench_bounds.after_rows())
"""


def pyodide_table() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_engine_pyodide import npm_pyodide, run_in_pyodide  # (they import the Pyodide test helpers)

    from kostka_build.config import PYODIDE_VERSION

    rows = json.loads(run_in_pyodide(npm_pyodide(PYODIDE_VERSION), PYODIDE_CODE, timeout=1800))
    node = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout.strip()
    print(f"Pyodide {PYODIDE_VERSION} in Node {node}")
    print()
    print("| file | size | after, under Pyodide (s) |")
    print("|:--|--:|--:|")
    for name, size, after in rows:
        print(f"| {name} | {size} | {seconds(after)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_ref = subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()
    parser.add_argument(
        "--before", default=default_ref, help="git ref of the code before (default: merge-base with main)"
    )
    parser.add_argument("--before-limit", type=int, default=200_000, help="largest file given to the old code (bytes)")
    parser.add_argument("--pyodide", action="store_true", help="time this checkout only, under Pyodide")
    args = parser.parse_args()
    if args.pyodide:
        pyodide_table()
        return
    documents_before = load_before(args.before, "documents")
    gcs_before = load_before(args.before, "gcs")

    print(f"Python {platform.python_version()} on {platform.machine()}; before = {args.before[:10]}")
    print()
    print("| file | size | before (s) | after (s) | refused as (after) |")
    print("|:--|--:|--:|--:|:--|")
    for name, make in DOCUMENTS.items():
        for size in DOCUMENT_SIZES:
            data = sized(make, size)
            after, said = refusal_time(read_after, data, 3)
            before = None
            if len(data) <= args.before_limit:
                before, _ = refusal_time(documents_before.read_document, data, 1)
            print(f"| {name} | {len(data) / 1000:,.0f} KB | {seconds(before)} | {seconds(after)} | {said[:70]} |")
            sys.stdout.flush()
    print()
    print(
        "| GCS sheet whose name fills in to | file | before (s) | before, peak memory | after (s) | after, peak memory |"
    )
    print("|:--|--:|--:|--:|--:|--:|")
    for name, data in GCS_BOMBS.items():
        after, _ = refusal_time(gcs_outcome(gcs_after.read_gcs), data, 3)
        after_peak = peak_memory(gcs_outcome(gcs_after.read_gcs), data)
        before = before_peak = None
        fills = data.count(b"@a@") * len(json.loads(data)["skills"][0]["replacements"]["a"])
        if fills <= GCS_BEFORE_LIMIT:
            before, _ = refusal_time(gcs_outcome(gcs_before.read_gcs), data, 1)
            before_peak = peak_memory(gcs_outcome(gcs_before.read_gcs), data)
        peak_before = "not run" if before_peak is None else f"{before_peak / 1e6:,.0f} MB"
        print(
            f"| {name} | {len(data) / 1e6:.1f} MB | {seconds(before)} | {peak_before} "
            f"| {seconds(after)} | {after_peak / 1e6:.1f} MB |"
        )
        sys.stdout.flush()


if __name__ == "__main__":
    main()
