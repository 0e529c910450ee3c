"""Links and logs made before the Fate & Doom tie reading changed (fixtures written by that code).

They were rolled when a result equal to the skill passed: they must still verify
and import, read with that reading, and no old roll may change its outcome.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine import FateCheck, InputError, OneRingCheck, documents, links, roll_check
from engine.documents import read_document

FIXTURES = json.loads((Path(__file__).parent / "fixtures" / "legacy_v1.json").read_text(encoding="utf-8"))
LINKS = FIXTURES["links"]


@pytest.mark.parametrize("name", [k for k in LINKS if not k.endswith("reveal")])
def test_old_links_still_verify_and_are_written_back_as_they_were(name):
    verdict = links.verify(LINKS[name])
    assert verdict.status in (links.Status.VERIFIED, links.Status.SEALED)
    assert verdict.link.version == 1
    assert links.encode_link(verdict.link) == LINKS[name]
    if verdict.link.system == "fate":
        assert verdict.link.check.ties_succeed is True


def test_an_old_tie_keeps_its_success():
    old = links.verify(LINKS["fate_seed_21"])
    assert old.link.claim.outcome == "success" and old.roll.result == 7 and old.roll.success
    # the same roll made today fails (ties fail by default), and says so in a link of version 2
    today = links.verify(links.encode_roll_link(FateCheck(7, difficulty=2), seed=21, name="Hero", label="Jump"))
    assert today.verified and today.link.version == links.LINK_VERSION == 2
    assert today.link.claim == links.Claim((3, 2), "failure")
    assert today.link.check.ties_succeed is False


def test_old_session_and_secret_links():
    session = links.verify(LINKS["fate_session"])
    assert session.verified and session.roll.result == session.roll.skill and session.roll.success
    # under the derivation of versions 1 to 3 the reading does not change the dice: the seed is the same
    # under either (version 4 binds it, since it changes the outcome)
    check = session.link.check
    for ties in (False, True):
        same = FateCheck(check.skill, check.difficulty, check.favour_spent, check.favour_held, ties_succeed=ties)
        assert links.session_roll_seed("TABLE", 2, same, "Hero", version=1) == session.link.seed
    assert links.verify(LINKS["fate_secret_sealed"], LINKS["fate_secret_reveal"]).verified
    assert links.verify(LINKS["fate_secret_sealed"], LINKS["fate_secret_revealed"]).verified
    assert links.reveal_link(LINKS["fate_secret_sealed"], LINKS["fate_secret_reveal"]) == LINKS["fate_secret_revealed"]
    assert links.find_gaps([LINKS["fate_session"]])[0].missing == (1,)


def test_an_old_link_cannot_carry_the_new_default():
    link = links.decode_link(LINKS["fate_seed_21"])
    forged = links.Link(**{**link.__dict__, "check": FateCheck(7, difficulty=2)})
    with pytest.raises(InputError) as info:
        links.encode_link(forged)
    assert info.value.field == "check.ties_succeed"


def test_an_edited_old_link_is_caught():
    link = links.decode_link(LINKS["fate_seed_21"])
    forged = links.encode_link(link.__class__(**{**link.__dict__, "claim": links.Claim((3, 2), "failure")}))
    assert links.verify(forged).mismatches == ("claim.outcome",)


@pytest.mark.parametrize("key", ["exported_log", "raw_log"])
def test_old_logs_import_with_the_reading_they_were_rolled_under(key):
    old = FIXTURES[key]
    doc = read_document(json.dumps(old))
    assert doc.migrated_from == 1
    assert len(doc.rolls) == len(old["rolls"])
    for before, after in zip(old["rolls"], doc.rolls, strict=False):
        if before["result"] is None:
            assert after["result"] is None
            continue
        # the outcome and every die stay as they were
        assert after["result"]["success"] == before["result"]["success"]
        for k in ("dice", "feat_dice", "success_dice", "result", "total", "degree"):
            assert after["result"].get(k) == before["result"].get(k)
        if before["system"] == "fate":
            assert after["check"]["ties_succeed"] is True
        if before["system"] == "one-ring" and before["result"]["automatic"]:
            assert after["result"]["margin"] is None  # an automatic outcome has no margin
    tie = doc.rolls[0]
    assert tie["result"]["result"] == tie["result"]["skill"] and tie["result"]["success"] is True
    # written again in the current version, it reads back the same
    again = read_document(doc.to_json())
    assert again.migrated_from == documents.VERSION and again.rolls == doc.rolls


def test_an_edited_old_log_is_still_refused():
    old = copy.deepcopy(FIXTURES["exported_log"])
    old["rolls"][0]["result"]["success"] = False
    with pytest.raises(InputError) as info:
        read_document(json.dumps(old))
    assert info.value.field == "rolls[0].result"


def test_a_version_0_tie_migrates_as_it_was_rolled():
    doc = {
        "format": "kostka",
        "version": 0,
        "kind": "log",
        "rolls": [{"system": "fate", "check": {"skill": 7, "difficulty": 2}, "seed": 21}],
    }
    entry = read_document(json.dumps(doc)).rolls[0]
    assert entry["check"]["ties_succeed"] is True and entry["result"]["success"] is True


def test_new_entries_keep_their_reading():
    for ties in (False, True):
        check = FateCheck(7, difficulty=2, ties_succeed=ties)
        entry = {
            "number": 1,
            "system": "fate",
            "kind": "roll",
            "check": check.to_dict(),
            "seed": 21,
            "result": roll_check(check, 21).to_dict(),
        }
        doc = {"format": "kostka", "version": documents.VERSION, "kind": "log", "rolls": [entry]}
        assert read_document(json.dumps(doc)).rolls[0]["result"]["success"] is ties
    gandalf = OneRingCheck(rating=2, tn=14)
    assert roll_check(gandalf, 19).to_dict()["margin"] is None
