"""Import a character sheet written by GURPS Character Sheet (GCS) 5.

GCS 5 saves a character as JSON (``.gcs``) of the form ``{"version": 5,
"profile": {...}, "attributes": [...], "skills": [...], "spells": [...],
"traits": [...], "equipment": [...], "calc": {...}}``, where every computed
number sits in a ``calc`` object beside the data it comes from.
:func:`read_gcs` turns such a file into one Kostka GURPS character:

- ``name`` from ``profile.name``;
- ``st``, ``dx``, ``iq``, ``ht``, ``will``, ``per`` from
  ``attributes[].calc.value`` by ``attr_id``; ``hp`` / ``hp_max`` and ``fp`` /
  ``fp_max`` from ``calc.current`` / ``calc.value`` of ``hp`` and ``fp``;
- a skill row ``"Name (Specialization)"`` for every skill and technique of
  the ``skills`` tree and every spell of the ``spells`` tree (containers hold
  their rows in ``children``), at its ``calc.level`` — GCS's own computed
  level, never worked out again from points;
- ``dodge`` from the top-level ``calc.dodge[0]`` (no encumbrance), ``parry``
  and ``block`` from the best ``calc.parry`` / ``calc.block`` among the
  weapons in hand (of traits not disabled, equipment that is equipped, skills
  and spells);
- names with GCS's ``@Placeholder@`` replacements filled in, once (a
  replacement's own ``@…@`` stays as it is).

A row without a computed level (GCS leaves ``calc`` out, e.g. for a spell
whose prerequisites are not met), a value outside what the Kostka sheet holds,
or rows beyond :data:`~engine.documents.MAX_ROWS` are left out and listed in
:attr:`GcsImport.skipped`, so the app can say what did not come across. So is a
name longer than :data:`MAX_SOURCE_TEXT` characters, as written or with its
placeholders filled in: its length is added up from the pieces before any text
is built, so a few placeholders of a long replacement (a small file that would
fill in to gigabytes) cost no more than the file itself.

The file goes through the same door as Kostka's own documents
(:func:`engine.documents.parse_json`: at most
:data:`~engine.documents.MAX_DOCUMENT_BYTES`, nesting at most
:data:`~engine.documents.MAX_DEPTH` checked before parsing, strict JSON), and
the character through the same validator (:func:`engine.documents.dump_document`).
Texts stay texts: a name with markup is kept as the characters it is made of.
An older sheet (XML from GCS 4, or JSON without ``calc``) is refused with
"re-save it in a current GCS"; anything else that is not a GCS 5 sheet raises
:class:`InputError` with ``field`` ``"gcs"`` or the path of the bad value.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .documents import CHARACTER_FIELDS, MAX_ROWS, MAX_TEXT, dump_document, parse_json, validate_character
from .errors import InputError

__all__ = ["GCS_VERSION", "GcsImport", "SKIP_REASONS", "read_gcs"]

#: The GCS file format version read (GCS 5.x writes ``"version": 5``).
GCS_VERSION = 5
#: At most this many rows of the ``skills`` and ``spells`` trees are looked at (whatever their depth).
MAX_TREE_ROWS = 5000
#: The longest name read, as written or with its placeholders filled in (a Kostka name keeps
#: :data:`~engine.documents.MAX_TEXT` of it, once control characters and runs of spaces are gone):
#: a longer one is left out (``long``), never built.
MAX_SOURCE_TEXT = 1000
#: Why a row or value was left out: ``no-level`` (no ``calc.level``), ``range`` (outside the sheet's limits),
#: ``rows`` (more rows than the sheet holds), ``type`` (a value of the wrong kind), ``long`` (a name longer
#: than :data:`MAX_SOURCE_TEXT`).
SKIP_REASONS = ("no-level", "range", "rows", "type", "long")

_ATTRIBUTES = ("st", "dx", "iq", "ht", "will", "per")
#: ``@Name@``: possessive, so a scan never gives back what it read.
_PLACEHOLDER = re.compile(r"@([^@]{1,60}+)@")
#: A whole number at the start of a text (possessive, as above).
_LEADING_NUMBER = re.compile(r"\s*+([+\-\u2212]?+\d{1,6}+)")
_OLD = "this is a sheet from an older GCS; re-save it in a current GCS (version 5) and import it again"


@dataclass(frozen=True)
class GcsImport:
    """One GURPS character read from a GCS sheet, and what was left out."""

    #: The character, validated as a Kostka GURPS character (numbers as ints).
    character: dict[str, Any]
    #: ``(what, reason)`` pairs: ``what`` is the row or value as the sheet names it
    #: (``"Haircut"``, ``"ST"``), ``reason`` one of :data:`SKIP_REASONS`.
    skipped: tuple[tuple[str, str], ...] = field(default=())

    def document(self) -> str:
        """The character as a Kostka characters document (compact JSON, readable by ``read_document``)."""
        return dump_document("characters", systems={"gurps": {"current": 0, "characters": [self.character]}})


def _text(value: Any) -> str:
    """A sheet's text as a Kostka name: control and format characters dropped, NFC, shortened with "…".

    At most :data:`MAX_SOURCE_TEXT` characters of ``value`` are looked at."""
    if not isinstance(value, str):
        return ""
    cut = len(value) > MAX_SOURCE_TEXT
    if cut:
        value = value[:MAX_SOURCE_TEXT]
    text = "".join(c for c in unicodedata.normalize("NFC", value) if not unicodedata.category(c).startswith("C"))
    text = " ".join(text.split())
    if len(text) > MAX_TEXT or (cut and text):
        text = text[: MAX_TEXT - 1].rstrip() + "…"
    return text


def _number(value: Any) -> int | None:
    """A whole number from a ``calc`` value (GCS writes ints, decimals such as ``6.5``, or text like ``"10F"``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value)
    if isinstance(value, str):
        match = _LEADING_NUMBER.match(value)
        if match:
            return int(match.group(1).replace("\u2212", "-"))
    return None


