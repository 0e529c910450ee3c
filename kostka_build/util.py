"""Small helpers every step of the build uses."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import threading
import time
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path


class BuildError(Exception):
    """The build cannot produce a correct site; the message says why and what to do."""


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    except FileNotFoundError as exc:
        raise BuildError(f"cannot run {cmd[0]!r}: {exc}") from exc
    if proc.returncode != 0:
        raise BuildError(
            f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )
    return proc


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def integrity(data: bytes) -> str:
    """Subresource Integrity of a file's bytes: what a browser's fetch checks before using them."""
    return sha256_integrity(sha256(data))


def sha256_integrity(hexdigest: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(hexdigest)).decode()


def gzip_compress(data: bytes, level: int = 9, piece: int = 4 << 20) -> bytes:
    """What ``gzip.compress(data, level, mtime=0)`` makes, one gzip member that any gzip reader
    decompresses to ``data``, with its deflate stream made in pieces on every core at once (as
    pigz does; zlib lets go of the interpreter while it compresses): each piece of ``piece`` bytes
    is compressed with the 32 KiB before it as its dictionary and ends on a byte boundary (a sync
    flush), so that the pieces join into one stream. The same bytes give the same result."""
    view = memoryview(data)
    starts = range(0, max(len(data), 1), piece)

    def deflate(start: int) -> bytes:
        window = {"zdict": view[max(0, start - 32768) : start]} if start else {}
        compressor = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS, **window)
        last = start + piece >= len(data)
        return compressor.compress(view[start : start + piece]) + compressor.flush(
            zlib.Z_FINISH if last else zlib.Z_SYNC_FLUSH
        )

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        body = b"".join(pool.map(deflate, starts))
    flags = {9: b"\x02", 1: b"\x04"}.get(level, b"\x00")  # "slowest" / "fastest", as gzip writes them
    header = b"\x1f\x8b\x08\x00" + bytes(4) + flags + b"\x03"  # no name, no time; Unix (as zlib writes it)
    trailer = zlib.crc32(data).to_bytes(4, "little") + (len(data) & 0xFFFFFFFF).to_bytes(4, "little")
    return header + body + trailer


def norm(name: str) -> str:
    """A distribution's normalised name (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def program(name: str) -> str:
    """The text of one of the programs the build runs (``kostka_build/programs/``)."""
    return (Path(__file__).resolve().parent / "programs" / name).read_text(encoding="utf-8")


def run_in_node(name: str, job: dict, what: str) -> str:
    """Run the build's JavaScript program ``name`` (``programs/``, Pyodide in Node) with ``job`` as
    JSON on its standard input; return its standard output. ``what`` names the step in errors."""
    try:
        proc = subprocess.run(["node", "-e", program(name)], input=json.dumps(job), capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise BuildError(f"{what} needs Node.js (the 'node' command): {exc}") from exc
    if proc.returncode != 0:
        raise BuildError(f"{what} under Pyodide in Node failed:\n{proc.stderr[-3000:]}")
    return proc.stdout


def cpu_seconds() -> float:
    """CPU time (user + system) of this process and of the programs it has run and waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class Timings:
    """The wall time of each step of a build, and its CPU time where the step ran alone (the
    downloads run at once, so theirs is counted together, in the step that waits for them)."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, float, float | None]] = []  # (step, wall, cpu or None)
        self._lock = threading.Lock()

    @contextmanager
    def step(self, name: str, alone: bool = True) -> Iterator[None]:
        wall, cpu = time.perf_counter(), cpu_seconds()
        try:
            yield
        finally:
            spent = (time.perf_counter() - wall, cpu_seconds() - cpu if alone else None)
            with self._lock:
                self.steps.append((name, *spent))

    def table(self) -> str:
        """One line a step, in the order they ended."""
        width = max((len(name) for name, _, _ in self.steps), default=0)
        lines = [
            f"  {name:<{width}}  {wall:6.1f} s" + ("" if cpu is None else f"  (CPU {cpu:5.1f} s)")
            for name, wall, cpu in self.steps
        ]
        return "\n".join(lines)
