"""Fuzzing the importer: over ten thousand generated inputs per run, only InputError may escape.

Each test sets ``max_examples`` itself (the CI profile's default is lower):
2,000 random texts + 1,500 random byte strings + 2,000 random JSON values
(bare and inside a plausible header) + 3,000 documents with character edits
+ 2,000 documents with one value replaced (read strictly and leniently)
= 10,500 generated inputs.
Strategies are kept cheap (raw bytes read as edit programs) because
hypothesis's own cost per example dominates the run time.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st
from strategies import assert_clear_refusal, fuzz
from test_documents import VERSION_0, bundle

from engine import InputError
from engine.documents import Document, read_document


def _refused_or_sound(text, lenient=False):
    """Read ``text``: either our error with a field and a message, or a document that reads again strictly."""
    try:
        doc = read_document(text, lenient=lenient)
    except InputError as error:
        assert_clear_refusal(error)
        return None
    assert isinstance(doc, Document)
    again = read_document(doc.to_json())
    assert (again.kind, again.systems, again.rolls, again.monsters) == (doc.kind, doc.systems, doc.rolls, doc.monsters)
    assert lenient or not doc.problems
    return doc


@fuzz(2000)
@given(st.text(max_size=300))
def test_random_text(text):
    _refused_or_sound(text)


@fuzz(1500)
@given(st.binary(max_size=300))
def test_random_bytes(data):
    _refused_or_sound(data)


KEYS = [
    "format",
    "version",
    "kind",
    "systems",
    "rolls",
    "characters",
    "one-ring",
    "gurps",
    "fate",
    "current",
    "name",
    "awe",
    "fav_awe",
    "hope",
    "skills",
    "level",
    "check",
    "seed",
    "result",
    "number",
    "system",
    "",
]
TEXTS = [
    "kostka",
    "characters",
    "log",
    "bundle",
    "one-ring",
    "roll",
    "contest",
    "12",
    "-3",
    "",
    "x" * 70,
    "ж",
    "\u0000",
    "<b>",
]


def json_from_bytes(data: bytes) -> object:
    """A JSON value built from raw bytes (a cheap source of varied, nested, plausible structures)."""
    stream = iter(data)

    def byte() -> int:
        return next(stream, 0)

    def value(depth: int) -> object:
        b = byte()
        kind = b % 9 if depth < 4 else b % 6
        if kind == 0:
            return None
        if kind == 1:
            return bool(b & 0x10)
        if kind == 2:
            return int.from_bytes(bytes([byte(), byte()]), "big", signed=True) * (1 if b & 0x10 else 2**50)
        if kind == 3:
            return byte() / 7 if b & 0x10 else float(byte())
        if kind == 4:
            return TEXTS[byte() % len(TEXTS)]
        if kind == 5:
            return KEYS[byte() % len(KEYS)]
        if kind == 6:
            return [value(depth + 1) for _ in range(byte() % 5)]
        return {KEYS[byte() % len(KEYS)]: value(depth + 1) for _ in range(byte() % 5)}

    return value(0)


@fuzz(2000)
@given(st.binary(max_size=64))
def test_random_json_values(data):
    value = json_from_bytes(data)
    _refused_or_sound(json.dumps(value))
    kind = ["characters", "log", "bundle", "spells"][data[0] % 4] if data else "log"
    header = {
        "format": "kostka",
        "version": (data[-1] % 3) if data else 1,
        "kind": kind,
        "systems": value,
        "rolls": value,
        "characters": value,
    }
    _refused_or_sound(json.dumps(header))


DOCUMENTS = [json.dumps(bundle(), ensure_ascii=False), json.dumps(VERSION_0, ensure_ascii=False)]
EDIT_CHARS = '{}[]",:0123456789-.eE truefalsnul\\u"ж'


def _edit(text: str, program: bytes) -> str:
    for k in range(0, len(program) - 3, 4):
        op, position, char = (
            program[k] % 4,
            program[k + 1] * 256 + program[k + 2],
            EDIT_CHARS[program[k + 3] % len(EDIT_CHARS)],
        )
        i = position % (len(text) + 1)
        if op == 0:
            text = text[:i] + char + text[i + 1 :]
        elif op == 1:
            text = text[:i] + text[i + 1 :]
        elif op == 2:
            text = text[:i] + char + text[i:]
        else:
            text = text[:i]
    return text


@fuzz(3000)
@given(st.binary(min_size=5, max_size=17))
def test_documents_with_character_edits(program):
    _refused_or_sound(_edit(DOCUMENTS[program[0] % 2], program[1:]), lenient=bool(program[0] & 0x80))


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*prefix, i))


TREES = [bundle(), VERSION_0]
PATHS = [[p for p in _paths(tree) if p] for tree in TREES]
REPLACEMENTS = [
    None,
    True,
    False,
    0,
    -1,
    1,
    7,
    99,
    2**64,
    -(2**70),
    1.5,
    1e300,
    "",
    "x",
    "12",
    "-3",
    "ж" * 70,
    "\u0000",
    [],
    [1],
    {},
    {"x": 1},
    [None] * 50,
]


@fuzz(2000)
@given(st.binary(min_size=4, max_size=4))
def test_documents_with_one_value_replaced(program):
    which = program[0] % 2
    tree = json.loads(DOCUMENTS[which])
    path = PATHS[which][(program[1] * 256 + program[2]) % len(PATHS[which])]
    target = tree
    for key in path[:-1]:
        target = target[key]
    if program[3] == 255 and isinstance(target, dict):
        del target[path[-1]]
    else:
        target[path[-1]] = REPLACEMENTS[program[3] % len(REPLACEMENTS)]
    text = json.dumps(tree)
    strict = _refused_or_sound(text)
    lenient = _refused_or_sound(text, lenient=True)
    if strict is not None:  # what reads strictly reads the same leniently, with nothing left out
        assert (
            lenient is not None
            and not lenient.problems
            and lenient.systems == strict.systems
            and lenient.rolls == strict.rolls
        )
