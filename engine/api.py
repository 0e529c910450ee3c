"""Dispatch over the systems: system name → check class, odds and roll functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from . import fate, gurps, one_ring
from .errors import InputError, check_choice
from .rng import Dice

__all__ = ["CHECKS", "make_check", "odds_of", "roll_check"]

#: A check of one of the systems (what :data:`CHECKS` builds).
Check = one_ring.OneRingCheck | gurps.GurpsCheck | gurps.QuickContest | gurps.RegularContest | fate.FateCheck

#: ``system`` name → check class.
CHECKS: dict[str, type[Check]] = {
    one_ring.OneRingCheck.system: one_ring.OneRingCheck,
    gurps.GurpsCheck.system: gurps.GurpsCheck,
    gurps.QuickContest.system: gurps.QuickContest,
    gurps.RegularContest.system: gurps.RegularContest,
    fate.FateCheck.system: fate.FateCheck,
}

_ODDS: dict[type, Callable[[Any], Any]] = {
    one_ring.OneRingCheck: one_ring.odds,
    gurps.GurpsCheck: gurps.odds,
    gurps.QuickContest: gurps.quick_contest_odds,
    gurps.RegularContest: gurps.regular_contest_odds,
    fate.FateCheck: fate.odds,
}

_ROLL: dict[type, Callable[[Any, Dice], Any]] = {
    one_ring.OneRingCheck: one_ring.roll,
    gurps.GurpsCheck: gurps.roll,
    gurps.QuickContest: gurps.roll_quick_contest,
    gurps.RegularContest: gurps.roll_regular_contest,
    fate.FateCheck: fate.roll,
}


def _lookup(table: Mapping[type, Callable[..., Any]], check: Any) -> Callable[..., Any]:
    try:
        return table[type(check)]
    except KeyError:
        raise InputError(
            "check", "type", f"not a check of a known system: {type(check).__name__}", allowed=sorted(CHECKS)
        ) from None


def odds_of(check: Any) -> Any:
    """The exact odds of any check (``OneRingOdds``, ``GurpsOdds``, … by its type)."""
    return _lookup(_ODDS, check)(check)


def roll_check(check: Any, seed: int | Dice) -> Any:
    """Roll any check from a seed (or a :class:`Dice`); returns its roll record."""
    function = _lookup(_ROLL, check)
    dice = seed if isinstance(seed, Dice) else Dice(seed)
    return function(check, dice)


def make_check(system: Any, fields: Any) -> Any:
    """Build the check of ``system`` (a name in :data:`CHECKS`) from a mapping of its fields."""
    name = check_choice("system", system, tuple(CHECKS))
    return CHECKS[name].from_dict(fields)
