"""Each system's sheet declared once: the documents' validation and the JSON Schema are derived from it,
and they agree with each other at every bound."""

from __future__ import annotations

import json

import pytest
from test_documents import FRODO, HERO, SARKA, VERSION_0, WOLF, bundle

from engine import InputError, documents, sheets
from engine.cli import main

jsonschema = pytest.importorskip("jsonschema")  # a test dependency, not in Pyodide


def validator(system):
    schema = sheets.json_schema(system)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_documents_tables_are_the_sheets():
    for system in sheets.SHEETS:
        assert documents.CHARACTER_FIELDS[system] == sheets.spec(system)
        assert list(documents.CHARACTER_FIELDS[system]) == [f.name for f in sheets.SHEETS[system]]
        assert documents._CAPS[system] == sheets.caps(system)
    assert documents.MAX_ROWS == sheets.MAX_ROWS == 200
    assert sheets.caps("fate") == (("favour", "favour_max"), ("life", "life_max"))
    assert sheets.bounds("gurps")["dodge"] == sheets.SKILL_RANGE == (-20, 40)
    with pytest.raises(InputError) as info:
        sheets.bounds("elf")
    assert info.value.field == "system" and info.value.code == "choice"


@pytest.mark.parametrize("system", sorted(sheets.SHEETS))
def test_a_new_sheet_is_valid_both_ways(system):
    new = sheets.defaults(system)
    validator(system).validate(new)
    assert documents.validate_character(system, new) == new


@pytest.mark.parametrize(
    ("system", "character"), [("one-ring", FRODO), ("gurps", SARKA), ("fate", HERO), ("fate-monster", WOLF)]
)
def test_the_documents_characters_validate_against_their_sheet(system, character):
    validator(system).validate(character)
    validator(system).validate(documents.validate_character(system, character))


@pytest.mark.parametrize("which", ["bundle", "version 0", "monsters"])
def test_every_character_of_a_read_document_validates_against_its_sheet(which):
    data = {"bundle": bundle(), "version 0": VERSION_0, "monsters": {**bundle(), "monsters": {"characters": [WOLF]}}}
    doc = documents.read_document(json.dumps(data[which])).to_dict()
    seen = 0
    for system, roster in doc["systems"].items():
        for character in roster["characters"]:
            validator(system).validate(character)
            seen += 1
    for monster in doc.get("monsters", {}).get("characters", []):
        validator("fate-monster").validate(monster)
        seen += 1
    assert seen >= 3


@pytest.mark.parametrize("system", sorted(sheets.SHEETS))
def test_the_schema_and_the_validator_agree_at_every_bound(system):
    check = validator(system)
    base = sheets.defaults(system)
    for field, (low, high) in sheets.bounds(system).items():
        for value, good in ((low, True), (high, True), (low - 1, False), (high + 1, False), (str(high), True)):
            character = {**base, field: value}
            cap = dict(sheets.caps(system)).get(field)
            if cap:
                character[cap] = sheets.bounds(system)[cap][1]  # a maximum that lets the current value be
            if good and any(c == field for _, c in sheets.caps(system)):
                character = {k: v for k, v in character.items() if dict(sheets.caps(system)).get(k) != field}
            assert check.is_valid(character) is good, (field, value)
            try:
                documents.validate_character(system, character)
                accepted = True
            except InputError:
                accepted = False
            assert accepted is good, (field, value)
    for field in sheets.SHEETS[system]:
        if field.kind == "text":
            assert not check.is_valid({**base, field.name: "x" * (field.high + 1)})
        if field.kind == "rows":
            assert not check.is_valid({**base, field.name: [{}] * (field.high + 1)})
    assert not check.is_valid({**base, "charisma": 3})


def test_the_command_line_prints_a_sheets_schema(capsys):
    assert main(["schema", "gurps"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == sheets.json_schema("gurps")
    assert printed["properties"]["skills"]["maxItems"] == sheets.MAX_ROWS
    assert printed["properties"]["st"]["title"] == "ST" and printed["properties"]["st"]["default"] == 10
    assert main(["schema", "document"]) == 0
    assert json.loads(capsys.readouterr().out) == documents.json_schema()
    assert main(["schema", "elf"]) == 2
    assert "InputError: sheet:" in capsys.readouterr().err
