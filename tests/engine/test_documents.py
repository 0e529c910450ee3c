"""The validation layer for imported files and browser storage: versions, schema, paths in errors."""

from __future__ import annotations

import copy
import json

import jsonschema
import pytest

from engine import FateCheck, GurpsCheck, InputError, OneRingCheck, QuickContest, RegularContest, documents, roll_check
from engine.documents import (
    MAX_ROWS,
    Document,
    dump_document,
    json_schema,
    read_document,
    validate_character,
    validate_roll_entry,
)

FRODO = {
    "name": "Фродо <img src=x onerror=alert(1)>",
    "strength": 3,
    "heart": "7",
    "wits": 5,
    "awareness": 2,
    "fav_awareness": True,
    "stealth": "3",
    "swords": 1,
    "valour": 1,
    "wisdom": 2,
    "hope": 8,
    "hope_max": 12,
    "weary": False,
    "miserable": False,
    "inspired": True,
}
SARKA = {
    "name": "Šárka",
    "st": 11,
    "dx": "12",
    "iq": 10,
    "ht": 10,
    "skills": [{"name": "Lockpicking", "level": 9}],
    "modifiers": [{"name": "Tools", "value": -5}],
}
HERO = {"name": "Ратибор", "skill": 7, "favour": 2, "favour_max": 3, "life": 12, "life_max": 12}


def entry(number, system, check, seed, *, kind="roll", secret=False, revealed=None, **extra):
    record = roll_check(check, seed).to_dict()
    revealed = (not secret) if revealed is None else revealed
    return {
        "number": number,
        "time": "2026-11-30 20:15:00",
        "system": system,
        "character": "Frodo",
        "ability": "awareness",
        "kind": kind,
        "check": check.to_dict(),
        "seed": seed,
        "secret": secret,
        "revealed": revealed,
        "result": None if secret and not revealed else record,
        **extra,
    }


ROLLS = [
    entry(1, "one-ring", OneRingCheck(rating=2, tn=13, feat_mode="favoured"), 42),
    entry(2, "gurps", GurpsCheck(skill=9, modifiers=(-5, 10)), 7),
    entry(3, "gurps", GurpsCheck(skill=1, defence=True), 8, secret=True),
    entry(4, "gurps", GurpsCheck(skill=12), 9, secret=True, revealed=True),
    entry(5, "gurps", QuickContest(a=14, b=12), 10, kind="contest", extra={"opponent": "number"}),
    entry(6, "gurps", RegularContest(a=18, b=16), 11, kind="contest", extra={"opponent": "1:0"}),
    entry(7, "fate", FateCheck(skill=7, difficulty=1, favour_spent=1, favour_held=2), 12),
]


def bundle():
    return copy.deepcopy(_bundle())


def _bundle():
    return {
        "format": "kostka",
        "version": documents.VERSION,
        "kind": "bundle",
        "exported": "2026-11-30",
        "systems": {
            "one-ring": {"current": 0, "characters": [FRODO, {"name": "Sam"}]},
            "gurps": {"current": 0, "characters": [SARKA]},
            "fate": {"characters": [HERO]},
        },
        "rolls": ROLLS,
    }


# -- good documents --------------------------------------------------------------------------------


def test_a_bundle_reads_and_normalises():
    doc = read_document(json.dumps(bundle(), ensure_ascii=False))
    assert (doc.kind, doc.migrated_from) == ("bundle", documents.VERSION)
    frodo = doc.systems["one-ring"]["characters"][0]
    assert frodo["heart"] == 7 and frodo["stealth"] == 3 and frodo["name"] == FRODO["name"]
    assert doc.systems["gurps"]["characters"][0]["dx"] == 12
    assert doc.systems["fate"]["current"] == 0
    assert [r["number"] for r in doc.rolls] == list(range(1, 8))
    assert doc.rolls[2]["result"] is None
    assert doc.rolls[5]["check"]["high_skill_rule"] is True


def test_dump_then_read_is_stable():
    text = dump_document("bundle", systems=bundle()["systems"], rolls=ROLLS)
    doc = read_document(text)
    assert read_document(doc.to_json()) == doc
    assert isinstance(doc, Document)
    assert read_document(text.encode("utf-8")) == doc
    assert read_document(b"\xef\xbb\xbf" + text.encode("utf-8")) == doc  # a byte-order mark is fine


