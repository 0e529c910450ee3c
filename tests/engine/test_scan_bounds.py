"""Outside text is scanned in bounded work: the checks made before parsing, and GCS placeholders.

These tests count work, never time (a clock on a busy machine flakes). The scan
that removes strings before brackets are counted (``documents._STRING``, used
by :func:`engine.documents.nesting_depth`, hence :func:`parse_json`,
:func:`read_json`, the stored data and the numbering) is a regex; its work is
counted with :func:`scan_work`, a model of the scan ``sub`` makes, which holds
for the real pattern because two things are checked of it: it has no repeat
that can give back what it took (:func:`backtracking_repeats`), and it matches
wherever a quote starts it, so no scan restarts inside what an attempt read.
The copy of the pattern used before (:data:`OLD_STRING`) is counted the same way
on small texts, to show that the count catches the quadratic scan that kept a
200 KB file of escaped quotes for 317 s, before any large text is read.

Placeholder expansion in GCS sheets is counted in lookups and in the memory it
takes (``tracemalloc``): both are bounded by the longest name read, whatever
the replacements would fill in to.
"""

from __future__ import annotations

import json
import re
import tracemalloc
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from re import _constants as sre_constants
from re import _parser as sre_parser
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import assert_clear_refusal

from engine import InputError, gcs
from engine.documents import _STRING, MAX_DEPTH, nesting_depth, parse_json, read_json
from engine.gcs import MAX_SOURCE_TEXT, read_gcs

DATA = Path(__file__).parent.parent / "data" / "gcs"

#: ``nesting_depth``'s string pattern before its scan was bounded.
OLD_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
#: What one failing attempt of :data:`OLD_STRING` reads before it looks for the closing quote (and gives it back).
OLD_REACH = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+', re.DOTALL)

#: The shapes of text that froze the app, by the number of their repeated parts.
SHAPES: dict[str, Callable[[int], str]] = {
    "escaped quotes in an array": lambda n: '["' + '\\"' * n,
    "escaped quotes and brackets": lambda n: '["' + '\\"[' * n,
    "escaped backslashes and quotes in an object": lambda n: '{"a":"' + '\\\\\\"' * n + "{" * (MAX_DEPTH + 4),
    "quotes and backslashes": lambda n: "[" + '"\\' * n + "[" * (MAX_DEPTH + 4),
    "escaped quotes then brackets": lambda n: '["' + '\\"' * n + "[" * (MAX_DEPTH + 4),
}
#: More shapes of hostile text, each linear to scan before and after.
OTHER_SHAPES: dict[str, Callable[[int], str]] = {
    "many backslashes": lambda n: '["' + "\\" * n + "[" * (MAX_DEPTH + 4),
    "an unterminated string of brackets": lambda n: '["' + "a[" * n,
    "many empty strings": lambda n: "[" + '"",' * n + "[" * (MAX_DEPTH + 4),
    "lone quotes": lambda n: '"' * n + "[" * (MAX_DEPTH + 4),
    "deep nesting": lambda n: "[" * n + "]" * n,
    "deep nesting in strings": lambda n: '["' + "[" * n + '"]',
}
ALL_SHAPES = {**SHAPES, **OTHER_SHAPES}


def _walk(node: Any) -> Iterator[Any]:
    """Every opcode of a parsed pattern, depth first."""
    if isinstance(node, sre_parser.SubPattern):
        for op, av in node:
            yield op
            yield from _walk(av)
    elif isinstance(node, (tuple, list)):
        for part in node:
            yield from _walk(part)


def backtracking_repeats(pattern: re.Pattern[str]) -> list[str]:
    """The repeats of ``pattern`` that may give back what they took (greedy or lazy, not possessive)."""
    ops = _walk(sre_parser.parse(pattern.pattern, pattern.flags))
    return [str(op) for op in ops if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT)]


