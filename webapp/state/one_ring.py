"""The One Ring: the hero sheet and the desk (the sheet plus the next roll's inputs, its check and odds).

No Panel import.
"""

from __future__ import annotations

from typing import Any, ClassVar

import param

from engine import InputError, RuleError, one_ring

from ..i18n import N_
from .forms import Form, cap_check, form_flag, form_text, input_names, parse_int, sheet_form
from .log import LogEntry

__all__ = [
    "OR_ABILITIES",
    "OR_ABILITY_ATTRIBUTE",
    "OR_DEGREE_LABELS",
    "OR_LABELS",
    "OR_PROFICIENCIES",
    "OR_SKILLS",
    "OR_SPECIAL_LABELS",
    "OR_TRACKERS",
    "OneRingCharacter",
    "OneRingDesk",
]

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


@sheet_form
class OneRingCharacter(Form):
    """A One Ring hero sheet: attributes, skills (with favoured marks), proficiencies, Valour, Wisdom, Hope.

    Its fields are the sheet's (:data:`engine.sheets.SHEETS`), added by :func:`~.forms.sheet_form`."""

    system: ClassVar[str] = "one-ring"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.param.watch(self._follow_weary, ["endurance", "gear_load", "fatigue", "weary_auto"])
        self._follow_weary()

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**cap_check(values, "hope", "hope_max"), **cap_check(values, "endurance", "endurance_max")}

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
        self.character.param.watch(self.refresh, input_names(self.character))
        self.param.watch(
            self.refresh, ["ability", "feat_mode", "bonus_dice", "hope_spend", "tn_override", "parry", "injury"]
        )
        self.refresh()

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

    def refresh(self, *events: Any) -> None:
        """Work out the check and its odds again from the inputs (a check that cannot be made: None)."""
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

    def apply_url_state(self, values: dict[str, Any]) -> None:
        """Set the roll's inputs from an address's ``r_`` values (:meth:`url_state` read back; text
        values, bad ones kept as text to correct, unknown choices ignored)."""
        updates: dict[str, Any] = {}
        if values.get("ability") in OR_ABILITIES:
            updates["ability"] = values["ability"]
        if values.get("feat_mode") in self.FEAT_MODES:
            updates["feat_mode"] = values["feat_mode"]
        for key in ("bonus_dice", "tn_override", "parry", "injury"):
            if key in values:
                updates[key] = form_text(values[key])
        if "hope_spend" in values:  # at most one Hope a roll (older addresses may ask for more)
            updates["hope_spend"] = "0" if form_text(values["hope_spend"]).strip() in ("", "0") else "1"
        if "secret" in values:
            updates["secret"] = form_flag(values["secret"])
        self.param.update(**updates)
