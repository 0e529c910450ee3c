"""Fixtures shared by the browser tests: the app under ``panel serve`` (``app_url``), and the built
static site (``site``, ``server``, ``site_url``; their helpers, and others, are in pages.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browsing import served_app
from pages import Server, up_to_date_site


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    """``panel serve webapp/app.py`` on a free port; yields the app's address."""
    try:
        with served_app(tmp_path_factory.mktemp("panel") / "serve.log") as url:
            yield url
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(autouse=True)
def _patient_expect():
    """Assertions wait long enough for a busy two-core machine: a tap may take seconds to come back
    while other jobs run. (Set per test: a module-level setting holds only for the module imported last.)"""
    from playwright.sync_api import expect

    expect.set_options(timeout=30_000)
    yield


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site, rebuilt only when its sources changed since the last build."""
    return up_to_date_site()


@pytest.fixture(scope="session")
def server(site):
    """build.py's own server over the built site."""
    srv = Server(site)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def site_url(request) -> str:
    """The built site's address (``KOSTKA_APP_URL`` points the tests at another copy of the app)."""
    return os.environ.get("KOSTKA_APP_URL") or request.getfixturevalue("server").url


@pytest.fixture
def tablet(browser):
    """A page in a touch tablet's window held upright (768×1024), its own context closed afterwards."""
    context = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True)
    page = context.new_page()
    yield page
    context.close()
