"""GURPS: the sheet (attributes, pools, defences, skills) and the desk (modifiers, defence and
secret switches, tries, a contest), with what GURPS says at a level of HP or FP. No Panel import.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import param

from engine import InputError, gurps
from engine.links import without_refused
from engine.sheets import MODIFIER_RANGE, SKILL_RANGE

from ..i18n import N_
from .forms import (
    MAX_NAME,
    MAX_ROWS,
    Form,
    cap_check,
    clean_row_names,
    form_flag,
    form_text,
    input_names,
    parse_int,
    sheet_form,
)
from .log import LogEntry
from .roster import Roster

__all__ = [
    "GURPS_ATTRIBUTES",
    "GURPS_DEFENCES",
    "GURPS_LABELS",
    "GURPS_OUTCOMES",
    "GURPS_POOL_STATES",
    "GURPS_ROLLS",
    "MAX_ROWS",
    "MODIFIER_RANGE",
    "SKILL_RANGE",
    "GurpsCharacter",
    "GurpsDesk",
    "pool_state",
]

GURPS_ATTRIBUTES = ("st", "dx", "iq", "ht")
GURPS_LABELS = {
    "st": N_("ST"),
    "dx": N_("DX"),
    "iq": N_("IQ"),
    "ht": N_("HT"),
    "will": N_("Will"),
    "per": N_("Per"),
    "hp": N_("HP"),
    "hp_max": N_("HP (max)"),
    "fp": N_("FP"),
    "fp_max": N_("FP (max)"),
    "dodge": N_("Dodge"),
    "parry": N_("Parry"),
    "block": N_("Block"),
}
#: Rolled like a skill, one tap away on the sheet.
GURPS_ROLLS = ("will", "per")
#: Active defences: rolled as defence rolls.
GURPS_DEFENCES = ("dodge", "parry", "block")
#: What GURPS says at a level of HP or FP (state only, Basic Set pp. 419 and 426).
GURPS_POOL_STATES = {
    "reeling": N_("Reeling (below 1/3 HP): Move and Dodge are halved."),
    "collapse": N_("0 HP or less: roll vs HT every turn to stay conscious; Move and Dodge are halved."),
    "dying": N_("At −{k}×HP: roll vs HT to avoid death; roll vs HT every turn to stay conscious."),
    "dead": N_("At −5×HP: dead."),
    "destroyed": N_("At −10×HP: the body is destroyed."),
    "tired": N_("Tired (below 1/3 FP): Move, Dodge and ST are halved."),
    "fp_collapse": N_("0 FP or less: roll vs Will to do anything but talk or rest; every FP lost costs 1 HP as well."),
    "unconscious": N_("At −FP: unconscious."),
}


def pool_state(kind: str, current: int, maximum: int) -> tuple[str, dict[str, int]] | None:
    """What GURPS says for ``current`` HP or FP of ``maximum`` (a key of GURPS_POOL_STATES and its params)."""
    if kind == "hp":
        if current <= -10 * maximum:
            return "destroyed", {}
        if current <= -5 * maximum:
            return "dead", {}
        if current <= -maximum:
            return "dying", {"k": min(4, -current // maximum)}
        if current <= 0:
            return "collapse", {}
        if 3 * current < maximum:
            return "reeling", {}
        return None
    if current <= -maximum:
        return "unconscious", {}
    if current <= 0:
        return "fp_collapse", {}
    if 3 * current < maximum:
        return "tired", {}
    return None


GURPS_OUTCOMES = {
    "critical_success": N_("Critical success"),
    "success": N_("Success"),
    "failure": N_("Failure"),
    "critical_failure": N_("Critical failure"),
}


@sheet_form(exclude=("modifiers",))  # the roll's modifiers are the desk's
class GurpsCharacter(Form):
    """A GURPS sheet: name, attributes, pools, defences and a list of skills with levels (the sheet's fields)."""

    system: ClassVar[str] = "gurps"

    skills = param.List(default=[], doc='[{"name": text, "level": text}, ...]')

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**cap_check(values, "hp", "hp_max"), **cap_check(values, "fp", "fp_max")}

    def step(self, pool: str, delta: int) -> None:
        """The +/− stepper of ``pool`` ("hp" or "fp"): current moves by ``delta``, within its bounds and maximum."""
        low, high = self.BOUNDS[pool]
        try:
            current = parse_int(pool, getattr(self, pool), low, high)
        except InputError:
            return  # a field being corrected is not overwritten
        try:
            high = min(high, parse_int(f"{pool}_max", getattr(self, f"{pool}_max"), *self.BOUNDS[f"{pool}_max"]))
        except InputError:
            pass
        setattr(self, pool, str(max(low, min(high, current + delta))))

    def pool_state(self, pool: str) -> tuple[str, dict[str, int]] | None:
        """What GURPS says at the current HP or FP (None when healthy or while a field is bad)."""
        values = self.parse()
        if pool in values and f"{pool}_max" in values:
            return pool_state(pool, values[pool], values[f"{pool}_max"])
        return None

    def __init__(self, **params: Any) -> None:
        params.setdefault("skills", [{"name": "", "level": "10"}])
        super().__init__(**params)
        self.param.watch(lambda e: clean_row_names(self, "skills"), "skills")
        clean_row_names(self, "skills")

    def skill_level(self, index: int) -> int:
        """The level of skill ``index``; raises InputError naming the row."""
        if not 0 <= index < len(self.skills):
            raise InputError("skill", "range", "no such skill", low=0, high=len(self.skills) - 1)
        return parse_int(f"skill_{index}", self.skills[index].get("level", ""), *SKILL_RANGE)

    def skill_errors(self) -> dict[str, InputError]:
        errors = {}
        for i in range(len(self.skills)):
            try:
                self.skill_level(i)
            except InputError as error:
                errors[f"skill_{i}"] = error
        return errors

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["skills"] = [{"name": s.get("name", ""), "level": s.get("level", "")} for s in self.skills]
        return out

    @classmethod
    def updates_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        updates = super().updates_from(data)
        if isinstance(data.get("skills"), list):
            updates["skills"] = [
                {"name": without_refused(form_text(s.get("name"))[:MAX_NAME]), "level": form_text(s.get("level"))}
                for s in data["skills"][:MAX_ROWS]
                if isinstance(s, dict)
            ]
        return updates


