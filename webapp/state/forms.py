"""Forms: text fields with bounds, parsed in one place, and the helpers every sheet and desk uses.

Every form field keeps the raw text the user typed (so nothing entered is
lost when it is wrong); parsing happens in one place, :meth:`Form.parse`,
which records an :class:`engine.InputError` per bad field in ``errors``.
No Panel import.
"""

from __future__ import annotations

import functools
import json
from typing import Any, ClassVar

import param

from engine import InputError, RuleError
from engine.documents import MAX_CHARACTERS
from engine.errors import check_int
from engine.links import without_refused
from engine.sheets import MAX_ROWS, SHEETS, Field, bounds

from ..i18n import N_

__all__ = [
    "FORMAT_VERSION",
    "MAX_NAME",
    "MAX_CHARACTERS",
    "MAX_ROWS",
    "SYSTEMS",
    "SYSTEM_TITLES",
    "Form",
    "as_form",
    "cap_check",
    "clean_row_names",
    "form_flag",
    "form_text",
    "input_names",
    "parse_int",
    "sheet_form",
    "sheet_params",
]

FORMAT_VERSION = 1
SYSTEMS = ("one-ring", "gurps", "fate")
SYSTEM_TITLES = {"one-ring": N_("The One Ring"), "gurps": N_("GURPS"), "fate": N_("Fate & Doom")}
MAX_NAME = 60


def parse_int(field_name: str, raw: Any, low: int | None = None, high: int | None = None) -> int:
    """``raw`` (text from a form) as an int in ``low..high``, else an :class:`InputError`."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise InputError(field_name, "empty", "a value is needed", low=low, high=high)
    if isinstance(raw, str):
        raw = raw.strip().replace("\u2212", "-")
    try:
        return check_int(field_name, raw, low, high)
    except InputError as error:
        # Keep the bounds in the params so the message can say what is allowed.
        error.params.setdefault("low", low)
        error.params.setdefault("high", high)
        raise


def form_text(value: Any, default: str = "") -> str:
    """A stored or linked value as form text (numbers and booleans from JSON become text)."""
    if value is None:
        return default
    if isinstance(value, bool):
        return default
    if isinstance(value, int):  # as many digits as it has (never through float: 400 digits overflow it)
        return str(value)[:200] if value.bit_length() < 14_000 else default
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, str):
        return value[:200]
    return default


def form_flag(value: Any) -> bool:
    """A stored or linked value as a switch ("1", "true", "yes", "on", or a true JSON value)."""
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value) if isinstance(value, (bool, int)) else False


class Form(param.Parameterized):
    """A form of text fields with bounds; ``errors`` maps field -> InputError."""

    #: field -> (low, high) for the integer fields of the form.
    BOUNDS: ClassVar[dict[str, tuple[int | None, int | None]]] = {}
    #: boolean fields
    FLAGS: ClassVar[tuple[str, ...]] = ()

    errors = param.Dict(default={}, doc="field -> InputError of the fields that do not parse")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if "name_text" in self.param:
            # One rule for names everywhere: what links, files and storage refuse is dropped as typed.
            self.param.watch(self._clean_name, "name_text")
            self._clean_name()

    def _clean_name(self, *_: Any) -> None:
        cleaned = without_refused(self.name_text)
        if cleaned != self.name_text:
            self.name_text = cleaned

    def parse(self) -> dict[str, Any]:
        """The parsed values of the fields that are valid; records the others in ``errors``."""
        values: dict[str, Any] = {}
        errors: dict[str, InputError] = {}
        for name, (low, high) in self.BOUNDS.items():
            try:
                values[name] = parse_int(name, getattr(self, name), low, high)
            except InputError as error:
                errors[name] = error
        for name in self.FLAGS:
            values[name] = bool(getattr(self, name))
        extra = self._cross_check(values)
        errors.update({k: v for k, v in extra.items() if k not in errors})
        if set(errors) != set(self.errors) or any(
            (errors[k].code, errors[k].params) != (self.errors[k].code, self.errors[k].params) for k in errors
        ):
            self.errors = errors
        return values

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        """Errors that involve several fields (e.g. current above maximum)."""
        return {}

    # -- persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name_text}
        for name in self.BOUNDS:
            out[name] = getattr(self, name)
        for name in self.FLAGS:
            out[name] = bool(getattr(self, name))
        return out

    def load(self, data: Any) -> None:
        """Fill the form from a stored mapping, leniently (unknown keys are ignored)."""
        if isinstance(data, dict):
            self.param.update(**self.updates_from(data))

    @classmethod
    def updates_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The form's parameters as :meth:`load` sets them from ``data`` (the one place it is decided)."""
        updates: dict[str, Any] = {}
        if "name" in data:
            updates["name_text"] = without_refused(form_text(data.get("name"))[:MAX_NAME])
        for name in cls.BOUNDS:
            if name in data:
                updates[name] = form_text(data[name])
        for name in cls.FLAGS:
            if name in data:
                updates[name] = form_flag(data[name])
        return updates


