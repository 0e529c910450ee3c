#!/usr/bin/env python
"""Build Kostka's self-contained static site into ``site/`` (and optionally serve it).

    python build.py                 # build site/
    python build.py --serve         # build if needed, then serve on http://127.0.0.1:8000/
    python build.py --serve --port 8123 --force

The builder is the package ``kostka_build`` (its docstring lists the steps and their modules);
this file keeps the command line, and the names scripts and tests use.
"""

from __future__ import annotations

import sys

from kostka_build.assemble import build, is_up_to_date, write_service_worker
from kostka_build.cli import main
from kostka_build.config import (
    CACHE,
    CSP,
    CSP_HEADER,
    NOT_SHIPPED,
    PYODIDE_SITE_DIR,
    PYODIDE_VERSION,
    SITE,
    SNAPSHOT_PART,
    STATIC,
    STDLIB_REST,
    STDLIB_ZIP,
    WORKER_CSP,
)
from kostka_build.fetch import fetch_pyodide_core
from kostka_build.serve import SiteHandler, make_server
from kostka_build.util import BuildError
from kostka_build.verify import check_local_references, scan_foreign_urls

__all__ = [
    "CACHE",
    "CSP",
    "CSP_HEADER",
    "NOT_SHIPPED",
    "PYODIDE_SITE_DIR",
    "PYODIDE_VERSION",
    "SITE",
    "SNAPSHOT_PART",
    "STATIC",
    "STDLIB_REST",
    "STDLIB_ZIP",
    "WORKER_CSP",
    "BuildError",
    "SiteHandler",
    "build",
    "check_local_references",
    "fetch_pyodide_core",
    "is_up_to_date",
    "main",
    "make_server",
    "scan_foreign_urls",
    "write_service_worker",
]

if __name__ == "__main__":
    sys.exit(main())
