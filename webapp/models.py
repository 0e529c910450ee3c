"""The app's state as ``param`` models, with no Panel import.

Every form field keeps the raw text the user typed (so nothing entered is
lost when it is wrong); parsing happens in one place, :meth:`Form.parse`,
which records an :class:`engine.InputError` per bad field in ``errors``.
Each system has a *character* (the sheet) and a *desk* (the sheet plus the
inputs of the next roll, the live check, its odds and the last roll). Every
roll goes through :class:`RollService` so a roll can be remade from
``(check, seed)`` alone.
"""

from __future__ import annotations

import datetime as _dt
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

import param

import engine
from engine import InputError, RuleError, fate, gurps, one_ring, random_seed
from engine.errors import check_int
from engine.links import without_refused
from engine.sheets import MAX_ROWS, MODIFIER_RANGE, SKILL_RANGE, bounds

from .i18n import N_
from .links_model import SessionState

__all__ = [
    "FORMAT_VERSION",
    "AppState",
    "FateCharacter",
    "FateDesk",
    "Form",
    "GurpsCharacter",
    "GurpsDesk",
    "LogEntry",
    "OneRingCharacter",
    "OneRingDesk",
    "RollLog",
    "RollService",
    "Roster",
    "parse_int",
]

FORMAT_VERSION = 1
SYSTEMS = ("one-ring", "gurps", "fate")
SYSTEM_TITLES = {"one-ring": N_("The One Ring"), "gurps": N_("GURPS"), "fate": N_("Fate & Doom")}
MAX_NAME = 60


def parse_int(field_name: str, raw: Any, low: int | None = None, high: int | None = None) -> int:
    """``raw`` (text from a form) as an int in ``low..high``, else an :class:`InputError`."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise InputError(field_name, "empty", "a value is needed", low=low, high=high)
    if isinstance(raw, str):
        raw = raw.strip().replace("\u2212", "-")
    try:
        return check_int(field_name, raw, low, high)
    except InputError as error:
        # Keep the bounds in the params so the message can say what is allowed.
        error.params.setdefault("low", low)
        error.params.setdefault("high", high)
        raise


def _text(value: Any, default: str = "") -> str:
    """A stored or linked value as form text (numbers and booleans from JSON become text)."""
    if value is None:
        return default
    if isinstance(value, bool):
        return default
    if isinstance(value, int):  # as many digits as it has (never through float: 400 digits overflow it)
        return str(value)[:200] if value.bit_length() < 14_000 else default
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, str):
        return value[:200]
    return default


def _flag(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value) if isinstance(value, (bool, int)) else False


class Form(param.Parameterized):
    """A form of text fields with bounds; ``errors`` maps field -> InputError."""

    #: field -> (low, high) for the integer fields of the form.
    BOUNDS: ClassVar[dict[str, tuple[int | None, int | None]]] = {}
    #: boolean fields
    FLAGS: ClassVar[tuple[str, ...]] = ()

    errors = param.Dict(default={}, doc="field -> InputError of the fields that do not parse")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        if "name_text" in self.param:
            # One rule for names everywhere: what links, files and storage refuse is dropped as typed.
            self.param.watch(self._clean_name, "name_text")
            self._clean_name()

    def _clean_name(self, *_: Any) -> None:
        cleaned = without_refused(self.name_text)
        if cleaned != self.name_text:
            self.name_text = cleaned

    def parse(self) -> dict[str, Any]:
        """The parsed values of the fields that are valid; records the others in ``errors``."""
        values: dict[str, Any] = {}
        errors: dict[str, InputError] = {}
        for name, (low, high) in self.BOUNDS.items():
            try:
                values[name] = parse_int(name, getattr(self, name), low, high)
            except InputError as error:
                errors[name] = error
        for name in self.FLAGS:
            values[name] = bool(getattr(self, name))
        extra = self._cross_check(values)
        errors.update({k: v for k, v in extra.items() if k not in errors})
        if set(errors) != set(self.errors) or any(
            (errors[k].code, errors[k].params) != (self.errors[k].code, self.errors[k].params) for k in errors
        ):
            self.errors = errors
        return values

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        """Errors that involve several fields (e.g. current above maximum)."""
        return {}

    # -- persistence -----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name_text}
        for name in self.BOUNDS:
            out[name] = getattr(self, name)
        for name in self.FLAGS:
            out[name] = bool(getattr(self, name))
        return out

    def load(self, data: Any) -> None:
        """Fill the form from a stored mapping, leniently (unknown keys are ignored)."""
        if isinstance(data, dict):
            self.param.update(**self.updates_from(data))

    @classmethod
    def updates_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        """The form's parameters as :meth:`load` sets them from ``data`` (the one place it is decided)."""
        updates: dict[str, Any] = {}
        if "name" in data:
            updates["name_text"] = without_refused(_text(data.get("name"))[:MAX_NAME])
        for name in cls.BOUNDS:
            if name in data:
                updates[name] = _text(data[name])
        for name in cls.FLAGS:
            if name in data:
                updates[name] = _flag(data[name])
        return updates


def _clean_row_names(form: param.Parameterized, rows: str) -> None:
    """Drop refused characters from the names of a list of rows (GURPS skills, modifiers) as typed."""
    items = getattr(form, rows)
    if any(
        isinstance(r, dict) and isinstance(r.get("name"), str) and without_refused(r["name"]) != r["name"]
        for r in items
    ):
        setattr(
            form,
            rows,
            [
                {**r, "name": without_refused(r["name"])}
                if isinstance(r, dict) and isinstance(r.get("name"), str)
                else r
                for r in items
            ],
        )


def _inputs(form: param.Parameterized) -> list[str]:
    """The parameters of ``form`` that are user input (not ``name`` or ``errors``)."""
    return [p for p in form.param if p not in ("name", "errors")]


def _cap_check(values: dict[str, Any], current: str, maximum: str) -> dict[str, InputError]:
    if current in values and maximum in values and values[current] > values[maximum]:
        return {current: RuleError(current, f"{current} is above its maximum", high=values[maximum], kind="max")}
    return {}


# -- The One Ring --------------------------------------------------------------------------------

