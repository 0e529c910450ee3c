"""Import of GURPS Character Sheet (GCS 5) files: real sheets from GCS's library, and hostile ones."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import InputError
from engine.cli import main
from engine.documents import MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_ROWS, VERSION, read_document
from engine.gcs import read_gcs

DATA = Path(__file__).parent.parent / "data" / "gcs"
SHEETS = sorted(DATA.glob("*.gcs"))


def _leaves(tree):
    """Every leaf row of a GCS list tree, by plain recursion (independent of the importer's walk)."""
    for item in tree or []:
        if "children" in item:
            yield from _leaves(item["children"])
        else:
            yield item


def _weapons(doc):
    """Weapons in hand: of traits that are not disabled, equipment that is equipped, skills and spells."""

    def walk(items, key):
        for item in items or []:
            if item.get("disabled") or (key == "equipment" and item.get("equipped") is False):
                continue
            yield from item.get("weapons", [])
            yield from walk(item.get("children"), key)

    for key in ("traits", "equipment", "skills", "spells"):
        yield from walk(doc.get(key), key)


def _expected_rows(doc):
    rows = []
    for key in ("skills", "spells"):
        for leaf in _leaves(doc.get(key)):
            name = leaf["name"] + (f" ({leaf['specialization']})" if leaf.get("specialization") else "")
            if "calc" in leaf:
                rows.append({"name": name, "level": leaf["calc"]["level"]})
    return rows


def test_the_shipped_sheets_are_real_gcs_5_files_without_portraits():
    assert len(SHEETS) >= 2
    for path in SHEETS:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["version"] == 5
        assert "portrait" not in doc.get("profile", {})
    assert (DATA / "PROVENANCE.md").exists()


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: p.stem)
def test_every_skill_and_spell_comes_at_the_files_own_level(path):
    raw = path.read_bytes()
    doc = json.loads(raw)
    result = read_gcs(raw)
    char = result.character
    assert char["name"] == doc["profile"]["name"]
    assert char["skills"] == _expected_rows(doc)
    assert len(char["skills"]) == sum(1 for k in ("skills", "spells") for _ in _leaves(doc.get(k)))
    assert result.skipped == ()
    by_id = {a["attr_id"]: a["calc"] for a in doc["attributes"]}
    for attr in ("st", "dx", "iq", "ht", "will", "per"):
        assert char[attr] == by_id[attr]["value"]
    for pool in ("hp", "fp"):
        assert char[pool] == by_id[pool]["current"]
        assert char[f"{pool}_max"] == by_id[pool]["value"]
    assert char["dodge"] == doc["calc"]["dodge"][0]
    for kind in ("parry", "block"):
        values = [int(w["calc"][kind].rstrip("F")) for w in _weapons(doc) if kind in w.get("calc", {})]
        assert char.get(kind) == (max(values) if values else None)
    # the CLI's document reads back through Kostka's own door, unchanged
    again = read_document(result.document(), kind="characters")
    assert again.systems["gurps"]["characters"] == [char]


def test_goblin_shaman_in_numbers():
    """Spot values read off the sheet by hand (GCS master library, DFRPG Monsters)."""
    char = read_gcs((DATA / "goblin-shaman.gcs").read_bytes()).character
    assert char["skills"] == [
        {"name": "Bow", "level": 13},
        {"name": "Brawling", "level": 13},
        {"name": "Knife", "level": 13},
        {"name": "Shield (Shield)", "level": 12},
        {"name": "Stealth", "level": 13},
        {"name": "Deathtouch", "level": 10},
    ]
    assert (char["dodge"], char["parry"], char["block"]) == (10, 10, 10)
    assert (char["hp"], char["hp_max"], char["will"], char["per"]) == (11, 11, 11, 11)


def _sheet(**changes):
    doc = json.loads((DATA / "giant-rat.gcs").read_text(encoding="utf-8"))
    doc.update(changes)
    return doc


def _read(doc):
    return read_gcs(json.dumps(doc))


def test_containers_techniques_and_rows_without_a_level():
    doc = _sheet()
    doc["skills"] = [
        {
            "id": "S1",
            "name": "Combat",
            "children": [
                {"id": "s1", "name": "Broadsword", "difficulty": "dx/a", "calc": {"level": 14, "rsl": "DX+1"}},
                {
                    "id": "S2",
                    "name": "Inner",
                    "children": [
                        {
                            "id": "q1",
                            "name": "Disarming",
                            "default": {"type": "skill", "name": "Broadsword"},
                            "difficulty": "h",
                            "calc": {"level": 16, "rsl": "+2"},
                        },
                        {"id": "s2", "name": "Guns", "specialization": "Pistol", "calc": {"level": 11}},
                    ],
                },
            ],
        },
        {"id": "s3", "name": "Savoir-Faire", "specialization": "High Society"},
    ]
    doc["spells"] = [
        {
            "id": "P1",
            "name": "Fire",
            "children": [
                {"id": "p1", "name": "Ignite Fire", "calc": {"level": 12, "rsl": "IQ+1"}},
                {"id": "p2", "name": "Haircut", "prereq_count": 8},
            ],
        }
    ]
    result = _read(doc)
    assert result.character["skills"] == [
        {"name": "Broadsword", "level": 14},
        {"name": "Disarming", "level": 16},
        {"name": "Guns (Pistol)", "level": 11},
        {"name": "Ignite Fire", "level": 12},
    ]
    assert result.skipped == (("Savoir-Faire (High Society)", "no-level"), ("Haircut", "no-level"))