def _field_param(field: Field) -> param.Parameter:
    """The form parameter of one sheet field: numbers as text, switches, names, rows as lists."""
    doc = field.label or field.name
    if field.kind == "int":
        return param.String(default=str(field.default), doc=doc)
    if field.kind == "bool":
        return param.Boolean(default=bool(field.default), doc=doc)
    if field.kind == "text":
        return param.String(default=field.default or "", doc=doc)
    return param.List(default=list(field.default or ()), doc=doc)


def sheet_params(system: str, exclude: tuple[str, ...] = ()) -> dict[str, param.Parameter]:
    """The form parameters of sheet ``system`` (:data:`engine.sheets.SHEETS`), in the sheet's order:
    ``name`` as ``name_text``, an "int" field as its default in text, a "bool" one as a switch, rows as lists."""
    return {
        "name_text" if f.name == "name" else f.name: _field_param(f) for f in SHEETS[system] if f.name not in exclude
    }


def sheet_form(cls: type[Form] | None = None, *, exclude: tuple[str, ...] = ()) -> Any:
    """A class decorator: the form of the sheet ``cls.system``, its fields added from the sheet.

    Every field of the sheet (but those in ``exclude``, kept elsewhere) becomes a parameter of the
    form unless the class declares it itself; ``BOUNDS`` and ``FLAGS`` follow the sheet too. So a
    field added to the sheet is in the form, its bounds, the documents and the JSON Schema at once."""

    def decorate(form_class: type[Form]) -> type[Form]:
        system = form_class.system  # type: ignore[attr-defined]
        for name, parameter in sheet_params(system, exclude).items():
            if name not in form_class.param:
                form_class.param.add_parameter(name, parameter)
        form_class.BOUNDS = {k: v for k, v in bounds(system).items() if k not in exclude}
        form_class.FLAGS = tuple(f.name for f in SHEETS[system] if f.kind == "bool" and f.name not in exclude)
        return form_class

    return decorate if cls is None else decorate(cls)


def clean_row_names(form: param.Parameterized, rows: str) -> None:
    """Drop refused characters from the names of a list of rows (GURPS skills, modifiers) as typed."""
    items = getattr(form, rows)
    if any(
        isinstance(r, dict) and isinstance(r.get("name"), str) and without_refused(r["name"]) != r["name"]
        for r in items
    ):
        setattr(
            form,
            rows,
            [
                {**r, "name": without_refused(r["name"])}
                if isinstance(r, dict) and isinstance(r.get("name"), str)
                else r
                for r in items
            ],
        )


def input_names(form: param.Parameterized) -> list[str]:
    """The parameters of ``form`` that are user input (not ``name`` or ``errors``)."""
    return [p for p in form.param if p not in ("name", "errors")]


def cap_check(values: dict[str, Any], current: str, maximum: str) -> dict[str, InputError]:
    """The error of a current value above its maximum (HP above HP max…), as :meth:`Form.parse` records it."""
    if current in values and maximum in values and values[current] > values[maximum]:
        return {current: RuleError(current, f"{current} is above its maximum", high=values[maximum], kind="max")}
    return {}


def as_form(form_class: type, data: Any) -> dict[str, Any]:
    """``data`` (a stored character or the address's) as a new form would hold it once loaded."""
    out = json.loads(_blank(form_class))
    if isinstance(data, dict):
        for key, value in form_class.updates_from(data).items():
            out["name" if key == "name_text" else key] = value
    return out


@functools.cache
def _blank(form_class: type) -> str:
    """A new form's values (as JSON text, so that each use gets its own copy)."""
    return json.dumps(form_class().to_dict())
