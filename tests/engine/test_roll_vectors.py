"""Fixed seeded-roll vectors: any change to the generator or to a roll record breaks these.

Shared links replay rolls from their seed, so these values are a contract. The
same vectors (``vectors.json``) are replayed under Pyodide.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import CHECKS, Dice, FateCheck, GurpsCheck, OneRingCheck, QuickContest, make_check, roll_check

VECTORS = json.loads(Path(__file__).with_name("vectors.json").read_text(encoding="utf-8"))


def test_the_raw_dice_stream():
    assert Dice(0).roll(8, 6) == (5, 6, 6, 1, 3, 2, 2, 3)
    assert Dice(42).roll(3, 6) == (4, 5, 1)
    assert Dice(2**64 - 1).roll(4, 12) == (5, 5, 6, 5)


def test_literal_records():
    assert roll_check(OneRingCheck(rating=2, tn=13, feat_mode="favoured"), 42).to_dict() == {
        "system": "one-ring",
        "check": {"rating": 2, "tn": 13, "feat_mode": "favoured", "bonus_dice": 0, "weary": False, "miserable": False},
        "seed": 42,
        "feat_dice": [4, 0],
        "feat_dice_names": ["4", "eye"],
        "kept": 0,
        "feat": 4,
        "success_dice": [1, 1],
        "icons": 0,
        "total": 6,
        "tn": 13,
        "success": False,
        "degree": "failure",
        "automatic": None,
        "margin": -7,
    }
    assert roll_check(GurpsCheck(9, (-5, 10)), 7).to_dict() == {
        "system": "gurps",
        "check": {"skill": 9, "modifiers": [-5, 10], "defence": False},
        "seed": 7,
        "dice": [2, 3, 3],
        "total": 8,
        "effective_skill": 14,
        "success": True,
        "critical": False,
        "outcome": "success",
        "margin": 6,
    }
    assert roll_check(QuickContest(14, 12), 7).to_dict() == {
        "system": "gurps-quick",
        "check": {"a": 14, "b": 12},
        "seed": 7,
        "dice_a": [2, 3, 3],
        "dice_b": [3, 2, 2],
        "total_a": 8,
        "total_b": 7,
        "outcome_a": "success",
        "outcome_b": "success",
        "margin_a": 6,
        "margin_b": 5,
        "winner": "a",
        "margin_of_victory": 1,
    }
    assert roll_check(FateCheck(7, 2, 1, 3), 7).to_dict() == {
        "system": "fate",
        "check": {"skill": 7, "difficulty": 2, "favour_spent": 1, "favour_held": 3, "ties_succeed": False},
        "seed": 7,
        "dice": [2, 3],
        "difficulty": 2,
        "favour_spent": 1,
        "favour_left": 2,
        "result": 6,
        "skill": 7,
        "success": True,
        "margin": 1,
    }


def test_vectors_cover_every_system():
    assert {v["system"] for v in VECTORS} == set(CHECKS)


@pytest.mark.parametrize("vector", VECTORS, ids=lambda v: f"{v['system']}-{v['seed']}")
def test_vector(vector):
    check = make_check(vector["system"], vector["check"])
    assert check.to_dict() == vector["check"]
    record = roll_check(check, vector["seed"]).to_dict()
    assert json.loads(json.dumps(record)) == vector["record"]
