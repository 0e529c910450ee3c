"""*Import characters* for sheets saved by GURPS Character Sheet (``.gcs``).

The sheet is read by :func:`engine.gcs.read_gcs` and added through the same
door as Kostka's own files (:func:`webapp.state.links.import_characters`), so
it meets the same limits and validation; the message that says what came
across is :mod:`webapp.words.gcs`'s. No Panel import.
"""

from __future__ import annotations

from typing import Any

from engine import InputError
from engine.documents import parse_json
from engine.gcs import read_gcs

from .links import import_characters

__all__ = ["import_gcs", "is_gcs"]


def is_gcs(filename: Any, data: Any) -> bool:
    """Whether an imported file is a GCS sheet, by what it holds: GCS's JSON (a ``version`` and no
    Kostka ``format``) or an older GCS's XML. Only a file whose content says neither (not JSON, not
    an object) is told by its name, for the message that refuses it.

    The content decides first because a file chooser's name and content may arrive apart: a name
    beside the content may still be the previous file's."""
    raw = bytes(data) if isinstance(data, (bytes, bytearray)) else b""
    if raw[:200].lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml"):
        return True
    try:
        parsed = parse_json(raw)
    except InputError:
        parsed = None
    if isinstance(parsed, dict):
        if "format" in parsed:
            return False
        if "version" in parsed:
            return True
    return isinstance(filename, str) and filename.lower().endswith(".gcs")


def import_gcs(state: Any, data: Any) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Add the GURPS character of a GCS sheet; returns (characters added, what was left out). Raises InputError, nothing changed."""
    result = read_gcs(data)
    count = import_characters(state, result.document().encode("utf-8"))
    return count, result.skipped
