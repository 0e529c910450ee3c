"""One validation layer for data from outside: imported files and browser storage.

Every document the app exports, imports or keeps in the browser is JSON of the
form ``{"format": "kostka", "version": 2, "kind": ..., ...}`` with ``kind``
one of:

- ``"characters"``: ``"systems": {"one-ring" | "gurps" | "fate": {"current": i, "characters": [...]}}``
  and optionally ``"monsters": {"current": i, "characters": [...]}`` (Fate & Doom monster sheets);
- ``"log"``: ``"rolls": [entry, ...]`` (the session's roll log);
- ``"bundle"``: both.

:func:`read_document` takes the raw text (or bytes), refuses oversized input
before parsing (:data:`MAX_DOCUMENT_BYTES`, nesting deeper than
:data:`MAX_DEPTH`), parses it strictly (no NaN, no duplicate keys), brings an
older version up to date through :data:`MIGRATIONS`, and validates every value.
Whatever is wrong raises :class:`InputError` with ``field`` the path of the
bad value (``"systems.one-ring.characters[2].awe"``), ``code`` (``"format"``,
``"type"``, ``"range"``, ``"choice"``, ``"rule"``) and ``params`` for the
translated message. Nothing else escapes. Links have their own strict door,
:func:`engine.links.decode_link`.

``lenient=True`` is for what the app stored itself (a form keeps half-typed
text): a bad field, character, system or log entry is left out and listed in
``Document.problems``, and the rest is kept.

Character fields are the web app's: a One Ring hero has ``name``,
``strength``/``heart``/``wits``, each skill by id (``awe`` …) with its
favoured mark ``fav_<skill>``, the proficiencies by id, ``valour``,
``wisdom``, ``protection`` (armour), ``hope``, ``hope_max``, ``weary``, ``miserable``, ``inspired``; a
GURPS character ``name``, ``st``/``dx``/``iq``/``ht``, ``skills``
``[{name, level}]`` and optional ``modifiers`` ``[{name, value}]``; a Fate &
Doom hero ``name``, ``skill``, ``favour``, ``favour_max``, ``life``,
``life_max``; a monster ``name``, ``life``, ``life_max``, ``skill``,
``stoutness``, ``stoutness_max``. Every field may be left out (the app fills in its default);
unknown fields are refused. Numbers may be JSON numbers or decimal text (a form
keeps what was typed) and come out as ints.

A log entry is ``{number, time, system, character, ability, kind ("roll" |
"contest"), check, seed, secret, revealed, result[, extra]}``; ``result`` must
be exactly the engine's roll of ``check`` with ``seed`` (so an edited log is
refused), or ``null`` for a secret roll not yet revealed — whose ``seed`` may
be left out, so that a log shared with the players does not give it away.

Versions: version 0 kept characters in one list with a ``system`` field per
character and nested fields (``skills`` ``{id: rating}``, ``favoured``
``[ids]``, ``proficiencies`` ``{id: rating}``, ``max_hope``; GURPS
``attributes`` ``{st, dx, iq, ht}``; Fate ``max_favour``, ``max_life``), and
its log entries had no number, ability or result. :data:`MIGRATIONS` maps each
old version to a function that returns the next version's document. The early
``{"format": "kostka-characters" | "kostka-log", "version": 1}`` files are read
as ``kind`` ``"characters"`` / ``"log"`` of version 1. Version 1 logs were
rolled when a Fate & Doom tie passed and gave a One Ring roll decided by the
Gandalf rune or a Miserable Eye the margin total − TN: version 2 keeps each
Fate & Doom check's reading in ``ties_succeed`` (a version-1 entry without it
is read with ``True``, the reading it was rolled under, so its outcome stays
what it was) and gives an automatic One Ring outcome the margin ``null``.

Version 2 added GURPS ``will``, ``per``, ``hp``/``hp_max``, ``fp``/``fp_max``,
``dodge``, ``parry``, ``block`` and the One Ring trackers ``endurance``/
``endurance_max``, ``shadow``, ``shadow_scars``, ``gear_load`` (Load), ``fatigue`` and
``weary_auto`` (Weary follows Endurance ≤ Load + Fatigue); a version-1
document is read as it is.

:func:`json_schema` gives the JSON Schema (draft 2020-12) of the current version, built
from the same field tables as the validator.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from . import fate, gurps, one_ring, sheets
from .api import Check, roll_check
from .errors import InputError, RuleError, check_bool, check_int
from .links import clean_text
from .rng import MAX_SEED

__all__ = [
    "CHARACTER_FIELDS",
    "FORMAT",
    "KINDS",
    "MAX_CHARACTERS",
    "MAX_DEPTH",
    "MAX_DOCUMENT_BYTES",
    "MAX_LOG_ENTRIES",
    "MAX_ROWS",
    "MAX_TEXT",
    "MIGRATIONS",
    "SYSTEMS",
    "VERSION",
    "Document",
    "dump_document",
    "json_schema",
    "migrate",
    "nesting_depth",
    "parse_json",
    "read_json",
    "roll_entry_check",
    "read_document",
    "validate_character",
    "validate_document",
    "validate_roll_entry",
]

FORMAT = "kostka"
VERSION = 2
KINDS = ("characters", "log", "bundle")
SYSTEMS = ("one-ring", "gurps", "fate")

#: Refused before parsing: documents larger than this many bytes (UTF-8).
MAX_DOCUMENT_BYTES = 4_000_000
#: Refused before parsing: arrays and objects nested deeper than this.
MAX_DEPTH = 16
MAX_CHARACTERS = 40  # per system
MAX_ROWS = sheets.MAX_ROWS  # GURPS skills or modifiers per character
MAX_LOG_ENTRIES = 5000
MAX_TEXT = sheets.MAX_TEXT  # names, skill names, abilities
MAX_SHORT_TEXT = 40  # times, opponents

# -- field tables ----------------------------------------------------------------------------------
# ("int", low, high) · ("bool",) · ("text", max) · ("rows", {field: spec}, max rows) · ("choice", values)

_NAME = ("text", MAX_TEXT)

#: Per system, every field a character may have and how it is checked (from :data:`engine.sheets.SHEETS`).
CHARACTER_FIELDS: dict[str, dict[str, tuple[Any, ...]]] = {system: sheets.spec(system) for system in sheets.SHEETS}

#: Current values that may not exceed their maximum.
_CAPS = {system: sheets.caps(system) for system in sheets.SHEETS}

_ENTRY_FIELDS: dict[str, tuple[Any, ...]] = {
    "number": ("int", 1, 10**9),
    "time": ("text", MAX_SHORT_TEXT),
    "system": ("choice", SYSTEMS),
    "character": _NAME,
    "ability": _NAME,
    "kind": ("choice", ("roll", "contest")),
    "check": ("check",),
    "seed": ("int", 0, MAX_SEED),
    "secret": ("bool",),
    "revealed": ("bool",),
    "result": ("result",),
    "extra": ("extra",),
}
_ENTRY_REQUIRED = ("number", "system", "kind", "check")  # and "seed", unless a hidden secret roll


# -- small helpers ---------------------------------------------------------------------------------


def _short(value: Any) -> Any:
    """A value fit to quote in a message or params (long texts and containers cut down)."""
    if value is None or isinstance(value, (bool, int, float)):
        return value if not isinstance(value, int) or abs(value) < 10**20 else repr(value)[:24] + "…"
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _at(path: str, error: InputError) -> InputError:
    """``error`` moved to ``path``, its message and quoted value kept short."""
    params = dict(error.params)
    if "value" in params:
        params["value"] = _short(params["value"])
    message = error.message if len(error.message) <= 160 else error.message[:160] + "…"
    return InputError(path, error.code, message, **params)


def _choice(path: str, value: Any, allowed: tuple[str, ...]) -> str:
    if isinstance(value, str) and value in allowed:
        return value
    raise InputError(
        path,
        "choice",
        f"must be one of {', '.join(allowed)}, got {_short(value)!r}",
        allowed=list(allowed),
        value=_short(value),
    )


def _require_mapping(path: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(
            path, "type", f"expected an object, got {_json_type(value)}", expected="object", got=_json_type(value)
        )
    return value


def _require_list(path: str, value: Any, limit: int, problems: list[InputError] | None = None) -> list[Any]:
    """``value`` if it is a list of at most ``limit`` items; leniently, the first ``limit`` items."""
    if not isinstance(value, list):
        raise InputError(
            path, "type", f"expected a list, got {_json_type(value)}", expected="array", got=_json_type(value)
        )
    if len(value) > limit:
        _keep(
            problems,
            InputError(path, "range", f"at most {limit} items, got {len(value)}", high=limit, value=len(value)),
        )
        return value[:limit]
    return value


def _keep(problems: list[InputError] | None, error: InputError) -> None:
    """Strict (``problems is None``): raise ``error``. Lenient: note it and go on without the value."""
    if problems is None:
        raise error
    problems.append(error)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float, _LongNumber)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _value(path: str, spec: tuple[Any, ...], value: Any, problems: list[InputError] | None = None) -> Any:
    kind = spec[0]
    try:
        if isinstance(value, _LongNumber):
            raise InputError(
                path,
                "type",
                f"a number with {len(value)} digits is no value of this field",
                got="a number",
                digits=len(value),
            )
        if kind in ("int", "bool") and not isinstance(value, (int, float, str)):
            expected = "a whole number" if kind == "int" else "true or false"
            raise InputError(path, "type", f"expected {expected}, got {_json_type(value)}", got=_json_type(value))
        if kind == "int":
            if isinstance(value, str):
                value = value.strip().replace("\u2212", "-")
                if len(value) > 12:
                    raise InputError(path, "type", "expected a whole number", value=value[:12])
            return check_int(path, value, spec[1], spec[2])
        if kind == "bool":
            return check_bool(path, value)
        if kind == "text":
            return clean_text(path, value, spec[1], spec[1] * 4)
        if kind == "choice":
            return _choice(path, value, spec[1])
    except InputError as error:
        raise _at(path, error) from None
    if kind == "rows":
        rows = []
        for i, row in enumerate(_require_list(path, value, spec[2], problems)):
            try:
                rows.append(_fields(f"{path}[{i}]", spec[1], row, problems))
            except InputError as error:  # lenient: a row that is not an object is left out
                _keep(problems, error)
        return rows
    raise AssertionError(kind)  # pragma: no cover


def _fields(
    path: str, table: Mapping[str, tuple[Any, ...]], data: Any, problems: list[InputError] | None = None
) -> dict[str, Any]:
    data = _require_mapping(path, data)
    out: dict[str, Any] = {}
    for key, value in data.items():
        try:
            if key not in table:
                raise InputError(
                    f"{path}.{_short(str(key))}",
                    "choice",
                    f"unknown field {_short(key)!r}",
                    allowed=sorted(table),
                    value=_short(key),
                )
            out[key] = _value(f"{path}.{key}", table[key], value, problems)
        except InputError as error:
            _keep(problems, error)
    return out


# -- characters ------------------------------------------------------------------------------------


def validate_character(
    system: Any, data: Any, path: str = "character", *, problems: list[InputError] | None = None
) -> dict[str, Any]:
    """A character of ``system`` checked field by field; numbers come out as ints.

    With a ``problems`` list (lenient), a bad field is left out and its error
    added to the list instead of raised; a character that is not an object
    still raises.
    """
    system = _choice("system", system, tuple(CHARACTER_FIELDS))
    out = _fields(path, CHARACTER_FIELDS[system], data, problems)
    for current, maximum in _CAPS[system]:
        if current in out and maximum in out and out[current] > out[maximum]:
            _keep(
                problems,
                RuleError(
                    f"{path}.{current}",
                    f"{current} ({out[current]}) is above {maximum} ({out[maximum]})",
                    value=out[current],
                    high=out[maximum],
                ),
            )
            del out[current]
    return out


def _validate_systems(path: str, value: Any, problems: list[InputError] | None = None) -> dict[str, Any]:
    systems = _require_mapping(path, value)
    out: dict[str, Any] = {}
    for system, roster in systems.items():
        try:
            if system not in SYSTEMS:
                raise InputError(
                    f"{path}.{_short(str(system))}",
                    "choice",
                    f"unknown system {_short(system)!r}",
                    allowed=list(SYSTEMS),
                    value=_short(system),
                )
            out[system] = _validate_roster(f"{path}.{system}", system, roster, problems)
        except InputError as error:  # lenient: an unreadable system is left out, the others kept
            _keep(problems, error)
    return out


def _validate_roster(here: str, system: str, roster: Any, problems: list[InputError] | None) -> dict[str, Any]:
    """``{"current": i, "characters": [...]}`` of one system (or of the monsters, ``"fate-monster"``)."""
    roster = _require_mapping(here, roster)
    for key in roster:
        if key not in ("current", "characters"):
            _keep(
                problems,
                InputError(
                    f"{here}.{_short(str(key))}",
                    "choice",
                    f"unknown field {_short(key)!r}",
                    allowed=["characters", "current"],
                    value=_short(key),
                ),
            )
    if "characters" not in roster:
        raise InputError(f"{here}.characters", "type", "the list of characters is missing")
    checked = []
    for i, char in enumerate(_require_list(f"{here}.characters", roster["characters"], MAX_CHARACTERS, problems)):
        try:
            checked.append(validate_character(system, char, f"{here}.characters[{i}]", problems=problems))
        except InputError as error:  # lenient: a character that is not an object is left out
            _keep(problems, error)
    current = 0
    if "current" in roster:
        try:
            current = check_int(f"{here}.current", roster["current"], 0, max(len(checked) - 1, 0))
        except InputError as error:
            _keep(problems, _at(f"{here}.current", error))
    return {"current": current, "characters": checked}


# -- the roll log ----------------------------------------------------------------------------------


def _entry_check_class(path: str, system: str, kind: str, check: Any) -> type[Check]:
    if system == "one-ring" and kind == "roll":
        return one_ring.OneRingCheck
    if system == "fate" and kind == "roll":
        return fate.FateCheck
    if system == "gurps" and kind == "roll":
        return gurps.GurpsCheck
    if system == "gurps" and kind == "contest":
        return gurps.RegularContest if isinstance(check, Mapping) and "high_skill_rule" in check else gurps.QuickContest
    raise InputError(f"{path}.kind", "rule", f"a {system} entry cannot be a {kind}", value=kind)


def roll_entry_check(entry: Mapping[str, Any]) -> Any:
    """The check object of a log entry that passed :func:`validate_roll_entry` (to roll it again)."""
    cls = _entry_check_class("entry", entry["system"], entry["kind"], entry["check"])
    return cls.from_dict(entry["check"])


def validate_roll_entry(data: Any, path: str = "entry") -> dict[str, Any]:
    """One log entry checked field by field; its result must be the engine's roll of its check and seed."""
    data = _require_mapping(path, data)
    for key in data:
        if key not in _ENTRY_FIELDS:
            raise InputError(
                f"{path}.{_short(str(key))}",
                "choice",
                f"unknown field {_short(key)!r}",
                allowed=sorted(_ENTRY_FIELDS),
                value=_short(key),
            )
    for key in _ENTRY_REQUIRED:
        if key not in data:
            raise InputError(f"{path}.{key}", "type", f"the field {key!r} is missing")
    out: dict[str, Any] = {}
    for key in ("number", "time", "system", "character", "ability", "kind", "seed", "secret", "revealed"):
        if key in data:
            out[key] = _value(f"{path}.{key}", _ENTRY_FIELDS[key], data[key])
    out.setdefault("time", "")
    out.setdefault("character", "")
    out.setdefault("ability", "")
    out.setdefault("secret", False)
    out.setdefault("revealed", not out["secret"])
    if not out["secret"] and not out["revealed"]:
        raise RuleError(f"{path}.revealed", "only a secret roll can be hidden")
    hidden = out["secret"] and not out["revealed"]
    if "seed" not in out and not hidden:  # a hidden secret roll may leave its seed out of an export
        raise InputError(f"{path}.seed", "type", "the field 'seed' is missing")
    cls = _entry_check_class(path, out["system"], out["kind"], data["check"])
    try:
        check = cls.from_dict(_require_mapping(f"{path}.check", data["check"]))
        record = roll_check(check, out["seed"] if "seed" in out else 0).to_dict()
    except InputError as error:
        raise _at(error.field if error.field.startswith(path) else f"{path}.check.{error.field}", error) from None
    out["check"] = check.to_dict()
    result = data.get("result")
    if hidden:
        if result is not None:
            raise RuleError(f"{path}.result", "a secret roll that has not been revealed keeps its result hidden (null)")
        out["result"] = None
    else:
        if result is None:
            raise InputError(f"{path}.result", "type", "the result is missing")
        if result != record:
            raise RuleError(
                f"{path}.result", "the result does not follow from the check and the seed (the log was edited)"
            )
        out["result"] = record
    if "extra" in data:
        extra = _require_mapping(f"{path}.extra", data["extra"])
        out["extra"] = _fields(f"{path}.extra", {"opponent": ("text", MAX_SHORT_TEXT)}, extra)
    return out


