"""Fate & Doom combat: combatants, the opposed attack, the three-attack rule.

This module holds the rules of a single blow (RULES.md section 3, "Attack")
and the small pieces everything else is built from:

- :class:`Combatant` — a hero (points are *favour*) or a monster (points are
  *stoutness*), with current and maximum life and points;
- :func:`attack` — one opposed attack, from a :class:`~engine.rng.Dice` or
  from dice faces typed in by hand, returning an :class:`AttackRecord`;
- :func:`attack_odds` — its exact odds (hit chance, damage distribution);
- :func:`earns_extra_attack` — the three-attack rule;
- :func:`recover` — the recover action;
- :func:`generate_monster` — the monster sheet from the dice, and :data:`WOLF`;
- :func:`encounter_balance` — monsters' total life against heroes' total
  maximum life.

Exact duel odds live in :mod:`engine.fate.duel`; encounters, formations, the
step-by-step fight and seeded battles in :mod:`engine.fate.battle`.

Readings of the rules (each a **decision** where the source is silent):

- **Damage.** Attack > defence is a hit; damage = difference + the points the
  attacker spent on that attack ("difference", the default). The option
  "one_plus" reads the source literally: 1 + difference for differences of 2
  or more, 1 for a difference of 1, plus the points spent. Equal rolls parry.
- **Defending position** ("at half damage, i.e. the attack roll is divided by
  two"), an **option** with three readings (:data:`HALVING_RULES`):
  ``"roll"`` (the default, the literal text) — the whole attack total 2d6 +
  skill + points is halved, rounded down (a defender of equal skill can then
  not be hit); ``"dice"`` — only 2d6 + points is halved, rounded down, and the
  skill added after; ``"damage"`` — both roll in full and the damage of a hit
  is halved, rounded down (a hit halved to 0 does no damage and counts as
  parried). The defence roll is always made in full; under ``"roll"`` and
  ``"dice"`` the points the attacker spent still add to the damage in full.
- **Three attacks.** A hit whose damage is at least a third of the target's
  life *as it stood just before that hit* (``3 * damage >= life_before``) earns
  a second attack on the same target at once; a second hit whose damage is at
  least half of the life left after the first (``2 * damage >= life_before``)
  earns a third, the last of that creature's turn. A parried attack, a fallen
  target or a smaller hit ends the chain. The limit counts per attacking
  creature (in a duel, per side).
- **Points.** Points are spent before the roll and deducted whether the attack
  hits or not; spending more than held is refused (:class:`~engine.RuleError`).
- **Recover.** Instead of attacking, roll 2d6 + points spent and regain that
  much life, never above the maximum.

Dice order: an attack draws the attacker's two dice, then the defender's two;
a recovery draws two dice; a monster is generated from its life dice (one or
two), then the skill die, then the stoutness die.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from ..dist import Dist
from ..errors import InputError, RuleError, check_bool, check_choice, check_int
from ..rng import Dice
from .check import TWO_D6 as _FATE_TWO_D6

__all__ = [
    "DAMAGE_RULES",
    "HALVING_RULES",
    "KINDS",
    "NEVER",
    "TWO_D6",
    "WOLF",
    "AttackOdds",
    "AttackRecord",
    "Balance",
    "Combatant",
    "GeneratedMonster",
    "Policy",
    "RecoverRecord",
    "attack",
    "attack_odds",
    "damage_for",
    "earns_extra_attack",
    "encounter_balance",
    "generate_monster",
    "margin_weights",
    "recover",
]

#: The sum of two six-sided dice (shared with the skill check).
TWO_D6: Dist[int] = _FATE_TWO_D6
KINDS = ("hero", "monster")
DAMAGE_RULES = ("difference", "one_plus")
#: Readings of the defending position's halving (see the module docstring); the first is the default.
HALVING_RULES = ("roll", "dice", "damage")

MAX_LIFE = 999
MAX_POINTS = 99
SKILL_LOW, SKILL_HIGH = -20, 99
NAME_LENGTH = 40


def _check_name(field_name: str, value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(field_name, "type", "a name must be a non-empty text", value=value)
    name = value.strip()
    if len(name) > NAME_LENGTH:
        raise InputError(field_name, "range", f"a name is at most {NAME_LENGTH} characters long", high=NAME_LENGTH)
    return name


@dataclass(frozen=True)
class Combatant:
    """A hero or a monster in a fight.

    ``points`` are favour of the gods for a hero and stoutness for a monster;
    ``max_life`` and ``max_points`` default to the current values.
    """

    name: str
    kind: str = "hero"
    life: int = 10
    # None (the default) means the current value; __post_init__ always stores an int,
    # so the attributes are ints while the constructor (below, for the type checker) takes None.
    max_life: int = cast(int, None)
    skill: int = 0
    points: int = 0
    max_points: int = cast(int, None)

    if TYPE_CHECKING:

        def __init__(
            self,
            name: str,
            kind: str = "hero",
            life: int = 10,
            max_life: int | None = None,
            skill: int = 0,
            points: int = 0,
            max_points: int | None = None,
        ) -> None: ...

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "name", _check_name("name", self.name))
        set_(self, "kind", check_choice("kind", self.kind, KINDS))
        set_(self, "life", check_int("life", self.life, 0, MAX_LIFE))
        max_life = self.life if self.max_life is None else self.max_life
        set_(self, "max_life", check_int("max_life", max_life, 1, MAX_LIFE))
        if self.life > self.max_life:
            raise InputError(
                "life",
                "range",
                f"must be from 0 to max_life {self.max_life}, got {self.life}",
                value=self.life,
                low=0,
                high=self.max_life,
            )
        set_(self, "skill", check_int("skill", self.skill, SKILL_LOW, SKILL_HIGH))
        set_(self, "points", check_int("points", self.points, 0, MAX_POINTS))
        max_points = self.points if self.max_points is None else self.max_points
        set_(self, "max_points", check_int("max_points", max_points, 0, MAX_POINTS))
        if self.points > self.max_points:
            raise InputError(
                "points",
                "range",
                f"must be from 0 to max_points {self.max_points}, got {self.points}",
                value=self.points,
                low=0,
                high=self.max_points,
            )

    # -- constructors in rulebook words --------------------------------------
    @classmethod
    def hero(
        cls,
        name: str,
        life: int,
        skill: int,
        favour: int = 0,
        *,
        max_life: int | None = None,
        max_favour: int | None = None,
    ) -> Combatant:
        return cls(name, "hero", life, max_life, skill, favour, max_favour)

    @classmethod
    def monster(
        cls,
        name: str,
        life: int,
        skill: int,
        stoutness: int = 0,
        *,
        max_life: int | None = None,
        max_stoutness: int | None = None,
    ) -> Combatant:
        return cls(name, "monster", life, max_life, skill, stoutness, max_stoutness)

    # -- reading ------------------------------------------------------------
    @property
    def points_name(self) -> str:
        """``"favour"`` for a hero, ``"stoutness"`` for a monster."""
        return "favour" if self.kind == "hero" else "stoutness"

    @property
    def alive(self) -> bool:
        return self.life > 0

    def _evolve(self, **changes: int) -> Combatant:
        # Values are already checked by the caller: copy without re-validating.
        new = object.__new__(Combatant)
        new.__dict__.update(self.__dict__)
        new.__dict__.update(changes)
        return new

    def with_life(self, life: int) -> Combatant:
        """The same sheet with ``life`` clamped to 0..max_life."""
        return self._evolve(life=max(0, min(int(life), self.max_life)))

    def with_points(self, points: int) -> Combatant:
        """The same sheet with ``points`` (must be 0..max_points)."""
        points = check_int(self.points_name, points, 0, self.max_points)
        return self._evolve(points=points)

    def to_dict(self) -> dict[str, Any]:
        """The sheet in rulebook words (``favour`` / ``stoutness``)."""
        p = self.points_name
        return {
            "name": self.name,
            "kind": self.kind,
            "life": self.life,
            "max_life": self.max_life,
            "skill": self.skill,
            p: self.points,
            f"max_{p}": self.max_points,
        }

    @classmethod
    def from_dict(cls, data: Any, kind: str | None = None, path: str = "") -> Combatant:
        """Read a sheet written by :meth:`to_dict`; errors name ``path.field``."""
        prefix = f"{path}." if path else ""
        if not isinstance(data, dict):
            raise InputError(path or "combatant", "format", "expected an object with name, life, skill…", value=None)
        kind = kind if kind is not None else data.get("kind", "hero")
        kind = check_choice(f"{prefix}kind", kind, KINDS)
        if "kind" in data and data["kind"] != kind:
            raise InputError(
                f"{prefix}kind",
                "choice",
                f"must be {kind!r} here, got {data['kind']!r}",
                value=data["kind"],
                allowed=[kind],
            )
        p = "favour" if kind == "hero" else "stoutness"
        allowed = {"name", "kind", "life", "max_life", "skill", p, f"max_{p}", "policy"}
        for key in data:
            if key not in allowed:
                raise InputError(
                    f"{prefix}{key}",
                    "choice",
                    f"unknown field; allowed: {', '.join(sorted(allowed))}",
                    value=key,
                    allowed=sorted(allowed),
                )
        for key in ("name", "life", "skill"):
            if key not in data:
                raise InputError(f"{prefix}{key}", "format", "this field is required")
        try:
            return cls(
                data["name"],
                kind,
                data["life"],
                data.get("max_life"),
                data["skill"],
                data.get(p, 0),
                data.get(f"max_{p}"),
            )
        except InputError as error:
            name = {"points": p, "max_points": f"max_{p}"}.get(error.field, error.field)
            raise InputError(f"{prefix}{name}", error.code, error.message, **error.params) from None


#: The seed's example monster sheet.
WOLF = Combatant.monster("Wolf", life=9, skill=8, stoutness=4)


# -- spending policies --------------------------------------------------------
@dataclass(frozen=True)
class Policy:
    """How a creature spends its points and when it recovers.

    ``attack_spend`` points are spent on each attack roll and ``defence_spend``
    on each defence roll, while points last (when fewer are held, all that is
    left is spent). In battles a creature whose life is below
    ``recover_below`` recovers instead of attacking, spending
    ``recover_spend`` points (0 = never recovers).
    """

    attack_spend: int = 0
    defence_spend: int = 0
    recover_below: int = 0
    recover_spend: int = 0

    def __post_init__(self) -> None:
        for name in ("attack_spend", "defence_spend", "recover_spend"):
            object.__setattr__(self, name, check_int(name, getattr(self, name), 0, MAX_POINTS))
        object.__setattr__(self, "recover_below", check_int("recover_below", self.recover_below, 0, MAX_LIFE))

    @classmethod
    def spend(cls, k: int) -> Policy:
        """Spend ``k`` points on every attack while they last."""
        return cls(attack_spend=k)

    def to_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: Any, path: str = "policy") -> Policy:
        if data is None:
            return NEVER
        if isinstance(data, str):
            if data == "never":
                return NEVER
            raise InputError(
                path,
                "choice",
                'a policy is "never" or an object with attack_spend, defence_spend, recover_below, recover_spend',
                value=data,
                allowed=["never"],
            )
        if not isinstance(data, dict):
            raise InputError(path, "format", "expected an object with attack_spend, defence_spend…")
        allowed = tuple(cls.__dataclass_fields__)
        for key in data:
            if key not in allowed:
                raise InputError(
                    f"{path}.{key}",
                    "choice",
                    f"unknown field; allowed: {', '.join(allowed)}",
                    value=key,
                    allowed=list(allowed),
                )
        try:
            return cls(**data)
        except InputError as error:
            raise InputError(f"{path}.{error.field}", error.code, error.message, **error.params) from None


#: Never spend points, never recover.
NEVER = Policy()


# -- one attack ---------------------------------------------------------------
def damage_for(margin: int, points_spent: int, damage_rule: str = "difference") -> int:
    """Damage of a hit won by ``margin`` (> 0) with ``points_spent`` by the attacker."""
    if margin <= 0:
        return 0
    if damage_rule == "one_plus":
        return (margin + 1 if margin >= 2 else 1) + points_spent
    return margin + points_spent


def earns_extra_attack(attack_number: int, damage: int, life_before: int) -> bool:
    """The three-attack rule: does hit number ``attack_number`` earn the next attack?

    ``life_before`` is the target's life just before this hit. The first hit
    needs a third of it (``3 * damage >= life_before``), the second half of it
    (``2 * damage >= life_before``); the third attack is the last. The caller
    also checks the target is still standing.
    """
    if damage <= 0:
        return False
    if attack_number == 1:
        return 3 * damage >= life_before
    if attack_number == 2:
        return 2 * damage >= life_before
    return False


def _check_faces(field_name: str, faces: Any) -> tuple[int, int]:
    if not isinstance(faces, (tuple, list)) or len(faces) != 2:
        raise InputError(field_name, "format", "expected the two faces of 2d6, e.g. [3, 5]", value=None)
    return (check_int(f"{field_name}[0]", faces[0], 1, 6), check_int(f"{field_name}[1]", faces[1], 1, 6))


def _check_spend(field_name: str, value: Any, creature: Combatant) -> int:
    spent = check_int(field_name, value, 0, MAX_POINTS)
    if spent > creature.points:
        raise RuleError(
            field_name,
            f"{creature.name} holds {creature.points} {creature.points_name}, cannot spend {spent}",
            value=spent,
            held=creature.points,
            high=creature.points,
        )
    return spent


@dataclass(frozen=True)
class AttackRecord:
    """Everything about one opposed attack, ready for a log or a dice card."""

    attacker: str
    defender: str
    attack_faces: tuple[int, int]
    defence_faces: tuple[int, int]
    attack_skill: int
    defence_skill: int
    attack_points: int
    defence_points: int
    attack_roll: int  #: 2d6 + skill + points, before halving
    attack_total: int  #: after halving against a defending position (halving "roll" or "dice")
    defence_total: int
    halved: bool
    hit: bool
    margin: int  #: attack_total - defence_total
    damage: int
    damage_rule: str
    life_before: int
    life_after: int
    attacker_points_after: int
    defender_points_after: int
    halving: str = "roll"  #: the reading of the defending position's halving (matters when ``halved``)

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["attack_faces"] = list(self.attack_faces)
        out["defence_faces"] = list(self.defence_faces)
        return out


def attack(
    attacker: Combatant,
    defender: Combatant,
    dice: Dice | None = None,
    *,
    attack_points: int = 0,
    defence_points: int = 0,
    defender_in_defence: bool = False,
    damage_rule: str = "difference",
    attack_faces: Any = None,
    defence_faces: Any = None,
    halving: str = "roll",
) -> AttackRecord:
    """One opposed attack: 2d6 + skill + points against 2d6 + skill + points.

    Give either ``dice`` (the attacker's two dice are drawn first) or both
    ``attack_faces`` and ``defence_faces`` (physical dice typed in).
    Returns the record; the combatants themselves are immutable, apply
    ``life_after`` and the ``*_points_after`` fields to update them.
    """
    if not isinstance(attacker, Combatant) or not isinstance(defender, Combatant):
        raise InputError("combatant", "type", "attacker and defender must be Combatant sheets")
    damage_rule = check_choice("damage_rule", damage_rule, DAMAGE_RULES)
    halving = check_choice("halving", halving, HALVING_RULES)
    halved = check_bool("defender_in_defence", defender_in_defence)
    spent_a = _check_spend("attack_points", attack_points, attacker)
    spent_d = _check_spend("defence_points", defence_points, defender)
    if not defender.alive:
        raise RuleError("defender", f"{defender.name} has fallen and cannot be attacked")
    if not attacker.alive:
        raise RuleError("attacker", f"{attacker.name} has fallen and cannot attack")
    if attack_faces is None and defence_faces is None:
        if dice is None:
            raise InputError("dice", "type", "give a Dice or both attack_faces and defence_faces")
        a_faces = (dice.die(6), dice.die(6))
        d_faces = (dice.die(6), dice.die(6))
    else:
        a_faces = _check_faces("attack_faces", attack_faces)
        d_faces = _check_faces("defence_faces", defence_faces)
    roll = sum(a_faces) + attacker.skill + spent_a
    total = _attack_total(sum(a_faces), attacker.skill, spent_a, halved, halving)
    defence = sum(d_faces) + defender.skill + spent_d
    margin = total - defence
    damage = _damage(margin, spent_a, damage_rule, halved, halving)
    return AttackRecord(
        attacker.name,
        defender.name,
        a_faces,
        d_faces,
        attacker.skill,
        defender.skill,
        spent_a,
        spent_d,
        roll,
        total,
        defence,
        halved,
        damage > 0,
        margin,
        damage,
        damage_rule,
        defender.life,
        max(0, defender.life - damage),
        attacker.points - spent_a,
        defender.points - spent_d,
        halving,
    )


def _attack_total(dice: int, skill: int, points: int, halved: bool, halving: str) -> int:
    """The attack total against the defence: halved per the reading when the target is defending."""
    if halved and halving == "roll":
        return (dice + skill + points) // 2
    if halved and halving == "dice":
        return (dice + points) // 2 + skill
    return dice + skill + points


def _damage(margin: int, points: int, damage_rule: str, halved: bool, halving: str) -> int:
    damage = damage_for(margin, points, damage_rule)
    return damage // 2 if halved and halving == "damage" else damage


@lru_cache(maxsize=8192)
def margin_weights(
    attack_base: int, defence_base: int, halved: bool, halving: str = "roll", attack_skill: int = 0
) -> tuple[tuple[int, int], ...]:
    """Margin distribution of one attack as (margin, weight out of 1296) pairs.

    ``attack_base`` = attacker's skill + points, ``defence_base`` likewise;
    ``attack_skill`` is needed by the ``"dice"`` reading (the skill is added after halving).
    """
    out: dict[int, int] = {}
    for a, wa in TWO_D6.items():
        total = _attack_total(a, attack_skill, attack_base - attack_skill, halved, halving)
        for d, wd in TWO_D6.items():
            m = total - (d + defence_base)
            out[m] = out.get(m, 0) + wa * wd
    return tuple(sorted(out.items()))


@dataclass(frozen=True)
class AttackOdds:
    """Exact odds of one attack; ``damage`` maps damage (0 = parried) to probability."""

    p_hit: Fraction
    p_parry: Fraction
    expected_damage: Fraction
    damage: dict[int, Fraction] = field(hash=False)

    def to_dict(self) -> dict[str, Any]:
        """Floats for reading, with each exact fraction beside it under ``*_exact``."""
        return {
            "p_hit": float(self.p_hit),
            "p_hit_exact": str(self.p_hit),
            "p_parry": float(self.p_parry),
            "p_parry_exact": str(self.p_parry),
            "expected_damage": float(self.expected_damage),
            "expected_damage_exact": str(self.expected_damage),
            "damage": {str(k): float(v) for k, v in self.damage.items()},
            "damage_exact": {str(k): str(v) for k, v in self.damage.items()},
        }


def attack_odds(
    attack_skill: int,
    defence_skill: int,
    attack_points: int = 0,
    defence_points: int = 0,
    defender_in_defence: bool = False,
    damage_rule: str = "difference",
    halving: str = "roll",
) -> AttackOdds:
    """Exact odds of one attack over the 36 x 36 equally likely dice faces."""
    a_skill = check_int("attack_skill", attack_skill, SKILL_LOW, SKILL_HIGH)
    d_skill = check_int("defence_skill", defence_skill, SKILL_LOW, SKILL_HIGH)
    a_pts = check_int("attack_points", attack_points, 0, MAX_POINTS)
    d_pts = check_int("defence_points", defence_points, 0, MAX_POINTS)
    halved = check_bool("defender_in_defence", defender_in_defence)
    damage_rule = check_choice("damage_rule", damage_rule, DAMAGE_RULES)
    halving = check_choice("halving", halving, HALVING_RULES)
    weights: dict[int, int] = {}
    for margin, w in margin_weights(a_skill + a_pts, d_skill + d_pts, halved, halving, a_skill):
        dmg = _damage(margin, a_pts, damage_rule, halved, halving)
        weights[dmg] = weights.get(dmg, 0) + w
    damage = {k: Fraction(w, 1296) for k, w in sorted(weights.items())}
    p_parry = damage.get(0, Fraction(0))
    return AttackOdds(1 - p_parry, p_parry, sum((k * p for k, p in damage.items()), Fraction(0)), damage)


# -- recovery -------------------------------------------------------------------
@dataclass(frozen=True)
class RecoverRecord:
    creature: str
    faces: tuple[int, int]
    points: int
    roll: int
    life_before: int
    life_after: int
    gained: int
    points_after: int

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["faces"] = list(self.faces)
        return out


def recover(creature: Combatant, dice: Dice | None = None, *, points: int = 0, faces: Any = None) -> RecoverRecord:
    """The recover action: 2d6 + points spent, regained up to the maximum life."""
    if not isinstance(creature, Combatant):
        raise InputError("creature", "type", "expected a Combatant sheet")
    spent = _check_spend("points", points, creature)
    if not creature.alive:
        raise RuleError("creature", f"{creature.name} has fallen and cannot recover")
    if faces is None:
        if dice is None:
            raise InputError("dice", "type", "give a Dice or the two faces")
        rolled = (dice.die(6), dice.die(6))
    else:
        rolled = _check_faces("faces", faces)
    roll = sum(rolled) + spent
    after = min(creature.max_life, creature.life + roll)
    return RecoverRecord(
        creature.name, rolled, spent, roll, creature.life, after, after - creature.life, creature.points - spent
    )


# -- monster sheet ----------------------------------------------------------------
@dataclass(frozen=True)
class GeneratedMonster:
    """A monster made from the dice, with the dice that made it."""

    monster: Combatant
    life_dice: tuple[int, ...]
    skill_die: int
    skill_modifier: int
    stoutness_die: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "monster": self.monster.to_dict(),
            "dice": {"life": list(self.life_dice), "skill": self.skill_die, "stoutness": self.stoutness_die},
            "skill_modifier": self.skill_modifier,
            "formula": {
                "life": f"6+{len(self.life_dice)}d6",
                "skill": f"1d6{self.skill_modifier:+d}",
                "stoutness": "1d6",
            },
        }


def generate_monster(
    dice: Dice, skill_modifier: int = 0, life_dice: int = 1, name: str = "Monster"
) -> GeneratedMonster:
    """Life 6 + 1d6 (or 6 + 2d6), Skill 1d6 + modifier, Stoutness 1d6.

    Dice order: the life dice, then the skill die, then the stoutness die.
    A skill below 0 is kept (a very clumsy creature); the GM sets the modifier.
    """
    if not isinstance(dice, Dice):
        raise InputError("dice", "type", "expected a Dice")
    modifier = check_int("skill_modifier", skill_modifier, -20, 20)
    count = check_int("life_dice", life_dice, 1, 2)
    name = _check_name("name", name)
    life = dice.roll(count, 6)
    skill = dice.die(6)
    stout = dice.die(6)
    monster = Combatant.monster(name, life=6 + sum(life), skill=skill + modifier, stoutness=stout)
    return GeneratedMonster(monster, life, skill, modifier, stout)


# -- balance ------------------------------------------------------------------------
#: Upper bounds (inclusive) of monsters' life / heroes' max life for each verdict.
BALANCE_THRESHOLDS = ((Fraction(3, 4), "easy"), (Fraction(5, 4), "even"), (Fraction(7, 4), "hard"))


@dataclass(frozen=True)
class Balance:
    monsters_life: int
    heroes_max_life: int
    ratio: Fraction
    verdict: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "monsters_life": self.monsters_life,
            "heroes_max_life": self.heroes_max_life,
            "ratio": float(self.ratio),
            "verdict": self.verdict,
            "thresholds": {v: float(t) for t, v in BALANCE_THRESHOLDS},
        }


def encounter_balance(heroes: Any, monsters: Any) -> Balance:
    """Monsters' total (current) life against heroes' total maximum life.

    Verdict by the ratio r = monsters' life / heroes' max life: easy below
    3/4, even up to 5/4, hard up to 7/4, deadly above (the source asks for
    r near 1). Strictly: r < 3/4 easy; 3/4 <= r <= 5/4 even; 5/4 < r <= 7/4 hard.
    """
    heroes = list(heroes)
    monsters = list(monsters)
    if not heroes:
        raise InputError("heroes", "range", "an encounter needs at least one hero", low=1)
    if not monsters:
        raise InputError("monsters", "range", "an encounter needs at least one monster", low=1)
    h = sum(c.max_life for c in heroes)
    m = sum(c.life for c in monsters)
    ratio = Fraction(m, h)
    if ratio < BALANCE_THRESHOLDS[0][0]:
        verdict = "easy"
    elif ratio <= BALANCE_THRESHOLDS[1][0]:
        verdict = "even"
    elif ratio <= BALANCE_THRESHOLDS[2][0]:
        verdict = "hard"
    else:
        verdict = "deadly"
    return Balance(m, h, ratio, verdict)
