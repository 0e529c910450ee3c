"""Small helpers every step of the build uses."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterator
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


def norm(name: str) -> str:
    """A distribution's normalised name (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def program(name: str) -> str:
    """The text of one of the programs the build runs (``kostka_build/programs/``)."""
    return (Path(__file__).resolve().parent / "programs" / name).read_text(encoding="utf-8")


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
