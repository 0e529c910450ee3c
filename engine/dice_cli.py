"""Command-line subcommands for the free dice roller (:mod:`engine.roller`).

::

    python -m engine odds dice "4d6 keep 3"
    python -m engine roll dice "2d6+3" --seed 7
"""

from __future__ import annotations

import argparse
from typing import Any, TypeVar

from .errors import check_int
from .rng import MAX_SEED, random_seed
from .roller import MAX_DICE, MAX_PIPS, MAX_SIDES, parse_dice

#: The parser class of the command line's subcommands.
_P = TypeVar("_P", bound=argparse.ArgumentParser)

_HELP = (
    f"a dice expression such as 3d6, 2d6+3, '4d6 keep 3' (or 4d6k3), d12, d100; at most {MAX_DICE} dice, "
    f"{MAX_SIDES} sides a die and dice x sides {MAX_PIPS} in all"
)


def _odds(a: argparse.Namespace) -> dict[str, Any]:
    return parse_dice(" ".join(a.expression)).odds_dict()


def _roll(a: argparse.Namespace) -> dict[str, Any]:
    expression = parse_dice(" ".join(a.expression))
    seed = random_seed() if a.seed is None else check_int("seed", a.seed, 0, MAX_SEED)
    return expression.roll(seed).to_dict()


def register(
    odds: argparse._SubParsersAction[_P],
    rolls: argparse._SubParsersAction[_P],
) -> None:
    """Add ``odds dice`` and ``roll dice``."""
    p = odds.add_parser("dice", help="exact distribution of a dice expression")
    p.add_argument("expression", nargs="+", help=_HELP)
    p.set_defaults(run=_odds)
    p = rolls.add_parser("dice", help="a seeded roll of a dice expression, every die shown")
    p.add_argument("expression", nargs="+", help=_HELP)
    p.add_argument("--seed", help="the seed 0..2**64-1 (random when left out; the record shows it)")
    p.set_defaults(run=_roll)
