"""Session numbering: the game master's session code and the running number of each roll.

Once the session code is set, every roll takes the next running number of its
(session code, character) pair and its seed is :func:`engine.links.session_roll_seed`
of both (a secret roll takes a number too, but a fresh random seed, or everyone
holding the code could open it). :class:`SessionState` keeps the last number of
each pair; it is stored in the browser so a reload does not start again at 1.
No Panel import.
"""

from __future__ import annotations

import json
from typing import Any

import param

from engine import InputError, links
from engine.documents import parse_json
from engine.errors import check_int

__all__ = ["MAX_PAIRS", "SessionState", "read_session"]

#: Entries kept in the stored numbering (pairs of session code and character).
MAX_PAIRS = 200


def _key(code: str, name: str) -> str:
    return f"{code}\u0000{name}"


def _same_character(key: str, code: str, character: str) -> bool:
    """Whether a stored ``code\\0name`` key is ``code``'s numbering of the name whose skeleton is ``character``."""
    stored_code, _, name = key.partition("\u0000")
    return stored_code == code and links.name_key(name) == character


class SessionState(param.Parameterized):
    """The game master's session code and the last running number of each (code, character)."""

    code = param.String(default="", doc="The session code ('' when rolls are not numbered)")
    numbers = param.Dict(default={}, doc="'code\\0name' -> last number used")

    def set_code(self, text: Any) -> str:
        """Set the code from what was typed ('' turns numbering off); raises InputError when unusable."""
        if text is None or (isinstance(text, str) and not text.strip()):
            self.code = ""
            return ""
        code = links.clean_text("session_code", text, links.MAX_CODE_LENGTH, links.MAX_CODE_BYTES, required=True)
        self.code = code
        return code

    def next_number(self, name: str) -> int:
        """Take the next running number for ``name`` under the current code.

        Names count by their skeleton (:func:`engine.links.name_key`), as the numbering report
        counts them: a name that only looks like another (``Gunnаr`` with a Cyrillic ``а``) goes on
        from that one's last number rather than starting again at 1."""
        written = links.link_text("name", name, links.MAX_NAME_LENGTH, links.MAX_NAME_BYTES)
        key = _key(self.code, written)
        character = links.name_key(written)
        number = 1 + max(
            (last for k, last in self.numbers.items() if _same_character(k, self.code, character)), default=0
        )
        numbers = {**self.numbers, key: number}
        if len(numbers) > MAX_PAIRS:
            numbers = dict(list(numbers.items())[-MAX_PAIRS:])
        self.numbers = numbers
        return number

    def to_json(self) -> str:
        return json.dumps({"code": self.code, "numbers": self.numbers}, ensure_ascii=False, separators=(",", ":"))

    def load(self, text: str) -> None:
        """Restore from stored text; raises InputError (nothing changed) when it cannot be read."""
        code, numbers = read_session(text)
        self.param.update(code=code, numbers=numbers)

    def merge(self, base_text: str, theirs_text: str) -> None:
        """Take in what another tab stored: its code when this tab kept the one both knew, and for each
        character the higher running number (a number taken in either tab is taken). Raises
        InputError (nothing changed) when ``theirs_text`` cannot be read."""
        code, numbers = read_session(theirs_text)
        try:
            base_code = read_session(base_text)[0] if base_text else ""
        except InputError:
            base_code = self.code
        merged = dict(self.numbers)
        for key, number in numbers.items():
            merged[key] = max(number, merged.get(key, 0))
        if len(merged) > MAX_PAIRS:
            merged = dict(list(merged.items())[-MAX_PAIRS:])
        self.param.update(code=code if self.code == base_code else self.code, numbers=merged)


def read_session(text: Any) -> tuple[str, dict[str, int]]:
    """Validate the stored session (``{"code": text, "numbers": {"code\\0name": n}}``)."""
    if not isinstance(text, str) or len(text) > 100_000:
        raise InputError("session", "format", "the stored session is not readable text")
    try:
        data = parse_json(text)  # nesting checked before parsing
    except InputError:
        raise InputError("session", "format", "the stored session is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("numbers", {}), dict):
        raise InputError("session", "format", "the stored session has the wrong shape")
    raw = data.get("code", "")
    code = "" if raw == "" else links.clean_text("session.code", raw, links.MAX_CODE_LENGTH, links.MAX_CODE_BYTES)
    numbers: dict[str, int] = {}
    for key, value in list(data.get("numbers", {}).items())[-MAX_PAIRS:]:
        if not isinstance(key, str) or key.count("\u0000") != 1:
            raise InputError("session.numbers", "format", "a numbering key is not 'code\\0name'")
        numbers[key] = check_int("session.numbers", value, 0, links.MAX_NUMBER)
    return code, numbers