# -- documents -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    """A validated document of the current version (``migrated_from`` is the version read)."""

    kind: str
    systems: dict[str, Any] | None
    rolls: list[dict[str, Any]] | None
    migrated_from: int = VERSION
    #: Lenient reading only: what was left out, one error per value (empty when strict).
    problems: tuple[InputError, ...] = ()
    #: Fate & Doom monster sheets (a roster like a system's), when the document has them.
    monsters: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": self.kind}
        if self.systems is not None:
            out["systems"] = self.systems
        if self.monsters is not None:
            out["monsters"] = self.monsters
        if self.rolls is not None:
            out["rolls"] = self.rolls
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


#: A JSON string from its opening quote to its closing one, or to the end of the text when it has none
#: (the parser stops there too). Possessive only: it matches at every quote and never gives back what
#: it took, so removing the strings of a text touches each character a bounded number of times.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?+\Z)', re.DOTALL)
#: UTF-8 bytes to depth steps: an opening bracket +1, a closing one -1 (as signed bytes), the rest deleted.
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


class _LongNumber(str):
    """A JSON number with more digits than any field takes, kept as its text (never converted)."""


def _number(text: str) -> Any:
    return int(text) if len(text) <= 40 else _LongNumber(text)


def _reject_constant(name: str) -> Any:
    raise InputError("document", "format", f"{name} is not allowed in a document", value=name)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InputError(
                "document", "format", f"the key {_short(key)!r} appears twice in one object", value=_short(key)
            )
        out[key] = value
    return out


