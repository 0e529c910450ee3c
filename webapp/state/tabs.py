"""What another tab of the app stored, merged into this one's state. No Panel import.

The app may be open in two tabs of one browser (a player opens a shared link while it is open),
and both keep their characters, log, session and numbering in the same storage. When one writes,
the other takes it in here (:func:`merge_from_tab`), from the text it last knew the storage held
(the *base*), so that neither tab's characters, rolls or numbers are written over: characters by
:meth:`~.app.AppState.merge_stored`, the log by :meth:`~.log.RollLog.merge_storage`, the session's
running numbers by :meth:`~.session.SessionState.merge`, the numbering by :func:`~.merge.merge_sets`.
Where both tabs changed the same field this tab's value stays and the other tab's whole text is
kept aside (``kostka.backup.<time>.<what>``), for the page to say so and offer to bring it back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import InputError

from .links import MAX_SEEN, NUMBERING_KEY, read_numbering
from .merge import merge_sets
from .stored import KEY_CHARACTERS, KEY_DRAFTS, KEY_LOG, KEY_SESSION, copy_aside

__all__ = ["TabMerge", "merge_from_tab"]


@dataclass
class TabMerge:
    """What the store should hold after a merge, besides what the state saves by itself."""

    #: Keys to take as the other tab wrote them (this tab had nothing of its own there), and
    #: backups of what the other tab wrote where this tab's values were kept.
    values: dict[str, str] = field(default_factory=dict)
    #: The keys whose other text was kept aside (a backup key in :attr:`values`).
    kept_aside: list[str] = field(default_factory=list)


def merge_from_tab(
    state: Any, share: Any, base: Mapping[str, str], theirs: Mapping[str, str], stored: Mapping[str, str], stamp: str
) -> TabMerge:
    """Take in what another tab stored (``theirs``; ``base``: what this tab last knew, ``stored``:
    what this tab last gave the store). Never raises: what cannot be read is kept aside."""
    out = TabMerge()

    def keep(key: str) -> None:
        kept = copy_aside({**stored, **out.values, key: theirs[key]}, key, stamp)
        out.values.update({k: v for k, v in kept.items() if k != key and k not in stored and k not in out.values})
        out.kept_aside.append(key)

    for key, text in theirs.items():
        before = base.get(key, "")
        if not text or text == before:
            continue  # emptied there (nothing to take: this tab's is written back) or unchanged
        try:
            if key == KEY_CHARACTERS:
                if state.merge_stored(before, text):
                    keep(key)
            elif key == KEY_LOG:
                state.rolls.log.merge_storage(before, text)
            elif key == KEY_SESSION:
                share.session.merge(before, text)
            elif key == NUMBERING_KEY:
                ours = list(share.seen)
                merged = merge_sets(_numbering(before), ours, read_numbering(text))
                if merged != ours:
                    share.seen = merged[-MAX_SEEN:]
            elif key == KEY_DRAFTS:
                # texts being typed there: kept while this tab types nothing (its own are written with its characters)
                if not state.storage_texts()[1]:
                    out.values[key] = text
            else:  # the language and theme chosen there: this tab keeps its own, and does not write it back
                out.values[key] = text
        except InputError:
            keep(key)  # not readable here: kept aside before this tab's own is written over it
        except Exception:  # noqa: BLE001 - whatever it was, the other tab's text is kept
            keep(key)
    return out


def _numbering(text: str) -> list[str]:
    try:
        return read_numbering(text) if text else []
    except InputError:
        return []