OR_SKILLS = tuple(one_ring.SKILLS)
OR_PROFICIENCIES = tuple(one_ring.PROFICIENCIES)
#: "protection" is the Protection roll: the armour's Protection against the blow's Injury as TN.
OR_ABILITIES = OR_SKILLS + OR_PROFICIENCIES + ("valour", "wisdom", "protection")
#: Which TN an ability rolls against. Combat proficiencies use Strength (core
#: game); Valour and Wisdom use Heart and Wits (a reading; the TN can be typed in).
OR_ABILITY_ATTRIBUTE = {
    **one_ring.SKILLS,
    **dict.fromkeys(OR_PROFICIENCIES, "strength"),
    "valour": "heart",
    "wisdom": "wits",
}

OR_LABELS = {
    "strength": N_("Strength"),
    "heart": N_("Heart"),
    "wits": N_("Wits"),
    "awe": N_("Awe"),
    "athletics": N_("Athletics"),
    "awareness": N_("Awareness"),
    "hunting": N_("Hunting"),
    "song": N_("Song"),
    "craft": N_("Craft"),
    "enhearten": N_("Enhearten"),
    "travel": N_("Travel"),
    "insight": N_("Insight"),
    "healing": N_("Healing"),
    "courtesy": N_("Courtesy"),
    "battle": N_("Battle"),
    "persuade": N_("Persuade"),
    "stealth": N_("Stealth"),
    "scan": N_("Scan"),
    "explore": N_("Explore"),
    "riddle": N_("Riddle"),
    "lore": N_("Lore"),
    "axes": N_("Axes"),
    "bows": N_("Bows"),
    "spears": N_("Spears"),
    "swords": N_("Swords"),
    "valour": N_("Valour"),
    "wisdom": N_("Wisdom"),
    "protection": N_("Protection"),
    "endurance": N_("Endurance"),
    "endurance_max": N_("Endurance (max)"),
    "shadow": N_("Shadow"),
    "shadow_scars": N_("Shadow scars"),
    "gear_load": N_("Load"),
    "fatigue": N_("Fatigue"),
}
#: The One Ring sheet's trackers and their defaults (Weary follows Endurance <= Load + Fatigue when switched on).
OR_TRACKERS = {
    "endurance": "20",
    "endurance_max": "20",
    "shadow": "0",
    "shadow_scars": "0",
    "gear_load": "0",
    "fatigue": "0",
}
OR_SPECIAL_LABELS = {
    "cancel_failure": N_("Cancel a failure"),
    "additional_success": N_("Score an additional success"),
    "gain_insight": N_("Gain insight"),
    "go_quietly": N_("Go quietly"),
    "make_haste": N_("Make haste"),
    "widen_influence": N_("Widen influence"),
}
OR_DEGREE_LABELS = {
    "failure": N_("Failure"),
    "success": N_("Success"),
    "great": N_("Great success"),
    "extraordinary": N_("Extraordinary success"),
}


def _one_ring_character_params() -> dict[str, param.Parameter]:
    params: dict[str, param.Parameter] = {}
    for attr, default in zip(one_ring.ATTRIBUTES, ("5", "5", "5"), strict=False):
        params[attr] = param.String(default=default, doc=OR_LABELS[attr])
    for skill in OR_SKILLS:
        params[skill] = param.String(default="0", doc=OR_LABELS[skill])
        params[f"fav_{skill}"] = param.Boolean(default=False, doc=f"{skill} is favoured")
    for prof in OR_PROFICIENCIES:
        params[prof] = param.String(default="0", doc=OR_LABELS[prof])
    params["valour"] = param.String(default="1")
    params["wisdom"] = param.String(default="1")
    params["protection"] = param.String(default="0", doc=OR_LABELS["protection"])
    params["hope"] = param.String(default="8")
    params["hope_max"] = param.String(default="8")
    for tracker, default in OR_TRACKERS.items():
        params[tracker] = param.String(default=default, doc=OR_LABELS[tracker])
    return params


class _OneRingCharacterBase(Form):
    system: ClassVar[str] = "one-ring"
    BOUNDS = bounds("one-ring")
    FLAGS = tuple(f"fav_{s}" for s in OR_SKILLS) + ("weary", "miserable", "inspired", "weary_auto")

    name_text = param.String(default="", doc="Character name")
    weary = param.Boolean(default=False)
    miserable = param.Boolean(default=False)
    inspired = param.Boolean(default=False)
    weary_auto = param.Boolean(default=True, doc="Weary follows Endurance <= Load + Fatigue (off: set by hand)")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.param.watch(self._follow_weary, ["endurance", "gear_load", "fatigue", "weary_auto"])
        self._follow_weary()

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**_cap_check(values, "hope", "hope_max"), **_cap_check(values, "endurance", "endurance_max")}

    def weary_by_endurance(self) -> bool | None:
        """Weary by the rule (Endurance at or below Load + Fatigue), or None while a tracker is bad."""
        try:
            endurance, load, fatigue = (
                parse_int(k, getattr(self, k), 0, 99) for k in ("endurance", "gear_load", "fatigue")
            )
        except InputError:
            return None
        return endurance <= load + fatigue

    def _follow_weary(self, *_: Any) -> None:
        if self.weary_auto:
            weary = self.weary_by_endurance()
            if weary is not None and weary != self.weary:
                self.weary = weary

    def tn_of(self, attribute: str) -> int | None:
        """The TN of ``attribute`` (20 − attribute), or None while the attribute is invalid."""
        try:
            return one_ring.target_number(parse_int(attribute, getattr(self, attribute), *one_ring.ATTRIBUTE_RANGE))
        except InputError:
            return None


OneRingCharacter = type("OneRingCharacter", (_OneRingCharacterBase,), _one_ring_character_params())
OneRingCharacter.__doc__ = (
    "A One Ring hero sheet: attributes, skills (with favoured marks), proficiencies, Valour, Wisdom, Hope."
)