def nesting_depth(text: str) -> int:
    """How deeply arrays and objects nest in the JSON ``text``, counted without parsing it.

    Brackets inside strings do not count; an unterminated string runs to the end
    of the text, as the parser reads it (it stops there, at no deeper level than
    the brackets before the string). Linear in the length of ``text``, with a
    fixed number of passes (one regex that cannot backtrack and matches wherever
    it starts, one translation, one running sum) and never recursive: the check
    to make before any parser (which may recurse per level, and under Pyodide
    runs out of the JavaScript stack long before Python's recursion limit).
    """
    if "[" not in text and "{" not in text:
        return 0
    steps = _STRING.sub("", text).encode("utf-8", "surrogatepass").translate(_STEPS, _NOT_BRACKETS)
    return max(itertools.accumulate(memoryview(steps).cast("b"), initial=0))


def read_json(text: Any, field: str, *, max_depth: int, max_length: int) -> Any:
    """Small JSON from outside (a value in the address): size and nesting checked before parsing.

    Numbers come out as their text (``"1e5"`` stays ``"1e5"``, 400 digits stay
    digits), so a form gets exactly what was written. Raises :class:`InputError`
    with ``field`` and nothing else.
    """
    if not isinstance(text, str):
        raise InputError(field, "type", f"expected text, got {_json_type(text)}")
    if len(text) > max_length:
        raise InputError(
            field,
            "range",
            f"is too long: {len(text)} characters, at most {max_length}",
            high=max_length,
            value=len(text),
            kind="length",
        )
    depth = nesting_depth(text)
    if depth > max_depth:
        raise InputError(
            field,
            "range",
            f"is nested too deeply: {depth} levels, at most {max_depth}",
            high=max_depth,
            value=depth,
            kind="depth",
        )
    try:
        return json.loads(
            text, parse_int=str, parse_float=str, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates
        )
    except InputError as error:
        raise InputError(field, error.code, error.message, **error.params) from None
    except (ValueError, RecursionError) as error:
        raise InputError(field, "format", f"is not readable JSON: {str(error)[:80]}") from None


