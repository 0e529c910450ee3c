"""The interpreter snapshot the site's worker restores instead of booting Python.

The site ships a memory snapshot of a Pyodide interpreter that has every wheel installed and has
run the page's code up to writing the document, once for each language: an app per language is
built and its document serialised, for nobody yet (webapp/startup.py). The browser's worker
restores it instead of booting Python, installing the wheels, importing Panel, building the app
and serialising its document; it only hands out the visitor's language's app
(programs/welcome.py), so a first visit starts about as fast as a later one. It is made here, by
the same Pyodide release in Node (programs/snapshot.js), and checked by restoring it and running
what the worker runs, in Russian, then using the app (programs/snapshot_use.py). Files live
outside the interpreter's memory, so the snapshot carries those a restored interpreter may still
read (modules it has not imported, data files, translations); the modules it holds in memory, the
installers' RECORD lists, and what it could never import or read (config.SNAPSHOT_LEFT_OUT) are
left out. Likewise the standard library: a restored interpreter
gets Pyodide's python_stdlib.zip without the modules the snapshot holds (config.STDLIB_REST), and
the snapshot's importers know that zip's table of contents, not the full one's (they read it again
before the snapshot is taken: programs/snapshot_pack.py); the full zip serves a fresh boot.

Shipped as one container, gzip-compressed by us (any static host serves it as is) and cut into
parts small enough for every browser's HTTP cache (so the service worker's pre-cache finds them
there instead of downloading them again): u32 SNAPSHOT_MAGIC, u32 n, n bytes of JSON
{"memory": size, "files": [[path under site-packages, size], ...]} padded with spaces to a
multiple of 4, the memory snapshot, then each file's bytes in order.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import config, internals
from .util import BuildError, Timings, gzip_compress, log, program, run_in_node, write

SNAPSHOT_MAGIC = 0x4B53544B  # "KTSK" (static/worker.js: CONTAINER_MAGIC)


def run_snapshot_job(job: dict, what: str) -> str:
    return run_in_node("snapshot.js", job, what)


def pack_snapshot(memory: bytes, files: list[tuple[str, bytes]]) -> bytes:
    index = json.dumps({"memory": len(memory), "files": [[path, len(data)] for path, data in files]}).encode()
    index += b" " * (-len(index) % 4)
    return b"".join(
        [SNAPSHOT_MAGIC.to_bytes(4, "little"), len(index).to_bytes(4, "little"), index, memory, *(d for _, d in files)]
    )


def unpack_snapshot(container: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    if int.from_bytes(container[:4], "little") != SNAPSHOT_MAGIC:
        raise ValueError("not a snapshot container")
    size = int.from_bytes(container[4:8], "little")
    index = json.loads(container[8 : 8 + size])
    at = 8 + size + index["memory"]
    files = []
    for path, length in index["files"]:
        files.append((path, container[at : at + length]))
        at += length
    return container[8 + size : 8 + size + index["memory"]], files


def snapshot_parts(container: bytes) -> list[bytes]:
    """The container compressed and cut into the parts the site ships: one gzip member, as the
    browser's DecompressionStream reads it, made by libdeflate at its highest level (0.5 MB, 2.5 %,
    smaller than zlib's level 9 for every first visit), else by zlib on every core."""
    try:
        import deflate  # libdeflate (the "web" extra of pyproject.toml)
    except ImportError:
        log("libdeflate (pip install deflate) not found: the snapshot compressed by zlib, 0.5 MB larger")
        data = gzip_compress(container, 9)
    else:
        data = bytes(deflate.gzip_compress(container, config.SNAPSHOT_DEFLATE_LEVEL))
    return [data[i : i + config.SNAPSHOT_PART_BYTES] for i in range(0, len(data), config.SNAPSHOT_PART_BYTES)]


def prepared_page_code(code: str) -> str:
    """The page's code (``panel convert``'s) without its last step, writing the document."""
    head, found, tail = code.rpartition(internals.WRITE_DOC)
    if not found or tail.strip():
        raise BuildError(
            f"the page's code made by panel convert no longer ends with {internals.WRITE_DOC!r}; "
            "see kostka_build/snapshot.py"
        )
    return head


def make_snapshot(
    core: Path, wheels: list[Path], code: str, out_dir: Path, cache: Path = config.CACHE, timings: Timings | None = None
) -> tuple[list[Path], Path]:
    """Write the snapshot's parts and the standard library it is restored with into ``out_dir``
    (the site's Pyodide folder), once checked; return the parts in order, and that zip."""
    timings = timings or Timings()
    log("making the interpreter snapshot (Pyodide in Node)")
    work = cache / "snapshot"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    job = {
        "pyodide": str(core),
        "memory": str(work / "memory.bin"),
        "files": str(work / "files.zip"),
        "stdlib": str(work / "stdlib.zip"),
    }
    python = [
        program("snapshot_install.py"),
        prepared_page_code(code),
        program("snapshot_languages.py"),
        program("zip_without.py"),
        program("snapshot_pack.py"),
    ]
    with timings.step("snapshot made (Pyodide in Node)"):
        run_snapshot_job(
            {
                **job,
                "mode": "make",
                "wheels": [str(w) for w in wheels],
                "panelRoot": config.PANEL_ROOT,
                "leftOut": sorted(config.SNAPSHOT_LEFT_OUT),
                "kept": list(config.SNAPSHOT_KEPT),
                "python": python,
                "zero": program("snapshot_zero.py"),
            },
            "making the interpreter snapshot",
        )

    # what the worker runs on a restored copy, with the standard library it restores with: first
    # its importers must read every file of that zip right and import modules the snapshot does
    # not hold; in Russian, the Russian app's document must come out; then that app rolls in each
    # system and switches to Czech (reading the files they need). Meanwhile (the check only reads
    # the snapshot) its parts are packed and compressed.
    def check() -> dict:
        with timings.step("  snapshot checked (restored, the app used)", alone=False):
            job_check = {
                **job,
                "mode": "check",
                "stdlibCheck": program("snapshot_stdlib.py"),
                "code": program("welcome.py"),
                "use": program("snapshot_use.py"),
            }
            return json.loads(run_snapshot_job(job_check, "running the app on the restored snapshot"))

    with timings.step("snapshot checked, and packed and compressed, at once"), ThreadPoolExecutor(1) as pool:
        checked = pool.submit(check)
        with timings.step("  snapshot packed and compressed", alone=False):
            with zipfile.ZipFile(work / "files.zip") as zf:
                files = [(info.filename, zf.read(info)) for info in zf.infolist()]
            parts = snapshot_parts(pack_snapshot((work / "memory.bin").read_bytes(), files))
        result = checked.result()
    if not (result["docs"] > 10_000 and result["roll"] and result["rolls"] == 3 and result["stdlib"] > 0):
        raise BuildError(f"the app did not draw on the restored interpreter snapshot: {result}")
    paths = [out_dir / config.SNAPSHOT_PART.format(i) for i in range(len(parts))]
    for path, part in zip(paths, parts, strict=True):
        write(path, part)
    stdlib = out_dir / config.STDLIB_REST
    shutil.copyfile(work / "stdlib.zip", stdlib)
    shutil.rmtree(work)
    return paths, stdlib