def test_damage_taken_shows_in_current_hp_and_fp():
    doc = _sheet()
    for attr in doc["attributes"]:
        if attr["attr_id"] == "hp":
            attr["calc"]["current"] = -4
        if attr["attr_id"] == "fp":
            attr["calc"]["current"] = 2
    char = _read(doc).character
    assert (char["hp"], char["hp_max"], char["fp"], char["fp_max"]) == (-4, 9, 2, 13)


def test_values_the_sheet_cannot_hold_are_listed_not_guessed():
    doc = _sheet()
    doc["attributes"][0]["calc"]["value"] = 55  # ST of a dragon
    doc["skills"].append({"id": "s9", "name": "Flight", "calc": {"level": 99}})
    doc["skills"].extend({"id": f"x{i}", "name": f"Skill {i}", "calc": {"level": 10}} for i in range(MAX_ROWS))
    result = _read(doc)
    assert "st" not in result.character
    assert len(result.character["skills"]) == MAX_ROWS
    assert ("ST 55", "range") in result.skipped and ("Flight 99", "range") in result.skipped
    # the sheet's own two skills come first, so the last two generated are the ones beyond the bound
    last = [(f"Skill {MAX_ROWS - 2}", "rows"), (f"Skill {MAX_ROWS - 1}", "rows")]
    assert [r for r in result.skipped if r[1] == "rows"] == last


def test_a_real_sized_character_keeps_every_skill_technique_and_spell():
    """A GURPS character easily has 50-90 skills and spells: a generated sheet of 120 keeps them all."""
    raw = (DATA / "generated-120-rows.gcs").read_bytes()
    result = read_gcs(raw)
    assert len(result.character["skills"]) == 120 <= MAX_ROWS and result.skipped == ()
    assert result.character["skills"] == _expected_rows(json.loads(raw))
    assert {"name": "Riding (Horse)", "level": 13} in result.character["skills"]
    assert result.character["skills"][-1] == {"name": "Mind-Reading (Ritual)", "level": 13}
    again = read_document(result.document(), kind="characters")
    assert again.systems["gurps"]["characters"][0]["skills"] == result.character["skills"]


def test_markup_in_names_stays_text():
    doc = _sheet(profile={"name": '<img src=x onerror="alert(1)"> Rat\u202e'})
    doc["skills"][0]["name"] = "<b>Brawling</b>"
    char = _read(doc).character
    assert (
        char["name"] == '<img src=x onerror="alert(1)"> Rat'
    )  # the format character is dropped, the rest kept as text
    assert char["skills"][0]["name"] == "<b>Brawling</b>"
    assert len(_read(_sheet(profile={"name": "x" * 500})).character["name"]) == 60


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0" encoding="US-ASCII" ?>\n<character id="x" version="5"></character>',
        '{"type": "character", "version": 1, "profile": {"name": "Dai"}, "attributes": []}',
        '{"version": 4, "profile": {"name": "Dai"}, "attributes": [{"attr_id": "st", "adj": 0}]}',
        '{"version": 5, "profile": {"name": "Dai"}, "attributes": [{"attr_id": "st", "adj": 0}], "skills": []}',
    ],
)
def test_sheets_from_an_older_gcs_are_refused_with_re_save(text):
    with pytest.raises(InputError) as info:
        read_gcs(text)
    assert "re-save it in a current GCS" in info.value.message
    assert info.value.params["reason"] == "old-gcs"


@pytest.mark.parametrize(
    "text, field",
    [
        ("", "document"),
        ("not json", "document"),
        ("[1, 2]", "gcs"),
        ('{"format": "kostka", "version": 2, "kind": "characters", "systems": {}}', "gcs"),
        ('{"version": 6, "attributes": []}', "gcs"),
        ('{"version": "5", "attributes": []}', "gcs"),
        ('{"version": 5, "attributes": {}}', "gcs"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "document"),
        ('{"version": 5, "version": 5}', "document"),
        ('{"version": 5, "attributes": [], "x": NaN}', "document"),
    ],
)
def test_what_is_not_a_gcs_5_sheet_is_refused(text, field):
    with pytest.raises(InputError) as info:
        read_gcs(text)
    assert info.value.field == field