def parse_json(text: Any) -> Any:
    """Parse ``text`` (str or UTF-8 bytes) as strict JSON within the size and depth caps."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > MAX_DOCUMENT_BYTES:
            raise InputError(
                "document",
                "range",
                f"is too large: {len(text)} bytes, at most {MAX_DOCUMENT_BYTES}",
                high=MAX_DOCUMENT_BYTES,
                value=len(text),
                kind="size",
            )
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError("document", "format", "is not UTF-8 text", kind="encoding") from None
    if not isinstance(text, str):
        raise InputError("document", "type", f"expected the document as text, got {type(text).__name__}")
    if len(text) > MAX_DOCUMENT_BYTES or (
        len(text) * 4 > MAX_DOCUMENT_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES
    ):
        raise InputError(
            "document",
            "range",
            f"is too large: at most {MAX_DOCUMENT_BYTES} bytes",
            high=MAX_DOCUMENT_BYTES,
            kind="size",
        )
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise InputError("document", "format", "is empty", kind="empty")
    depth = 0
    if text.count("[") + text.count("{") > MAX_DEPTH:  # else it cannot be nested too deeply
        depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise InputError(
            "document",
            "range",
            f"is nested too deeply: {depth} levels, at most {MAX_DEPTH}",
            high=MAX_DEPTH,
            value=depth,
            kind="depth",
        )
    try:
        return json.loads(text, parse_int=_number, parse_constant=_reject_constant, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as error:
        raise InputError(
            "document",
            "format",
            f"is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})",
            line=error.lineno,
            column=error.colno,
            kind="syntax",
        ) from None
    except InputError:
        raise
    except (ValueError, RecursionError, OverflowError) as error:  # e.g. a number with too many digits
        raise InputError("document", "format", f"is not readable JSON: {str(error)[:80]}") from None


def _identify(data: Any) -> tuple[int, dict[str, Any]]:
    """The document's version and its content with the early format names mapped to ``kind``."""
    data = _require_mapping("document", data)
    fmt = data.get("format")
    if fmt in ("kostka-characters", "kostka-log"):
        body = {k: v for k, v in data.items() if k != "format"}
        body = {"format": FORMAT, "kind": "characters" if fmt == "kostka-characters" else "log", **body}
        data = body
    elif fmt != FORMAT:
        raise InputError("format", "choice", "this is not a Kostka document", allowed=[FORMAT], value=_short(fmt))
    if "version" not in data:
        raise InputError("version", "type", "the document has no version")
    try:
        version = check_int("version", data["version"], 0, None)
    except InputError as error:
        raise _at("version", error) from None
    if version > VERSION:
        raise InputError(
            "version",
            "range",
            f"this document is of version {_short(version)}, newer than this app reads (up to {VERSION}); update the app",
            high=VERSION,
            value=_short(version),
        )
    return version, dict(data)


