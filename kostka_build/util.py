"""Small helpers every step of the build uses."""

from __future__ import annotations

import base64
import hashlib
import re
import subprocess
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
