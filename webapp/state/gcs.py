"""*Import characters* for sheets saved by GURPS Character Sheet (``.gcs``).

The sheet is read by :func:`engine.gcs.read_gcs` and added through the same
door as Kostka's own files (:func:`webapp.state.links.import_characters`), so
it meets the same limits and validation; the message that says what came
across is :mod:`webapp.words.gcs`'s. No Panel import.
"""

from __future__ import annotations

from typing import Any

from engine.gcs import read_gcs

from .links import import_characters

__all__ = ["import_gcs", "is_gcs"]


def is_gcs(filename: Any, data: Any) -> bool:
    """Whether an imported file is a GCS sheet: by its name, or by a GCS-like start when the name is unknown."""
    if isinstance(filename, str) and filename:
        return filename.lower().endswith(".gcs")
    head = bytes(data[:400]) if isinstance(data, (bytes, bytearray)) else b""
    return b'"format"' not in head and (b'"version": 5' in head or head.lstrip().startswith(b"<?xml"))


def import_gcs(state: Any, data: Any) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Add the GURPS character of a GCS sheet; returns (characters added, what was left out). Raises InputError, nothing changed."""
    result = read_gcs(data)
    count = import_characters(state, result.document().encode("utf-8"))
    return count, result.skipped