def migrate(data: Any) -> tuple[int, dict[str, Any]]:
    """Bring a parsed document up to :data:`VERSION`; returns (version read, document)."""
    version, doc = _identify(data)
    read = version
    while version < VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
        doc["version"] = version
    return read, doc


def validate_document(data: Any, *, kind: str | None = None, lenient: bool = False) -> Document:
    """Validate a parsed document (any supported version); ``kind`` demands one kind.

    Strict by default: the first bad value raises. ``lenient=True`` is for data
    the app itself stored (a form keeps half-typed values): a bad field,
    character, system or log entry is left out and listed in
    ``Document.problems``, everything else is kept. A document that cannot be
    read at all (not JSON, another format, a newer version) raises either way.
    """
    problems: list[InputError] | None = [] if lenient else None
    read, doc = migrate(data)
    doc_kind = _value("kind", ("choice", KINDS), doc.get("kind"))
    if kind is not None and doc_kind != kind and not (doc_kind == "bundle" and kind in ("characters", "log")):
        raise InputError(
            "kind", "choice", f"expected a {kind} document, got a {doc_kind} document", allowed=[kind], value=doc_kind
        )
    allowed = {"format", "version", "kind", "exported"}
    allowed |= {"systems", "monsters"} if doc_kind in ("characters", "bundle") else set()
    allowed |= {"rolls"} if doc_kind in ("log", "bundle") else set()
    for key in doc:
        if key not in allowed:
            _keep(
                problems,
                InputError(
                    _short(str(key)) or "document",
                    "choice",
                    f"unknown field {_short(key)!r} in a {doc_kind} document",
                    allowed=sorted(allowed),
                    value=_short(key),
                ),
            )
    if "exported" in doc:
        try:
            _value("exported", ("text", MAX_SHORT_TEXT), doc["exported"])
        except InputError as error:
            _keep(problems, error)
    systems = rolls = monsters = None
    if doc_kind in ("characters", "bundle"):
        if "systems" not in doc:
            raise InputError("systems", "type", "the characters are missing")
        systems = _validate_systems("systems", doc["systems"], problems)
        if "monsters" in doc:
            try:
                monsters = _validate_roster("monsters", "fate-monster", doc["monsters"], problems)
            except InputError as error:
                _keep(problems, error)
    if doc_kind in ("log", "bundle"):
        if "rolls" not in doc:
            raise InputError("rolls", "type", "the rolls are missing")
        rolls = []
        for i, entry in enumerate(_require_list("rolls", doc["rolls"], MAX_LOG_ENTRIES, problems)):
            try:
                rolls.append(validate_roll_entry(entry, f"rolls[{i}]"))
            except InputError as error:  # lenient: a bad entry is left out whole
                _keep(problems, error)
    return Document(doc_kind, systems, rolls, read, tuple(problems or ()), monsters)


