"""Python run as the browser's worker runs a tap."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from webapp.views import common


def in_the_worker(monkeypatch: Any, tap: Callable[[], Awaitable[Any]]) -> Any:
    """Run ``tap`` (a coroutine function) as the browser's worker runs a tap: with each change sent
    as made, on an event loop of its own (a thread's: a test before may have left one running)."""
    monkeypatch.setattr(common, "SENT_AS_MADE", True)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, tap()).result()