class OneRingDesk(Form):
    """A One Ring character plus the next roll's inputs; ``check`` and ``odds`` follow them live."""

    system: ClassVar[str] = "one-ring"
    #: A hero spends at most one Hope on a roll (2nd edition): ``hope_spend`` is "0" or "1".
    BOUNDS = {"bonus_dice": one_ring.BONUS_DICE_RANGE, "hope_spend": (0, 1)}
    FEAT_MODES = ("auto", "normal", "favoured", "ill_favoured")

    ability = param.Selector(default="awareness", objects=list(OR_ABILITIES))
    feat_mode = param.Selector(default="auto", objects=list(FEAT_MODES), doc="auto: favoured when the skill is marked")
    bonus_dice = param.String(default="0")
    hope_spend = param.String(
        default="0", doc="1 when a Hope is spent on the roll (one bonus success die, two when Inspired)"
    )
    tn_override = param.String(default="", doc="A TN typed in by the Loremaster (empty: from the attribute)")
    parry = param.String(
        default="0", doc="An attack roll (a combat proficiency): the adversary's Parry, added to the TN"
    )
    injury = param.String(default="", doc="A Protection roll: the blow's Injury rating, the roll's TN")
    secret = param.Boolean(default=False, doc="Secret roll: the result stays hidden until revealed")

    check = param.Parameter(default=None, doc="The OneRingCheck of the current inputs, or None")
    odds = param.Parameter(default=None)
    tn_odds = param.Dict(default={}, doc="TN -> P(success) for the success-across-TNs chart")
    last = param.Parameter(default=None, doc="The LogEntry of the last roll made here")
    picked = param.List(default=[], doc="Special successes chosen for the last roll's icons")

    def __init__(self, **params: Any) -> None:
        params.setdefault("character", OneRingCharacter())
        self.character = params.pop("character")
        super().__init__(**params)
        self.character.param.watch(self._refresh, _inputs(self.character))
        self.param.watch(
            self._refresh, ["ability", "feat_mode", "bonus_dice", "hope_spend", "tn_override", "parry", "injury"]
        )
        self._refresh()

    def rating(self) -> int | None:
        try:
            return parse_int(self.ability, getattr(self.character, self.ability), *one_ring.RATING_RANGE)
        except InputError:
            return None

    def effective_feat_mode(self) -> str:
        if self.feat_mode != "auto":
            return self.feat_mode
        return "favoured" if getattr(self.character, f"fav_{self.ability}", False) else "normal"

    @property
    def is_attack(self) -> bool:
        """A combat proficiency: an attack roll, against the TN plus the adversary's Parry."""
        return self.ability in OR_PROFICIENCIES

    def base_tn(self) -> int | None:
        """The TN before the adversary's Parry (typed in, or from the attribute); None while invalid."""
        if self.tn_override.strip():
            try:
                return parse_int("tn_override", self.tn_override, *one_ring.TN_RANGE)
            except InputError:
                return None
        return self.character.tn_of(OR_ABILITY_ATTRIBUTE[self.ability])

    def parry_value(self) -> int:
        """The adversary's Parry of an attack roll (0 for any other roll); raises InputError when bad."""
        if not self.is_attack or not self.parry.strip():
            return 0
        return parse_int("parry", self.parry, *one_ring.PARRY_RANGE)

    def protection_check(self) -> one_ring.OneRingCheck:
        """The Protection roll: the armour's Protection against the blow's Injury (Weary and
        Miserable as on the sheet); raises InputError (with the field) when one is bad."""
        if "protection" in self.character.errors:
            raise self.character.errors["protection"]
        char = self.character.parse()
        if "protection" not in char:
            raise InputError("protection", "type", "Protection missing")
        injury = parse_int("injury", self.injury, *one_ring.INJURY_RANGE)
        return one_ring.protection_check(
            char["protection"], injury, weary=char.get("weary", False), miserable=char.get("miserable", False)
        )

    def tn(self) -> int | None:
        if self.ability == "protection":
            try:
                return parse_int("injury", self.injury, *one_ring.INJURY_RANGE)
            except InputError:
                return None
        if self.is_attack:
            base = self.base_tn()
            try:
                return None if base is None else one_ring.attack_tn(base, self.parry_value())
            except InputError:
                return None
        if self.tn_override.strip():
            try:
                return parse_int("tn_override", self.tn_override, *one_ring.TN_RANGE)
            except InputError:
                return None
        return self.character.tn_of(OR_ABILITY_ATTRIBUTE[self.ability])

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        errors: dict[str, InputError] = {}
        if self.tn_override.strip():
            try:
                parse_int("tn_override", self.tn_override, *one_ring.TN_RANGE)
            except InputError as error:
                errors["tn_override"] = error
        if self.ability == "protection":
            try:
                parse_int("injury", self.injury, *one_ring.INJURY_RANGE)
            except InputError as error:
                errors["injury"] = error
        elif self.is_attack:
            try:
                parry = self.parry_value()
                base = self.base_tn()
                if base is not None:
                    one_ring.attack_tn(base, parry)
            except InputError as error:
                errors["parry"] = error
        spend = values.get("hope_spend")
        if spend:
            char = self.character.parse()
            hope = char.get("hope")
            if hope is not None and spend > hope:
                errors["hope_spend"] = RuleError("hope_spend", "more Hope than held", held=hope, kind="hope")
        return errors

    def bonus_total(self, values: dict[str, Any]) -> int:
        """Bonus success dice: the typed ones (a companion's support…) plus one for the Hope spent (two if Inspired)."""
        per_hope = 2 if self.character.inspired else 1
        return values.get("bonus_dice", 0) + per_hope * values.get("hope_spend", 0)

    def build_check(self) -> one_ring.OneRingCheck:
        """The check for the current inputs; raises InputError (with the field) when one is bad."""
        values = self.parse()
        char_values = self.character.parse()
        if self.errors:
            raise next(iter(self.errors.values()))
        own_tn = self.tn_override.strip() or self.ability == "protection"
        relevant = [self.ability] + ([] if own_tn else [OR_ABILITY_ATTRIBUTE[self.ability]])
        for key in relevant:
            if key in self.character.errors:
                raise self.character.errors[key]
        if self.ability not in char_values:
            raise InputError(self.ability, "type", "rating missing")
        tn = self.tn()
        if tn is None:
            raise InputError(OR_ABILITY_ATTRIBUTE.get(self.ability, "injury"), "range", "no TN")
        bonus = self.bonus_total(values)
        if bonus > one_ring.BONUS_DICE_RANGE[1]:
            raise InputError("bonus_dice", "range", "too many bonus dice", low=0, high=one_ring.BONUS_DICE_RANGE[1])
        return one_ring.OneRingCheck(
            rating=char_values[self.ability],
            tn=tn,
            feat_mode=self.effective_feat_mode(),
            bonus_dice=bonus,
            weary=char_values["weary"],
            miserable=char_values["miserable"],
        )

    def _refresh(self, *events: Any) -> None:
        try:
            check = self.build_check()
        except InputError as error:
            if error.field in ("bonus_dice",) and "bonus_dice" not in self.errors:
                self.errors = {**self.errors, "bonus_dice": error}
            self.param.update(check=None, odds=None)
            return
        odds = one_ring.odds(check)
        tn_odds = one_ring.success_by_tn(check, range(5, 31))
        self.param.update(check=check, odds=odds, tn_odds=tn_odds)

    def after_roll(self, entry: LogEntry) -> None:
        """Deduct the Hope spent on bonus dice."""
        values = self.parse()
        spent = values.get("hope_spend", 0)
        if spent:
            hope = parse_int("hope", self.character.hope, 0, 40)
            self.character.hope = str(hope - spent)
            self.hope_spend = "0"
        self.param.update(last=entry, picked=[])

    def pick_special(self, choices: list[str]) -> list[str]:
        """Spend the last roll's icons on ``choices``; raises InputError when not allowed."""
        if self.last is None or self.last.roll is None:
            raise RuleError("choices", "no roll yet")
        picked = list(one_ring.spend_icons(self.last.roll, choices))
        self.picked = picked
        return picked

    def url_state(self) -> dict[str, str]:
        out = {
            k: getattr(self, k)
            for k in ("ability", "feat_mode", "bonus_dice", "hope_spend", "tn_override", "parry", "injury")
        }
        out["secret"] = "1" if self.secret else ""
        return out