def read_document(text: Any, *, kind: str | None = None, lenient: bool = False) -> Document:
    """Parse, migrate and validate a document from a file or browser storage (see :func:`validate_document`)."""
    return validate_document(parse_json(text), kind=kind, lenient=lenient)


def dump_document(
    kind: str, *, systems: Any = None, rolls: Any = None, monsters: Any = None, exported: str | None = None
) -> str:
    """Validate and write a document of the current version as compact JSON."""
    kind = _value("kind", ("choice", KINDS), kind)
    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION, "kind": kind}
    if exported is not None:
        doc["exported"] = exported
    if kind in ("characters", "bundle"):
        doc["systems"] = systems
        if monsters is not None:
            doc["monsters"] = monsters
    if kind in ("log", "bundle"):
        doc["rolls"] = rolls
    return validate_document(doc).to_json()


# -- migrations ------------------------------------------------------------------------------------


def _v0_character(path: str, data: Any) -> tuple[str, dict[str, Any]]:
    data = dict(_require_mapping(path, data))
    system = data.pop("system", None)
    system = _choice(f"{path}.system", system, SYSTEMS)
    out: dict[str, Any] = {}
    if system == "one-ring":
        skills = _require_mapping(f"{path}.skills", data.pop("skills", {}))
        favoured = _require_list(f"{path}.favoured", data.pop("favoured", []), len(one_ring.SKILLS))
        profs = _require_mapping(f"{path}.proficiencies", data.pop("proficiencies", {}))
        for key, rating in skills.items():
            if not isinstance(key, str) or key not in one_ring.SKILLS:
                raise InputError(
                    f"{path}.skills.{_short(str(key))}",
                    "choice",
                    f"unknown skill {_short(key)!r}",
                    allowed=list(one_ring.SKILLS),
                    value=_short(key),
                )
            out[key] = rating
        for i, key in enumerate(favoured):
            if not isinstance(key, str) or key not in one_ring.SKILLS:
                raise InputError(
                    f"{path}.favoured[{i}]",
                    "choice",
                    f"unknown skill {_short(key)!r}",
                    allowed=list(one_ring.SKILLS),
                    value=_short(key),
                )
            out[f"fav_{key}"] = True
        for key, rating in profs.items():
            if not isinstance(key, str) or key not in one_ring.PROFICIENCIES:
                raise InputError(
                    f"{path}.proficiencies.{_short(str(key))}",
                    "choice",
                    f"unknown proficiency {_short(key)!r}",
                    allowed=list(one_ring.PROFICIENCIES),
                    value=_short(key),
                )
            out[key] = rating
        if "max_hope" in data:
            out["hope_max"] = data.pop("max_hope")
    elif system == "gurps":
        attributes = _require_mapping(f"{path}.attributes", data.pop("attributes", {}))
        for key, value in attributes.items():
            if key not in ("st", "dx", "iq", "ht"):
                raise InputError(
                    f"{path}.attributes.{_short(str(key))}",
                    "choice",
                    f"unknown attribute {_short(key)!r}",
                    allowed=["st", "dx", "iq", "ht"],
                    value=_short(key),
                )
            out[key] = value
    else:
        for old, new in (("max_favour", "favour_max"), ("max_life", "life_max")):
            if old in data:
                out[new] = data.pop(old)
    out.update(data)  # the rest keep their names; the version-1 validator checks them all
    return system, out


