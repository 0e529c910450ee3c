"""A stored character as the form holds it, its last valid values, and the half-typed text beside them.

A form keeps what was typed (``"-"`` on the way to ``"-2"``, ``"25"`` above a bound); a Kostka
characters document (:mod:`engine.documents`) can only hold valid values. So each character a
roster keeps is a :class:`Sheet`: the form's texts, with :attr:`Sheet.valid`, the character as
the document holds it (:func:`engine.documents.validate_character`), where a field being typed
keeps its **last valid value** (:func:`last_valid`), and :attr:`Sheet.drafts`, the texts the
document cannot say (those the form would not show if loaded from the document alone).

The browser stores the document under ``kostka.characters`` (exactly what Export writes) and the
drafts under their own key, ``kostka.drafts`` (:func:`drafts_json`, :func:`read_drafts`), rather
than inside the document: the stored document stays one that a strict
:func:`engine.documents.read_document` accepts and that is the same as an exported file, and the
drafts are a small layer over it that names the document text it goes with (``"characters"``, a
digest of that text). A document changed without its drafts (by hand, or another tool) is never
given someone else's half-typed text: drafts that do not match are kept aside, not applied.

Drafts are ``{"version": 1, "characters": digest, "systems": {system: [draft | null, ...]},
"monsters": [draft | null, ...]}``, one entry per character in the document's order, a draft
being ``{field: text}`` (``"skills"``: the rows as typed). No Panel import.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from engine import InputError
from engine.documents import MAX_CHARACTERS, MAX_ROWS, read_json, validate_character

from .forms import as_form

__all__ = [
    "DRAFTS_VERSION",
    "MAX_DRAFTS_TEXT",
    "ROW_FIELDS",
    "Sheet",
    "digest",
    "drafts_json",
    "last_valid",
    "read_drafts",
    "sheet",
]

DRAFTS_VERSION = 1
#: Drafts are texts of forms: bounded well below a document (checked before parsing).
MAX_DRAFTS_TEXT = 2_000_000
_MAX_DEPTH = 6  # drafts > systems > roster list > draft > rows > row
_MAX_FIELD_TEXT = 200  # what a form field keeps (forms.form_text)
#: The fields that are lists of rows, and each row's fields.
ROW_FIELDS = {"skills": ("name", "level"), "modifiers": ("name", "value")}


def _system(form_class: type) -> str:
    return str(form_class.system)  # type: ignore[attr-defined]


def _validated(system: str, data: dict[str, Any]) -> dict[str, Any]:
    try:
        return validate_character(system, data, problems=[])
    except InputError:  # not an object: nothing valid
        return {}


def _rows(typed: list[Any], checked: list[Any], previous: Any) -> list[Any]:
    """Rows as the document holds them: a row's bad value keeps the previous one, when the row at the
    same place had the same name before (a row added or removed in between lends nothing)."""
    if not isinstance(previous, list):
        return checked
    out = []
    for i, row in enumerate(checked):
        before = previous[i] if i < len(previous) else None
        if isinstance(before, dict) and i < len(typed) and before.get("name") == row.get("name"):
            row = {k: row[k] if k in row else before[k] for k in typed[i] if k in row or k in before}
        out.append(row)
    return out


def last_valid(system: str, typed: dict[str, Any], previous: dict[str, Any] | None) -> dict[str, Any]:
    """The character ``typed`` (form texts) as a document holds it: each valid field as typed, a field
    still being typed as it was last valid (in ``previous``), else left out (the sheet's default)."""
    checked = _validated(system, typed)
    if not previous:
        return checked
    merged: dict[str, Any] = {}
    for key, value in typed.items():
        if key in ROW_FIELDS and isinstance(value, list) and isinstance(checked.get(key), list):
            merged[key] = _rows(value, checked[key], previous.get(key))
        elif key in checked:
            merged[key] = checked[key]
        elif key in previous:
            merged[key] = previous[key]
    if merged == checked:
        return checked
    return _validated(system, merged)  # a current value lent from before may now be above its maximum


class Sheet(dict):  # type: ignore[type-arg]
    """A character as the form holds it (a dict of texts), carrying :attr:`valid` and :attr:`drafts`.

    Equal to the plain dict of the same texts: only the roster and the storage look further."""

    __slots__ = ("_drafts", "form_class", "valid")

    def __init__(self, form_class: type, typed: dict[str, Any], valid: dict[str, Any]) -> None:
        super().__init__(typed)
        self.form_class = form_class
        self.valid = valid
        self._drafts: dict[str, Any] | None = None

    @property
    def drafts(self) -> dict[str, Any]:
        """The texts of this character that the document alone would not bring back to the form."""
        if self._drafts is None:
            shown = as_form(self.form_class, self.valid)
            self._drafts = {k: v for k, v in self.items() if k in shown and shown[k] != v}
        return self._drafts

    def copy(self) -> Sheet:
        return Sheet(self.form_class, dict(self), self.valid)


def sheet(form_class: type, typed: Any, previous: Any = None) -> Sheet:
    """``typed`` (a character as the roster keeps it) as a :class:`Sheet`; its last valid values from
    ``previous`` (the same character before this change: a :class:`Sheet`, or none)."""
    if isinstance(typed, Sheet) and previous is None:
        return typed
    if isinstance(previous, Sheet):
        before = previous.valid
    else:
        before = last_valid(_system(form_class), previous, None) if isinstance(previous, dict) else None
    data = dict(typed) if isinstance(typed, dict) else {}
    return Sheet(form_class, data, last_valid(_system(form_class), data, before))


def digest(text: str) -> str:
    """A short digest of the stored document text that drafts go with."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _draft_list(roster: Any) -> list[dict[str, Any] | None]:
    out = [c.drafts or None if isinstance(c, Sheet) else None for c in roster.characters]
    while out and out[-1] is None:
        out.pop()
    return out


def drafts_json(rosters: dict[str, Any], monsters: Any, characters_text: str) -> str:
    """The drafts of every roster, for ``characters_text`` (the stored document); ``""`` when there are none."""
    systems = {name: drafts for name, roster in rosters.items() if (drafts := _draft_list(roster))}
    monster_drafts = _draft_list(monsters)
    if not systems and not monster_drafts:
        return ""
    data: dict[str, Any] = {"version": DRAFTS_VERSION, "characters": digest(characters_text), "systems": systems}
    if monster_drafts:
        data["monsters"] = monster_drafts
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _bad(why: str) -> InputError:
    return InputError("drafts", "format", why)


def _text(value: Any) -> str:
    if not isinstance(value, str) or len(value) > _MAX_FIELD_TEXT:
        raise _bad("a draft is not a form's text")
    return value


def _draft(form_class: type, value: Any) -> dict[str, Any]:
    """One character's draft, checked against the form's fields; raises InputError."""
    if not isinstance(value, dict) or not value:
        raise _bad("a draft is not an object of fields")
    fields = as_form(form_class, {})
    out: dict[str, Any] = {}
    for key, text in value.items():
        if key not in fields:
            raise _bad("a draft names a field the form does not have")
        if key in ROW_FIELDS:
            if not isinstance(text, list) or len(text) > MAX_ROWS:
                raise _bad("a draft's rows are not rows")
            rows = []
            for row in text:
                if not isinstance(row, dict) or set(row) - set(ROW_FIELDS[key]):
                    raise _bad("a draft's row is not a row")
                rows.append({k: _text(v) for k, v in row.items()})
            out[key] = rows
        elif isinstance(fields[key], bool):
            if not isinstance(text, bool):
                raise _bad("a draft's switch is not true or false")
            out[key] = text
        else:
            out[key] = _text(text)
    return out


def _roster_drafts(form_class: type, value: Any, count: int) -> list[dict[str, Any] | None]:
    if not isinstance(value, list) or len(value) > min(count, MAX_CHARACTERS):
        raise _bad("the drafts of a roster are not one per character")
    return [None if item is None else _draft(form_class, item) for item in value]


def read_drafts(
    text: str, characters_text: str, rosters: dict[str, Any], monsters: Any
) -> dict[str, list[dict[str, Any] | None]]:
    """Stored drafts, checked whole against the rosters as loaded from ``characters_text``; raises
    InputError (nothing applied) when they are not drafts of that very document.

    Returns roster name (``"monsters"`` for the monsters) -> drafts, one per character or None."""
    data = read_json(text, "drafts", max_depth=_MAX_DEPTH, max_length=MAX_DRAFTS_TEXT)
    if not isinstance(data, dict) or set(data) - {"version", "characters", "systems", "monsters"}:
        raise _bad("the drafts have the wrong shape")
    if data.get("version") != str(DRAFTS_VERSION):  # read_json keeps numbers as their text
        raise _bad("the drafts are of another version")
    if data.get("characters") != digest(characters_text):
        raise _bad("the drafts go with other stored characters")
    systems = data.get("systems")
    if not isinstance(systems, dict) or set(systems) - set(rosters):
        raise _bad("the drafts name a system the app does not have")
    out = {
        name: _roster_drafts(type(rosters[name].form), value, len(rosters[name].characters))
        for name, value in systems.items()
    }
    if "monsters" in data:
        out["monsters"] = _roster_drafts(type(monsters.form), data["monsters"], len(monsters.characters))
    return out
