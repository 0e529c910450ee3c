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
