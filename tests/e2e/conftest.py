"""Fixtures shared by the browser tests against ``panel serve``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    """``panel serve webapp/app.py`` on a free port; yields the app's address."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    log = tmp_path_factory.mktemp("panel") / "serve.log"
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
    url = f"http://127.0.0.1:{port}/app"
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # never through a proxy
    deadline = time.monotonic() + 60
    while True:
        try:
            with direct.open(url, timeout=10) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"panel serve did not start:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.3)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(autouse=True)
def _patient_expect():
    """Assertions wait long enough for a busy two-core machine: a tap may take seconds to come back
    while other jobs run. (Set per test: a module-level setting holds only for the module imported last.)"""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    yield
