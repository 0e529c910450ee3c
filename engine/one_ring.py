"""The One Ring, 2nd edition: checks, exact odds and seeded rolls.

A check rolls one *Feat die* (a d12 with faces 1–10, the Eye of Sauron and the
Gandalf rune) plus as many *Success dice* (d6; a 6 also shows the success
icon) as the ability's rating plus any bonus dice. Total ≥ TN, or the Gandalf
rune, is a success; the number of icons gives its degree.

Readings this module uses (see also the README's "Rules readings"):

- Feat die faces are the integers ``EYE = 0``, ``1..10`` and ``GANDALF = 11``, so
  integer order is the rules' order for "best/worst" (Eye < 1 < … < 10 < Gandalf).
- The Eye counts 0 toward the total. The Gandalf rune is an automatic success
  and also counts **0** toward the total (the total is shown but does not matter).
- *Weary*: success dice showing 1–3 count 0; a 6 still shows its icon.
- *Miserable*: a kept Eye is an automatic failure (whatever the total).
- A favoured or ill-favoured roll whose two feat dice are equal keeps the first.
- ``rating`` is 0–6, ``bonus_dice`` 0–6, ``tn`` 1–40; attributes are 1–19
  (so ``target_number`` gives a TN of 1–19).
- ``automatic`` in a roll record is ``"gandalf"`` whenever the kept feat die is
  the Gandalf rune, ``"eye"`` when the kept die is the Eye on a Miserable roll,
  else ``None``.
- An automatic outcome has no margin: ``margin`` is ``None`` when ``automatic``
  is set (a Gandalf success whose total is below the TN never shows a negative
  margin, nor a Miserable Eye a positive one); otherwise it is total − TN.

Dice order (generator ``kostka-dice-v1``, see :mod:`engine.rng`): feat die 1
(``dice.die(12)``), feat die 2 only when favoured or ill-favoured, then the
success dice left to right (``dice.die(6)`` each, ``rating + bonus_dice`` of
them). A d12 result ``1..10`` is that number, ``11`` is the Eye, ``12`` the
Gandalf rune.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar

from ._util import as_dice, check_from_dict, dist_to_dict, put_prob
from .dist import Dist
from .errors import InputError, RuleError, check_bool, check_choice, check_int
from .rng import Dice

__all__ = [
    "ATTRIBUTES",
    "EYE",
    "GANDALF",
    "PROFICIENCIES",
    "SKILLS",
    "SPECIAL_SUCCESSES",
    "Degree",
    "FeatMode",
    "OneRingCheck",
    "OneRingOdds",
    "OneRingRoll",
    "attack_tn",
    "feat_face_name",
    "hope_dice",
    "protection_check",
    "odds",
    "roll",
    "spend_icons",
    "success_by_tn",
    "target_number",
]

ATTRIBUTES = ("strength", "heart", "wits")
SKILLS: dict[str, str] = {
    **dict.fromkeys(("awe", "athletics", "awareness", "hunting", "song", "craft"), "strength"),
    **dict.fromkeys(("enhearten", "travel", "insight", "healing", "courtesy", "battle"), "heart"),
    **dict.fromkeys(("persuade", "stealth", "scan", "explore", "riddle", "lore"), "wits"),
}
PROFICIENCIES = ("axes", "bows", "spears", "swords")
SPECIAL_SUCCESSES = (
    "cancel_failure",
    "additional_success",
    "gain_insight",
    "go_quietly",
    "make_haste",
    "widen_influence",
)

EYE = 0
GANDALF = 11
FEAT_FACES = tuple(range(EYE, GANDALF + 1))

RATING_RANGE = (0, 6)
TN_RANGE = (1, 40)
#: An adversary's Parry, added to the TN of an attack roll.
PARRY_RANGE = (0, 20)
#: Armour Protection: the number of success dice of a Protection roll.
PROTECTION_RANGE = RATING_RANGE
#: A blow's Injury rating: the TN of the Protection roll.
INJURY_RANGE = TN_RANGE
BONUS_DICE_RANGE = (0, 6)
ATTRIBUTE_RANGE = (1, 19)


class FeatMode(StrEnum):
    NORMAL = "normal"
    FAVOURED = "favoured"
    ILL_FAVOURED = "ill_favoured"


class Degree(StrEnum):
    FAILURE = "failure"
    SUCCESS = "success"
    GREAT = "great"
    EXTRAORDINARY = "extraordinary"


_SUCCESS_DEGREES = (Degree.SUCCESS, Degree.GREAT, Degree.EXTRAORDINARY)


def feat_face_name(face: int) -> str:
    """``"eye"``, ``"gandalf"`` or the number as text."""
    return "eye" if face == EYE else "gandalf" if face == GANDALF else str(face)


def _feat_value(face: int) -> int:
    """What a feat die adds to the total (Eye and Gandalf add 0)."""
    return 0 if face in (EYE, GANDALF) else face


def _success_value(face: int, weary: bool) -> int:
    return 0 if weary and face <= 3 else face


def hope_dice(spend_hope: bool, inspired: bool = False) -> int:
    """Bonus success dice for the Hope spent on a roll: a hero spends at most **one** Hope,
    for one die, two when Inspired (2nd edition). A companion's support is a bonus die of
    its own, added to :attr:`OneRingCheck.bonus_dice` beside these."""
    return (2 if check_bool("inspired", inspired) else 1) if check_bool("spend_hope", spend_hope) else 0


def attack_tn(tn: int, parry: int) -> int:
    """The TN of an attack roll: the Strength TN (or a TN typed in) **plus the adversary's Parry**
    (2nd edition); the sum must be a TN of 1–40."""
    tn = check_int("tn", tn, *TN_RANGE)
    parry = check_int("parry", parry, *PARRY_RANGE)
    if tn + parry > TN_RANGE[1]:
        raise RuleError(
            "parry", f"TN {tn} plus Parry {parry} is above {TN_RANGE[1]}", high=TN_RANGE[1] - tn, value=parry
        )
    return tn + parry


def _feat_mode(value: object) -> FeatMode:
    """A feat mode given as a :class:`FeatMode` or its name; anything else raises :class:`InputError`."""
    return FeatMode(check_choice("feat_mode", str(value) if isinstance(value, FeatMode) else value, tuple(FeatMode)))


def protection_check(
    protection: int,
    injury: int,
    *,
    feat_mode: FeatMode | str = FeatMode.NORMAL,
    bonus_dice: int = 0,
    weary: bool = False,
    miserable: bool = False,
) -> OneRingCheck:
    """A Protection roll after a serious blow: the Feat die plus as many Success dice as the
    armour's Protection rating, against a TN equal to the blow's Injury rating. Weary and
    Miserable apply as to any roll. (It is an ordinary :class:`OneRingCheck`.)"""
    return OneRingCheck(
        rating=check_int("protection", protection, *PROTECTION_RANGE),
        tn=check_int("injury", injury, *INJURY_RANGE),
        feat_mode=_feat_mode(feat_mode),
        bonus_dice=bonus_dice,
        weary=weary,
        miserable=miserable,
    )


def target_number(attribute: int) -> int:
    """The TN of an attribute: ``20 − attribute`` (attribute 1–19)."""
    return 20 - check_int("attribute", attribute, *ATTRIBUTE_RANGE)


@dataclass(frozen=True)
class OneRingCheck:
    """The inputs of one roll: rating 0–6, TN 1–40, feat mode, bonus dice 0–6, Weary, Miserable."""

    rating: int = 0
    tn: int = 14
    feat_mode: FeatMode = FeatMode.NORMAL
    bonus_dice: int = 0
    weary: bool = False
    miserable: bool = False

    system: ClassVar[str] = "one-ring"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "rating", check_int("rating", self.rating, *RATING_RANGE))
        set_(self, "tn", check_int("tn", self.tn, *TN_RANGE))
        set_(
            self,
            "feat_mode",
            _feat_mode(self.feat_mode),
        )
        set_(self, "bonus_dice", check_int("bonus_dice", self.bonus_dice, *BONUS_DICE_RANGE))
        set_(self, "weary", check_bool("weary", self.weary))
        set_(self, "miserable", check_bool("miserable", self.miserable))

    @property
    def success_dice(self) -> int:
        """How many success dice are rolled (rating plus bonus dice)."""
        return self.rating + self.bonus_dice

    def to_dict(self) -> dict[str, Any]:
        return {
            "rating": self.rating,
            "tn": self.tn,
            "feat_mode": str(self.feat_mode),
            "bonus_dice": self.bonus_dice,
            "weary": self.weary,
            "miserable": self.miserable,
        }

    @classmethod
    def from_dict(cls, data: Any) -> OneRingCheck:
        return check_from_dict(cls, data)


# -- exact odds ----------------------------------------------------------------


@cache
def _feat_weights(mode: FeatMode) -> tuple[tuple[int, int], ...]:
    """(kept face, weight) over 12 (normal) or 144 (two dice) equally likely outcomes."""
    if mode is FeatMode.NORMAL:
        return tuple((f, 1) for f in FEAT_FACES)
    pick = max if mode is FeatMode.FAVOURED else min
    counts = dict.fromkeys(FEAT_FACES, 0)
    for a in FEAT_FACES:
        for b in FEAT_FACES:
            counts[pick(a, b)] += 1
    return tuple(counts.items())


@cache
def _success_joint(count: int, weary: bool) -> dict[tuple[int, int], int]:
    """Joint weights of (sum, icons) of ``count`` success dice, over ``6**count`` outcomes."""
    if count == 0:
        return {(0, 0): 1}
    previous = _success_joint(count - 1, weary)
    out: dict[tuple[int, int], int] = {}
    for face in range(1, 7):
        value = _success_value(face, weary)
        icon = face == 6
        for (total, icons), w in previous.items():
            key = (total + value, icons + icon)
            out[key] = out.get(key, 0) + w
    return out


@dataclass(frozen=True)
class _Table:
    """Everything about a check except its TN (shared by all TNs)."""

    denominator: int
    auto_success: tuple[int, int, int]  # Gandalf kept: weights with 0, 1, 2+ icons
    auto_failure: int  # Eye kept on a Miserable roll
    at_least: tuple[tuple[int, int, int], ...]  # at_least[t]: non-automatic outcomes with total >= t, by icon class
    totals: Dist[int]
    icons: Dist[int]
    gandalf: int
    eye: int


@cache
def _table(count: int, mode: FeatMode, weary: bool, miserable: bool) -> _Table:
    joint = _success_joint(count, weary)
    by_total: dict[int, list[int]] = {}
    sums: dict[int, int] = {}
    icon_weights: dict[int, int] = {}
    for (total, icons), w in joint.items():
        by_total.setdefault(total, [0, 0, 0])[min(icons, 2)] += w
        sums[total] = sums.get(total, 0) + w
        icon_weights[icons] = icon_weights.get(icons, 0) + w
    success_total = 6**count
    feat = _feat_weights(mode)
    feat_total = sum(w for _, w in feat)
    top = 10 + 6 * count
    normal = [[0, 0, 0] for _ in range(top + 2)]
    auto_success = [0, 0, 0]
    auto_failure = 0
    totals: dict[int, int] = {}
    gandalf = eye = 0
    for face, wf in feat:
        value = _feat_value(face)
        for s, ws in sums.items():
            totals[value + s] = totals.get(value + s, 0) + wf * ws
        if face == GANDALF:
            gandalf += wf * success_total
            for classes in by_total.values():
                for k in range(3):
                    auto_success[k] += wf * classes[k]
        elif face == EYE and miserable:
            eye += wf * success_total
            auto_failure += wf * success_total
        else:
            if face == EYE:
                eye += wf * success_total
            for s, classes in by_total.items():
                row = normal[value + s]
                for k in range(3):
                    row[k] += wf * classes[k]
    at_least: list[tuple[int, int, int]] = [(0, 0, 0)] * (top + 2)
    running = [0, 0, 0]
    for t in range(top + 1, -1, -1):
        for k in range(3):
            running[k] += normal[t][k]
        at_least[t] = (running[0], running[1], running[2])
    return _Table(
        denominator=feat_total * success_total,
        auto_success=(auto_success[0], auto_success[1], auto_success[2]),
        auto_failure=auto_failure,
        at_least=tuple(at_least),
        totals=Dist(totals),
        icons=Dist({i: w * feat_total for i, w in icon_weights.items()}),
        gandalf=gandalf,
        eye=eye,
    )


def _check_table(check: OneRingCheck) -> _Table:
    if not isinstance(check, OneRingCheck):
        raise InputError("check", "type", f"expected a OneRingCheck, got {type(check).__name__}")
    return _table(check.success_dice, check.feat_mode, check.weary, check.miserable)


def _success_classes(table: _Table, tn: int) -> tuple[int, int, int]:
    index = min(max(tn, 0), len(table.at_least) - 1)
    auto, normal = table.auto_success, table.at_least[index]
    return (auto[0] + normal[0], auto[1] + normal[1], auto[2] + normal[2])


@dataclass(frozen=True)
class OneRingOdds:
    """Exact odds of a check. ``degrees`` sums to 1."""

    check: OneRingCheck
    degrees: dict[Degree, Fraction]
    p_success: Fraction
    p_failure: Fraction
    p_great: Fraction
    p_extraordinary: Fraction
    p_gandalf: Fraction
    p_eye: Fraction
    totals: Dist[int] = field(repr=False)
    icons: Dist[int] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"system": self.check.system, "check": self.check.to_dict()}
        for name in ("p_success", "p_failure", "p_great", "p_extraordinary", "p_gandalf", "p_eye"):
            put_prob(out, name, getattr(self, name))
        out["degrees"] = {str(d): float(p) for d, p in self.degrees.items()}
        out["degrees_exact"] = {str(d): str(p) for d, p in self.degrees.items()}
        out["totals"] = dist_to_dict(self.totals)
        out["icons"] = dist_to_dict(self.icons)
        return out


def odds(check: OneRingCheck) -> OneRingOdds:
    """The exact odds of ``check``: degrees, P(Gandalf), P(Eye), distributions of total and icons."""
    table = _check_table(check)
    den = table.denominator
    plain, great, extraordinary = _success_classes(table, check.tn)
    success = plain + great + extraordinary
    degrees = {
        Degree.FAILURE: Fraction(den - success, den),
        Degree.SUCCESS: Fraction(plain, den),
        Degree.GREAT: Fraction(great, den),
        Degree.EXTRAORDINARY: Fraction(extraordinary, den),
    }
    return OneRingOdds(
        check=check,
        degrees=degrees,
        p_success=Fraction(success, den),
        p_failure=degrees[Degree.FAILURE],
        p_great=degrees[Degree.GREAT],
        p_extraordinary=degrees[Degree.EXTRAORDINARY],
        p_gandalf=Fraction(table.gandalf, den),
        p_eye=Fraction(table.eye, den),
        totals=table.totals,
        icons=table.icons,
    )


def success_by_tn(check: OneRingCheck, tns: Iterable[int]) -> dict[int, Fraction]:
    """P(success) of ``check`` at each TN in ``tns`` (its own ``tn`` is ignored)."""
    table = _check_table(check)
    out: dict[int, Fraction] = {}
    for tn in tns:
        tn = check_int("tn", tn, *TN_RANGE)
        out[tn] = Fraction(sum(_success_classes(table, tn)), table.denominator)
    return out


# -- seeded rolls ---------------------------------------------------------------


@dataclass(frozen=True)
class OneRingRoll:
    """One roll with every die: ``feat_dice[kept]`` is the feat die that counts."""

    check: OneRingCheck
    seed: int
    feat_dice: tuple[int, ...]
    kept: int
    feat: int
    success_dice: tuple[int, ...]
    icons: int
    total: int
    tn: int
    degree: Degree
    automatic: str | None
    margin: int | None

    system: ClassVar[str] = "one-ring"

    @property
    def success(self) -> bool:
        return self.degree is not Degree.FAILURE

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "check": self.check.to_dict(),
            "seed": self.seed,
            "feat_dice": list(self.feat_dice),
            "feat_dice_names": [feat_face_name(f) for f in self.feat_dice],
            "kept": self.kept,
            "feat": self.feat,
            "success_dice": list(self.success_dice),
            "icons": self.icons,
            "total": self.total,
            "tn": self.tn,
            "success": self.success,
            "degree": str(self.degree),
            "automatic": self.automatic,
            "margin": self.margin,
        }


def _feat_from_d12(result: int) -> int:
    """d12 result 1..10 → that number, 11 → Eye, 12 → Gandalf."""
    return EYE if result == 11 else GANDALF if result == 12 else result


def _degree(success: bool, icons: int) -> Degree:
    if not success:
        return Degree.FAILURE
    return _SUCCESS_DEGREES[min(icons, 2)]


def roll(check: OneRingCheck, dice: Dice | int) -> OneRingRoll:
    """Roll ``check`` with ``dice`` (a :class:`Dice` or a seed); see the module docstring for the dice order."""
    if not isinstance(check, OneRingCheck):
        raise InputError("check", "type", f"expected a OneRingCheck, got {type(check).__name__}")
    dice = as_dice(dice)
    two = check.feat_mode is not FeatMode.NORMAL
    feat_dice = tuple(_feat_from_d12(dice.die(12)) for _ in range(2 if two else 1))
    if check.feat_mode is FeatMode.FAVOURED:
        kept = 0 if feat_dice[0] >= feat_dice[1] else 1
    elif check.feat_mode is FeatMode.ILL_FAVOURED:
        kept = 0 if feat_dice[0] <= feat_dice[1] else 1
    else:
        kept = 0
    feat = feat_dice[kept]
    success_dice = dice.roll(check.success_dice, 6)
    icons = sum(1 for f in success_dice if f == 6)
    total = _feat_value(feat) + sum(_success_value(f, check.weary) for f in success_dice)
    if feat == GANDALF:
        automatic: str | None = "gandalf"
        success = True
    elif feat == EYE and check.miserable:
        automatic = "eye"
        success = False
    else:
        automatic = None
        success = total >= check.tn
    return OneRingRoll(
        check=check,
        seed=dice.seed,
        feat_dice=feat_dice,
        kept=kept,
        feat=feat,
        success_dice=success_dice,
        icons=icons,
        total=total,
        tn=check.tn,
        degree=_degree(success, icons),
        automatic=automatic,
        margin=None if automatic else total - check.tn,
    )


def spend_icons(roll: OneRingRoll, choices: Sequence[str]) -> tuple[str, ...]:
    """Validate spending the roll's icons on special successes; returns the choices.

    Each icon buys one of :data:`SPECIAL_SUCCESSES` (the same one may be bought
    more than once); only a successful roll can spend, and at most one choice
    per icon. Spending never changes the roll's degree.
    """
    if not isinstance(roll, OneRingRoll):
        raise InputError("roll", "type", f"expected a OneRingRoll, got {type(roll).__name__}")
    if isinstance(choices, str) or not isinstance(choices, Sequence):
        raise InputError("choices", "type", "expected a list of special successes", allowed=list(SPECIAL_SUCCESSES))
    picked = tuple(check_choice("choices", c, SPECIAL_SUCCESSES) for c in choices)
    if picked and not roll.success:
        raise RuleError("choices", "only a successful roll can spend success icons")
    if len(picked) > roll.icons:
        raise RuleError(
            "choices",
            f"the roll has {roll.icons} icon(s), so at most {roll.icons} special success(es)",
            high=roll.icons,
            value=len(picked),
        )
    return picked