def test_kind_can_be_demanded():
    text = dump_document("characters", systems={"fate": {"characters": [HERO]}})
    assert read_document(text, kind="characters").rolls is None
    with pytest.raises(InputError) as info:
        read_document(text, kind="log")
    assert info.value.field == "kind"
    # a bundle serves as either
    assert read_document(json.dumps(bundle()), kind="log").rolls


def test_documents_validate_against_the_json_schema():
    schema = json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for doc in (
        {**bundle(), "version": documents.VERSION},
        json.loads(dump_document("log", rolls=ROLLS)),
        json.loads(dump_document("characters", systems={})),
    ):
        validator.validate(doc)
    bad = {**bundle(), "version": documents.VERSION}
    bad["systems"]["one-ring"]["characters"][0]["awe"] = 9
    assert not validator.is_valid(bad)
    bad = {**bundle(), "version": documents.VERSION}
    bad["systems"]["gurps"]["characters"][0]["colour"] = "red"
    assert not validator.is_valid(bad)
    json.dumps(schema)  # the schema is itself plain JSON


def test_web_app_documents_are_accepted():
    """The web app's own exports (its early format names) read as version 1."""
    models = pytest.importorskip("webapp.state.app")
    app = models.AppState()
    app.roll()
    characters = read_document(app.characters_json(), kind="characters")
    assert set(characters.systems) == {"one-ring", "gurps", "fate"}
    log = read_document(app.rolls.log.to_json(), kind="log")
    assert len(log.rolls) == 1


# -- version 0 -------------------------------------------------------------------------------------

VERSION_0 = {
    "format": "kostka",
    "version": 0,
    "kind": "bundle",
    "characters": [
        {
            "system": "one-ring",
            "name": "Frodo",
            "strength": 3,
            "heart": 7,
            "wits": 5,
            "skills": {"awareness": 2, "stealth": 3},
            "favoured": ["awareness"],
            "proficiencies": {"swords": 1},
            "valour": 1,
            "wisdom": 2,
            "hope": 8,
            "max_hope": 12,
            "weary": False,
            "miserable": False,
            "inspired": False,
        },
        {
            "system": "gurps",
            "name": "Šárka",
            "attributes": {"st": 11, "dx": 12, "iq": 10, "ht": 10},
            "skills": [{"name": "Lockpicking", "level": 9}],
            "modifiers": [{"name": "Tools", "value": -5}],
        },
        {"system": "fate", "name": "Ратибор", "skill": 7, "favour": 2, "max_favour": 3, "life": 10, "max_life": 12},
        {"system": "fate", "name": "Wolf-bane", "skill": 6},
    ],
    "rolls": [
        {
            "system": "one-ring",
            "check": {"rating": 2, "tn": 13, "feat_mode": "favoured"},
            "seed": 42,
            "character": "Frodo",
            "time": "20:15",
        },
        {"system": "gurps-quick", "check": {"a": 14, "b": 12}, "seed": 10, "character": "Šárka"},
        {"system": "gurps-regular", "check": {"a": 18, "b": 16}, "seed": 11},
        {"system": "gurps", "check": {"skill": 12}, "seed": 9, "secret": True},
    ],
}


