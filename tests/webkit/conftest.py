"""Fixtures of the WebKit tests: the built site (``site``), a virtual screen (``webkit_screen``) and
WebKitGTK's MiniBrowser on it, driven by Debian's WebKitWebDriver through Selenium (``webkit``).

The MiniBrowser has no headless mode: it draws on an Xvfb screen started here, so that a plain
``python -m pytest`` runs these tests. Without the driver or Xvfb they are skipped, except in CI
(``CI`` set), which installs both (``.ci/run``): there they fail."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "e2e"))  # pages.py: the site, its server
from pages import up_to_date_site  # noqa: E402

DRIVER = "/usr/bin/WebKitWebDriver"  # Debian's webkit2gtk-driver
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"  # Debian's libwebkit2gtk-4.1-0
XVFB = "Xvfb"  # Debian's xvfb
# Taller than the tablet's window with its toolbar (1024 + the browser's own), so that nothing is cut.
SCREEN = "1280x1200x24"
WIDTH, HEIGHT = 768, 1024  # a tablet held upright: the page's own size (innerWidth × innerHeight)


def missing(what: str, package: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing: install Debian's {package} package")
    pytest.skip(f"{what} is missing: apt-get install {package}")


@contextmanager
def virtual_screen(log: Path) -> Iterator[str]:
    """Xvfb on a display number it picks itself (one that is free); yields the DISPLAY to draw on,
    and stops it afterwards."""
    read, write = os.pipe()
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    os.close(write)
    try:
        number = b""
        deadline = time.monotonic() + 60
        while not number.endswith(b"\n"):  # the display number, once the screen is up
            ready, _, _ = select.select([read], [], [], max(0.0, deadline - time.monotonic()))
            chunk = os.read(read, 16) if ready else b""
            if not chunk:
                raise RuntimeError(f"Xvfb did not start:\n{log.read_text(errors='replace')[-2000:]}")
            number += chunk
        yield f":{number.decode().strip()}"
    finally:
        os.close(read)
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site, rebuilt only when its sources changed since the last build."""
    return up_to_date_site()


@pytest.fixture(scope="session")
def webkit_screen(tmp_path_factory) -> Iterator[str]:
    if not os.path.exists(DRIVER):
        missing(DRIVER, "webkit2gtk-driver")
    if not os.path.exists(MINIBROWSER):
        missing(MINIBROWSER, "libwebkit2gtk-4.1-0")
    if not shutil.which(XVFB):
        missing(XVFB, "xvfb")
    try:
        with virtual_screen(tmp_path_factory.mktemp("xvfb") / "xvfb.log") as display:
            yield display
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def webkit(webkit_screen, tmp_path_factory):
    """One MiniBrowser for the module, its page 768×1024. Its profile lives as long as it does
    (storage, caches and service workers start empty, and nothing is kept on disk afterwards)."""
    options = Options()
    options.binary_location = MINIBROWSER
    options.add_argument("--automation")
    log = tmp_path_factory.mktemp("webkit") / "driver.log"
    service = Service(executable_path=DRIVER, env={**os.environ, "DISPLAY": webkit_screen}, log_output=str(log))
    with warnings.catch_warnings():  # Selenium's own way of making this driver, which it has deprecated
        warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
        driver = webdriver.WebKitGTK(options=options, service=service)
    try:
        # The window's size counts the browser's own toolbar: add what it takes. (The window takes its
        # new size a moment after the driver has answered.)
        sizes = "return [innerWidth, innerHeight, outerWidth, outerHeight]"
        driver.set_window_size(WIDTH, HEIGHT)
        WebDriverWait(driver, 30).until(lambda d: d.execute_script(sizes)[2:] == [WIDTH, HEIGHT])
        inner_width, inner_height, outer_width, outer_height = driver.execute_script(sizes)
        driver.set_window_size(WIDTH + outer_width - inner_width, HEIGHT + outer_height - inner_height)
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script(sizes)[:2] == [WIDTH, HEIGHT],
            f"the page is not {WIDTH}×{HEIGHT}: {driver.execute_script(sizes)} (inner, outer)",
        )
        yield driver
    finally:
        driver.quit()
