"""Reading what the browser stored, all or nothing per item, never losing any of it.

Each stored item (the characters, the session code, the roll log) is read whole or not at all
(the characters are a Kostka characters document, or the app's early format, migrated as read; the
texts still being typed on them are their drafts, :mod:`.drafts`, read whole with them or kept aside):

- an item that cannot be read (not JSON, nested too deeply, another format) is copied to
  ``kostka.backup.<time>.<what>`` and emptied, and the app starts clean for it;
- an item that can be read but not kept whole (a value the form cannot hold as it was stored: a
  number of 400 digits, a name with a control character, more characters than a roster keeps) is
  copied aside the same way *before* anything is saved over it, and the rest is loaded.

Either way the page says so (:attr:`StoredRead.kept`, :attr:`StoredRead.partial`), and nothing that
was stored is written over until it has been read or copied aside. Nothing here raises: an
unexpected failure keeps the item aside too. No Panel import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine import InputError
from engine.documents import parse_json, read_document

from .fight import MonsterSheet
from .forms import as_form

__all__ = [
    "BACKUP_PREFIX",
    "KEY_CHARACTERS",
    "KEY_CHARACTERS_BAD",
    "KEY_DRAFTS",
    "KEY_LANG",
    "KEY_LOG",
    "KEY_SESSION",
    "KEY_THEME",
    "StoredRead",
    "copy_aside",
    "faithful",
    "keep_aside",
    "read_stored",
]

#: The browser storage's keys (the numbering's is :data:`webapp.state.links.NUMBERING_KEY`).
KEY_LANG = "kostka.lang"
KEY_THEME = "kostka.theme"
KEY_CHARACTERS = "kostka.characters"
KEY_CHARACTERS_BAD = "kostka.characters.unreadable"
KEY_DRAFTS = "kostka.drafts"  # the texts still being typed that the characters document cannot hold
KEY_SESSION = "kostka.session"
KEY_LOG = "kostka.log"
#: Unreadable stored data is copied to ``kostka.backup.<time stamp>.<what>``.
BACKUP_PREFIX = "kostka.backup."


def _backup_key(values: dict[str, str], key: str, stamp: str) -> str:
    name = key[len("kostka.") :] if key.startswith("kostka.") else key
    backup = f"{BACKUP_PREFIX}{stamp}.{name}"
    while backup in values:
        backup += "+"
    return backup


def copy_aside(values: dict[str, str], key: str, stamp: str) -> dict[str, str]:
    """``values`` with the text under ``key`` also copied to a backup key (``key`` kept)."""
    return {**values, _backup_key(values, key, stamp): values.get(key, "")}


def keep_aside(values: dict[str, str], key: str, stamp: str) -> dict[str, str]:
    """``values`` with the text under ``key`` copied to a backup key and ``key`` emptied (removed)."""
    return {**copy_aside(values, key, stamp), key: ""}


@dataclass
class StoredRead:
    """The storage values to write back (backups added) and what could not be read whole."""

    values: dict[str, str]
    #: Keys that could not be read at all: copied aside and emptied.
    kept: list[str] = field(default_factory=list)
    #: Keys read in part: copied aside, the readable rest loaded.
    partial: list[str] = field(default_factory=list)


def _row_text(rows: Any, number_key: str) -> Any:
    if not isinstance(rows, list):
        return None
    out = []
    for row in rows:
        if not isinstance(row, dict) or set(row) - {"name", number_key}:
            return None
        out.append({k: _plain(row.get(k, "")) for k in ("name", number_key)})
    return out


def _plain(value: Any) -> Any:
    """A stored value as the form holds it when it can hold it exactly, else None."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value) if value.bit_length() < 600 else None
    if isinstance(value, str):
        return value
    return None


def faithful(form_class: type, raw: Any) -> bool:
    """Whether a stored character ``raw`` loads into a ``form_class`` form with nothing lost."""
    if not isinstance(raw, dict):
        return False
    shown = as_form(form_class, raw)
    for key, value in raw.items():
        if key not in shown:
            return False
        if key in ("skills", "modifiers"):
            expected = _row_text(value, "level" if key == "skills" else "value")
        elif key == "name":
            expected = value if isinstance(value, str) else None
        else:
            expected = _plain(value)
        if expected is None or shown[key] != expected:
            return False
    return True


def _characters_kept_whole(state: Any, data: Any) -> bool:
    parts = [(state.rosters[name], roster) for name, roster in data.get("systems", {}).items() if name in state.rosters]
    if isinstance(data.get("monsters"), dict):
        parts.append((state.monsters, data["monsters"]))
    if set(data.get("systems", {})) - set(state.rosters):
        return False
    for roster, stored in parts:
        chars = stored.get("characters") if isinstance(stored, dict) else None
        if chars == []:
            continue  # nothing stored: the roster keeps its blank character
        if not isinstance(chars, list) or len(chars) != len(roster.characters):
            return False
        form_class = MonsterSheet if roster is state.monsters else type(roster.form)
        if not all(faithful(form_class, c) for c in chars):
            return False
    return True


def read_stored(
    state: Any,
    session: Any,
    values: dict[str, str],
    stamp: str,
    characters_key: str,
    session_key: str,
    log_key: str | None = None,
    drafts_key: str | None = None,
) -> StoredRead:
    """Apply the stored characters (and the texts still being typed on them, under ``drafts_key``),
    session and roll log to ``state`` and ``session``; never raises."""
    out = StoredRead(dict(values))
    text = out.values.get(characters_key, "")
    whole = False
    if text:
        before = state.characters_json()
        try:
            doc = read_document(text, kind="characters", lenient=True)  # size and nesting checked before parsing
            state.load_characters(text)
            data = parse_json(text)
            # an early text keeps half-typed values as typed (read as they were); a document has none
            early = isinstance(data, dict) and data.get("format") == "kostka-characters"
            whole = (early or not doc.problems) and _characters_kept_whole(state, data)
            if not whole:
                out.values = copy_aside(out.values, characters_key, stamp)
                out.partial.append(characters_key)
        except Exception as error:  # noqa: BLE001 - whatever it was, the stored text is kept
            if not isinstance(error, InputError):
                try:
                    state.load_characters(before)
                except Exception:  # noqa: BLE001
                    pass
            out.values = keep_aside(out.values, characters_key, stamp)
            out.kept.append(characters_key)
    drafts = out.values.get(drafts_key, "") if drafts_key else ""
    if drafts and drafts_key:
        try:
            if not whole:  # characters read in part or not at all: the drafts' places are not known
                raise InputError("drafts", "format", "the characters they go with were not read whole")
            state.load_drafts(drafts, text)
        except Exception:  # noqa: BLE001 - kept aside, never applied in part
            out.values = keep_aside(out.values, drafts_key, stamp)
            if characters_key not in out.kept + out.partial:  # said as characters read in part
                if text:
                    out.values = copy_aside(out.values, characters_key, stamp)
                out.partial.append(characters_key)
    text = out.values.get(session_key, "")
    if text:
        try:
            session.load(text)
        except Exception:  # noqa: BLE001
            out.values = keep_aside(out.values, session_key, stamp)
            out.kept.append(session_key)
    text = out.values.get(log_key, "") if log_key else ""
    if text:
        log = state.rolls.log
        try:
            if not log.load_storage(text):
                out.values = copy_aside(out.values, log_key, stamp)
                out.partial.append(log_key)
        except Exception:  # noqa: BLE001
            out.values = keep_aside(out.values, log_key, stamp)
            out.kept.append(log_key)
    return out