def test_version_0_migrates():
    doc = read_document(json.dumps(VERSION_0))
    assert doc.migrated_from == 0 and doc.kind == "bundle"
    frodo = doc.systems["one-ring"]["characters"][0]
    assert (
        frodo["awareness"] == 2 and frodo["fav_awareness"] is True and frodo["swords"] == 1 and frodo["hope_max"] == 12
    )
    sarka = doc.systems["gurps"]["characters"][0]
    assert (sarka["st"], sarka["dx"], sarka["skills"][0]["level"]) == (11, 12, 9)
    assert [c["name"] for c in doc.systems["fate"]["characters"]] == ["Ратибор", "Wolf-bane"]
    assert doc.systems["fate"]["characters"][0]["life_max"] == 12
    rolls = doc.rolls
    assert [r["number"] for r in rolls] == [1, 2, 3, 4]
    assert [(r["system"], r["kind"]) for r in rolls] == [
        ("one-ring", "roll"),
        ("gurps", "contest"),
        ("gurps", "contest"),
        ("gurps", "roll"),
    ]
    assert rolls[0]["result"] == roll_check(OneRingCheck(rating=2, tn=13, feat_mode="favoured"), 42).to_dict()
    assert rolls[2]["check"]["high_skill_rule"] is True
    assert rolls[3]["result"] is None and rolls[3]["revealed"] is False
    # and the migrated document is a valid document of the current version in its own right
    jsonschema.validate(json.loads(doc.to_json()), json_schema())
    assert read_document(doc.to_json()) == Document(doc.kind, doc.systems, doc.rolls, documents.VERSION)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["characters"][0].__setitem__("skills", {"dancing": 2}), "characters[0].skills.dancing"),
        (lambda d: d["characters"][0].__setitem__("favoured", ["awe", "flying"]), "characters[0].favoured[1]"),
        (lambda d: d["characters"][0].__setitem__("skills", [1, 2]), "characters[0].skills"),
        (lambda d: d["characters"][1].__setitem__("attributes", {"luck": 3}), "characters[1].attributes.luck"),
        (lambda d: d["characters"][2].__setitem__("system", "dnd"), "characters[2].system"),
        (lambda d: d["characters"][0]["skills"].__setitem__("awe", 9), "systems.one-ring.characters[0].awe"),
        (lambda d: d["characters"].__setitem__(1, "gurps"), "characters[1]"),
        (lambda d: d["rolls"][1].__setitem__("system", "chess"), "rolls[1].system"),
        (lambda d: d["rolls"][0].__setitem__("seed", -1), "rolls[0].seed"),
        (lambda d: d["rolls"][0]["check"].__setitem__("tn", 99), "rolls[0].check.tn"),
    ],
)
def test_version_0_errors_name_the_old_path(change, field):
    doc = copy.deepcopy(VERSION_0)
    change(doc)
    with pytest.raises(InputError) as info:
        read_document(json.dumps(doc))
    assert info.value.field == field
    assert info.value.message


# -- bad documents ---------------------------------------------------------------------------------


def _with(path_setter):
    doc = bundle()
    path_setter(doc)
    return json.dumps(doc)


def _chars(doc, system, i=0):
    return doc["systems"][system]["characters"][i]