# -- GURPS ---------------------------------------------------------------------------------------

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


class GurpsCharacter(Form):
    """A GURPS sheet: name, attributes and a list of skills with levels."""

    system: ClassVar[str] = "gurps"
    BOUNDS = bounds("gurps")

    name_text = param.String(default="")
    st = param.String(default="10")
    dx = param.String(default="10")
    iq = param.String(default="10")
    ht = param.String(default="10")
    will = param.String(default="10")
    per = param.String(default="10")
    hp = param.String(default="10", doc="Hit Points now")
    hp_max = param.String(default="10")
    fp = param.String(default="10", doc="Fatigue Points now")
    fp_max = param.String(default="10")
    dodge = param.String(default="8")
    parry = param.String(default="8")
    block = param.String(default="8")
    skills = param.List(default=[], doc='[{"name": text, "level": text}, ...]')

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**_cap_check(values, "hp", "hp_max"), **_cap_check(values, "fp", "fp_max")}

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
        self.param.watch(lambda e: _clean_row_names(self, "skills"), "skills")
        _clean_row_names(self, "skills")

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
                {"name": without_refused(_text(s.get("name"))[:MAX_NAME]), "level": _text(s.get("level"))}
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
        self.param.watch(lambda e: _clean_row_names(self, "modifiers"), "modifiers")
        self.character.param.watch(self._refresh, _inputs(self.character))
        self.param.watch(
            self._refresh,
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
        self._refresh()

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

    def _refresh(self, *events: Any) -> None:
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


# -- Fate & Doom ---------------------------------------------------------------------------------


class FateCharacter(Form):
    """A Fate & Doom hero: skill, favour of the gods (current/max), life (current/max)."""

    system: ClassVar[str] = "fate"
    BOUNDS = bounds("fate")

    name_text = param.String(default="")
    skill = param.String(default="7")
    favour = param.String(default="3")
    favour_max = param.String(default="3")
    life = param.String(default="12")
    life_max = param.String(default="12")

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**_cap_check(values, "favour", "favour_max"), **_cap_check(values, "life", "life_max")}


class FateDesk(Form):
    """A Fate & Doom hero plus the check's difficulty and the favour to spend."""

    system: ClassVar[str] = "fate"
    BOUNDS = {"difficulty": (-10, 10), "favour_spend": (0, 30)}

    difficulty = param.String(default="0")
    favour_spend = param.String(default="0")
    ties_succeed = param.Boolean(
        default=False, doc="Table option: a result equal to the skill passes (by default it fails)"
    )
    secret = param.Boolean(default=False, doc="Secret roll: the result stays hidden until revealed")

    check = param.Parameter(default=None)
    odds = param.Parameter(default=None)
    by_favour = param.Dict(default={})
    last = param.Parameter(default=None)

    def __init__(self, **params: Any) -> None:
        params.setdefault("character", FateCharacter())
        self.character = params.pop("character")
        super().__init__(**params)
        self.character.param.watch(self._refresh, _inputs(self.character))
        self.param.watch(self._refresh, ["difficulty", "favour_spend", "ties_succeed"])
        self._refresh()

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        spend = values.get("favour_spend")
        if spend:
            held = self.character.parse().get("favour")
            if held is not None and spend > held:
                return {"favour_spend": RuleError("favour_spend", "more favour than held", held=held)}
        return {}

    def build_check(self) -> Any:
        values = self.parse()
        char = self.character.parse()
        if self.errors:
            raise next(iter(self.errors.values()))
        for key in ("skill", "favour"):
            if key in self.character.errors:
                raise self.character.errors[key]
        return fate.FateCheck(
            skill=char["skill"],
            difficulty=values["difficulty"],
            favour_spent=values["favour_spend"],
            favour_held=char["favour"],
            ties_succeed=self.ties_succeed,
        )

    def _refresh(self, *events: Any) -> None:
        try:
            check = self.build_check()
            odds = fate.odds(check)
        except InputError:
            self.param.update(check=None, odds=None, by_favour={})
            return
        held = check.favour_held
        by_favour = fate.success_by_favour(check, held)
        self.param.update(check=check, odds=odds, by_favour=dict(by_favour))

    def after_roll(self, entry: LogEntry) -> None:
        """Deduct the favour spent (declared before the roll)."""
        spent = entry.check.favour_spent if entry.check is not None else 0
        if spent:
            held = parse_int("favour", self.character.favour, 0, 30)
            self.character.favour = str(held - spent)
            self.favour_spend = "0"
        self.last = entry

    def url_state(self) -> dict[str, str]:
        return {
            "difficulty": self.difficulty,
            "spend": self.favour_spend,
            "secret": "1" if self.secret else "",
            "ties": "1" if self.ties_succeed else "",
        }


