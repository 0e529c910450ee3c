"""Fate & Doom: the hero sheet and the desk of the 2d6 skill check (difficulty, favour to spend). No Panel import."""

from __future__ import annotations

from typing import Any, ClassVar

import param

from engine import InputError, RuleError, fate

from .forms import Form, cap_check, form_flag, form_text, input_names, parse_int, sheet_form
from .log import LogEntry

__all__ = ["FateCharacter", "FateDesk"]


@sheet_form
class FateCharacter(Form):
    """A Fate & Doom hero: skill, favour of the gods (current/max), life (current/max) (the sheet's fields)."""

    system: ClassVar[str] = "fate"

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**cap_check(values, "favour", "favour_max"), **cap_check(values, "life", "life_max")}


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
        self.character.param.watch(self.refresh, input_names(self.character))
        self.param.watch(self.refresh, ["difficulty", "favour_spend", "ties_succeed"])
        self.refresh()

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

    def refresh(self, *events: Any) -> None:
        """Work out the check and its odds again from the inputs (a check that cannot be made: None)."""
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

    def apply_url_state(self, values: dict[str, Any]) -> None:
        """Set the check's inputs from an address's ``r_`` values (:meth:`url_state` read back)."""
        updates: dict[str, Any] = {}
        if "difficulty" in values:
            updates["difficulty"] = form_text(values["difficulty"])
        if "spend" in values:
            updates["favour_spend"] = form_text(values["spend"])
        if "ties" in values:
            updates["ties_succeed"] = form_flag(values["ties"])
        if "secret" in values:
            updates["secret"] = form_flag(values["secret"])
        self.param.update(**updates)
