"""The free dice roller: parsing, bounds, exact odds against brute-force enumeration, seeded rolls."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction

import pytest

from engine import InputError
from engine.cli import main
from engine.dist import Dist
from engine.rng import Dice
from engine.roller import MAX_DICE, MAX_PIPS, parse_dice


def brute(spec: list[tuple[int, int, int | None, bool, int]], constant: int = 0) -> Dist:
    """Every throw of every die, counted: spec is [(count, sides, keep, lowest, sign)]."""
    axes = [range(1, sides + 1) for count, sides, *_ in spec for _ in range(count)]
    counts: Counter[int] = Counter()
    for throw in itertools.product(*axes):
        total, i = constant, 0
        for count, _sides, keep, lowest, sign in spec:
            faces = sorted(throw[i : i + count], reverse=not lowest)
            i += count
            total += sign * sum(faces[: keep or count])
        counts[total] += 1
    return Dist(counts)


@pytest.mark.parametrize(
    "text, spec, constant",
    [
        ("3d6", [(3, 6, None, False, 1)], 0),
        ("2d6+3", [(2, 6, None, False, 1)], 3),
        ("4d6 keep 3", [(4, 6, 3, False, 1)], 0),
        ("4d6k3", [(4, 6, 3, False, 1)], 0),
        ("4D6 KEEP HIGHEST 3", [(4, 6, 3, False, 1)], 0),
        ("2d20 keep lowest 1", [(2, 20, 1, True, 1)], 0),
        ("3d20kl2", [(3, 20, 2, True, 1)], 0),
        ("5d6k2", [(5, 6, 2, False, 1)], 0),
        ("5d4kh1", [(5, 4, 1, False, 1)], 0),
        ("d12", [(1, 12, None, False, 1)], 0),
        ("d100", [(1, 100, None, False, 1)], 0),
        ("d%", [(1, 100, None, False, 1)], 0),
        ("1d8 + 1d6 - 2", [(1, 8, None, False, 1), (1, 6, None, False, 1)], -2),
        ("2d6 - 1d4 + 10 - 3", [(2, 6, None, False, 1), (1, 4, None, False, -1)], 7),
        ("-d6", [(1, 6, None, False, -1)], 0),
        ("3d4k3", [(3, 4, None, False, 1)], 0),
        ("7", [], 7),
        ("2d3k1 + 2d3kl1", [(2, 3, 1, False, 1), (2, 3, 1, True, 1)], 0),
    ],
)
def test_exact_odds_equal_brute_force(text, spec, constant):
    expr = parse_dice(text)
    assert expr.odds() == brute(spec, constant)
    dist = expr.odds()
    assert (min(dist), max(dist)) == (expr.low, expr.high)


@pytest.mark.parametrize("n, s", [(n, s) for n in range(1, 6) for s in (2, 3, 6)])
def test_keep_highest_and_lowest_for_every_k_against_brute_force(n, s):
    for k in range(1, n + 1):
        assert parse_dice(f"{n}d{s}k{k}").odds() == brute([(n, s, k, False, 1)])
        assert parse_dice(f"{n}d{s}kl{k}").odds() == brute([(n, s, k, True, 1)])


def test_odds_json():
    out = parse_dice("2d6").odds_dict()
    assert out["expression"] == "2d6" and (out["min"], out["max"]) == (2, 12)
    assert out["mean_exact"] == "7" and out["totals"]["exact"]["7"] == "1/6"
    assert parse_dice("4 d 6 keep 3").odds_dict()["mean_exact"] == str(Fraction(15869, 1296))


def test_seeded_rolls_follow_the_generator_in_order():
    expr = parse_dice("4d6k3 + d8 - 1")
    roll = expr.roll(7)
    dice = Dice(7)
    faces = dice.roll(4, 6)
    d8 = dice.die(8)
    assert roll.faces == (faces, (d8,))
    kept = sorted(faces, reverse=True)[:3]
    assert roll.total == sum(kept) + d8 - 1
    assert sum(roll.kept[0]) == 3
    again = expr.roll(7)
    assert again == roll
    record = roll.to_dict()
    assert record["expression"] == "4d6k3+1d8-1" and record["seed"] == 7 and record["total"] == roll.total
    json.dumps(record)


def test_fixed_vectors():
    """Any change to the generator or the draw order breaks these."""
    assert parse_dice("2d6+3").roll(7).to_dict()["terms"][0]["faces"] == [2, 3]
    r = parse_dice("4d6 keep 3").roll(7)
    assert (r.faces, r.kept, r.total) == (((2, 3, 3, 3),), ((False, True, True, True),), 9)


def test_equal_faces_keep_the_first_drawn():
    term = parse_dice("4d6k2").terms[0]
    assert term.kept((5, 6, 5, 5)) == (True, True, False, False)
    assert parse_dice("4d6kl2").terms[0].kept((5, 1, 5, 1)) == (False, True, False, True)


def test_rolls_land_in_the_distribution():
    expr = parse_dice("3d6k2 - d4 + 2")
    dist = expr.odds()
    for seed in range(200):
        assert expr.roll(seed).total in dist


@pytest.mark.parametrize(
    "text, what",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("3x6", "syntax"),
        ("2d6+", "syntax"),
        ("2d6 3", "syntax"),
        ("2d6++3", "syntax"),
        ("d6 <b>", "syntax"),
        ("0d6", "dice"),
        ("2d1", "sides"),
        ("2d0", "sides"),
        ("101d6", "dice"),
        ("60d6+60d6", "dice"),
        ("d1001", "sides"),
        ("2d1000", "pips"),
        ("4d6k5", "keep"),
        ("4d6k0", "keep"),
        ("11d6k3", "keep-size"),
        ("2d21k1", "keep-size"),
        ("99999999999999999999d6", "dice"),
        ("d6+10001", "constant"),
        ("+".join(["d2"] * 11), "terms"),
        ("d6" * 60, "length"),
    ],
)
def test_bounds_and_mistakes_are_refused_with_a_reason(text, what):
    with pytest.raises(InputError) as info:
        parse_dice(text)
    assert info.value.field == "dice"
    assert info.value.params["what"] == what


def test_the_largest_allowed_expressions_are_allowed():
    for text in ("100d10", "10d100", "d1000", "10d20k9", f"{MAX_DICE}d{MAX_PIPS // MAX_DICE}"):
        dist = parse_dice(text).odds()
        assert dist.total == parse_dice(text).terms[0].sides ** parse_dice(text).terms[0].count


def test_cli_odds_and_roll(capsys):
    assert main(["odds", "dice", "4d6", "keep", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["expression"] == "4d6k3" and out["min"] == 3
    assert main(["roll", "dice", "2d6+3", "--seed", "7"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 8 and out["seed"] == 7


def test_cli_refuses_in_one_line(capsys):
    assert main(["odds", "dice", "2d1000"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("InputError: dice: too many dice") and err.count("\n") == 1