class GurpsDesk(Form):
    """A GURPS character plus the roll's modifiers, defence/secret switches and a contest."""

    system: ClassVar[str] = "gurps"
    BOUNDS = {"tries": (1, 100), "opponent_level": SKILL_RANGE}
    FLAGS = ("defence", "secret", "high_skill_rule")

    skill_index = param.Integer(default=0, bounds=(0, None))
    target = param.Selector(
        default="skill",
        objects=["skill", *GURPS_ROLLS, *GURPS_DEFENCES],
        doc="What is rolled: the chosen skill, Will, Per or an active defence",
    )
    modifiers = param.List(
        default=[],
        doc='[{"name": text, "value": text[, "keep": True]}, ...] for the next roll; '
        'a row without "keep" belongs to one roll and is cleared after it',
    )
    defence = param.Boolean(default=False)
    secret = param.Boolean(default=False, doc="GM roll: the result stays hidden until revealed")
    tries = param.String(default="1")
    contest = param.Selector(default="quick", objects=["quick", "regular"])
    opponent = param.String(default="number", doc='"number" or "<character index>:<skill index>"')
    opponent_level = param.String(default="10")
    high_skill_rule = param.Boolean(default=True)

    effective = param.Parameter(default=None, doc="Effective skill, or None while an input is bad")
    check = param.Parameter(default=None)
    odds = param.Parameter(default=None)
    p_any = param.Parameter(default=None, doc="P(at least one success in `tries` tries)")
    contest_odds = param.Parameter(default=None)
    last = param.Parameter(default=None)
    last_contest = param.Parameter(default=None)
    #: The modifiers of the last roll and of the last contest, as ((name, value), ...): their results name them.
    last_modifiers = param.Parameter(default=())
    last_contest_modifiers = param.Parameter(default=())
    check_error = param.Parameter(default=None, doc="InputError that stops the check (e.g. no roll below 3)")

    def __init__(self, roster: Roster | None = None, **params: Any) -> None:
        params.setdefault("character", GurpsCharacter())
        self.character = params.pop("character")
        self.roster = roster
        super().__init__(**params)
        self.param.watch(lambda e: clean_row_names(self, "modifiers"), "modifiers")
        self.character.param.watch(self.refresh, input_names(self.character))
        self.param.watch(
            self.refresh,
            [
                "skill_index",
                "target",
                "modifiers",
                "defence",
                "tries",
                "contest",
                "opponent",
                "opponent_level",
                "high_skill_rule",
            ],
        )
        self.refresh()

    def modifier_errors(self) -> dict[str, InputError]:
        errors = {}
        for i, row in enumerate(self.modifiers):
            try:
                parse_int(f"modifier_{i}", row.get("value", ""), *MODIFIER_RANGE)
            except InputError as error:
                errors[f"modifier_{i}"] = error
        return errors

    def modifier_values(self) -> tuple[int, ...]:
        return tuple(
            parse_int(f"modifier_{i}", row.get("value", ""), *MODIFIER_RANGE) for i, row in enumerate(self.modifiers)
        )

    def modifier_total(self) -> int:
        return sum(self.modifier_values())

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        errors = self.modifier_errors()
        errors.update(self.character.skill_errors())
        return errors

    def build_check(self) -> Any:
        self.parse()
        values = self.character.parse()
        target = self.target
        for key, error in self.errors.items():
            if key.startswith("modifier_") or (target == "skill" and key == f"skill_{self.skill_index}"):
                raise error
        if target != "skill":
            if target in self.character.errors:
                raise self.character.errors[target]
            defence = self.defence or target in GURPS_DEFENCES
            return gurps.GurpsCheck(skill=values[target], modifiers=self.modifier_values(), defence=defence)
        level = self.character.skill_level(self.skill_index)
        return gurps.GurpsCheck(skill=level, modifiers=self.modifier_values(), defence=self.defence)

    def ability_name(self) -> str:
        """What the log names this roll: the skill's name, or Will, Per, Dodge, Parry, Block."""
        if self.target != "skill":
            return GURPS_LABELS[self.target]
        skills = self.character.skills
        return (skills[min(self.skill_index, len(skills) - 1)].get("name") or "") if skills else ""

    def opponent_skill(self) -> int:
        """The opponent's effective skill: a typed number or a roster character's skill."""
        if self.opponent == "number" or self.roster is None:
            return parse_int("opponent_level", self.opponent_level, *SKILL_RANGE)
        try:
            char_index, skill_index = (int(x) for x in self.opponent.split(":"))
            data = self.roster.characters[char_index]
            return parse_int("opponent", data["skills"][skill_index]["level"], *SKILL_RANGE)
        except (ValueError, IndexError, KeyError, TypeError, AttributeError):
            raise InputError("opponent", "choice", "no such opponent") from None

    def contest_checks(self) -> tuple[Any, Any]:
        mine = self.build_check().effective_skill
        theirs = self.opponent_skill()
        if self.contest == "quick":
            return gurps.QuickContest(mine, theirs), None
        return gurps.RegularContest(mine, theirs, self.high_skill_rule), None

    def refresh(self, *events: Any) -> None:
        """Work out the check and its odds again from the inputs (a check that cannot be made: None)."""
        try:
            check = self.build_check()
            effective = check.effective_skill
        except InputError as error:
            self.param.update(check=None, odds=None, effective=None, p_any=None, check_error=error, contest_odds=None)
            return
        try:
            odds = gurps.odds(check)
            check_error = None
        except InputError as error:
            odds, check_error = None, error
        p_any = None
        values = self.parse()
        if odds is not None and "tries" in values:
            p_any = gurps.p_at_least_one(odds.p_success, values["tries"])
        contest_odds = None
        try:
            contest, _ = self.contest_checks()
            if self.contest == "quick":
                contest_odds = gurps.quick_contest_odds(contest)
            else:
                contest_odds = gurps.regular_contest_odds(contest)
        except InputError:
            contest_odds = None
        self.param.update(
            check=check if odds is not None else None,
            odds=odds,
            effective=effective,
            p_any=p_any,
            check_error=check_error,
            contest_odds=contest_odds,
        )

    def named_modifiers(self) -> tuple[tuple[str, int], ...]:
        """The modifiers the next roll uses, as (name, value) (a bad value is refused before any roll)."""
        return tuple(
            (str(row.get("name") or ""), value)
            for row, value in zip(self.modifiers, self.modifier_values(), strict=False)
        )

    def spend_modifiers(self) -> None:
        """After a roll: the modifiers of that one roll go, the standing ones ("keep") stay."""
        kept = [row for row in self.modifiers if row.get("keep")]
        if kept != self.modifiers:
            self.modifiers = kept

    def after_roll(self, entry: LogEntry) -> None:
        try:
            named = self.named_modifiers()
        except InputError:
            named = ()
        used = named if tuple(v for _, v in named) == tuple(getattr(entry.check, "modifiers", ())) else ()
        self.param.update(last=entry, last_modifiers=used)
        self.spend_modifiers()

    def after_contest(self, entry: LogEntry) -> None:
        """A contest was rolled from this desk (``AppState.roll_contest``): name its modifiers, spend them."""
        self.last_contest_modifiers = self.named_modifiers()
        self.spend_modifiers()

    def url_state(self) -> dict[str, Any]:
        return {
            "skill": str(self.skill_index) if self.target == "skill" else self.target,
            "mods": json.dumps(self.modifiers, ensure_ascii=False, separators=(",", ":")),
            "defence": "1" if self.defence else "",
            "secret": "1" if self.secret else "",
            "tries": self.tries,
            "contest": self.contest,
            "opponent": self.opponent,
            "opp": self.opponent_level,
            "hsr": "1" if self.high_skill_rule else "0",
        }

    def apply_url_state(self, values: dict[str, Any]) -> None:
        """Set the roll's inputs from an address's ``r_`` values (:meth:`url_state` read back; a skill
        number beyond the sheet's skills and unknown choices are ignored, bad text kept to correct)."""
        updates: dict[str, Any] = {}
        skill = values.get("skill")
        if (
            isinstance(skill, str)
            and skill.isascii()
            and skill.isdigit()
            and len(skill) < 4
            and int(skill) < max(1, len(self.character.skills))
        ):
            updates["skill_index"] = int(skill)
            updates["target"] = "skill"
        elif skill in (*GURPS_ROLLS, *GURPS_DEFENCES):
            updates["target"] = skill
        mods = values.get("mods")
        if isinstance(mods, list):
            updates["modifiers"] = [
                {
                    "name": form_text(m.get("name"))[:MAX_NAME],
                    "value": form_text(m.get("value")),
                    **({"keep": True} if form_flag(m.get("keep")) else {}),
                }
                for m in mods[:MAX_ROWS]
                if isinstance(m, dict)
            ]
        for key in ("defence", "secret"):
            if key in values:
                updates[key] = form_flag(values[key])
        if "hsr" in values:
            updates["high_skill_rule"] = form_flag(values["hsr"])
        if values.get("contest") in ("quick", "regular"):
            updates["contest"] = values["contest"]
        if "opponent" in values:
            updates["opponent"] = form_text(values["opponent"], "number")
        if "opp" in values:
            updates["opponent_level"] = form_text(values["opp"])
        if "tries" in values:
            updates["tries"] = form_text(values["tries"])
        self.param.update(**updates)
