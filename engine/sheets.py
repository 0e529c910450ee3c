"""Each system's character sheet, declared once: its fields, their bounds, defaults and labels.

:data:`SHEETS` maps each sheet (``"one-ring"``, ``"gurps"``, ``"fate"`` and the Fate & Doom
monster, ``"fate-monster"``) to a tuple of :class:`Field` records. Everything else is derived
from them: the document validation of :mod:`engine.documents` (:func:`spec`,
:func:`caps`), the JSON Schema of a sheet (:func:`json_schema`, also ``python -m engine
schema SYSTEM``) and the web app's form bounds (:func:`bounds`, :data:`MAX_ROWS`,
:data:`SKILL_RANGE`, :data:`MODIFIER_RANGE`).

A field's ``label`` is the English label of the web app's form (a message of its catalogues);
``cap`` names the field it may not exceed (a current value and its maximum).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import gurps, one_ring
from .errors import check_choice
from .fate import FAVOUR_RANGE

__all__ = [
    "KINDS",
    "MAX_ROWS",
    "MAX_TEXT",
    "MODIFIER_RANGE",
    "SHEETS",
    "SKILL_RANGE",
    "Field",
    "bounds",
    "caps",
    "defaults",
    "json_schema",
    "object_schema",
    "spec",
    "spec_schema",
]

#: GURPS rows per character: skills (a GCS sheet's every skill, technique and spell) or modifiers.
MAX_ROWS = 200
#: Names, skill names.
MAX_TEXT = 60
#: A GURPS skill level (also the active defences) and a modifier.
SKILL_RANGE = gurps.SKILL_RANGE
MODIFIER_RANGE = gurps.MODIFIER_RANGE
KINDS = ("int", "bool", "text", "rows")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a sheet.

    ``kind`` "int" (``low``..``high``), "bool", "text" (at most ``high`` characters) or
    "rows" (a list of at most ``high`` objects with the fields ``rows``)."""

    name: str
    kind: str
    low: int | None = None
    high: int | None = None
    default: Any = None
    label: str | None = None
    cap: str | None = None
    rows: tuple[Field, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:  # pragma: no cover - a mistake in the tables below
            raise ValueError(f"unknown kind of field {self.kind!r}")

    @property
    def range(self) -> tuple[int, int]:
        """(low, high) of an "int" field."""
        return (self.low, self.high)  # type: ignore[return-value]  # an "int" field has both bounds


def _int(name: str, bounds: tuple[int, int], default: int, label: str | None, cap: str | None = None) -> Field:
    return Field(name, "int", bounds[0], bounds[1], default, label, cap)


def _bool(name: str, default: bool, label: str | None) -> Field:
    return Field(name, "bool", default=default, label=label)


def _name(default: str = "", label: str = "Name") -> Field:
    return Field("name", "text", high=MAX_TEXT, default=default, label=label)


_OR_LABELS = {
    **{a: a.capitalize() for a in one_ring.ATTRIBUTES},
    **{s: s.capitalize() for s in one_ring.SKILLS},
    **{p: p.capitalize() for p in one_ring.PROFICIENCIES},
}
_TRACKERS = (
    ("endurance", 20, "Endurance", "endurance_max"),
    ("endurance_max", 20, "Endurance (max)", None),
    ("shadow", 0, "Shadow", None),
    ("shadow_scars", 0, "Shadow scars", None),
    ("gear_load", 0, "Load", None),
    ("fatigue", 0, "Fatigue", None),
)
_GURPS_LABELS = {
    "st": "ST",
    "dx": "DX",
    "iq": "IQ",
    "ht": "HT",
    "will": "Will",
    "per": "Per",
    "dodge": "Dodge",
    "parry": "Parry",
    "block": "Block",
}

#: Every sheet's fields, in the order of the documents' tables.
SHEETS: dict[str, tuple[Field, ...]] = {
    "one-ring": (
        _name(),
        *(_int(a, one_ring.ATTRIBUTE_RANGE, 5, _OR_LABELS[a]) for a in one_ring.ATTRIBUTES),
        *(_int(s, one_ring.RATING_RANGE, 0, _OR_LABELS[s]) for s in one_ring.SKILLS),
        *(_bool(f"fav_{s}", False, None) for s in one_ring.SKILLS),
        *(_int(p, one_ring.RATING_RANGE, 0, _OR_LABELS[p]) for p in one_ring.PROFICIENCIES),
        _int("valour", one_ring.RATING_RANGE, 1, "Valour"),
        _int("wisdom", one_ring.RATING_RANGE, 1, "Wisdom"),
        _int("protection", one_ring.PROTECTION_RANGE, 0, "Protection"),  # armour
        _int("hope", (0, 40), 8, "Hope", "hope_max"),
        _int("hope_max", (0, 40), 8, "Hope (max)"),
        _bool("weary", False, "Weary"),
        _bool("miserable", False, "Miserable"),
        _bool("inspired", False, "Inspired"),
        # version 2: the trackers of the sheet
        *(_int(name, (0, 99), default, label, cap) for name, default, label, cap in _TRACKERS),
        _bool("weary_auto", True, "Weary when Endurance is at or below Load + Fatigue"),
    ),
    "gurps": (
        _name(),
        *(_int(a, (1, 30), 10, _GURPS_LABELS[a]) for a in ("st", "dx", "iq", "ht")),
        Field(
            "skills",
            "rows",
            high=MAX_ROWS,
            default=(),
            label="Skills",
            rows=(_name(), _int("level", SKILL_RANGE, 10, "Level")),
        ),
        Field(
            "modifiers",
            "rows",
            high=MAX_ROWS,
            default=(),
            label="Modifiers for this roll",
            rows=(_name(), _int("value", MODIFIER_RANGE, 0, "Value")),
        ),
        # version 2: Will, Per, the HP and FP trackers and the active defences
        *(_int(a, (1, 30), 10, _GURPS_LABELS[a]) for a in ("will", "per")),
        _int("hp", (-999, 999), 10, "HP", "hp_max"),
        _int("hp_max", (1, 999), 10, "HP (max)"),
        _int("fp", (-999, 999), 10, "FP", "fp_max"),
        _int("fp_max", (1, 999), 10, "FP (max)"),
        *(_int(d, SKILL_RANGE, 8, _GURPS_LABELS[d]) for d in ("dodge", "parry", "block")),
    ),
    "fate": (
        _name(),
        _int("skill", (0, 20), 7, "Skill"),
        _int("favour", FAVOUR_RANGE, 3, "Favour of the gods", "favour_max"),
        _int("favour_max", FAVOUR_RANGE, 3, "Favour (max)"),
        _int("life", (0, 99), 12, "Life", "life_max"),
        _int("life_max", (1, 99), 12, "Life (max)"),
    ),
    # Fate & Doom monster sheets, kept beside the characters under "monsters"; the default is the Wolf
    "fate-monster": (
        _name("Wolf", "Monster's name"),
        _int("life", (0, 999), 9, "Life", "life_max"),
        _int("life_max", (1, 999), 9, "Life (max)"),
        _int("skill", (-20, 99), 8, "Skill"),
        _int("stoutness", (0, 99), 4, "Stoutness", "stoutness_max"),
        _int("stoutness_max", (0, 99), 4, "Stoutness (max)"),
    ),
}


def _sheet(system: str) -> tuple[Field, ...]:
    return SHEETS[check_choice("system", system, tuple(SHEETS))]


def bounds(system: str) -> dict[str, tuple[int, int]]:
    """The ``(low, high)`` of every number on the sheet."""
    return {f.name: f.range for f in _sheet(system) if f.kind == "int"}


def caps(system: str) -> tuple[tuple[str, str], ...]:
    """``(current, maximum)`` pairs: a current value may not exceed its maximum."""
    return tuple((f.name, f.cap) for f in _sheet(system) if f.cap)


def defaults(system: str) -> dict[str, Any]:
    """A new sheet's values."""
    return {f.name: list(f.default) if f.kind == "rows" else f.default for f in _sheet(system)}


def _spec_of(f: Field) -> tuple[Any, ...]:
    if f.kind == "int":
        return ("int", f.low, f.high)
    if f.kind == "bool":
        return ("bool",)
    if f.kind == "text":
        return ("text", f.high)
    return ("rows", {r.name: _spec_of(r) for r in f.rows}, f.high)


def spec(system: str) -> dict[str, tuple[Any, ...]]:
    """The sheet as :mod:`engine.documents` checks it: field -> ``("int", low, high)`` ·
    ``("bool",)`` · ``("text", max)`` · ``("rows", {field: spec}, max rows)``."""
    return {f.name: _spec_of(f) for f in _sheet(system)}


#: A number as a form keeps it: decimal text, an optional sign (the minus sign too).
NUMBER_TEXT = r"^\s*[+\-\u2212]?\d{1,10}\s*$"


def spec_schema(spec: tuple[Any, ...]) -> dict[str, Any]:
    """The JSON Schema of one field spec (see :func:`spec`; also ``("choice", values)``)."""
    kind = spec[0]
    if kind == "int":
        return {
            "oneOf": [
                {"type": "integer", "minimum": spec[1], "maximum": spec[2]},
                {"type": "string", "pattern": NUMBER_TEXT},
            ]
        }
    if kind == "bool":
        return {"type": "boolean"}
    if kind == "text":
        return {"type": "string", "maxLength": spec[1]}
    if kind == "choice":
        return {"enum": list(spec[1])}
    if kind == "rows":
        return {"type": "array", "maxItems": spec[2], "items": object_schema(spec[1])}
    raise AssertionError(kind)  # pragma: no cover


def object_schema(table: Mapping[str, tuple[Any, ...]], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON Schema of an object of field specs (no other keys allowed)."""
    out: dict[str, Any] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {k: spec_schema(v) for k, v in table.items()},
    }
    if required:
        out["required"] = list(required)
    return out


def json_schema(system: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one character sheet of ``system``, with each field's
    label as its title and its default. Current <= maximum is the validator's to check."""
    fields = _sheet(system)
    out = object_schema(spec(system))
    for f in fields:
        prop = out["properties"][f.name]
        if f.label:
            prop["title"] = f.label
        prop["default"] = defaults(system)[f.name]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://kostka.invalid/schema/sheet-{system}.json",
        "title": f"Kostka character sheet: {system}",
        **out,
    }