# -- rolls and the log ---------------------------------------------------------------------------


@dataclass
class LogEntry:
    """One roll as the log keeps it: when, who, the check, the seed and the engine's record."""

    number: int
    time: str
    system: str
    character: str
    ability: str
    check: Any
    seed: int
    roll: Any
    secret: bool = False
    revealed: bool = True
    kind: str = "roll"  # "roll" or "contest"
    extra: dict[str, Any] = field(default_factory=dict)
    #: The game master's session code and this roll's running number for its character (see links_model).
    session_code: str | None = None
    session_number: int | None = None

    @property
    def hidden(self) -> bool:
        return self.secret and not self.revealed

    def to_dict(self) -> dict[str, Any]:
        record = self.roll.to_dict() if hasattr(self.roll, "to_dict") else self.roll
        return {
            "number": self.number,
            "time": self.time,
            "system": self.system,
            "character": self.character,
            "ability": self.ability,
            "kind": self.kind,
            "check": self.check.to_dict() if hasattr(self.check, "to_dict") else self.check,
            **({} if self.hidden else {"seed": self.seed}),  # an unrevealed secret keeps its seed to itself
            "secret": self.secret,
            "revealed": self.revealed,
            "result": None if self.hidden else record,
            **({"extra": self.extra} if self.extra else {}),
        }


#: The most rolls the log keeps (in the browser too); older ones are dropped first, with a note.
MAX_KEPT_ROLLS = 500
STORED_LOG_FORMAT = "kostka-stored-log"