def test_huge_and_deep_sheets_are_refused_before_parsing():
    with pytest.raises(InputError) as info:
        read_gcs(b" " * (MAX_DOCUMENT_BYTES + 1))
    assert info.value.code == "range"
    doc = _sheet()
    deep: dict = {"id": "s", "name": "leaf", "calc": {"level": 10}}
    for _ in range(MAX_DEPTH):
        deep = {"id": "S", "name": "box", "children": [deep]}
    doc["skills"] = [deep]
    with pytest.raises(InputError) as info:
        _read(doc)
    assert "nested too deeply" in info.value.message


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(skills={"a": 1}),
        lambda d: d.update(skills=[1, 2]),
        lambda d: d["skills"][0].update(children="x"),
    ],
)
def test_wrong_types_in_the_trees_are_refused_with_their_path(mutate):
    doc = _sheet()
    mutate(doc)
    with pytest.raises(InputError) as info:
        _read(doc)
    assert info.value.field.startswith("skills")


def test_wrong_types_in_values_are_left_out_and_listed():
    doc = _sheet(profile={"name": 42}, calc={"dodge": "many"})
    doc["attributes"][1]["calc"]["value"] = [13]
    doc["skills"][0]["calc"]["level"] = "x"
    doc["skills"][1]["calc"] = "15"
    result = _read(doc)
    assert "name" not in result.character and "dx" not in result.character and "dodge" not in result.character
    assert result.character["skills"] == []
    assert ("DX", "type") in result.skipped and ("Dodge", "type") in result.skipped
    assert ("Brawling", "no-level") in result.skipped and ("Stealth", "no-level") in result.skipped


def test_cli_prints_a_kostka_document(capsys):
    assert main(["import", "gcs", str(DATA / "goblin-shaman.gcs")]) == 0
    out, err = capsys.readouterr()
    doc = read_document(out, kind="characters")
    assert json.loads(out)["version"] == VERSION
    assert doc.systems["gurps"]["characters"][0]["name"] == "Goblin, Shaman"
    assert err == ""


def test_cli_lists_what_it_left_out_on_stderr(tmp_path, capsys):
    doc = _sheet()
    doc["spells"] = [{"id": "p", "name": "Haircut"}]
    path = tmp_path / "rat.gcs"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["import", "gcs", str(path)]) == 0
    out, err = capsys.readouterr()
    read_document(out)
    assert err == "left out: Haircut (no-level)\n"


@pytest.mark.parametrize(
    "content",
    [b"\xff\xfe\x00 not utf-8", b'<?xml version="1.0"?><character/>', b"{}", b"", b"[" * 5000],
)
def test_cli_refuses_with_one_line_and_nothing_on_stdout(tmp_path, capsys, content):
    path = tmp_path / "x.gcs"
    path.write_bytes(content)
    assert main(["import", "gcs", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("InputError: ") and err.count("\n") == 1


def test_cli_refuses_a_missing_file(tmp_path, capsys):
    assert main(["import", "gcs", str(tmp_path / "none.gcs")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("InputError: file: cannot read")


def test_the_importer_does_not_change_its_input():
    doc = _sheet()
    before = copy.deepcopy(doc)
    _read(doc)
    assert doc == before


def test_placeholders_are_filled_in_as_gcs_shows_them():
    doc = _sheet()
    doc["skills"] = [
        {
            "id": "s",
            "name": "Hobby Skill (@Hobby@)",
            "specialization": "@Kind@",
            "replacements": {"Hobby": "Cooking", "Kind": "Pies"},
            "calc": {"level": 11},
        },
        {"id": "t", "name": "Lore (@Subject@)", "calc": {"level": 9}},
    ]
    assert _read(doc).character["skills"] == [
        {"name": "Hobby Skill (Cooking) (Pies)", "level": 11},
        {"name": "Lore (@Subject@)", "level": 9},
    ]


def test_parry_and_block_come_only_from_weapons_in_hand():
    doc = json.loads((DATA / "goblin-shaman.gcs").read_text(encoding="utf-8"))
    shield = next(e for e in doc["equipment"] if e["description"] == "Small Shield")
    shield["equipped"] = False
    doc["other_equipment"] = [
        {"id": "x", "description": "Spare shield", "weapons": [{"id": "w", "calc": {"block": "14", "parry": "15"}}]}
    ]
    doc["traits"].append(
        {"id": "t", "name": "Off", "disabled": True, "weapons": [{"id": "w2", "calc": {"parry": "16"}}]}
    )
    char = _read(doc).character
    assert "block" not in char and char["parry"] == 10
