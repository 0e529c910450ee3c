"""The public API: exported names, dispatch, and no dependency outside the standard library."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine import (
    CHECKS,
    FateCheck,
    FateOdds,
    FateRoll,
    GurpsCheck,
    GurpsOdds,
    GurpsRoll,
    InputError,
    OneRingCheck,
    OneRingOdds,
    OneRingRoll,
    QuickContest,
    QuickContestOdds,
    QuickContestRoll,
    RegularContest,
    RegularContestOdds,
    RegularContestRoll,
    make_check,
    odds_of,
    roll_check,
)

RULES_NAMES = {
    "CHECKS",
    "THREE_D6",
    "TWO_D6",
    "Degree",
    "FateCheck",
    "FateOdds",
    "FateRoll",
    "FeatMode",
    "GurpsCheck",
    "GurpsOdds",
    "GurpsRoll",
    "OneRingCheck",
    "OneRingOdds",
    "OneRingRoll",
    "Outcome",
    "QuickContest",
    "QuickContestOdds",
    "QuickContestRoll",
    "RegularContest",
    "RegularContestOdds",
    "RegularContestRoll",
    "fate",
    "gurps",
    "make_check",
    "odds_of",
    "one_ring",
    "p_at_least_one",
    "quick_contest_odds",
    "regular_contest_odds",
    "roll_check",
    "roll_quick_contest",
    "roll_regular_contest",
    "spend_icons",
    "success_by_favour",
    "success_by_tn",
    "target_number",
}
CORE_NAMES = {"GENERATOR", "Dice", "Dist", "EngineError", "InputError", "RuleError", "random_seed", "session_seed"}


def test_exported_names():
    """The rules and core names are exported (other parts of the engine may add their own)."""
    exported = set(engine.__all__)
    assert RULES_NAMES | CORE_NAMES <= exported
    assert len(engine.__all__) == len(exported)
    for name in engine.__all__:
        assert hasattr(engine, name), name


def test_checks_table():
    assert {name: CHECKS[name] for name in ("one-ring", "gurps", "gurps-quick", "gurps-regular", "fate")} == {
        "one-ring": OneRingCheck,
        "gurps": GurpsCheck,
        "gurps-quick": QuickContest,
        "gurps-regular": RegularContest,
        "fate": FateCheck,
    }
    for name, cls in CHECKS.items():
        assert cls.system == name


@pytest.mark.parametrize(
    "check,odds_type,roll_type",
    [
        (OneRingCheck(rating=2, tn=13), OneRingOdds, OneRingRoll),
        (GurpsCheck(12), GurpsOdds, GurpsRoll),
        (QuickContest(12, 10), QuickContestOdds, QuickContestRoll),
        (RegularContest(12, 10), RegularContestOdds, RegularContestRoll),
        (FateCheck(7), FateOdds, FateRoll),
    ],
)
def test_dispatch(check, odds_type, roll_type):
    assert isinstance(odds_of(check), odds_type)
    rolled = roll_check(check, 5)
    assert isinstance(rolled, roll_type)
    assert rolled.seed == 5
    assert rolled == roll_check(check, engine.Dice(5))
    json.dumps(odds_of(check).to_dict())
    json.dumps(rolled.to_dict())
    assert make_check(check.system, check.to_dict()) == check


def test_dispatch_refuses_unknown_things():
    for bad in (None, "one-ring", 3):
        with pytest.raises(InputError):
            odds_of(bad)
        with pytest.raises(InputError):
            roll_check(bad, 1)
    with pytest.raises(InputError) as info:
        make_check("chess", {})
    assert info.value.field == "system"
    with pytest.raises(InputError) as info:
        roll_check(FateCheck(7), -1)
    assert info.value.field == "seed"


def test_engine_imports_only_the_standard_library():
    code = (
        "import sys, json; before = set(sys.modules); import engine, engine.cli; "
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    ).stdout
    loaded = json.loads(out)
    outside = sorted({m.split(".")[0] for m in loaded} - set(sys.stdlib_module_names) - {"engine"})
    assert outside == []
