"""Debian's Chromium, and the app under ``panel serve`` to point it at, as every program here that
drives a browser uses them: the browser tests (tests/conftest.py, tests/e2e/conftest.py), the
README's screenshots (docs/screenshots.py) and the benchmarks (benchmarks/). Plain Python with no
test framework, so that scripts can import it too."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Debian's chromium (never a downloaded browser), with flags that suit a closed network.
CHROMIUM = os.environ.get("KOSTKA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def launch_options() -> dict:
    """Playwright's ``chromium.launch`` options for Debian's chromium."""
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served_app(log: Path, wait: float = 60) -> Iterator[str]:
    """``panel serve webapp/app.py`` on a free port, its output in ``log``; yields the app's
    address once it answers, and stops the server afterwards. RuntimeError (with the end of the
    log) if it does not answer within ``wait`` seconds."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in [str(ROOT), os.environ.get("PYTHONPATH", "")] if p)}
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "panel",
                "serve",
                "webapp/app.py",
                "--port",
                str(port),
                "--address",
                "127.0.0.1",
                "--allow-websocket-origin",
                f"127.0.0.1:{port}",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        url = f"http://127.0.0.1:{port}/app"
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
        deadline = time.monotonic() + wait
        while True:
            try:
                with direct.open(url, timeout=10) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"panel serve did not start:\n{log.read_text(errors='replace')[-3000:]}")
            time.sleep(0.3)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
