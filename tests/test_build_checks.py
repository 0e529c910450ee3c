"""build.py's refusals that need no browser: a binary wheel must match Pyodide's official lock."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))

WHEEL = "fake_binary-1.0-cp312-cp312-pyodide_2024_0_wasm32.whl"


@pytest.fixture
def lock(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CACHE", tmp_path)
    monkeypatch.setattr(build, "LOCK_PACKAGES", ["fake-binary"])
    (tmp_path / "pyodide-wheels").mkdir()
    good = b"PK official bytes"
    return {"packages": {"fake-binary": {"file_name": WHEEL, "sha256": hashlib.sha256(good).hexdigest()}}}, good


def test_a_binary_wheel_matching_the_official_lock_is_taken(lock, tmp_path):
    entry, good = lock
    (tmp_path / "pyodide-wheels" / WHEEL).write_bytes(good)
    assert build.fetch_lock_wheels(entry) == {"fake-binary": tmp_path / "pyodide-wheels" / WHEEL}


def test_a_binary_wheel_that_differs_from_the_official_lock_stops_the_build(lock, tmp_path):
    entry, good = lock
    (tmp_path / "pyodide-wheels" / WHEEL).write_bytes(good + b"!")
    with pytest.raises(build.BuildError, match=r"sha256 MISMATCH for fake_binary.*Refusing to ship an unverified binary wheel"):
        build.fetch_lock_wheels(entry)
