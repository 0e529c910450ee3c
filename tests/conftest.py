"""Shared test configuration: hypothesis profiles and the headless Chromium launch."""

from __future__ import annotations

import os
import shutil

import pytest
from browsing import CHROMIUM, launch_options
from hypothesis import HealthCheck, settings

settings.register_profile("default", max_examples=200, deadline=None)
settings.register_profile("ci", max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Use Debian's chromium (never a downloaded browser) with flags that suit a closed network."""
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    return {**browser_type_launch_args, **launch_options()}
