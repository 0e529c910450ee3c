"""The combat commands of ``python -m engine``, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from engine.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "wolf_encounter.json"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def ok(*args: str) -> dict:
    done = run(*args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def test_fate_attack():
    out = ok("odds", "fate-attack", "--attack-skill", "7", "--defence-skill", "8", "--attack-points", "1")
    assert Fraction(out["p_hit_exact"]) == Fraction(575, 1296)
    assert out["p_hit"] + out["p_parry"] == pytest.approx(1)
    assert sum(out["damage"].values()) == pytest.approx(1)
    assert "1" not in out["damage"]  # a hit with 1 favour spent deals at least 2
    halved = ok("odds", "fate-attack", "--attack-skill", "7", "--defence-skill", "8", "--defender-in-defence")
    assert halved["p_hit"] < out["p_hit"]


def test_fate_duel():
    out = ok(
        "odds",
        "fate-duel",
        "--hero-life",
        "12",
        "--hero-skill",
        "7",
        "--hero-favour",
        "3",
        "--monster-life",
        "9",
        "--monster-skill",
        "8",
        "--monster-stoutness",
        "4",
        "--hero-spend",
        "1",
        "--monster-spend",
        "1",
    )
    assert Fraction(out["p_hero_wins_exact"]) + Fraction(out["p_monster_wins_exact"]) == 1
    assert 1 < out["expected_rounds"] < 10
    assert sum(out["rounds"].values()) + out["rounds_tail"] == pytest.approx(1)
    assert sum(out["hero_life_left"].values()) == pytest.approx(out["p_hero_wins"])
    assert out["hero_policy"]["attack_spend"] == 1


def test_simulate_fate_battle_log_and_summary():
    one = ok("simulate", "fate-battle", "--encounter", str(EXAMPLE), "--seed", "5")
    assert one == ok("simulate", "fate-battle", "--encounter", str(EXAMPLE), "--seed", "5")
    assert one["seed"] == 5 and one["log"][0]["event"] == "start" and one["log"][-1]["event"] == "end"
    many = ok("simulate", "fate-battle", "--encounter", str(EXAMPLE), "--seed", "5", "--runs", "30")
    assert many["runs"] == 30 and len(many["p_heroes_win_ci95"]) == 2


def test_monster():
    out = ok("monster", "--seed", "42", "--skill-modifier", "2")
    assert out["seed"] == 42
    m = out["monster"]
    assert m["life"] == 6 + sum(out["dice"]["life"]) and m["skill"] == out["dice"]["skill"] + 2
    assert m["stoutness"] == out["dice"]["stoutness"]
    assert ok("monster", "--seed", "42", "--skill-modifier", "2") == out


@pytest.mark.parametrize(
    "args,field",
    [
        (
            [
                "odds",
                "fate-duel",
                "--hero-life",
                "abc",
                "--hero-skill",
                "7",
                "--monster-life",
                "9",
                "--monster-skill",
                "8",
            ],
            "hero_life",
        ),
        (
            [
                "odds",
                "fate-duel",
                "--hero-life",
                "-3",
                "--hero-skill",
                "7",
                "--monster-life",
                "9",
                "--monster-skill",
                "8",
            ],
            "hero_life",
        ),
        (
            [
                "odds",
                "fate-duel",
                "--hero-life",
                "5",
                "--hero-skill",
                "7",
                "--monster-life",
                "9",
                "--monster-skill",
                "8",
                "--monster-stoutness",
                "x",
            ],
            "monster_stoutness",
        ),
        (
            ["odds", "fate-attack", "--attack-skill", "7", "--defence-skill", "8", "--attack-points", "-1"],
            "attack_points",
        ),
        (["odds", "fate-attack", "--attack-skill", "7"], "arguments"),
        (["simulate", "fate-battle", "--encounter", "/no/such/file.json", "--seed", "1"], "encounter"),
        (["monster", "--seed", "x"], "seed"),
        (["monster", "--seed", "1", "--life-dice", "3"], "life_dice"),
    ],
)
def test_bad_input_exits_2_naming_the_field(args, field):
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"InputError: {field}")
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "content,field",
    [
        ("{not json", "encounter"),
        (
            '{"heroes": [{"name": "A", "life": -4, "skill": 1}], "monsters": [{"name": "W", "life": 9, "skill": 8}]}',
            "heroes[0].life",
        ),
        (
            '{"heroes": [{"name": "A", "life": 4, "skill": 1}], "monsters": [{"name": "W", "life": 9, "skill": 8}],'
            ' "formations": {"heroes": [{"flank": "A"}]}}',
            "formations.heroes[0].flank",
        ),
    ],
)
def test_malformed_encounter_file(tmp_path, content, field):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    done = run("simulate", "fate-battle", "--encounter", str(path), "--seed", "1")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"InputError: {field}")


WOLF = str(Path(__file__).resolve().parents[2] / "examples" / "wolf_encounter.json")


def test_encounter_file_that_is_not_utf8_exits_2_with_one_line(tmp_path, capsys):
    path = tmp_path / "enc.json"
    path.write_bytes(b'\xff\xfe{"heroes": []}')
    assert main(["simulate", "fate-battle", "--encounter", str(path), "--seed", "1"]) == 2
    out, err = capsys.readouterr()
    assert (
        out == ""
        and err.startswith("InputError: encounter: the encounter file is not UTF-8 text")
        and err.count("\n") == 1
    )


@pytest.mark.parametrize(
    "argv",
    [
        [
            "odds",
            "fate-duel",
            "--hero-life",
            "999",
            "--hero-skill",
            "7",
            "--monster-life",
            "999",
            "--monster-skill",
            "8",
        ],
        [
            "odds",
            "fate-duel",
            "--hero-life",
            "150",
            "--hero-skill",
            "7",
            "--monster-life",
            "150",
            "--monster-skill",
            "8",
        ],
        [
            "odds",
            "fate-duel",
            "--hero-life",
            "40",
            "--hero-skill",
            "7",
            "--hero-favour",
            "9",
            "--monster-life",
            "40",
            "--monster-skill",
            "8",
            "--monster-stoutness",
            "9",
        ],
        ["simulate", "fate-battle", "--encounter", WOLF, "--runs", "100000", "--seed", "1"],
        ["simulate", "fate-battle", "--encounter", WOLF, "--runs", "1429", "--seed", "1"],
    ],
)
def test_work_beyond_the_stated_bound_is_refused_before_it_starts(argv, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("InputError: ") and "at most" in err and err.count("\n") == 1


def test_the_bound_is_stated_in_the_help(capsys):
    with pytest.raises(SystemExit):
        main(["odds", "fate-duel", "--help"])
    assert "1000000" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["simulate", "fate-battle", "--help"])
    assert "60000" in capsys.readouterr().out


def test_the_largest_allowed_battle_still_runs(capsys):
    assert main(["simulate", "fate-battle", "--encounter", WOLF, "--runs", "1428", "--seed", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] == 1428