def scan_work(pattern: re.Pattern[str], text: str, reach: re.Pattern[str] | None = None) -> int:
    """The characters read by a left-to-right scan of ``text`` with ``pattern`` (as ``sub`` makes it).

    ``pattern`` starts with a quote, so an attempt elsewhere reads one character. An attempt that
    matches reads what it matched (``pattern`` has no repeat that gives anything back) and the scan
    goes on after it; an attempt that fails at a quote reads at least what ``reach`` matches there,
    and the scan starts again at the next character. Without ``reach`` a failure at a quote fails
    the test: a scan that restarts inside what it read is how the work became quadratic.
    """
    work = pos = 0
    while pos < len(text):
        quote = text.find('"', pos)
        if quote < 0:
            return work + len(text) - pos
        work += quote - pos
        match = pattern.match(text, quote)
        if match is not None:
            work += match.end() - quote
            pos = match.end()
            continue
        assert reach is not None, f"the scan fails at the quote at {quote} and would start again inside it"
        extent = reach.match(text, quote)
        assert extent is not None
        work += extent.end() - quote
        pos = quote + 1
    return work


def reference_depth(text: str) -> int:
    """How deeply brackets nest outside strings, one character at a time (a string runs to its closing
    quote or to the end of the text; a backslash in a string takes the next character with it)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


# -- the string scan -----------------------------------------------------------------------------------


def test_the_scanning_patterns_cannot_backtrack():
    assert backtracking_repeats(OLD_STRING)  # the check sees the repeats that gave back
    for pattern in (_STRING, gcs._PLACEHOLDER, gcs._LEADING_NUMBER):
        assert backtracking_repeats(pattern) == [], pattern.pattern


@pytest.mark.parametrize("shape", ALL_SHAPES)
def test_the_string_scan_reads_each_character_once(shape):
    for n in (500, 1000, 2000):
        text = ALL_SHAPES[shape](n)
        assert scan_work(_STRING, text) == len(text)


@pytest.mark.parametrize("shape", SHAPES)
def test_the_old_string_scan_was_quadratic_on_the_shapes_that_froze_the_app(shape):
    small, large = (scan_work(OLD_STRING, SHAPES[shape](n), OLD_REACH) for n in (400, 800))
    new_small, new_large = (scan_work(_STRING, SHAPES[shape](n)) for n in (400, 800))
    assert large > 3.5 * small  # twice the text, four times the work
    assert new_large <= 2.2 * new_small
    assert large > 100 * new_large


@given(st.text(alphabet='"\\[]{}a\n', max_size=60))
def test_the_string_pattern_matches_at_every_quote_and_depth_is_exact(text):
    for i, char in enumerate(text):
        if char == '"':
            assert _STRING.match(text, i) is not None
    assert nesting_depth(text) == reference_depth(text)


@given(st.text(max_size=80))
def test_depth_is_exact_on_any_text(text):
    assert nesting_depth(text) == reference_depth(text)


# -- the files that froze the app -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [60_000, 200_000])
@pytest.mark.parametrize("shape", SHAPES)
def test_the_files_that_froze_the_app_are_refused_in_linear_work(shape, size):
    make = SHAPES[shape]
    # counted first on a small text: the old scan fails here at once, before it could hang on a large one
    assert scan_work(_STRING, make(1000)) == len(make(1000))
    text = make(size // (len(make(2)) - len(make(1))))
    assert abs(len(text) - size) < size // 10
    assert nesting_depth(text) == reference_depth(text)
    with pytest.raises(InputError) as info:
        parse_json(text)
    assert_clear_refusal(info.value)
    with pytest.raises(InputError) as info:
        parse_json(text.encode())
    assert_clear_refusal(info.value)
    with pytest.raises(InputError) as info:
        read_json(text, "address.x", max_depth=4, max_length=len(text))
    assert info.value.field == "address.x"


def test_deep_nesting_is_counted_without_recursion():
    text = "[" * 1_000_000 + "]" * 1_000_000
    assert nesting_depth(text) == 1_000_000
    with pytest.raises(InputError) as info:
        parse_json(text)
    assert info.value.params["kind"] == "depth"


# -- GCS placeholders ---------------------------------------------------------------------------------------


def _sheet(*rows: dict[str, Any], **profile: Any) -> dict[str, Any]:
    doc = json.loads((DATA / "giant-rat.gcs").read_text(encoding="utf-8"))
    doc["skills"] = list(rows)
    doc["spells"] = []
    doc["profile"].update(profile)
    return doc


def _row(name: str, replacements: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"id": "s", "name": name, "replacements": replacements, "calc": {"level": 11}, **more}


class CountingMapping(Mapping[str, Any]):
    """A replacements object that counts its lookups."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data, self.lookups = data, 0

    def __getitem__(self, key: str) -> Any:
        self.lookups += 1
        return self.data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)


