"""Several characters of one system (:class:`Roster`), and the names given beside a namesake. No Panel import."""

from __future__ import annotations

import re
from typing import Any

import param

from engine import InputError

from .drafts import Sheet, sheet
from .forms import MAX_CHARACTERS, MAX_NAME, Form, as_form, input_names

__all__ = ["Roster", "name_beside", "same_character", "too_many"]


class Roster(param.Parameterized):
    """Several characters of one system as stored dicts, and which one is on the form.

    Each character is kept as the form holds it (texts); the one on the form, as it changes, is a
    :class:`~.drafts.Sheet` that also carries its last valid values (:meth:`valid`, what the stored
    document holds) and the texts still being typed (:meth:`drafts`)."""

    characters = param.List(default=[])
    current = param.Integer(default=0, bounds=(0, None))
    removed = param.Parameter(default=None, doc="(index, character) of the last deleted character, for Undo")
    selected = param.Event(doc="A character was put on the form (chosen, added, loaded, imported or brought back)")

    def __init__(self, form: Form, **params: Any) -> None:
        super().__init__(**params)
        self.form = form
        if not self.characters:
            self.characters = [form.to_dict()]
        self.form.param.watch(self._store_current, input_names(self.form))

    def _store_current(self, *events: Any) -> None:
        if any(e.name != "errors" for e in events):
            chars = list(self.characters)
            if self.current < len(chars):
                chars[self.current] = sheet(type(self.form), self.form.to_dict(), chars[self.current])
                self.characters = chars

    def sheets(self) -> list[Sheet]:
        """The characters as :class:`~.drafts.Sheet` (a character stored as plain texts is checked once)."""
        chars = self.characters
        for i, char in enumerate(chars):
            if not isinstance(char, Sheet):
                chars[i] = sheet(type(self.form), char)  # the same texts: a cache, not a change
        return list(chars)

    def to_document(self) -> dict[str, Any]:
        """The roster as a characters document holds it: each character's last valid values."""
        return {"current": self.current, "characters": [c.valid for c in self.sheets()]}

    def drafts(self) -> list[dict[str, Any]]:
        """Per character, the texts still being typed that :meth:`to_document` cannot hold."""
        return [c.drafts for c in self.sheets()]

    def apply_drafts(self, drafts: list[dict[str, Any] | None]) -> None:
        """Put texts still being typed (:func:`~.drafts.read_drafts`) back over the loaded characters."""
        chars = self.sheets()
        for i, draft in enumerate(drafts[: len(chars)]):
            if draft:
                typed = as_form(type(self.form), {**chars[i], **draft})
                chars[i] = Sheet(type(self.form), typed, chars[i].valid)
        self.characters = chars
        self.select(self.current)

    def names(self) -> list[str]:
        return [str(c.get("name") or "") for c in self.characters]

    def select(self, index: int) -> None:
        if not 0 <= index < len(self.characters):
            return
        self.current = index
        fresh = type(self.form)()
        self.form.load({**fresh.to_dict(), **self.characters[index]})
        self.selected = True

    def _blank(self, data: Any) -> bool:
        """Whether ``data`` is a character still as a new one starts (nothing filled in)."""
        return as_form(type(self.form), data) == type(self.form)().to_dict()

    def is_blank(self) -> bool:
        """Whether the character on the form is still as a new one starts."""
        return self._blank(self.form.to_dict())

    def add(self) -> None:
        """Put a new character on the form; raises InputError (nothing changed) when the roster is full."""
        if len(self.characters) >= MAX_CHARACTERS:
            raise too_many(len(self.characters), 1)
        fresh = type(self.form)().to_dict()
        self.characters = [*self.characters, fresh]
        self.select(len(self.characters) - 1)

    def remove(self) -> None:
        """Delete the character on the form; :meth:`undo_remove` brings it back."""
        chars = list(self.characters)
        self.removed = (self.current, chars[self.current].copy() if self.current < len(chars) else {})
        if len(chars) <= 1:
            chars = [type(self.form)().to_dict()]
        else:
            del chars[self.current]
        self.characters = chars
        self.current = min(self.current, len(chars) - 1)
        self.select(self.current)

    def undo_remove(self) -> None:
        """Put the last deleted character back where it was, and on the form."""
        if self.removed is None:
            return
        index, char = self.removed
        self.removed = None
        chars = list(self.characters)
        if len(chars) == 1 and self._blank(chars[0]):
            chars = []  # the blank character that took the place of the only one
        index = min(index, len(chars))
        chars.insert(index, char)
        self.characters = chars[:MAX_CHARACTERS]
        self.select(min(index, len(self.characters) - 1))

    def to_dict(self) -> dict[str, Any]:
        return {"current": self.current, "characters": list(self.characters)}

    def load(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("characters"), list):
            return
        chars = [c for c in data["characters"] if isinstance(c, dict)][:MAX_CHARACTERS]
        if not chars:
            return
        self.characters = chars
        current = data.get("current", 0)
        self.select(current if isinstance(current, int) and 0 <= current < len(chars) else 0)

    def to_import(self, chars: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """What :meth:`import_characters` would make of the roster: the characters kept and those added.

        Blank characters (as a new one starts) and characters already in the roster are not
        added again; the roster's only character, while still blank, makes way for them. A name
        already in use gets a number ("Tilda (2)"), so no character hides another. The count is
        not bounded here: :meth:`import_characters` refuses what does not fit."""
        form_class = type(self.form)
        fresh = form_class().to_dict()
        existing = list(self.characters)
        known = [as_form(form_class, c) for c in existing]
        incoming = [as_form(form_class, c) if isinstance(c, dict) else None for c in chars]
        if len(existing) == 1 and known[0] == fresh and fresh not in incoming:
            existing, known = [], []
        taken = [str(c.get("name") or "") for c in existing]
        added: list[dict[str, Any]] = []
        for char, shown in zip(chars, incoming, strict=False):
            if shown is None or shown == fresh or shown in known:
                continue
            name = name_beside(shown.get("name", ""), taken)
            taken.append(name)
            known.append(shown)
            added.append({**char, "name": name})
        return existing, added

    def import_characters(self, chars: list[dict[str, Any]]) -> int:
        """Add imported characters (:meth:`to_import`); returns how many were added. Raises
        InputError (nothing added) when the roster would hold more than it keeps: a file is taken
        whole or not at all, so nothing of it is dropped unsaid."""
        existing, added = self.to_import(chars)
        if len(existing) + len(added) > MAX_CHARACTERS:
            raise too_many(len(existing), len(added))
        if added:
            self.characters = [*existing, *added]
            self.select(len(self.characters) - 1)
        return len(added)


def same_character(stored: dict[str, Any], incoming: dict[str, Any]) -> bool:
    """Whether ``incoming`` is ``stored``: the same values, and the same name or the name it was
    given beside a namesake ("Tilda (2)" for a "Tilda" opened again)."""
    if stored == incoming:
        return True
    name, other = str(incoming.get("name", "")), str(stored.get("name", ""))
    match = re.fullmatch(r"(.*) \((\d+)\)", other)
    if not name or match is None:
        return False
    stem = match.group(1)
    # the stem is the name, or the name cut short to make room for the number
    return (stem == name or (name.startswith(stem) and len(other) >= MAX_NAME - 1)) and {
        **stored,
        "name": name,
    } == incoming


def name_beside(name: str, taken: list[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``… when already in ``taken`` (an empty name stays empty)."""
    if not name or name not in taken:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        n += 1


def too_many(kept: int, added: int) -> InputError:
    """The refusal of characters that do not fit a roster: ``kept`` there, ``added`` coming."""
    return InputError(
        "characters",
        "range",
        f"{kept} + {added} characters: a system keeps at most {MAX_CHARACTERS}",
        kind="room",
        value=kept + added,
        high=MAX_CHARACTERS,
        room=max(0, MAX_CHARACTERS - kept),
        added=added,
    )