BAD_DOCUMENTS = [
    ("", "document", "format"),
    ("   \n", "document", "format"),
    ("{", "document", "format"),
    ("[1, 2,]", "document", "format"),
    ("NaN", "document", "format"),
    ('{"version": Infinity}', "document", "format"),
    ('{"a": 1, "a": 2}', "document", "format"),
    ("1" * 5000, "document", "type"),  # a number (never converted: far too many digits), not an object
    ("[" * 40 + "]" * 40, "document", "range"),
    ('{"x": "' + "[" * 40 + '"}', "format", "choice"),  # brackets inside strings do not count as nesting
    ("[]", "document", "type"),
    ('"kostka"', "document", "type"),
    ("{}", "format", "choice"),
    ('{"format": "other", "version": 1}', "format", "choice"),
    ('{"format": "kostka"}', "version", "type"),
    ('{"format": "kostka", "version": "one"}', "version", "type"),
    ('{"format": "kostka", "version": 7, "kind": "log"}', "version", "range"),
    ('{"format": "kostka", "version": -1, "kind": "log"}', "version", "range"),
    ('{"format": "kostka", "version": 1}', "kind", "choice"),
    ('{"format": "kostka", "version": 1, "kind": "spells"}', "kind", "choice"),
    ('{"format": "kostka", "version": 1, "kind": "log"}', "rolls", "type"),
    ('{"format": "kostka", "version": 1, "kind": "characters"}', "systems", "type"),
    ('{"format": "kostka", "version": 1, "kind": "log", "rolls": [], "systems": {}}', "systems", "choice"),
    ('{"format": "kostka", "version": 1, "kind": "characters", "systems": []}', "systems", "type"),
    (
        '{"format": "kostka", "version": 1, "kind": "characters", "systems": {"dnd": {"characters": []}}}',
        "systems.dnd",
        "choice",
    ),
    (
        '{"format": "kostka", "version": 1, "kind": "characters", "systems": {"fate": {}}}',
        "systems.fate.characters",
        "type",
    ),
    (
        '{"format": "kostka", "version": 1, "kind": "characters", "systems": {"fate": {"characters": {}}}}',
        "systems.fate.characters",
        "type",
    ),
    (
        '{"format": "kostka", "version": 1, "kind": "characters", "systems": {"fate": {"characters": [], "x": 1}}}',
        "systems.fate.x",
        "choice",
    ),
    (
        '{"format": "kostka", "version": 1, "kind": "characters", "systems": {"fate": {"characters": [], "current": 1}}}',
        "systems.fate.current",
        "range",
    ),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", 7)), "systems.one-ring.characters[0].awe", "range"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", "abc")), "systems.one-ring.characters[0].awe", "type"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", "")), "systems.one-ring.characters[0].awe", "type"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", None)), "systems.one-ring.characters[0].awe", "type"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", [2])), "systems.one-ring.characters[0].awe", "type"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", 2.5)), "systems.one-ring.characters[0].awe", "type"),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("awe", True)), "systems.one-ring.characters[0].awe", "type"),
    (
        _with(lambda d: _chars(d, "one-ring").__setitem__("fav_awe", "yes")),
        "systems.one-ring.characters[0].fav_awe",
        "type",
    ),
    (
        _with(lambda d: _chars(d, "one-ring").__setitem__("fav_dancing", True)),
        "systems.one-ring.characters[0].fav_dancing",
        "choice",
    ),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("hope", 13)), "systems.one-ring.characters[0].hope", "rule"),
    (
        _with(lambda d: _chars(d, "one-ring").__setitem__("name", "x" * 61)),
        "systems.one-ring.characters[0].name",
        "range",
    ),
    (
        _with(lambda d: _chars(d, "one-ring").__setitem__("name", "a\u0000b")),
        "systems.one-ring.characters[0].name",
        "type",
    ),
    (_with(lambda d: _chars(d, "one-ring").__setitem__("name", 5)), "systems.one-ring.characters[0].name", "type"),
    (_with(lambda d: d["systems"]["one-ring"]["characters"].append("Sam")), "systems.one-ring.characters[2]", "type"),
    (
        _with(lambda d: d["systems"]["one-ring"].__setitem__("characters", [{}] * 41)),
        "systems.one-ring.characters",
        "range",
    ),
    (
        _with(lambda d: _chars(d, "gurps")["skills"][0].__setitem__("level", 41)),
        "systems.gurps.characters[0].skills[0].level",
        "range",
    ),
    (
        _with(lambda d: _chars(d, "gurps")["skills"].append({"name": "x"} | {"lvl": 1})),
        "systems.gurps.characters[0].skills[1].lvl",
        "choice",
    ),
    (_with(lambda d: _chars(d, "gurps").__setitem__("skills", {"a": 1})), "systems.gurps.characters[0].skills", "type"),
    (
        _with(lambda d: _chars(d, "gurps").__setitem__("skills", [{}] * (MAX_ROWS + 1))),
        "systems.gurps.characters[0].skills",
        "range",
    ),
    (
        _with(lambda d: _chars(d, "gurps")["modifiers"][0].__setitem__("value", -31)),
        "systems.gurps.characters[0].modifiers[0].value",
        "range",
    ),
    (_with(lambda d: _chars(d, "gurps").__setitem__("st", 0)), "systems.gurps.characters[0].st", "range"),
    (_with(lambda d: _chars(d, "fate").__setitem__("life", 13)), "systems.fate.characters[0].life", "rule"),
    (_with(lambda d: _chars(d, "fate").__setitem__("favour", 4)), "systems.fate.characters[0].favour", "rule"),
    (_with(lambda d: _chars(d, "fate").__setitem__("life_max", 0)), "systems.fate.characters[0].life_max", "range"),
    (_with(lambda d: d["rolls"].append(5)), "rolls[7]", "type"),
    (_with(lambda d: d["rolls"][0].pop("seed")), "rolls[0].seed", "type"),
    (_with(lambda d: d["rolls"][3].pop("seed")), "rolls[3].seed", "type"),  # revealed: the seed is needed
    (_with(lambda d: d["rolls"][0].__setitem__("seed", 2**64)), "rolls[0].seed", "range"),
    (_with(lambda d: d["rolls"][0].__setitem__("seed", 43)), "rolls[0].result", "rule"),
    (_with(lambda d: d["rolls"][0]["result"].__setitem__("degree", "extraordinary")), "rolls[0].result", "rule"),
    (_with(lambda d: d["rolls"][0].__setitem__("result", None)), "rolls[0].result", "type"),
    (_with(lambda d: d["rolls"][2].__setitem__("result", ROLLS[3]["result"])), "rolls[2].result", "rule"),
    (_with(lambda d: d["rolls"][0].__setitem__("revealed", False)), "rolls[0].revealed", "rule"),
    (_with(lambda d: d["rolls"][0]["check"].__setitem__("tn", 0)), "rolls[0].check.tn", "range"),
    (_with(lambda d: d["rolls"][0]["check"].__setitem__("colour", 0)), "rolls[0].check.colour", "choice"),
    (_with(lambda d: d["rolls"][0].__setitem__("check", [1])), "rolls[0].check", "type"),
    (_with(lambda d: d["rolls"][0].__setitem__("kind", "contest")), "rolls[0].kind", "rule"),
    (_with(lambda d: d["rolls"][0].__setitem__("kind", "duel")), "rolls[0].kind", "choice"),
    (_with(lambda d: d["rolls"][0].__setitem__("system", "gurps-quick")), "rolls[0].system", "choice"),
    (_with(lambda d: d["rolls"][1].__setitem__("check", {"skill": 2})), "rolls[1].check.skill", "rule"),
    (_with(lambda d: d["rolls"][4].__setitem__("extra", {"opponent": 5})), "rolls[4].extra.opponent", "type"),
    (_with(lambda d: d["rolls"][4].__setitem__("extra", {"spy": "x"})), "rolls[4].extra.spy", "choice"),
    (_with(lambda d: d["rolls"][6]["check"].__setitem__("favour_spent", 3)), "rolls[6].check.favour_spent", "rule"),
    (_with(lambda d: d["rolls"][0].__setitem__("note", "x")), "rolls[0].note", "choice"),
    (_with(lambda d: d.__setitem__("rolls", [ROLLS[0]] * 5001)), "rolls", "range"),
    (_with(lambda d: d.__setitem__("exported", 20261130)), "exported", "type"),
]


