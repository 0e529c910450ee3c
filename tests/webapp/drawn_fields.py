"""The number fields a part of a screen draws, whichever component draws them."""

from __future__ import annotations

from typing import Any

from webapp.views.common import NumberInput
from webapp.views.edit import EditSheet


def number_fields(viewable: Any) -> list[dict[str, Any]]:
    """Every number field in ``viewable`` as drawn: each :class:`NumberInput`, then each row of each
    :class:`EditSheet` (label, value, error, stepper, low, high, less, more)."""
    fields = [
        {
            "label": w.label,
            "value": w.value,
            "error": w.error,
            "stepper": w.stepper,
            "low": w.minimum,
            "high": w.maximum,
            "less": w.less_label,
            "more": w.more_label,
        }
        for w in viewable.select(NumberInput)
    ]
    for sheet in viewable.select(EditSheet):
        fields += [
            {
                "label": r["label"],
                "value": r["value"],
                "error": r["error"],
                "stepper": True,
                "low": r["low"],
                "high": r["high"],
                "less": r["less"],
                "more": r["more"],
            }
            for r in sheet.rows
        ]
    return fields