def _v0_to_v1(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 0 → 1: one list of characters → a roster per system; log entries get numbers and results."""
    out: dict[str, Any] = {k: v for k, v in doc.items() if k not in ("characters", "rolls")}
    if "characters" in doc:
        chars = _require_list("characters", doc["characters"], MAX_CHARACTERS * len(SYSTEMS))
        systems: dict[str, Any] = {}
        for i, char in enumerate(chars):
            system, converted = _v0_character(f"characters[{i}]", char)
            systems.setdefault(system, {"current": 0, "characters": []})["characters"].append(converted)
        out["systems"] = systems
    if "rolls" in doc:
        rolls = _require_list("rolls", doc["rolls"], MAX_LOG_ENTRIES)
        converted_rolls = []
        for i, entry in enumerate(rolls):
            entry = dict(_require_mapping(f"rolls[{i}]", entry))
            check_system = entry.pop("system", None)
            check_system = _choice(
                f"rolls[{i}].system", check_system, ("one-ring", "gurps", "gurps-quick", "gurps-regular", "fate")
            )
            contest = check_system in ("gurps-quick", "gurps-regular")
            if check_system == "gurps-regular" and isinstance(entry.get("check"), Mapping):
                entry["check"] = {"high_skill_rule": True, **entry["check"]}
            new = {
                "number": i + 1,
                "system": "gurps" if contest else check_system,
                "kind": "contest" if contest else "roll",
                **entry,
            }
            hidden = bool(new.get("secret")) and not bool(new.get("revealed", False))
            new.setdefault("revealed", not hidden)
            if not hidden and "result" not in new and isinstance(new.get("check"), Mapping):
                new["result"] = _v0_result(f"rolls[{i}]", check_system, new)
            converted_rolls.append(new)
        out["rolls"] = converted_rolls
    return out


def _v0_result(path: str, check_system: str, entry: Mapping[str, Any]) -> Any:
    """Version-0 logs kept no result: roll it again from the check and seed (or leave it for the validator to refuse)."""
    from .api import CHECKS

    try:
        fields = entry["check"]
        if check_system == "fate" and isinstance(fields, Mapping):
            fields = {"ties_succeed": True, **fields}  # rolled when a tie passed
        check = CHECKS[check_system].from_dict(fields)
        seed = check_int(f"{path}.seed", entry.get("seed"), 0, MAX_SEED)
        return roll_check(check, seed).to_dict()
    except InputError:
        return None  # validate_roll_entry names the bad field


def _v1_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2: Fate & Doom entries keep the reading they were rolled under (a tie passed:
    ``ties_succeed`` true); an automatic One Ring outcome loses its margin; the sheets gain new
    fields (GURPS Will, Per, HP, FP, defences; One Ring trackers), and a version-1 One Ring hero,
    who had Weary set by hand, keeps it so (``weary_auto`` false)."""
    return _v1_sheets_to_v2(_v1_rolls_to_v2(doc))


def _v1_rolls_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(doc.get("rolls"), list):
        return doc
    rolls = []
    for entry in doc["rolls"]:
        if isinstance(entry, Mapping):
            row: dict[Any, Any] = dict(entry)
            result = row.get("result")
            if row.get("system") == "fate":
                for key in ("check", "result"):
                    if isinstance(row.get(key), Mapping):
                        row[key] = dict(row[key])
                if isinstance(row.get("check"), Mapping):
                    row["check"].setdefault("ties_succeed", True)
                result = row.get("result")
                if isinstance(result, dict) and isinstance(result.get("check"), Mapping):  # a dict: copied above
                    result["check"] = {**result["check"]}
                    result["check"].setdefault("ties_succeed", True)
            elif row.get("system") == "one-ring" and isinstance(result, Mapping) and result.get("automatic"):
                row["result"] = {**result, "margin": None}
            entry = row
        rolls.append(entry)
    return {**doc, "rolls": rolls}


def _v1_sheets_to_v2(doc: dict[str, Any]) -> dict[str, Any]:
    out = dict(doc)
    systems = out.get("systems")
    if not isinstance(systems, Mapping):
        return out
    roster = systems.get("one-ring")
    if isinstance(roster, Mapping) and isinstance(roster.get("characters"), list):
        chars = [{"weary_auto": False, **c} if isinstance(c, Mapping) else c for c in roster["characters"]]
        out["systems"] = {**systems, "one-ring": {**roster, "characters": chars}}
    return out


#: ``version → function`` returning the next version's document (applied in a chain).
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {0: _v0_to_v1, 1: _v1_to_v2}


# -- JSON Schema -----------------------------------------------------------------------------------


_object_schema = sheets.object_schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a document of the current version.

    It describes the shape; the rules it cannot say (current ≤ maximum, a
    result that follows from its check and seed) are the validator's.
    """
    from .api import CHECKS

    def check_schema(system: str) -> dict[str, Any]:
        fields = [f for f in CHECKS[system].__dataclass_fields__]
        return {"type": "object", "additionalProperties": False, "properties": {f: {} for f in fields}}

    roster = {
        system: {
            "type": "object",
            "additionalProperties": False,
            "required": ["characters"],
            "properties": {
                "current": {"type": "integer", "minimum": 0, "maximum": MAX_CHARACTERS - 1},
                "characters": {
                    "type": "array",
                    "maxItems": MAX_CHARACTERS,
                    "items": _object_schema(CHARACTER_FIELDS[system]),
                },
            },
        }
        for system in SYSTEMS
    }
    entry_table = {k: v for k, v in _ENTRY_FIELDS.items() if v[0] in ("int", "bool", "text", "choice")}
    entry = _object_schema(entry_table, _ENTRY_REQUIRED)
    entry["properties"]["check"] = {"anyOf": [check_schema(s) for s in CHECKS]}
    entry["properties"]["result"] = {"type": ["object", "null"]}
    entry["properties"]["extra"] = _object_schema({"opponent": ("text", MAX_SHORT_TEXT)})
    systems = {"type": "object", "additionalProperties": False, "properties": {s: roster[s] for s in SYSTEMS}}
    monsters = {
        "type": "object",
        "additionalProperties": False,
        "required": ["characters"],
        "properties": {
            "current": {"type": "integer", "minimum": 0, "maximum": MAX_CHARACTERS - 1},
            "characters": {
                "type": "array",
                "maxItems": MAX_CHARACTERS,
                "items": _object_schema(CHARACTER_FIELDS["fate-monster"]),
            },
        },
    }
    rolls = {"type": "array", "maxItems": MAX_LOG_ENTRIES, "items": entry}
    head = {
        "format": {"const": FORMAT},
        "version": {"const": VERSION},
        "exported": {"type": "string", "maxLength": MAX_SHORT_TEXT},
    }

    def kind_schema(kind: str, body: dict[str, Any]) -> dict[str, Any]:
        optional = {"monsters": monsters} if "systems" in body else {}
        return {
            "type": "object",
            "additionalProperties": False,
            "required": ["format", "version", "kind", *body],
            "properties": {**head, "kind": {"const": kind}, **body, **optional},
        }

    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://kostka.invalid/schema/document-v{VERSION}.json",
        "title": f"Kostka document, version {VERSION}",
        "oneOf": [
            kind_schema("characters", {"systems": systems}),
            kind_schema("log", {"rolls": rolls}),
            kind_schema("bundle", {"systems": systems, "rolls": rolls}),
        ],
    }
