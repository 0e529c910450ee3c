"""The import layers of docs/ARCHITECTURE.md, checked.

The contracts are import-linter's, in pyproject.toml (``[tool.importlinter]``): the web app's
layers (app > startup > views > words > state > i18n), the screens independent of each other,
no Panel or Bokeh below the views, a pure engine, and no import cycle in ``engine/`` or
``webapp/``. import-linter reads the import graph with grimp, which counts imports inside
functions too, so a cycle cannot be hidden in a function body.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
            "--no-cache",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def _private_imports(package: Path) -> list[str]:
    """``from <one of ours> import _name`` anywhere in ``package`` (a name another module uses is public)."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            ours = node.level > 0 or (node.module or "").split(".")[0] in ("engine", "webapp")
            for alias in node.names if ours else ():
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(package.parent).as_posix()}:{node.lineno}: {alias.name}")
    return found


@pytest.mark.parametrize("package", ["engine", "webapp"])
def test_no_module_imports_a_private_name_from_another(package):
    assert _private_imports(ROOT / package) == []


def test_the_private_name_check_sees_a_private_import(tmp_path):
    package = tmp_path / "webapp"
    package.mkdir()
    (package / "one.py").write_text("from .forms import _blank, as_form\nfrom engine.combat import __all__\n")
    (package / "two.py").write_text("from html import _escape_table\nfrom webapp.state.log import _now\n")
    assert _private_imports(package) == ["webapp/one.py:1: _blank", "webapp/two.py:2: _now"]
