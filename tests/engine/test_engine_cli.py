"""``python -m engine``: JSON on stdout, or exit 2 with one line on stderr and nothing on stdout."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from engine import FateCheck, GurpsCheck, OneRingCheck, QuickContest, RegularContest, odds_of, roll_check
from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, cwd=ROOT, env=env)


def ok(*args: str) -> dict:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def test_odds_one_ring():
    data = ok(
        "odds", "one-ring", "--rating", "2", "--tn", "13", "--favoured", "--weary", "--miserable", "--bonus-dice", "1"
    )
    expected = odds_of(OneRingCheck(rating=2, tn=13, feat_mode="favoured", weary=True, miserable=True, bonus_dice=1))
    for key in ("p_success", "p_great", "p_extraordinary"):
        assert data[key] == float(getattr(expected, key))
        assert Fraction(data[f"{key}_exact"]) == getattr(expected, key)
    assert ok("odds", "one-ring", "--rating", "2", "--tn", "13")["p_success_exact"] == "1/2"
    assert ok("odds", "one-ring", "--rating", "1", "--attribute", "7", "--ill-favoured")["check"]["tn"] == 13


def test_odds_gurps():
    data = ok("odds", "gurps", "--skill", "10")
    assert data["p_success_exact"] == "1/2"
    assert {"p_success", "p_critical_success", "p_critical_failure"} <= set(data)
    assert ok("odds", "gurps", "--skill", "2", "--defence")["p_success_exact"] == "1/54"
    lock = ok("odds", "gurps", "--skill", "9", "--modifier", "-5", "--modifier", "+10")
    assert lock["effective_skill"] == 14 and lock["p_success_exact"] == "49/54"


def test_odds_contests_and_fate():
    quick = ok("odds", "gurps-quick", "--a", "12", "--b", "10")
    assert quick["p_a_wins"] + quick["p_b_wins"] + quick["p_tie"] == pytest.approx(1)
    assert Fraction(quick["p_a_wins_exact"]) == odds_of(QuickContest(12, 10)).p_a_wins
    regular = ok("odds", "gurps-regular", "--a", "18", "--b", "16")
    assert regular["adjusted_skills"] == [14, 12]
    assert Fraction(regular["expected_rounds_exact"]) == odds_of(RegularContest(18, 16)).expected_rounds
    assert ok("odds", "gurps-regular", "--a", "18", "--b", "16", "--no-high-skill-rule")["adjusted_skills"] == [18, 16]
    fate = ok("odds", "fate", "--skill", "7", "--difficulty", "2", "--favour", "1")
    assert Fraction(fate["p_success_exact"]) == odds_of(FateCheck(7, 2, 1)).p_success


def test_rolls_match_the_engine():
    assert (
        ok("roll", "one-ring", "--rating", "2", "--tn", "13", "--seed", "42")
        == roll_check(OneRingCheck(rating=2, tn=13), 42).to_dict()
    )
    assert (
        ok("roll", "gurps", "--skill", "9", "--modifier", "-5", "--modifier", "+10", "--seed", "7")
        == roll_check(GurpsCheck(9, (-5, 10)), 7).to_dict()
    )
    assert (
        ok("roll", "fate", "--skill", "7", "--favour", "1", "--favour-held", "2", "--seed", "3")
        == roll_check(FateCheck(7, 0, 1, 2), 3).to_dict()
    )
    assert ok("roll", "gurps-quick", "--a", "12", "--b", "11", "--seed", "9")["winner"] in ("a", "b", None)
    assert ok("roll", "gurps-regular", "--a", "12", "--b", "11", "--seed", "9")["decided"] is True
    unseeded = ok("roll", "fate", "--skill", "7")
    assert 0 <= unseeded["seed"] < 2**64


@pytest.mark.parametrize(
    "args,field",
    [
        (("odds", "one-ring", "--rating", "9", "--tn", "13"), "rating"),
        (("odds", "gurps", "--skill", "abc"), "skill"),
        (("odds", "gurps", "--skill", "2"), "skill"),
        (("roll", "gurps", "--skill", "12", "--modifier", "-10", "--seed", "1"), "skill"),
        (("roll", "fate", "--skill", "7", "--favour", "3", "--favour-held", "2", "--seed", "1"), "favour_spent"),
        (("roll", "fate", "--skill", "7", "--seed", "-1"), "seed"),
        (("odds", "one-ring", "--favoured", "--ill-favoured"), "arguments"),
        (("odds", "chess"), "arguments"),
        (("odds",), "arguments"),
        ((), "arguments"),
        (("odds", "gurps"), "arguments"),
        (("odds", "gurps", "--skill", "10", "--unknown"), "arguments"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, field):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"InputError: {field}: ")


def test_main_in_process(capsys):
    assert main(["odds", "fate", "--skill", "7"]) == 0
    assert json.loads(capsys.readouterr().out)["p_success_exact"] == "5/12"  # a tie fails
    assert main(["odds", "fate", "--skill", "7", "--ties-succeed"]) == 0
    assert json.loads(capsys.readouterr().out)["p_success_exact"] == "7/12"
    assert main(["odds", "fate", "--skill", "x"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("InputError: skill: ")