def _calc(item: Mapping[str, Any]) -> Mapping[str, Any] | None:
    calc = item.get("calc")
    return calc if isinstance(calc, Mapping) else None


def _rows(tree: Any, path: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every leaf of a GCS list tree (containers hold ``children``), depth first, in the sheet's order."""
    if tree is None:
        return
    if not isinstance(tree, list):
        raise InputError(path, "type", "expected a list of rows", expected="array")
    stack: list[tuple[str, list[Any], int]] = [(path, tree, 0)]
    seen = 0
    while stack:
        where, items, i = stack.pop()
        if i >= len(items):
            continue
        stack.append((where, items, i + 1))
        item = items[i]
        seen += 1
        if seen > MAX_TREE_ROWS:
            raise InputError(path, "range", f"has more than {MAX_TREE_ROWS} rows", high=MAX_TREE_ROWS)
        here = f"{where}[{i}]"
        if not isinstance(item, Mapping):
            raise InputError(here, "type", "expected an object", expected="object")
        children = item.get("children")
        if children is not None:
            if not isinstance(children, list):
                raise InputError(f"{here}.children", "type", "expected a list of rows", expected="array")
            stack.append((f"{here}.children", children, 0))
            continue
        yield here, item


def _replaced(item: Mapping[str, Any], key: str) -> str | None:
    """``item[key]`` with GCS's ``@Placeholder@`` replacements filled in, as GCS shows it (once: a
    replacement's own ``@…@`` is not filled in again); ``None`` when the text, as written or filled
    in, is longer than :data:`MAX_SOURCE_TEXT` (its length is added up before it is built)."""
    text = item.get(key)
    if not isinstance(text, str):
        return ""
    if len(text) > MAX_SOURCE_TEXT:
        return None
    replacements = item.get("replacements")
    if not isinstance(replacements, Mapping) or "@" not in text:
        return text
    pieces: list[str] = []
    size = start = 0
    for match in _PLACEHOLDER.finditer(text):  # at most MAX_SOURCE_TEXT / 3 placeholders
        replacement = replacements.get(match.group(1))
        if not isinstance(replacement, str):
            continue  # stays as written
        size += match.start() - start + len(replacement)
        if size > MAX_SOURCE_TEXT:
            return None
        pieces += (text[start : match.start()], replacement)
        start = match.end()
    if size + len(text) - start > MAX_SOURCE_TEXT:
        return None
    pieces.append(text[start:])
    return "".join(pieces)


def _row_name(item: Mapping[str, Any]) -> str | None:
    """The row's name as Kostka keeps it; ``None`` when its name or specialisation is too long to read."""
    name, spec = _replaced(item, "name"), _replaced(item, "specialization")
    if name is None or spec is None:
        return None
    name, spec = _text(name), _text(spec)
    full = f"{name} ({spec})" if name and spec else name or spec
    return _text(full)


def _long_label(item: Mapping[str, Any]) -> str:
    """How a row whose name is too long is listed: the start of its name as written."""
    return _text(item.get("name")) or _text(item.get("specialization")) or "?"


def _weapons(doc: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """Every weapon usage in hand: of traits (not disabled), carried equipment that is equipped, skills and spells."""
    for key in ("traits", "equipment", "skills", "spells"):
        tree = doc.get(key)
        if not isinstance(tree, list):
            continue
        stack: list[Any] = list(reversed(tree))
        count = 0
        while stack:
            item = stack.pop()
            count += 1
            if count > MAX_TREE_ROWS or not isinstance(item, Mapping):
                continue
            if item.get("disabled") is True or (key == "equipment" and item.get("equipped") is False):
                continue  # GCS lists no weapon of a disabled trait or of equipment not equipped
            weapons = item.get("weapons")
            if isinstance(weapons, list):
                yield from (w for w in weapons if isinstance(w, Mapping))
            children = item.get("children")
            if isinstance(children, list):
                stack.extend(reversed(children))


def _identify(data: Any) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise InputError("gcs", "type", "this is not a GCS character sheet (expected a JSON object)", expected="object")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise InputError("gcs", "format", "this is not a GCS character sheet (no version number)")
    if data.get("type") == "character" or version < GCS_VERSION:
        raise InputError("gcs", "format", _OLD, value=version, reason="old-gcs")
    if version > GCS_VERSION:
        raise InputError(
            "gcs",
            "range",
            f"this sheet is of GCS format version {version}, newer than this app reads ({GCS_VERSION})",
            high=GCS_VERSION,
            value=version,
        )
    if not isinstance(data.get("attributes"), list) or not isinstance(data.get("profile", {}), Mapping):
        raise InputError("gcs", "format", "this is not a GCS character sheet (no attributes)")
    if not any(isinstance(a, Mapping) and _calc(a) is not None for a in data["attributes"]):
        raise InputError("gcs", "format", _OLD, value=version, reason="old-gcs")
    return data


def read_gcs(text: Any) -> GcsImport:
    """Read a GCS 5 character sheet (the file's text or bytes) into a Kostka GURPS character."""
    if isinstance(text, (bytes, bytearray)):
        head = bytes(text[:200]).lstrip(b"\xef\xbb\xbf \t\r\n")
    elif isinstance(text, str):
        head = text[:200].lstrip("\ufeff \t\r\n").encode("utf-8", "replace")
    else:
        raise InputError("gcs", "type", f"expected the sheet as text, got {type(text).__name__}")
    if head.startswith(b"<"):
        raise InputError("gcs", "format", _OLD, reason="old-gcs")
    doc = _identify(parse_json(text))
    fields = CHARACTER_FIELDS["gurps"]
    skipped: list[tuple[str, str]] = []
    out: dict[str, Any] = {}
    profile = doc.get("profile")
    if not isinstance(profile, Mapping):
        profile = {}
    raw_name = profile.get("name")
    if isinstance(raw_name, str) and len(raw_name) > MAX_SOURCE_TEXT:
        skipped.append(("Name", "long"))
    elif name := _text(raw_name):
        out["name"] = name

    def put(key: str, value: Any, label: str) -> None:
        number = _number(value)
        if number is None:
            skipped.append((label, "type"))
            return
        spec = fields[key]
        if not spec[1] <= number <= spec[2]:
            skipped.append((f"{label} {number}", "range"))
            return
        out[key] = number

    for attr in doc["attributes"]:
        if not isinstance(attr, Mapping) or not isinstance(attr.get("attr_id"), str):
            continue
        attr_id, calc = attr["attr_id"], _calc(attr)
        if calc is None or attr_id not in (*_ATTRIBUTES, "hp", "fp"):
            continue
        if attr_id in _ATTRIBUTES:
            put(attr_id, calc.get("value"), attr_id.upper() if len(attr_id) == 2 else attr_id.capitalize())
        else:
            put(f"{attr_id}_max", calc.get("value"), attr_id.upper())
            put(attr_id, calc.get("current", calc.get("value")), f"{attr_id.upper()} (current)")

    top = _calc(doc) or {}
    dodge = top.get("dodge")
    if isinstance(dodge, list) and dodge:
        put("dodge", dodge[0], "Dodge")
    elif dodge is not None:
        skipped.append(("Dodge", "type"))
    for kind in ("parry", "block"):
        best = None
        for weapon in _weapons(doc):
            calc = _calc(weapon)
            number = _number(calc.get(kind)) if calc is not None else None
            if number is not None and (best is None or number > best):
                best = number
        if best is not None:
            put(kind, best, kind.capitalize())

    rows: list[dict[str, Any]] = []
    level_range = fields["skills"][1]["level"]
    for tree in ("skills", "spells"):
        for _where, item in _rows(doc.get(tree), tree):
            full_name = _row_name(item)
            if full_name is None:
                skipped.append((_long_label(item), "long"))
                continue
            label = full_name or "?"
            calc = _calc(item)
            level = _number(calc.get("level")) if calc is not None else None
            if calc is None or level is None:
                skipped.append((label, "no-level"))
            elif not level_range[1] <= level <= level_range[2]:
                skipped.append((f"{label} {level}", "range"))
            elif len(rows) >= MAX_ROWS:
                skipped.append((label, "rows"))
            else:
                rows.append({"name": label, "level": level})
    out["skills"] = rows
    for current, maximum in (("hp", "hp_max"), ("fp", "fp_max")):
        if current in out and maximum in out and out[current] > out[maximum]:
            skipped.append((f"{current.upper()} (current) {out.pop(current)}", "range"))
    character = validate_character("gurps", out)
    return GcsImport(character, tuple(skipped))