BOMBS = {
    # name, replacements: what each would fill in to
    "a few placeholders of a megabyte (1 GB)": ("@a@" * 333, {"a": "x" * 1_000_000}),
    "placeholders just over the bound": ("@a@" * 333, {"a": "xyzw"}),
    "many placeholders of nothing": ("@a@" * 20_000, {"a": ""}),
    "a name longer than the bound": ("x" * 100_000, {}),
    "nested placeholders": ("@a@" * 300, {"a": "@b@" * 300, "b": "@a@" * 300}),
}


def _probe(name: str, replacements: dict[str, Any]) -> None:
    """The bomb made small first (replacements of at most 10,000 characters): an expansion that is not
    bounded fails here in moments, before the full one could take minutes and gigabytes."""
    small = {key: value[:10_000] for key, value in replacements.items()}
    assert gcs._replaced({"name": name, "replacements": small}, "name") is None


@pytest.mark.parametrize("bomb", BOMBS)
def test_placeholder_expansion_is_bounded_by_its_output(bomb):
    name, replacements = BOMBS[bomb]
    _probe(name, replacements)
    doc = _sheet(_row(name, replacements), _row("Brawling", {}))
    text = json.dumps(doc)
    tracemalloc.start()
    try:
        result = read_gcs(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak <= 2 * len(text) + 256_000  # the file and its parse, nothing the size of the expansion
    assert result.character["skills"] == [{"name": "Brawling", "level": 11}]
    ((label, reason),) = result.skipped
    assert reason == "long" and len(label) <= 60


@pytest.mark.parametrize("bomb", BOMBS)
def test_one_name_is_filled_in_with_work_and_memory_bounded_by_the_longest_name(bomb):
    name, replacements = BOMBS[bomb]
    _probe(name, replacements)
    counting = CountingMapping(replacements)
    tracemalloc.start()
    try:
        out = gcs._replaced({"name": name, "replacements": counting}, "name")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out is None
    assert counting.lookups <= MAX_SOURCE_TEXT // 3
    assert peak <= 16 * MAX_SOURCE_TEXT


def test_placeholders_are_filled_in_once_not_again_in_what_they_bring():
    doc = _sheet(
        _row("@a@ and @b@", {"a": "@b@", "b": "@a@@a@"}),
        _row("Lore", {"Kind": "@Kind@"}, specialization="@Kind@"),
    )
    assert read_gcs(json.dumps(doc)).character["skills"] == [
        {"name": "@b@ and @a@@a@", "level": 11},
        {"name": "Lore (@Kind@)", "level": 11},
    ]


def test_names_up_to_the_bound_are_read_and_cut_as_before():
    exact = "@a@" * (MAX_SOURCE_TEXT // 3)  # fills in to MAX_SOURCE_TEXT - 1 characters
    doc = _sheet(_row(exact, {"a": "ab "}), _row("y" * MAX_SOURCE_TEXT, {}))
    result = read_gcs(json.dumps(doc))
    assert [row["name"] for row in result.character["skills"]] == ["ab " * 19 + "ab…", "y" * 59 + "…"]
    assert result.skipped == ()


def test_a_character_name_longer_than_the_bound_is_left_out_and_listed():
    result = read_gcs(json.dumps(_sheet(name="N" * (MAX_SOURCE_TEXT + 1))))
    assert "name" not in result.character
    assert result.skipped == (("Name", "long"),)
    result = read_gcs(json.dumps(_sheet(name="\t" * (MAX_SOURCE_TEXT - 3) + "Rat")))
    assert result.character["name"] == "Rat" and result.skipped == ()
