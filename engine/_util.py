"""Small helpers shared by the rule modules (private)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from .dist import Dist
from .errors import InputError
from .rng import Dice

__all__ = ["as_dice", "check_from_dict", "dist_to_dict", "put_prob"]

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

C = TypeVar("C", bound="DataclassInstance")


def check_from_dict(cls: type[C], data: Any) -> C:
    """Build the check ``cls`` from a mapping of its field names.

    Unknown keys and non-mappings raise :class:`InputError`; each value is then
    validated by the check's own ``__post_init__``.
    """
    if not isinstance(data, Mapping):
        raise InputError(
            "check", "type", f"expected an object with the fields of {cls.__name__}, got {type(data).__name__}"
        )
    names = tuple(f.name for f in dataclasses.fields(cls))
    for key in data:
        if key not in names:
            field = key if isinstance(key, str) and key else "check"
            shown = repr(key) if len(repr(key)) <= 40 else repr(key)[:37] + "..."
            raise InputError(
                field,
                "choice",
                f"unknown field {shown}; allowed fields are {', '.join(names)}",
                allowed=list(names),
                value=key,
            )
    return cls(**dict(data))


def as_dice(dice: Dice | int) -> Dice:
    """Accept a :class:`Dice` or a seed (an integer)."""
    if isinstance(dice, Dice):
        return dice
    return Dice(dice)


def put_prob(out: dict[str, Any], key: str, p: Fraction) -> None:
    """Store ``p`` as a float under ``key`` and as an exact fraction string under ``key_exact``."""
    out[key] = float(p)
    out[f"{key}_exact"] = str(p)


def dist_to_dict(dist: Dist[Any]) -> dict[str, Any]:
    """A distribution as JSON: ``{"p": {outcome: float}, "exact": {outcome: "a/b"}}``."""
    probs = dist.probabilities()
    return {
        "p": {str(o): float(p) for o, p in probs.items()},
        "exact": {str(o): str(p) for o, p in probs.items()},
    }
