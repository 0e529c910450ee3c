"""The page's address, read from its raw text (``location.search``) within bounds.

The address is the screen: the system and every field are in the query string, so a copied
link reopens the same screen. It comes from outside (a link typed, pasted or edited by hand), so
it is read here and nowhere else, as text: a value is never turned into a number, a boolean or a
Python literal (``1e5`` stays ``1e5``, ``True`` stays ``True``, 5000 digits stay digits for the
form to mark as wrong). The two values that are JSON (the GURPS skills and the modifiers of the
next roll) have their size and nesting checked *before* they are parsed: under Pyodide a deeply
nested text overflows the JavaScript stack before Python could raise ``RecursionError``.

Reading is all or nothing per value: a value that cannot be read whole (too long, not UTF-8, JSON
nested too deeply, a row that is not a row) is left out and listed in :attr:`Address.problems` as
an :class:`engine.InputError` whose ``field`` is ``"address.<key>"``, for the page to say so in
words. No Panel import: the app's state layer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

from engine import InputError
from engine.documents import MAX_ROWS, read_json
from engine.links import refused_character

__all__ = [
    "JSON_KEYS",
    "MAX_FIELDS",
    "MAX_JSON",
    "MAX_SEARCH",
    "MAX_VALUE",
    "MAX_WRITTEN",
    "Address",
    "read_address",
]

#: The longest query string read at all (characters, as the browser gives it, %-escapes included).
MAX_SEARCH = 120_000  # a GURPS sheet of MAX_ROWS rows with 60-letter Cyrillic names is about 83,000
#: The longest query string the app writes (characters, %-escapes included). An address must open
#: wherever the app is served: Apache answers 414 to a request line over 8,190 bytes, nginx to one
#: over its 8 KB header buffer, and ``build.py --serve`` (Python's http.server) to one over 64 KB,
#: while a GURPS sheet of MAX_ROWS Cyrillic rows is about 80,000 characters. 7,500 leaves 500 for
#: the site's own address, so the whole address stays under 8,000 characters, which every common
#: host and browser takes. A sheet above it leaves its skills (or itself) out of the address; the
#: page says so, and *Export characters* carries it whole.
MAX_WRITTEN = 7_500
#: At most this many ``key=value`` fields are read; the rest are left out.
MAX_FIELDS = 200
#: The longest value of a form field (what a field keeps), and of a name.
MAX_VALUE = 200
MAX_NAME = 60
#: The values that are JSON lists of rows, their longest text and deepest nesting (a list of objects).
JSON_KEYS = {"skills": "level", "r_mods": "value"}
MAX_JSON = 20_000  # MAX_ROWS rows of 60-letter names: about 17,200
MAX_JSON_DEPTH = 2


@dataclass(frozen=True)
class Address:
    """What could be read from an address: ``query`` maps each key to its text (the JSON values
    to lists of ``{"name": text, <"level" | "value">: text}`` rows); ``problems`` what could not."""

    query: dict[str, Any]
    problems: tuple[InputError, ...] = ()


def _problem(key: str, message: str, code: str = "format", **params: Any) -> InputError:
    return InputError(f"address.{key[:40]}", code, message, key=key[:40], **params)


def _rows(key: str, text: str) -> list[dict[str, str]]:
    data = read_json(text, f"address.{key}", max_depth=MAX_JSON_DEPTH, max_length=MAX_JSON)
    number_key = JSON_KEYS[key]
    if not isinstance(data, list):
        raise _problem(key, "is not a list of rows", kind="shape")
    if len(data) > MAX_ROWS:
        raise _problem(
            key, f"has {len(data)} rows, at most {MAX_ROWS}", code="range", high=MAX_ROWS, value=len(data), kind="rows"
        )
    rows = []
    for row in data:
        if not isinstance(row, dict) or not all(isinstance(v, str) for v in row.values()):
            raise _problem(key, "has a row that is not a name and a number", kind="shape")
        name, number = row.get("name", ""), row.get(number_key, "")
        _check_text(key, name, MAX_NAME)
        _check_text(key, number, MAX_VALUE)
        rows.append({"name": name, number_key: number})
    return rows


def _check_text(key: str, text: str, limit: int) -> None:
    if len(text) > limit:
        raise _problem(
            key,
            f"is too long: {len(text)} characters, at most {limit}",
            code="range",
            high=limit,
            value=len(text),
            kind="length",
        )
    if any(map(refused_character, text)):
        raise _problem(key, "holds a control or format character", kind="character")


def read_address(search: Any) -> Address:
    """Read a query string (``"?sys=fate&skill=7"``, the leading ``?`` optional); never raises."""
    if not isinstance(search, str) or not search.strip("?"):
        return Address({})
    if len(search) > MAX_SEARCH:
        return Address(
            {},
            (
                InputError(
                    "address",
                    "range",
                    f"is too long: {len(search)} characters, at most {MAX_SEARCH}",
                    high=MAX_SEARCH,
                    value=len(search),
                    kind="length",
                ),
            ),
        )
    query: dict[str, Any] = {}
    problems: list[InputError] = []
    fields = [f for f in search.lstrip("?").split("&") if f]
    if len(fields) > MAX_FIELDS:
        problems.append(
            InputError(
                "address",
                "range",
                f"has {len(fields)} fields, at most {MAX_FIELDS}",
                high=MAX_FIELDS,
                value=len(fields),
                kind="fields",
            )
        )
        fields = fields[:MAX_FIELDS]
    for field in fields:
        raw_key, _, raw_value = field.partition("=")
        try:
            key = unquote_plus(raw_key, errors="strict")
        except UnicodeDecodeError:
            problems.append(_problem(raw_key, "is not UTF-8 text", kind="encoding"))
            continue
        try:
            value = unquote_plus(raw_value, errors="strict")
            if key in JSON_KEYS:
                query[key] = _rows(key, value)
            else:
                _check_text(key, value, MAX_NAME if key == "name" else MAX_VALUE)
                query[key] = value
        except UnicodeDecodeError:
            query.pop(key, None)  # all or nothing: a repeated key read wrong leaves none of it
            problems.append(_problem(key, "is not UTF-8 text", kind="encoding"))
        except InputError as error:
            query.pop(key, None)
            problems.append(
                InputError(f"address.{key[:40]}", error.code, error.message, **{**error.params, "key": key[:40]})
            )
    return Address(query, tuple(problems))