@pytest.mark.parametrize(
    ("text", "field", "code"), BAD_DOCUMENTS, ids=[f"{i}-{f}-{c}" for i, (_, f, c) in enumerate(BAD_DOCUMENTS)]
)
def test_bad_documents_name_the_field(text, field, code):
    with pytest.raises(InputError) as info:
        read_document(text)
    error = info.value
    assert (error.field, error.code) == (field, code), error
    assert error.message and len(error.message) <= 200


def test_oversized_input_is_refused_before_parsing():
    big = '{"format": "kostka", "pad": "' + "x" * documents.MAX_DOCUMENT_BYTES + '"}'
    with pytest.raises(InputError) as info:
        read_document(big)
    assert (info.value.field, info.value.code) == ("document", "range")
    # counted in UTF-8 bytes, not characters
    cyrillic = '{"pad": "' + "ж" * (documents.MAX_DOCUMENT_BYTES // 2) + '"}'
    with pytest.raises(InputError) as info:
        read_document(cyrillic)
    assert info.value.code == "range"
    with pytest.raises(InputError) as info:
        read_document(cyrillic.encode())
    assert info.value.code == "range"


def test_other_inputs():
    for bad in (None, 5, ["{}"], b"\xff\xfe{}", bytearray(b"\x80")):
        with pytest.raises(InputError) as info:
            read_document(bad)
        assert info.value.field == "document"
    with pytest.raises(InputError):
        dump_document("spells")
    with pytest.raises(InputError) as info:
        dump_document("characters", systems={"fate": {"characters": [{"skill": 99}]}})
    assert info.value.field == "systems.fate.characters[0].skill"


def test_long_values_are_quoted_short():
    doc = bundle()
    _chars(doc, "one-ring")["x" * 5000] = 1
    with pytest.raises(InputError) as info:
        read_document(json.dumps(doc))
    assert len(info.value.field) < 100 and len(info.value.message) < 200
    doc = bundle()
    doc["rolls"][0]["kind"] = "y" * 5000
    with pytest.raises(InputError) as info:
        read_document(json.dumps(doc))
    assert len(info.value.message) < 200 and len(str(info.value.params["value"])) <= 41


def test_a_hidden_secret_roll_may_leave_out_its_seed():
    hidden = {k: v for k, v in ROLLS[2].items() if k != "seed"}
    assert "seed" not in validate_roll_entry(hidden)
    doc = json.loads(dump_document("log", rolls=[hidden]))
    jsonschema.validate(doc, json_schema())
    assert read_document(json.dumps(doc)).rolls[0]["result"] is None


def test_validate_character_and_entry_directly():
    assert validate_character("fate", {"skill": "+7"}) == {"skill": 7}
    assert validate_character("one-ring", {"awe": "\u22122".replace("\u2212", "−")[-1]}) == {"awe": 2}
    with pytest.raises(InputError) as info:
        validate_character("chess", {})
    assert info.value.field == "system"
    with pytest.raises(InputError) as info:
        validate_character("gurps", {"skills": [{"level": "x"}]}, path="sheet")
    assert info.value.field == "sheet.skills[0].level"
    assert validate_roll_entry(ROLLS[0])["result"] == ROLLS[0]["result"]
    with pytest.raises(InputError) as info:
        validate_roll_entry({"number": 1}, path="e")
    assert info.value.field == "e.system"


def test_migrations_cover_every_old_version():
    assert sorted(documents.MIGRATIONS) == list(range(documents.VERSION))


# -- monsters and lenient reading ------------------------------------------------------------------

WOLF = {"name": "Wolf", "life": 9, "life_max": 9, "skill": "4", "stoutness": 2, "stoutness_max": 3}


def test_monsters_travel_with_the_characters():
    doc = bundle()
    doc["monsters"] = {"current": 0, "characters": [WOLF, {"name": "Troll", "life": 30, "life_max": 30}]}
    read = read_document(json.dumps(doc))
    assert read.monsters["characters"][0]["skill"] == 4
    assert read_document(read.to_json()).monsters == read.monsters
    jsonschema.validate(json.loads(read.to_json()), json_schema())
    doc["monsters"]["characters"][1]["stoutness"] = 5
    doc["monsters"]["characters"][1]["stoutness_max"] = 4
    with pytest.raises(InputError) as info:
        read_document(json.dumps(doc))
    assert (info.value.field, info.value.code) == ("monsters.characters[1].stoutness", "rule")
    doc = bundle()
    doc["monsters"] = {"characters": [{"life": -1}]}
    with pytest.raises(InputError) as info:
        read_document(json.dumps(doc))
    assert info.value.field == "monsters.characters[0].life"
    log = json.loads(dump_document("log", rolls=[]))
    log["monsters"] = {"characters": []}
    with pytest.raises(InputError) as info:
        validate_document_dict(log)
    assert info.value.field == "monsters"


def validate_document_dict(data):
    return documents.validate_document(data)


def test_lenient_reading_keeps_everything_readable_and_lists_the_rest():
    doc = bundle()
    frodo = _chars(doc, "one-ring")
    frodo["awe"] = ""  # a field being typed when the page was closed
    frodo["hope"] = 15  # above hope_max 12
    frodo["colour"] = "blue"
    doc["systems"]["one-ring"]["characters"].append("not a character")
    _chars(doc, "gurps")["skills"].append({"name": "Stealth", "level": "-"})
    doc["systems"]["dnd"] = {"characters": []}
    doc["systems"]["fate"]["current"] = 9
    doc["rolls"][0]["seed"] = 43  # an edited entry is dropped whole
    doc["monsters"] = {"characters": [WOLF, {"name": "Bad", "life": "many"}]}
    with pytest.raises(InputError):
        read_document(json.dumps(doc))
    read = read_document(json.dumps(doc), lenient=True)
    fields = sorted(p.field for p in read.problems)
    assert fields == sorted(
        [
            "systems.one-ring.characters[0].awe",
            "systems.one-ring.characters[0].hope",
            "systems.one-ring.characters[0].colour",
            "systems.one-ring.characters[2]",
            "systems.gurps.characters[0].skills[1].level",
            "systems.dnd",
            "systems.fate.current",
            "rolls[0].result",
            "monsters.characters[1].life",
        ]
    )
    assert all(p.message for p in read.problems)
    kept = read.systems["one-ring"]["characters"]
    assert len(kept) == 2 and "awe" not in kept[0] and "hope" not in kept[0] and kept[0]["stealth"] == 3
    assert read.systems["gurps"]["characters"][0]["skills"] == [
        {"name": "Lockpicking", "level": 9},
        {"name": "Stealth"},
    ]
    assert set(read.systems) == {"one-ring", "gurps", "fate"} and read.systems["fate"]["current"] == 0
    assert [r["number"] for r in read.rolls] == [2, 3, 4, 5, 6, 7]
    assert [m["name"] for m in read.monsters["characters"]] == ["Wolf", "Bad"]
    # what lenient reading keeps is a valid strict document
    assert read_document(read.to_json()).systems == read.systems
    # a document that cannot be read at all still raises
    for text in ("{", '{"format": "other"}', '{"format": "kostka", "version": 9, "kind": "log"}'):
        with pytest.raises(InputError):
            read_document(text, lenient=True)
