"""GURPS 4th edition: success rolls, quick and regular contests — exact odds and seeded rolls.

A success roll is 3d6 against the *effective skill* (base skill plus every
modifier): a total ≤ effective skill succeeds, a 3 or 4 always succeeds, a 17
or 18 always fails.

- *Critical success*: 3 or 4; 5 when effective skill ≥ 15; 6 when ≥ 16.
- *Critical failure*: 18; 17 when effective skill ≤ 15; any total ≥ effective
  skill + 10. When both could apply (a 3 or 4 at effective skill ≤ −6, which
  only a defence roll can reach) the 3–4 rule wins: critical success.
- *No roll*: effective skill below 3 is refused (:class:`RuleError`) unless the
  roll is a defence; :func:`odds` and :func:`roll` both refuse, so a check can
  still be built (and shown) before the refusal.
- *Margin*: effective skill − total (negative is a margin of failure).
- *Contests* (quick and regular) are allowed at any effective skill: both sides
  always keep the automatic success on 3–4, so the contest is well defined.
- *Quick contest*: exactly one success wins; otherwise the larger signed margin
  wins, equal margins tie. Margin of victory = winner's margin − loser's
  margin; when the automatic 3–4 / 17–18 rule gives the win to the side with
  the smaller signed margin, the margin of victory is 0.
- *Regular contest*: rounds repeat until exactly one side succeeds. High-skill
  rule (on by default): when both effective skills exceed 14, the higher is
  lowered to 14 and the lower by the same amount.

Ranges: base skill −20..40; up to 20 modifiers of −30..30 each; contest skills
−20..40; tries 0..1000.

Dice order (generator ``kostka-dice-v1``): a success roll takes
``dice.roll(3, 6)``; a quick contest takes A's 3d6 then B's 3d6; a regular
contest repeats A's 3d6, B's 3d6 round after round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any, ClassVar

from ._util import as_dice, check_from_dict, dist_to_dict, put_prob
from .dist import Dist
from .errors import InputError, RuleError, check_bool, check_int
from .rng import Dice

__all__ = [
    "THREE_D6",
    "GurpsCheck",
    "GurpsOdds",
    "GurpsRoll",
    "Outcome",
    "QuickContest",
    "QuickContestOdds",
    "QuickContestRoll",
    "RegularContest",
    "RegularContestOdds",
    "RegularContestRoll",
    "odds",
    "outcome_of",
    "p_at_least_one",
    "quick_contest_odds",
    "regular_contest_odds",
    "roll",
    "roll_quick_contest",
    "roll_regular_contest",
]

SKILL_RANGE = (-20, 40)
MODIFIER_RANGE = (-30, 30)
MAX_MODIFIERS = 20
CONTEST_RANGE = (-20, 40)
TRIES_RANGE = (0, 1000)
HIGH_SKILL_CAP = 14
MIN_ROLL_SKILL = 3

#: The distribution of the sum of 3d6 (weights over 216).
THREE_D6: Dist[int] = Dist.enumerate([range(1, 7)] * 3, lambda a, b, c: a + b + c)
_THREE_D6_ITEMS = tuple(THREE_D6.items())


class Outcome(StrEnum):
    CRITICAL_SUCCESS = "critical_success"
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_FAILURE = "critical_failure"


_SUCCESSES = (Outcome.CRITICAL_SUCCESS, Outcome.SUCCESS)


def outcome_of(total: int, effective_skill: int) -> Outcome:
    """The outcome of a 3d6 ``total`` against ``effective_skill`` (RULES.md section 2)."""
    if total <= 4 or (total == 5 and effective_skill >= 15) or (total == 6 and effective_skill >= 16):
        return Outcome.CRITICAL_SUCCESS
    if total == 18 or (total == 17 and effective_skill <= 15) or total >= effective_skill + 10:
        return Outcome.CRITICAL_FAILURE
    if total <= 16 and total <= effective_skill:
        return Outcome.SUCCESS
    return Outcome.FAILURE


@lru_cache(maxsize=256)
def _outcome_weights(effective_skill: int) -> tuple[int, int, int, int]:
    """Weights (over 216) of critical success, success, failure, critical failure."""
    counts = {o: 0 for o in Outcome}
    for total, w in _THREE_D6_ITEMS:
        counts[outcome_of(total, effective_skill)] += w
    return (
        counts[Outcome.CRITICAL_SUCCESS],
        counts[Outcome.SUCCESS],
        counts[Outcome.FAILURE],
        counts[Outcome.CRITICAL_FAILURE],
    )


@lru_cache(maxsize=256)
def _success_weight(effective_skill: int) -> int:
    cs, s, _, _ = _outcome_weights(effective_skill)
    return cs + s


@dataclass(frozen=True)
class GurpsCheck:
    """A success roll: base ``skill``, ``modifiers`` that add up, and whether it is a ``defence``."""

    skill: int
    modifiers: tuple[int, ...] = ()
    defence: bool = False

    system: ClassVar[str] = "gurps"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "skill", check_int("skill", self.skill, *SKILL_RANGE))
        mods = self.modifiers
        if isinstance(mods, (str, bytes)) or not isinstance(mods, (tuple, list)):
            raise InputError("modifiers", "type", "expected a list of whole numbers", value=mods)
        if len(mods) > MAX_MODIFIERS:
            raise InputError(
                "modifiers", "range", f"at most {MAX_MODIFIERS} modifiers", high=MAX_MODIFIERS, value=len(mods)
            )
        set_(self, "modifiers", tuple(check_int("modifiers", m, *MODIFIER_RANGE) for m in mods))
        set_(self, "defence", check_bool("defence", self.defence))

    @property
    def effective_skill(self) -> int:
        return self.skill + sum(self.modifiers)

    @property
    def allowed(self) -> bool:
        """Whether the rules allow this roll (effective skill ≥ 3, or a defence)."""
        return self.defence or self.effective_skill >= MIN_ROLL_SKILL

    def require_allowed(self) -> None:
        """Raise :class:`RuleError` when the no-roll rule forbids this roll."""
        if not self.allowed:
            raise RuleError(
                "skill",
                f"no roll is allowed at effective skill {self.effective_skill}: it must be at least {MIN_ROLL_SKILL} unless the roll is a defence",
                value=self.effective_skill,
                low=MIN_ROLL_SKILL,
            )

    def to_dict(self) -> dict[str, Any]:
        return {"skill": self.skill, "modifiers": list(self.modifiers), "defence": self.defence}

    @classmethod
    def from_dict(cls, data: Any) -> GurpsCheck:
        if isinstance(data, dict) and "skill" not in data:
            raise InputError("skill", "type", "the skill is required")
        return check_from_dict(cls, data)


def _require(check: Any, cls: type) -> None:
    if not isinstance(check, cls):
        raise InputError("check", "type", f"expected a {cls.__name__}, got {type(check).__name__}")


@dataclass(frozen=True)
class GurpsOdds:
    check: GurpsCheck
    effective_skill: int
    p_success: Fraction
    p_critical_success: Fraction
    p_failure: Fraction
    p_critical_failure: Fraction
    by_roll: dict[int, str]
    margins: Dist[int] = field(repr=False)

    @property
    def outcomes(self) -> dict[Outcome, Fraction]:
        """P of each :class:`Outcome` (exclusive; sums to 1). ``p_success`` includes criticals."""
        return {
            Outcome.CRITICAL_SUCCESS: self.p_critical_success,
            Outcome.SUCCESS: self.p_success - self.p_critical_success,
            Outcome.FAILURE: self.p_failure - self.p_critical_failure,
            Outcome.CRITICAL_FAILURE: self.p_critical_failure,
        }

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "system": self.check.system,
            "check": self.check.to_dict(),
            "effective_skill": self.effective_skill,
        }
        for name in ("p_success", "p_critical_success", "p_failure", "p_critical_failure"):
            put_prob(out, name, getattr(self, name))
        out["by_roll"] = {str(t): o for t, o in self.by_roll.items()}
        out["margins"] = dist_to_dict(self.margins)
        return out


def odds(check: GurpsCheck) -> GurpsOdds:
    """Exact odds of a success roll (p_success and p_failure include their criticals)."""
    _require(check, GurpsCheck)
    check.require_allowed()
    eff = check.effective_skill
    cs, s, f, cf = _outcome_weights(eff)
    return GurpsOdds(
        check=check,
        effective_skill=eff,
        p_success=Fraction(cs + s, 216),
        p_critical_success=Fraction(cs, 216),
        p_failure=Fraction(f + cf, 216),
        p_critical_failure=Fraction(cf, 216),
        by_roll={t: str(outcome_of(t, eff)) for t in range(3, 19)},
        margins=THREE_D6.map(lambda t: eff - t),
    )


@dataclass(frozen=True)
class GurpsRoll:
    check: GurpsCheck
    seed: int
    dice: tuple[int, ...]
    total: int
    effective_skill: int
    success: bool
    critical: bool
    outcome: Outcome
    margin: int

    system: ClassVar[str] = "gurps"

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "check": self.check.to_dict(),
            "seed": self.seed,
            "dice": list(self.dice),
            "total": self.total,
            "effective_skill": self.effective_skill,
            "success": self.success,
            "critical": self.critical,
            "outcome": str(self.outcome),
            "margin": self.margin,
        }


def _success_roll(dice: Dice, effective_skill: int) -> tuple[tuple[int, ...], int, Outcome]:
    faces = dice.roll(3, 6)
    total = sum(faces)
    return faces, total, outcome_of(total, effective_skill)


def roll(check: GurpsCheck, dice: Dice | int) -> GurpsRoll:
    """Roll 3d6 against the check (refused below effective skill 3 unless a defence)."""
    _require(check, GurpsCheck)
    check.require_allowed()
    dice = as_dice(dice)
    eff = check.effective_skill
    faces, total, outcome = _success_roll(dice, eff)
    return GurpsRoll(
        check=check,
        seed=dice.seed,
        dice=faces,
        total=total,
        effective_skill=eff,
        success=outcome in _SUCCESSES,
        critical=outcome in (Outcome.CRITICAL_SUCCESS, Outcome.CRITICAL_FAILURE),
        outcome=outcome,
        margin=eff - total,
    )


def p_at_least_one(p: Fraction, tries: int) -> Fraction:
    """The chance of at least one success in ``tries`` independent attempts of chance ``p``."""
    if isinstance(p, bool) or not isinstance(p, (Fraction, int, float)):
        raise InputError("p", "type", f"expected a probability, got {p!r}")
    p = Fraction(p)
    if not 0 <= p <= 1:
        raise InputError("p", "range", f"a probability is from 0 to 1, got {p}", low=0, high=1)
    tries = check_int("tries", tries, *TRIES_RANGE)
    return 1 - (1 - p) ** tries


# -- quick contest ---------------------------------------------------------------


@dataclass(frozen=True)
class QuickContest:
    """A quick contest between effective skills ``a`` and ``b``."""

    a: int
    b: int

    system: ClassVar[str] = "gurps-quick"

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", check_int("a", self.a, *CONTEST_RANGE))
        object.__setattr__(self, "b", check_int("b", self.b, *CONTEST_RANGE))

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b}

    @classmethod
    def from_dict(cls, data: Any) -> QuickContest:
        for key in ("a", "b"):
            if isinstance(data, dict) and key not in data:
                raise InputError(key, "type", f"the effective skill {key} is required")
        return check_from_dict(cls, data)


def _quick_result(total_a: int, total_b: int, a: int, b: int) -> tuple[str | None, int]:
    """(winner, margin of victory) of one quick contest."""
    win_a = outcome_of(total_a, a) in _SUCCESSES
    win_b = outcome_of(total_b, b) in _SUCCESSES
    margin_a, margin_b = a - total_a, b - total_b
    if win_a != win_b:
        winner = "a" if win_a else "b"
    elif margin_a != margin_b:
        winner = "a" if margin_a > margin_b else "b"
    else:
        return None, 0
    diff = margin_a - margin_b if winner == "a" else margin_b - margin_a
    return winner, max(diff, 0)


@lru_cache(maxsize=1024)
def _quick_dist(a: int, b: int) -> Dist[tuple[str | None, int]]:
    out: dict[tuple[str | None, int], int] = {}
    for ta, wa in _THREE_D6_ITEMS:
        for tb, wb in _THREE_D6_ITEMS:
            key = _quick_result(ta, tb, a, b)
            out[key] = out.get(key, 0) + wa * wb
    return Dist(out)


@dataclass(frozen=True)
class QuickContestOdds:
    contest: QuickContest
    p_a_wins: Fraction
    p_b_wins: Fraction
    p_tie: Fraction
    margin_of_victory: Dist[int] = field(repr=False)
    outcomes: Dist[tuple[str | None, int]] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"system": self.contest.system, "check": self.contest.to_dict()}
        for name in ("p_a_wins", "p_b_wins", "p_tie"):
            put_prob(out, name, getattr(self, name))
        out["margin_of_victory"] = dist_to_dict(self.margin_of_victory)
        return out


def quick_contest_odds(contest: QuickContest) -> QuickContestOdds:
    """Exact odds of a quick contest; ``margin_of_victory`` counts a tie as 0."""
    _require(contest, QuickContest)
    dist = _quick_dist(contest.a, contest.b)
    return QuickContestOdds(
        contest=contest,
        p_a_wins=dist.prob_where(lambda o: o[0] == "a"),
        p_b_wins=dist.prob_where(lambda o: o[0] == "b"),
        p_tie=dist.prob_where(lambda o: o[0] is None),
        margin_of_victory=dist.map(lambda o: o[1]),
        outcomes=dist,
    )


@dataclass(frozen=True)
class QuickContestRoll:
    contest: QuickContest
    seed: int
    dice_a: tuple[int, ...]
    dice_b: tuple[int, ...]
    total_a: int
    total_b: int
    outcome_a: Outcome
    outcome_b: Outcome
    margin_a: int
    margin_b: int
    winner: str | None
    margin_of_victory: int

    system: ClassVar[str] = "gurps-quick"

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "check": self.contest.to_dict(),
            "seed": self.seed,
            "dice_a": list(self.dice_a),
            "dice_b": list(self.dice_b),
            "total_a": self.total_a,
            "total_b": self.total_b,
            "outcome_a": str(self.outcome_a),
            "outcome_b": str(self.outcome_b),
            "margin_a": self.margin_a,
            "margin_b": self.margin_b,
            "winner": self.winner,
            "margin_of_victory": self.margin_of_victory,
        }


def roll_quick_contest(contest: QuickContest, dice: Dice | int) -> QuickContestRoll:
    """Roll a quick contest: A's 3d6, then B's 3d6."""
    _require(contest, QuickContest)
    dice = as_dice(dice)
    dice_a, total_a, outcome_a = _success_roll(dice, contest.a)
    dice_b, total_b, outcome_b = _success_roll(dice, contest.b)
    winner, mov = _quick_result(total_a, total_b, contest.a, contest.b)
    return QuickContestRoll(
        contest=contest,
        seed=dice.seed,
        dice_a=dice_a,
        dice_b=dice_b,
        total_a=total_a,
        total_b=total_b,
        outcome_a=outcome_a,
        outcome_b=outcome_b,
        margin_a=contest.a - total_a,
        margin_b=contest.b - total_b,
        winner=winner,
        margin_of_victory=mov,
    )


# -- regular contest --------------------------------------------------------------


@dataclass(frozen=True)
class RegularContest:
    """A regular contest between effective skills ``a`` and ``b``."""

    a: int
    b: int
    high_skill_rule: bool = True

    system: ClassVar[str] = "gurps-regular"

    def __post_init__(self) -> None:
        object.__setattr__(self, "a", check_int("a", self.a, *CONTEST_RANGE))
        object.__setattr__(self, "b", check_int("b", self.b, *CONTEST_RANGE))
        object.__setattr__(self, "high_skill_rule", check_bool("high_skill_rule", self.high_skill_rule))

    @property
    def adjusted_skills(self) -> tuple[int, int]:
        """The skills actually rolled against, after the high-skill rule (if on)."""
        a, b = self.a, self.b
        if self.high_skill_rule and a > HIGH_SKILL_CAP and b > HIGH_SKILL_CAP:
            cut = max(a, b) - HIGH_SKILL_CAP
            return a - cut, b - cut
        return a, b

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "high_skill_rule": self.high_skill_rule}

    @classmethod
    def from_dict(cls, data: Any) -> RegularContest:
        for key in ("a", "b"):
            if isinstance(data, dict) and key not in data:
                raise InputError(key, "type", f"the effective skill {key} is required")
        return check_from_dict(cls, data)


ROUNDS_SHOWN = 20


@dataclass(frozen=True)
class RegularContestOdds:
    """Exact odds of a regular contest.

    Each round is decided with chance ``p_round``; the number of rounds is
    geometric: P(decided in round k) = (1 − p_round)**(k − 1) · p_round, given
    in ``rounds`` for k = 1..20.
    """

    contest: RegularContest
    adjusted_skills: tuple[int, int]
    p_a_success: Fraction
    p_b_success: Fraction
    p_round: Fraction
    p_a_wins: Fraction
    p_b_wins: Fraction
    expected_rounds: Fraction
    rounds: dict[int, Fraction] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "system": self.contest.system,
            "check": self.contest.to_dict(),
            "adjusted_skills": list(self.adjusted_skills),
        }
        for name in ("p_a_success", "p_b_success", "p_round", "p_a_wins", "p_b_wins", "expected_rounds"):
            put_prob(out, name, getattr(self, name))
        out["rounds"] = {str(k): float(p) for k, p in self.rounds.items()}
        out["rounds_exact"] = {str(k): str(p) for k, p in self.rounds.items()}
        return out


def regular_contest_odds(contest: RegularContest) -> RegularContestOdds:
    """Exact odds of a regular contest (A wins with pA(1−pB) / (pA(1−pB) + pB(1−pA)))."""
    _require(contest, RegularContest)
    a, b = contest.adjusted_skills
    pa = Fraction(_success_weight(a), 216)
    pb = Fraction(_success_weight(b), 216)
    only_a = pa * (1 - pb)
    only_b = pb * (1 - pa)
    decided = only_a + only_b  # > 0: 3-4 always succeeds and 17-18 always fails
    return RegularContestOdds(
        contest=contest,
        adjusted_skills=(a, b),
        p_a_success=pa,
        p_b_success=pb,
        p_round=decided,
        p_a_wins=only_a / decided,
        p_b_wins=only_b / decided,
        expected_rounds=1 / decided,
        rounds={k: (1 - decided) ** (k - 1) * decided for k in range(1, ROUNDS_SHOWN + 1)},
    )


@dataclass(frozen=True)
class RegularContestRoll:
    contest: RegularContest
    seed: int
    adjusted_skills: tuple[int, int]
    rounds: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    winner: str | None
    decided: bool

    system: ClassVar[str] = "gurps-regular"

    def to_dict(self) -> dict[str, Any]:
        a, b = self.adjusted_skills
        return {
            "system": self.system,
            "check": self.contest.to_dict(),
            "seed": self.seed,
            "adjusted_skills": [a, b],
            "rounds": [
                {
                    "dice_a": list(da),
                    "dice_b": list(db),
                    "total_a": sum(da),
                    "total_b": sum(db),
                    "outcome_a": str(outcome_of(sum(da), a)),
                    "outcome_b": str(outcome_of(sum(db), b)),
                }
                for da, db in self.rounds
            ],
            "winner": self.winner,
            "decided": self.decided,
        }


def roll_regular_contest(contest: RegularContest, dice: Dice | int, max_rounds: int = 1000) -> RegularContestRoll:
    """Roll rounds (A's 3d6, then B's) until exactly one side succeeds, or ``max_rounds`` pass (``winner=None``)."""
    _require(contest, RegularContest)
    max_rounds = check_int("max_rounds", max_rounds, 1, 100_000)
    dice = as_dice(dice)
    a, b = contest.adjusted_skills
    rounds = []
    winner = None
    for _ in range(max_rounds):
        da, ta, oa = _success_roll(dice, a)
        db, tb, ob = _success_roll(dice, b)
        rounds.append((da, db))
        sa, sb = oa in _SUCCESSES, ob in _SUCCESSES
        if sa != sb:
            winner = "a" if sa else "b"
            break
    return RegularContestRoll(
        contest=contest,
        seed=dice.seed,
        adjusted_skills=(a, b),
        rounds=tuple(rounds),
        winner=winner,
        decided=winner is not None,
    )
