"""The One Ring readings: Hope (at most one a roll), attacks against Parry, Protection rolls,
automatic outcomes without a margin — exact odds against brute-force enumeration of every throw."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from engine import InputError, OneRingCheck, one_ring
from engine.cli import main

FEAT = tuple(range(0, 12))  # 0 = Eye, 11 = Gandalf


def brute_p_success(rating: int, bonus: int, tn: int, weary: bool = False) -> Fraction:
    """P(success) of a normal roll, counting every feat face × success dice throw."""
    wins = total = 0
    for feat in FEAT:
        for dice in itertools.product(range(1, 7), repeat=rating + bonus):
            total += 1
            value = (0 if feat in (0, 11) else feat) + sum(0 if weary and d <= 3 else d for d in dice)
            wins += feat == 11 or value >= tn
    return Fraction(wins, total)


def run(capsys, *argv):
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


# -- Hope ----------------------------------------------------------------------------------------


def test_hope_gives_one_die_two_when_inspired_and_never_more():
    assert one_ring.hope_dice(False) == 0 and one_ring.hope_dice(False, True) == 0
    assert one_ring.hope_dice(True) == 1 and one_ring.hope_dice(True, True) == 2
    with pytest.raises(InputError):
        one_ring.hope_dice(2)  # a count of Hope is not a thing: one at most


@pytest.mark.parametrize("rating", [0, 1, 2, 3])
@pytest.mark.parametrize("inspired", [False, True])
def test_hope_odds_match_brute_force(capsys, rating, inspired):
    for tn in (8, 12, 14, 18):
        argv = ["odds", "one-ring", "--rating", str(rating), "--tn", str(tn), "--hope", "--bonus-dice", "1"]
        got = run(capsys, *argv, *(["--inspired"] if inspired else []))
        assert got["check"]["bonus_dice"] == 1 + (2 if inspired else 1)  # the companion's die stays its own
        assert Fraction(got["p_success_exact"]) == brute_p_success(rating, 1 + (2 if inspired else 1), tn)


# -- attack rolls against Parry --------------------------------------------------------------------


@pytest.mark.parametrize("parry", [0, 1, 3, 6])
def test_parry_adds_to_the_tn_from_the_attribute_or_typed_in(capsys, parry):
    for rating in (1, 2, 3):
        by_attribute = run(
            capsys, "odds", "one-ring", "--rating", str(rating), "--attribute", "6", "--parry", str(parry)
        )
        assert by_attribute["check"]["tn"] == 14 + parry
        assert Fraction(by_attribute["p_success_exact"]) == brute_p_success(rating, 0, 14 + parry)
        typed = run(capsys, "odds", "one-ring", "--rating", str(rating), "--tn", "12", "--parry", str(parry), "--weary")
        assert typed["check"]["tn"] == 12 + parry
        assert Fraction(typed["p_success_exact"]) == brute_p_success(rating, 0, 12 + parry, weary=True)
    rolled = run(capsys, "roll", "one-ring", "--rating", "2", "--attribute", "6", "--parry", str(parry), "--seed", "42")
    assert rolled["tn"] == 14 + parry


def test_parry_bounds():
    assert one_ring.attack_tn(14, 3) == 17
    for tn, parry, field in ((14, -1, "parry"), (14, 21, "parry"), (30, 11, "parry"), (0, 2, "tn")):
        with pytest.raises(InputError) as info:
            one_ring.attack_tn(tn, parry)
        assert info.value.field == field
    assert main(["odds", "one-ring", "--rating", "2", "--tn", "30", "--parry", "11"]) == 2


# -- Protection rolls ---------------------------------------------------------------------------


@pytest.mark.parametrize("protection", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("weary", [False, True])
def test_protection_odds_match_brute_force(capsys, protection, weary):
    for injury in (10, 12, 14, 16, 18):
        argv = ["odds", "one-ring", "--protection", str(protection), "--injury", str(injury)] + (
            ["--weary"] if weary else []
        )
        got = run(capsys, *argv)
        assert (got["check"]["rating"], got["check"]["tn"], got["check"]["weary"]) == (protection, injury, weary)
        assert Fraction(got["p_success_exact"]) == brute_p_success(protection, 0, injury, weary)
        assert one_ring.odds(one_ring.protection_check(protection, injury, weary=weary)).p_success == Fraction(
            got["p_success_exact"]
        )


def test_a_protection_roll_is_seeded_like_any_roll(capsys):
    got = run(capsys, "roll", "one-ring", "--protection", "3", "--injury", "14", "--weary", "--seed", "4")
    assert got["success_dice"] == [5, 2, 3] and got["total"] == 12 and not got["success"]  # 2 and 3 count 0 when Weary


@pytest.mark.parametrize(
    "argv",
    [
        ["--protection", "3"],
        ["--injury", "14"],
        ["--protection", "3", "--injury", "14", "--rating", "2"],
        ["--protection", "3", "--injury", "14", "--tn", "12"],
        ["--protection", "3", "--injury", "14", "--parry", "2"],
        ["--protection", "7", "--injury", "14"],
        ["--protection", "3", "--injury", "41"],
    ],
)
def test_protection_arguments_are_checked(capsys, argv):
    assert main(["odds", "one-ring", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("InputError: ")


# -- automatic outcomes -----------------------------------------------------------------------------


def test_a_gandalf_success_has_no_margin(capsys):
    got = run(capsys, "roll", "one-ring", "--rating", "2", "--tn", "14", "--seed", "19")
    assert got["automatic"] == "gandalf" and got["success"] and got["total"] == 7 and got["margin"] is None
    for seed in range(300):
        rolled = one_ring.roll(
            OneRingCheck(
                rating=seed % 4,
                tn=10 + seed % 9,
                feat_mode="favoured" if seed % 2 else "normal",
                miserable=seed % 3 == 0,
            ),
            seed,
        )
        assert (rolled.margin is None) == (rolled.automatic is not None)
        if rolled.margin is not None:
            assert rolled.margin == rolled.total - rolled.tn