class RollLog(param.Parameterized):
    """The session's rolls, newest last, at most :data:`MAX_KEPT_ROLLS` (the oldest dropped first)."""

    entries = param.List(default=[], item_type=LogEntry)
    dropped = param.Integer(
        default=0, bounds=(0, None), doc="How many of the oldest rolls were dropped to keep the log short"
    )
    cleared = param.Parameter(default=None, doc="(entries, dropped) as they were before the last Clear, for Undo")

    def add(self, entry: LogEntry) -> None:
        self._keep([*self.entries, entry], self.dropped)

    def _keep(self, entries: list[LogEntry], dropped: int) -> None:
        over = max(0, len(entries) - MAX_KEPT_ROLLS)
        self.param.update(entries=entries[over:], dropped=dropped + over)

    def clear(self) -> None:
        """Empty the log; :meth:`undo_clear` brings it back."""
        if self.entries or self.dropped:
            self.cleared = (list(self.entries), self.dropped)
        self.param.update(entries=[], dropped=0)

    def undo_clear(self) -> None:
        """Bring back the rolls of the last Clear, before any rolled since."""
        if self.cleared is None:
            return
        entries, dropped = self.cleared
        self.cleared = None
        self._keep([*entries, *self.entries], dropped + self.dropped)

    def to_storage(self) -> str:
        """The log as the browser keeps it: every roll with its seed (a secret's too: it is this
        device's own) and its session number. Fight steps are not kept."""
        rolls = []
        for entry in self.entries:
            if entry.kind not in ("roll", "contest"):
                continue
            item: dict[str, Any] = {"entry": {**entry.to_dict(), "seed": entry.seed}}
            if entry.session_code:
                item["session"] = [entry.session_code, entry.session_number]
            rolls.append(item)
        return json.dumps(
            {"format": STORED_LOG_FORMAT, "dropped": self.dropped, "rolls": rolls},
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def load_storage(self, text: str) -> bool:
        """Restore the log from :meth:`to_storage`'s text; True when every roll was read.

        Each roll is checked like an imported log's (its result must be the engine's roll of its
        check and seed); one that is not is left out. Raises InputError (nothing changed) when the
        text is not a stored log at all.
        """
        from engine.documents import parse_json, roll_entry_check, validate_roll_entry

        data = parse_json(text)  # size and nesting checked before parsing
        if (
            not isinstance(data, dict)
            or data.get("format") != STORED_LOG_FORMAT
            or not isinstance(data.get("rolls"), list)
        ):
            raise InputError("log", "format", "not a stored roll log")
        whole = True
        try:
            dropped = check_int("log.dropped", data.get("dropped", 0), 0, 10**9)
        except InputError:
            dropped, whole = 0, False
        entries: list[LogEntry] = []
        for item in data["rolls"]:
            try:
                if not isinstance(item, dict) or set(item) - {"entry", "session"}:
                    raise InputError("log.rolls", "format", "not a stored roll")
                roll = validate_roll_entry(item.get("entry"), "log.rolls")
                if "seed" not in roll:
                    raise InputError("log.rolls", "format", "a stored roll keeps its seed")
                code = number = None
                if "session" in item:
                    session = item["session"]
                    if not isinstance(session, list) or len(session) != 2:
                        raise InputError("log.rolls", "format", "not a session number")
                    code = engine.links.clean_text(
                        "session", session[0], engine.links.MAX_CODE_LENGTH, engine.links.MAX_CODE_BYTES, required=True
                    )
                    number = check_int("session", session[1], 1, engine.links.MAX_NUMBER)
                check = roll_entry_check(roll)
                entries.append(
                    LogEntry(
                        number=roll["number"],
                        time=roll["time"],
                        system=roll["system"],
                        character=roll["character"],
                        ability=roll["ability"],
                        check=check,
                        seed=roll["seed"],
                        roll=engine.roll_check(check, roll["seed"]),
                        secret=roll["secret"],
                        revealed=roll["revealed"],
                        kind=roll["kind"],
                        extra=roll.get("extra", {}),
                        session_code=code,
                        session_number=number,
                    )
                )
            except InputError:
                whole = False
        self.cleared = None
        self._keep(entries, dropped)
        return whole and len(entries) == len(data["rolls"])

    def reveal(self, number: int) -> None:
        for entry in self.entries:
            if entry.number == number:
                entry.revealed = True
        self.param.trigger("entries")

    def to_json(self) -> str:
        return json.dumps(
            {"format": "kostka-log", "version": FORMAT_VERSION, "rolls": [e.to_dict() for e in self.entries]},
            ensure_ascii=False,
            indent=1,
        )


def _now() -> str:
    return _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")


class RollService(param.Parameterized):
    """The one place rolls are made: ``(check, seed)`` -> a logged record.

    The seed may come from outside (a shared link, a session code); otherwise
    a fresh one is drawn.
    """

    log = param.ClassSelector(class_=RollLog)
    counter = param.Integer(default=0)
    session = param.ClassSelector(class_=SessionState, doc="The game master's session code and running numbers")

    def __init__(self, **params: Any) -> None:
        params.setdefault("log", RollLog())
        params.setdefault("session", SessionState())
        super().__init__(**params)
        # rolls restored from the browser keep their numbers: new ones follow them
        self.log.param.watch(lambda e: self._follow(), "entries")

    def _follow(self) -> None:
        top = max((e.number for e in self.log.entries), default=0)
        if top > self.counter:
            self.counter = top

    def next_seed(self, seed: int | None) -> int:
        return random_seed() if seed is None else seed

    def _seed_and_number(
        self, check: Any, character: str, seed: int | None, secret: bool
    ) -> tuple[int, dict[str, Any]]:
        """With a session code (and no seed given), the next running number and the session's seed for it.

        A secret roll takes a number but a fresh random seed: the seed of a
        session roll can be worked out by everyone holding the code.
        """
        code = self.session.code
        if not code or seed is not None:
            return self.next_seed(seed), {}
        engine.roll_check(check, 0)  # a forbidden roll is refused before it spends a number
        number = self.session.next_number(character)
        seed = random_seed() if secret else engine.links.session_roll_seed(code, number, check, character)
        return seed, {"session_code": code, "session_number": number}

    def roll(
        self, check: Any, *, character: str, ability: str, seed: int | None = None, secret: bool = False
    ) -> LogEntry:
        seed, session = self._seed_and_number(check, character, seed, secret)
        record = _roll_check(check, seed)
        self.counter += 1
        entry = LogEntry(
            number=self.counter,
            time=_now(),
            system=check.system,
            character=character,
            ability=ability,
            check=check,
            seed=seed,
            roll=record,
            secret=secret,
            revealed=not secret,
            **session,
        )
        self.log.add(entry)
        return entry

    def contest(
        self, contest: Any, *, character: str, ability: str, opponent: str, seed: int | None = None
    ) -> LogEntry:
        seed, session = self._seed_and_number(contest, character, seed, False)
        record = engine.roll_check(contest, seed)
        self.counter += 1
        entry = LogEntry(
            number=self.counter,
            time=_now(),
            system="gurps",
            character=character,
            ability=ability,
            check=contest,
            seed=seed,
            roll=record,
            kind="contest",
            extra={"opponent": opponent},
            **session,
        )
        self.log.add(entry)
        return entry


def _roll_check(check: Any, seed: int) -> Any:
    return engine.roll_check(check, seed)


# -- characters ----------------------------------------------------------------------------------


class Roster(param.Parameterized):
    """Several characters of one system as stored dicts, and which one is on the form."""

    characters = param.List(default=[])
    current = param.Integer(default=0, bounds=(0, None))
    removed = param.Parameter(default=None, doc="(index, character) of the last deleted character, for Undo")

    def __init__(self, form: Form, **params: Any) -> None:
        super().__init__(**params)
        self.form = form
        if not self.characters:
            self.characters = [form.to_dict()]
        self.form.param.watch(self._store_current, _inputs(self.form))

    def _store_current(self, *events: Any) -> None:
        if any(e.name != "errors" for e in events):
            chars = list(self.characters)
            if self.current < len(chars):
                chars[self.current] = self.form.to_dict()
                self.characters = chars

    def names(self) -> list[str]:
        return [str(c.get("name") or "") for c in self.characters]

    def select(self, index: int) -> None:
        if not 0 <= index < len(self.characters):
            return
        self.current = index
        fresh = type(self.form)()
        self.form.load({**fresh.to_dict(), **self.characters[index]})

    def add(self) -> None:
        fresh = type(self.form)().to_dict()
        self.characters = [*self.characters, fresh]
        self.select(len(self.characters) - 1)

    def remove(self) -> None:
        """Delete the character on the form; :meth:`undo_remove` brings it back."""
        chars = list(self.characters)
        self.removed = (self.current, dict(chars[self.current]) if self.current < len(chars) else {})
        if len(chars) <= 1:
            chars = [type(self.form)().to_dict()]
        else:
            del chars[self.current]
        self.characters = chars
        self.current = min(self.current, len(chars) - 1)
        self.select(self.current)

    def undo_remove(self) -> None:
        """Put the last deleted character back where it was, and on the form."""
        if self.removed is None:
            return
        index, char = self.removed
        self.removed = None
        chars = list(self.characters)
        if len(chars) == 1 and _as_form(type(self.form), chars[0]) == type(self.form)().to_dict():
            chars = []  # the blank character that took the place of the only one
        index = min(index, len(chars))
        chars.insert(index, char)
        self.characters = chars[:MAX_ROWS]
        self.select(min(index, len(self.characters) - 1))

    def to_dict(self) -> dict[str, Any]:
        return {"current": self.current, "characters": list(self.characters)}

    def load(self, data: Any) -> None:
        if not isinstance(data, dict) or not isinstance(data.get("characters"), list):
            return
        chars = [c for c in data["characters"] if isinstance(c, dict)][:MAX_ROWS]
        if not chars:
            return
        self.characters = chars
        current = data.get("current", 0)
        self.select(current if isinstance(current, int) and 0 <= current < len(chars) else 0)

    def import_characters(self, chars: list[dict[str, Any]]) -> int:
        """Add imported characters; returns how many were added.

        Blank characters (as a new one starts) and characters already in the roster are not
        added again; the roster's only character, while still blank, makes way for them. A name
        already in use gets a number ("Tilda (2)"), so no character hides another.
        """
        form_class = type(self.form)
        fresh = form_class().to_dict()
        existing = list(self.characters)
        known = [_as_form(form_class, c) for c in existing]
        incoming = [_as_form(form_class, c) if isinstance(c, dict) else None for c in chars]
        if len(existing) == 1 and known[0] == fresh and fresh not in incoming:
            existing, known = [], []
        taken = [str(c.get("name") or "") for c in existing]
        added: list[dict[str, Any]] = []
        for char, shown in zip(chars, incoming, strict=False):
            if shown is None or len(existing) + len(added) >= MAX_ROWS:
                continue
            if shown == fresh or shown in known:
                continue
            name = name_beside(shown.get("name", ""), taken)
            taken.append(name)
            known.append(shown)
            added.append({**char, "name": name})
        if added:
            self.characters = [*existing, *added]
            self.select(len(self.characters) - 1)
        return len(added)


class AppState(param.Parameterized):
    """The whole app: the system on screen, one desk and roster per system, the log."""

    system = param.Selector(default="one-ring", objects=list(SYSTEMS))
    storage_error = param.String(default="", doc="Why stored characters could not be read (kept aside)")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.rolls = RollService()
        self.one_ring = OneRingDesk()
        self.gurps_roster = Roster(GurpsCharacter())
        gurps_form = self.gurps_roster.form
        self.gurps = GurpsDesk(roster=self.gurps_roster, character=gurps_form)
        self.gurps_roster.param.watch(lambda e: self.gurps._refresh(), "characters")
        self.fate = FateDesk()
        self.rosters = {
            "one-ring": Roster(self.one_ring.character),
            "gurps": self.gurps_roster,
            "fate": Roster(self.fate.character),
        }
        self.desks = {"one-ring": self.one_ring, "gurps": self.gurps, "fate": self.fate}
        from .fight_models import MonsterSheet  # the fight screen's models build on this module

        #: Fate & Doom monster sheets, stored and exported with the characters.
        self.monsters = Roster(MonsterSheet())

    @property
    def desk(self) -> Form:
        return self.desks[self.system]

    # -- rolling -------------------------------------------------------------------------------
    def roll(self, system: str | None = None, seed: int | None = None) -> LogEntry:
        """Roll the current check of ``system`` (default: the one on screen)."""
        desk = self.desks[system or self.system]
        check = desk.build_check()
        if desk is self.one_ring:
            ability = desk.ability
        elif desk is self.gurps:
            ability = desk.ability_name()
        else:
            ability = "skill"
        if desk is self.gurps:
            gurps.odds(check)  # refuses a roll below 3 that is not a defence
        entry = self.rolls.roll(
            check,
            character=desk.character.name_text,
            ability=ability,
            seed=seed,
            secret=bool(getattr(desk, "secret", False)),
        )
        desk.after_roll(entry)
        return entry

    def roll_contest(self, seed: int | None = None) -> LogEntry:
        desk = self.gurps
        contest, _ = desk.contest_checks()
        skill = desk.character.skills[desk.skill_index].get("name", "") if desk.character.skills else ""
        entry = self.rolls.contest(
            contest, character=desk.character.name_text, ability=skill, opponent=desk.opponent, seed=seed
        )
        desk.last_contest = entry
        return entry

    # -- storage -------------------------------------------------------------------------------
    def characters_json(self) -> str:
        return json.dumps(
            {
                "format": "kostka-characters",
                "version": FORMAT_VERSION,
                "systems": {name: roster.to_dict() for name, roster in self.rosters.items()},
                "monsters": self.monsters.to_dict(),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def load_characters(self, text: str, *, merge: bool = False) -> int:
        """Load stored or imported characters; raises InputError(code="format") if unreadable."""
        from engine.documents import parse_json

        try:
            data = parse_json(text)  # size and nesting checked before parsing
        except InputError:
            raise InputError("characters", "format", "not JSON") from None
        if (
            not isinstance(data, dict)
            or data.get("format") != "kostka-characters"
            or not isinstance(data.get("systems"), dict)
        ):
            raise InputError("characters", "format", "not a Kostka characters file")
        count = 0
        for name, roster in self.rosters.items():
            part = data["systems"].get(name)
            if not isinstance(part, dict):
                continue
            if name == "one-ring" and isinstance(
                part.get("characters"), list
            ):  # stored before the trackers: Weary by hand
                part = {
                    **part,
                    "characters": [
                        {"weary_auto": False, **c} if isinstance(c, dict) else c for c in part["characters"]
                    ],
                }
            if merge:
                count += roster.import_characters(part.get("characters") or [])
            else:
                roster.load(part)
                count += len(roster.characters)
        monsters = data.get("monsters")
        if isinstance(monsters, dict):
            if merge:
                self.monsters.import_characters(monsters.get("characters") or [])  # counted apart from characters
            else:
                self.monsters.load(monsters)
        return count

    # -- URL -----------------------------------------------------------------------------------
    def url_state(self) -> dict[str, str]:
        """Everything on screen as query parameters (strings)."""
        desk = self.desk
        query: dict[str, str] = {"sys": self.system}
        char = desk.character.to_dict()
        for key, value in char.items():
            if key == "skills":
                query["skills"] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            elif isinstance(value, bool):
                if value:
                    query[key] = "1"
            else:
                query[key] = str(value)
        if self.system == "one-ring":
            favs = [k for k in query if k.startswith("fav_")]
            if favs:
                query["fav"] = ",".join(k[4:] for k in favs)
            for k in favs:
                del query[k]
        query.update({f"r_{k}": v for k, v in desk.url_state().items() if v != ""})
        return query

    def apply_url(self, query: dict[str, Any], *, keep_stored: bool = False) -> list[tuple[str, dict[str, Any]]]:
        """Restore the screen from an address read by :func:`webapp.address.read_address` (text
        values; bad values stay as text to correct). Returns notes for the page (msgid, params).

        With ``keep_stored`` (stored characters are already loaded), the address's character never
        replaces a stored one: it selects the stored character it is the same as, fills in the
        roster's only character while that is still untouched, or else is added as a new character
        (a name already in use gets a number: "Tilda (2)") and a note says so.
        """
        notes: list[tuple[str, dict[str, Any]]] = []
        system = query.get("sys")
        if system in SYSTEMS:
            self.system = system
        desk = self.desk
        data: dict[str, Any] = {}
        for key, value in query.items():
            if key in ("sys", "lang", "theme") or key.startswith("r_"):
                continue
            if key == "skills":
                data["skills"] = value if isinstance(value, list) else []
            elif key == "fav":
                for skill in str(value).split(","):
                    data[f"fav_{skill}"] = True
            else:
                data[key] = value
        if data:
            if self.system == "one-ring":
                for skill in OR_SKILLS:
                    data.setdefault(f"fav_{skill}", False)
                for flag in ("weary", "miserable", "inspired"):
                    data.setdefault(flag, False)
                data.setdefault("weary_auto", False)
            roster = self.rosters[self.system]
            form_class = type(desk.character)
            incoming = _as_form(form_class, data)
            fresh = form_class().to_dict()
            same = (
                [i for i, c in enumerate(roster.characters) if _same_character(_as_form(form_class, c), incoming)]
                if keep_stored
                else []
            )
            if same:
                roster.select(same[0])
            elif not keep_stored or (
                len(roster.characters) == 1 and _as_form(form_class, roster.characters[0]) == fresh
            ):
                desk.character.load(data)
            elif len(roster.characters) >= MAX_ROWS:
                notes.append(
                    (
                        N_("The character from the address was not added: {n} characters is the most a system keeps."),
                        {"n": MAX_ROWS},
                    )
                )
            else:
                name = name_beside(incoming.get("name", ""), roster.names())
                roster.add()
                desk.character.load({**data, "name": name})
                if name:
                    notes.append(
                        (N_("The character from the address was added as a new character: {name}"), {"name": name})
                    )
                else:
                    notes.append(
                        (
                            N_("The character from the address was added as a new character: Character {n}"),
                            {"n": len(roster.characters)},
                        )
                    )
        roll_inputs = {k[2:]: v for k, v in query.items() if k.startswith("r_")}
        _apply_desk_url(desk, roll_inputs)
        return notes


def _as_form(form_class: type, data: Any) -> dict[str, Any]:
    """``data`` (a stored character or the address's) as a new form would hold it once loaded."""
    out = json.loads(_blank(form_class))
    if isinstance(data, dict):
        for key, value in form_class.updates_from(data).items():
            out["name" if key == "name_text" else key] = value
    return out


@functools.cache
def _blank(form_class: type) -> str:
    """A new form's values (as JSON text, so that each use gets its own copy)."""
    return json.dumps(form_class().to_dict())


def _same_character(stored: dict[str, Any], incoming: dict[str, Any]) -> bool:
    """Whether ``incoming`` is ``stored``: the same values, and the same name or the name it was
    given beside a namesake ("Tilda (2)" for a "Tilda" opened again)."""
    if stored == incoming:
        return True
    name, other = str(incoming.get("name", "")), str(stored.get("name", ""))
    match = re.fullmatch(r"(.*) \((\d+)\)", other)
    if not name or match is None:
        return False
    stem = match.group(1)
    # the stem is the name, or the name cut short to make room for the number
    return (stem == name or (name.startswith(stem) and len(other) >= MAX_NAME - 1)) and {
        **stored,
        "name": name,
    } == incoming


def name_beside(name: str, taken: list[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)``… when already in ``taken`` (an empty name stays empty)."""
    if not name or name not in taken:
        return name
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        if candidate not in taken:
            return candidate
        n += 1


def _apply_desk_url(desk: Form, values: dict[str, Any]) -> None:
    updates: dict[str, Any] = {}
    if isinstance(desk, OneRingDesk):
        if values.get("ability") in OR_ABILITIES:
            updates["ability"] = values["ability"]
        if values.get("feat_mode") in OneRingDesk.FEAT_MODES:
            updates["feat_mode"] = values["feat_mode"]
        for key in ("bonus_dice", "tn_override", "parry", "injury"):
            if key in values:
                updates[key] = _text(values[key])
        if "hope_spend" in values:  # at most one Hope a roll (older addresses may ask for more)
            updates["hope_spend"] = "0" if _text(values["hope_spend"]).strip() in ("", "0") else "1"
        if "secret" in values:
            updates["secret"] = _flag(values["secret"])
    elif isinstance(desk, GurpsDesk):
        skill = values.get("skill")
        if (
            isinstance(skill, str)
            and skill.isascii()
            and skill.isdigit()
            and len(skill) < 4
            and int(skill) < max(1, len(desk.character.skills))
        ):
            updates["skill_index"] = int(skill)
            updates["target"] = "skill"
        elif skill in (*GURPS_ROLLS, *GURPS_DEFENCES):
            updates["target"] = skill
        mods = values.get("mods")
        if isinstance(mods, list):
            updates["modifiers"] = [
                {
                    "name": _text(m.get("name"))[:MAX_NAME],
                    "value": _text(m.get("value")),
                    **({"keep": True} if _flag(m.get("keep")) else {}),
                }
                for m in mods[:MAX_ROWS]
                if isinstance(m, dict)
            ]
        for key in ("defence", "secret"):
            if key in values:
                updates[key] = _flag(values[key])
        if "hsr" in values:
            updates["high_skill_rule"] = _flag(values["hsr"])
        if values.get("contest") in ("quick", "regular"):
            updates["contest"] = values["contest"]
        if "opponent" in values:
            updates["opponent"] = _text(values["opponent"], "number")
        if "opp" in values:
            updates["opponent_level"] = _text(values["opp"])
        if "tries" in values:
            updates["tries"] = _text(values["tries"])
    elif isinstance(desk, FateDesk):
        if "difficulty" in values:
            updates["difficulty"] = _text(values["difficulty"])
        if "spend" in values:
            updates["favour_spend"] = _text(values["spend"])
        if "ties" in values:
            updates["ties_succeed"] = _flag(values["ties"])
        if "secret" in values:
            updates["secret"] = _flag(values["secret"])
    desk.param.update(**updates)
