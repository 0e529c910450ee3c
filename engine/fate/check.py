"""Fate & Doom (a home-made 2d6 system): the skill check — exact odds and seeded rolls.

Result = 2d6 + difficulty − favour spent; the check succeeds when the result is
**below** the hero's skill: a result equal to the skill fails, as the source's
worked example shows (skill 7, difficulty +2, dice 3 and 2: result 7, a
failure; with 2 favour spent, result 5, a pass). ``ties_succeed=True`` is the
table option "ties succeed" (a result equal to the skill passes), which is
also how every roll made before this reading was read: links and documents of
the earlier versions carry it (see :mod:`engine.links`, :mod:`engine.documents`).
Favour is declared before the roll; when ``favour_held`` is given, spending
more than that is refused (:class:`RuleError`).

Ranges: skill 0..30, difficulty −20..20, favour spent 0..30, favour held
0..30 (or ``None`` when the sheet is not known). Margin = skill − result (so
a margin of 0 is a tie: a failure unless ties succeed).

Dice order (generator ``kostka-dice-v1``): ``dice.roll(2, 6)``.

:data:`TWO_D6` and :func:`two_d6` are shared with the combat rules (:mod:`engine.fate.attack`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from .._util import as_dice, check_from_dict, dist_to_dict, put_prob
from ..dist import Dist
from ..errors import InputError, RuleError, check_bool, check_int
from ..rng import Dice

__all__ = ["TWO_D6", "FateCheck", "FateOdds", "FateRoll", "odds", "roll", "success_by_favour", "two_d6"]

SKILL_RANGE = (0, 30)
DIFFICULTY_RANGE = (-20, 20)
FAVOUR_RANGE = (0, 30)

#: The sum of 2d6 (weights over 36).
TWO_D6: Dist[int] = Dist.enumerate([range(1, 7)] * 2, lambda a, b: a + b)
_TWO_D6_ITEMS = tuple(TWO_D6.items())


def two_d6(dice: Dice) -> tuple[int, int]:
    """Two d6 in the order drawn (``dice.roll(2, 6)``)."""
    a, b = dice.roll(2, 6)
    return a, b


@dataclass(frozen=True)
class FateCheck:
    """A skill check: ``skill``, the GM's ``difficulty`` modifier, favour spent (and held, if known).

    ``ties_succeed``: the table option under which a result equal to the skill
    passes (off by default: success needs a result below the skill).
    """

    skill: int
    difficulty: int = 0
    favour_spent: int = 0
    favour_held: int | None = None
    ties_succeed: bool = False

    system: ClassVar[str] = "fate"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "skill", check_int("skill", self.skill, *SKILL_RANGE))
        set_(self, "difficulty", check_int("difficulty", self.difficulty, *DIFFICULTY_RANGE))
        set_(self, "favour_spent", check_int("favour_spent", self.favour_spent, *FAVOUR_RANGE))
        set_(self, "ties_succeed", check_bool("ties_succeed", self.ties_succeed))
        if self.favour_held is not None:
            set_(self, "favour_held", check_int("favour_held", self.favour_held, *FAVOUR_RANGE))
            if self.favour_spent > self.favour_held:
                raise RuleError(
                    "favour_spent",
                    f"cannot spend {self.favour_spent} favour: only {self.favour_held} held",
                    value=self.favour_spent,
                    high=self.favour_held,
                )

    @property
    def modifier(self) -> int:
        """What is added to 2d6: difficulty − favour spent."""
        return self.difficulty - self.favour_spent

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "difficulty": self.difficulty,
            "favour_spent": self.favour_spent,
            "favour_held": self.favour_held,
            "ties_succeed": self.ties_succeed,
        }

    def passes(self, result: int) -> bool:
        """Whether a result passes: below the skill, or equal to it when ties succeed."""
        return result < self.skill or (self.ties_succeed and result == self.skill)

    @classmethod
    def from_dict(cls, data: Any) -> FateCheck:
        if isinstance(data, dict) and "skill" not in data:
            raise InputError("skill", "type", "the skill is required")
        return check_from_dict(cls, data)


@dataclass(frozen=True)
class FateOdds:
    check: FateCheck
    p_success: Fraction
    p_failure: Fraction
    results: Dist[int] = field(repr=False)
    margins: Dist[int] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"system": self.check.system, "check": self.check.to_dict()}
        put_prob(out, "p_success", self.p_success)
        put_prob(out, "p_failure", self.p_failure)
        out["results"] = dist_to_dict(self.results)
        out["margins"] = dist_to_dict(self.margins)
        return out


def _p_success(skill: int, modifier: int, ties_succeed: bool) -> Fraction:
    limit = skill if ties_succeed else skill - 1
    return Fraction(sum(w for t, w in _TWO_D6_ITEMS if t + modifier <= limit), 36)


def odds(check: FateCheck) -> FateOdds:
    """Exact odds of the check, with the distributions of the result and the margin."""
    if not isinstance(check, FateCheck):
        raise InputError("check", "type", f"expected a FateCheck, got {type(check).__name__}")
    p = _p_success(check.skill, check.modifier, check.ties_succeed)
    mod = check.modifier
    return FateOdds(
        check=check,
        p_success=p,
        p_failure=1 - p,
        results=TWO_D6.map(lambda t: t + mod),
        margins=TWO_D6.map(lambda t: check.skill - t - mod),
    )


def success_by_favour(check: FateCheck, max_spend: int) -> dict[int, Fraction]:
    """P(success) for each favour spend 0..``max_spend`` (capped at ``favour_held`` when known)."""
    if not isinstance(check, FateCheck):
        raise InputError("check", "type", f"expected a FateCheck, got {type(check).__name__}")
    max_spend = check_int("max_spend", max_spend, *FAVOUR_RANGE)
    if check.favour_held is not None:
        max_spend = min(max_spend, check.favour_held)
    return {k: _p_success(check.skill, check.difficulty - k, check.ties_succeed) for k in range(max_spend + 1)}


@dataclass(frozen=True)
class FateRoll:
    check: FateCheck
    seed: int
    dice: tuple[int, int]
    result: int
    skill: int
    success: bool
    margin: int
    favour_spent: int

    system: ClassVar[str] = "fate"

    @property
    def favour_short(self) -> int:
        """The least favour that, spent on top of this roll's, would have turned the same dice into a
        success (0 for a success): result − skill + 1 when ties fail, result − skill when they succeed
        (skill 7, result 8: 2 when ties fail, since one point brings a tie, which still fails)."""
        if self.success:
            return 0
        return self.result - self.skill + (0 if self.check.ties_succeed else 1)

    @property
    def favour_left(self) -> int | None:
        """Favour held after the spend (``None`` when not known)."""
        return None if self.check.favour_held is None else self.check.favour_held - self.favour_spent

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "check": self.check.to_dict(),
            "seed": self.seed,
            "dice": list(self.dice),
            "difficulty": self.check.difficulty,
            "favour_spent": self.favour_spent,
            "favour_left": self.favour_left,
            "result": self.result,
            "skill": self.skill,
            "success": self.success,
            "margin": self.margin,
        }


def roll(check: FateCheck, dice: Dice | int) -> FateRoll:
    """Roll 2d6 for the check."""
    if not isinstance(check, FateCheck):
        raise InputError("check", "type", f"expected a FateCheck, got {type(check).__name__}")
    dice = as_dice(dice)
    faces = two_d6(dice)
    result = sum(faces) + check.modifier
    return FateRoll(
        check=check,
        seed=dice.seed,
        dice=faces,
        result=result,
        skill=check.skill,
        success=check.passes(result),
        margin=check.skill - result,
        favour_spent=check.favour_spent,
    )
