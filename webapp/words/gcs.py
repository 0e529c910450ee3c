"""The message of a GCS sheet's import: how many came across and what was left out, or why it was refused.

No Panel import.
"""

from __future__ import annotations

from typing import Any

from engine.documents import MAX_ROWS
from engine.gcs import MAX_SOURCE_TEXT

from ..i18n import N_, Translator, error_text
from .messages import room_text

__all__ = ["gcs_error_text", "gcs_message"]

#: At most this many left-out rows are named in the message (the rest are counted).
MAX_LISTED = 20
_REASONS = {
    "no-level": N_("no computed level"),
    "range": N_("outside what the sheet holds"),
    "type": N_("not a number"),
}


def gcs_message(tr: Translator, count: int, skipped: tuple[tuple[str, str], ...]) -> str:
    """The import's message (plain text): how many came across and each row or value left out, with why."""
    text = tr(N_("Imported characters: {n}"), n=count)
    if not skipped:
        return text
    parts = []
    for what, reason in skipped[:MAX_LISTED]:
        if reason == "rows":
            why = tr(N_("more than {n} rows"), n=MAX_ROWS)
        elif reason == "long":
            why = tr(N_("a name longer than {n} characters"), n=MAX_SOURCE_TEXT)
        else:
            why = tr(_REASONS.get(reason, N_("not a number")))
        parts.append(f"{what} ({why})")
    rest = len(skipped) - MAX_LISTED
    if rest > 0:
        parts.append(tr.ngettext("and {n} more row", "and {n} more rows", rest))
    return text + ". " + tr(N_("Left out: {rows}."), rows="; ".join(parts))


def gcs_error_text(tr: Translator, error: Any) -> str:
    """Why a GCS sheet was refused, in words a player understands."""
    params = getattr(error, "params", {}) or {}
    if params.get("kind") == "room":
        return room_text(tr, params)
    if params.get("reason") == "old-gcs":
        return tr(N_("This sheet is from an older GCS: re-save it in a current GCS and import it again."))
    if getattr(error, "field", "") == "gcs":
        return tr(N_("This is not a character sheet saved by GCS 5."))
    return error_text(tr, error)
