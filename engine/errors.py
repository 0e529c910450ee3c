"""The package's own error types.

Every error raised on bad input is an :class:`InputError`. It carries a
machine-readable ``code``, the ``field`` it concerns and the ``params`` needed
to say what is allowed, so a user interface can translate the message; its
``str()`` is a plain English sentence for the command line and logs.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EngineError", "InputError", "RuleError", "check_bool", "check_choice", "check_int"]


class EngineError(Exception):
    """Base class of every error this package raises on purpose."""


class InputError(EngineError, ValueError):
    """A value given to the engine is malformed, out of range or inconsistent.

    ``code`` is one of:

    - ``"type"``: not a value of the right kind (``skill="abc"``);
    - ``"range"``: outside ``params["low"]``..``params["high"]``;
    - ``"choice"``: not one of ``params["allowed"]``;
    - ``"rule"``: well-formed but forbidden by the rules (a roll at effective
      skill 2 that is not a defence, favour spent beyond what is held);
    - ``"format"``: a document (link, file, encounter) that cannot be read.
    """

    def __init__(self, field: str, code: str, message: str, **params: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.code = code
        self.message = message
        self.params = params

    def to_dict(self) -> dict[str, Any]:
        return {"field": self.field, "code": self.code, "message": self.message, "params": self.params}


class RuleError(InputError):
    """Input that is well-formed but not allowed by the rules being applied."""

    def __init__(self, field: str, message: str, **params: Any) -> None:
        super().__init__(field, "rule", message, **params)


_MAX_DIGITS = 30  # longer numbers are refused as text and shortened in messages


def _shown(value: Any) -> str:
    """A short, safe rendering of a value for a message (huge ints and long texts are cut)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value.bit_length() > 100:
            sign = "a negative" if value < 0 else "a"
            return f"{sign} number of about {int(value.bit_length() * 0.30103)} digits"
        return str(value)
    text = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return text


def check_int(field: str, value: Any, low: int | None = None, high: int | None = None) -> int:
    """Return ``value`` as an int, or raise :class:`InputError` saying what is allowed.

    Accepts ints and strings of decimal digits (with an optional sign); refuses
    bools, floats with a fraction and anything else.
    """
    if isinstance(value, bool):
        raise InputError(
            field, "type", f"expected a whole number, got {_shown(value)}", value=value, low=low, high=high
        )
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif (
        isinstance(value, str)
        and value.strip().lstrip("+-").isdigit()
        and value.strip().isascii()
        and len(value.strip()) <= _MAX_DIGITS
    ):
        number = int(value.strip())
    else:
        raise InputError(
            field,
            "type",
            f"expected a whole number, got {_shown(value)}",
            value=value if len(_shown(value)) == len(repr(value)) else _shown(value),
            low=low,
            high=high,
        )
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        elif low is not None:
            allowed = f"at least {low}"
        else:
            allowed = f"at most {high}"
        shown = _shown(number)
        raise InputError(
            field,
            "range",
            f"must be {allowed}, got {shown}",
            value=number if number.bit_length() <= 100 else shown,
            low=low,
            high=high,
        )
    return number


def check_bool(field: str, value: Any) -> bool:
    """Return ``value`` as a bool; accepts bools only (and 0/1)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise InputError(field, "type", f"expected true or false, got {_shown(value)}", value=value)


def check_choice(field: str, value: Any, allowed: tuple[str, ...]) -> str:
    """Return ``value`` if it is one of ``allowed``, else raise :class:`InputError`."""
    if isinstance(value, str) and value in allowed:
        return value
    raise InputError(
        field, "choice", f"must be one of {', '.join(allowed)}, got {_shown(value)}", value=value, allowed=list(allowed)
    )
