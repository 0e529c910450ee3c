"""Bokeh odds charts, each built once; ``update`` only rewrites ``source.data``.

Axis titles and category labels come in already translated (``labels``),
so a language switch is an in-place update too. No Panel import.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from bokeh.models import ColumnDataSource, NumeralTickFormatter, Range1d, Span
from bokeh.plotting import figure

__all__ = ["BarChart", "GurpsDistributionChart", "ProbabilityByValueChart", "fitting_end", "new_figure"]

GOOD = "#2e8b57"
GREAT = "#1f6fb5"
EXTRA = "#7b3fb0"
BAD = "#c0392b"
CRIT_BAD = "#7f1d1d"
CRIT_GOOD = "#145a32"
NEUTRAL = "#8c8c8c"
HIGHLIGHT = "#f2a900"
AXIS = "#7d8790"


def new_figure(height: int, **kw: Any) -> Any:
    """A Bokeh figure as every chart of the app draws it (no toolbar, stretching, an explicit y range)."""
    # An explicit y range: a DataRange1d keeps recomputing its end in the browser, whatever end Python
    # gives it later, so a 72 % bar was cut off (with its label) at the end it had computed first.
    kw.setdefault("y_range", Range1d(0, 1))
    fig = figure(
        height=height,
        sizing_mode="stretch_width",
        toolbar_location=None,
        tools="",
        min_border_left=48,
        **kw,
    )
    fig.yaxis.formatter = NumeralTickFormatter(format="0%")
    for axis in (fig.xaxis, fig.yaxis):  # a mid grey reads on the light and the dark theme
        axis.axis_label_text_color = AXIS
        axis.major_label_text_color = AXIS
        axis.axis_line_color = AXIS
        axis.major_tick_line_color = AXIS
        axis.minor_tick_line_color = None
    fig.ygrid.grid_line_color = AXIS
    fig.ygrid.grid_line_alpha = 0.3
    fig.y_range.start = 0
    fig.xgrid.grid_line_color = None
    fig.outline_line_color = None
    fig.background_fill_alpha = 0
    fig.border_fill_alpha = 0
    return fig


def fitting_end(peak: float) -> float:
    """The end of a probability axis that holds a bar of ``peak`` with its label above it."""
    return max(0.25, peak + max(0.13, peak * 0.18))


class BarChart:
    """Probabilities of a fixed set of categories (ids), with translated labels."""

    def __init__(self, ids: list[str], colours: list[str], height: int = 220) -> None:
        self.ids = list(ids)
        self.source = ColumnDataSource(
            {
                "x": self.ids,
                "p": [0.0] * len(ids),
                "colour": list(colours),
                "pct": [""] * len(ids),
                "line": [0] * len(ids),
            }
        )
        self.figure = new_figure(height, x_range=self.ids)
        self.figure.vbar(
            x="x",
            top="p",
            width=0.8,
            source=self.source,
            fill_color="colour",
            line_color=HIGHLIGHT,
            line_width="line",
        )
        self.figure.text(
            x="x",
            y="p",
            text="pct",
            source=self.source,
            text_align="center",
            text_baseline="bottom",
            text_font_size="11pt",
            y_offset=-2,
            text_color=AXIS,
        )

    def set_labels(self, labels: Mapping[str, str], y_title: str = "") -> None:
        names = [labels.get(i, i) for i in self.ids]
        if len(set(names)) != len(names):  # factors must be unique
            names = [f"{n} ({k})" if names.count(n) > 1 else n for k, n in enumerate(names, 1)]
        data = dict(self.source.data)
        data["x"] = names
        self.figure.x_range.factors = names
        self.source.data = data
        self.figure.yaxis.axis_label = y_title

    def update(self, probs: Mapping[str, Fraction | float] | None, marked: str | None = None) -> None:
        ps = [float(probs.get(i, 0)) if probs else 0.0 for i in self.ids]
        data = dict(self.source.data)
        data.update(
            p=ps, pct=[f"{p:.1%}" if probs else "" for p in ps], line=[4 if i == marked else 0 for i in self.ids]
        )
        self.source.data = data
        self.figure.y_range.end = fitting_end(max(ps, default=0.0))

    def values(self) -> list[float]:
        return list(self.source.data["p"])


class ProbabilityByValueChart:
    """P(success) over integer values (TNs, favour spends), the current value highlighted."""

    def __init__(self, values: list[int], height: int = 220) -> None:
        self.source = ColumnDataSource({"x": list(values), "p": [0.0] * len(values), "colour": [GOOD] * len(values)})
        self.figure = new_figure(height)
        self.figure.vbar(x="x", top="p", width=0.8, source=self.source, fill_color="colour", line_color=None)
        self.figure.y_range.end = 1.05
        self.marker = Span(
            location=0, dimension="height", line_color=HIGHLIGHT, line_width=3, line_dash="dashed", visible=False
        )
        self.figure.add_layout(self.marker)

    def set_labels(self, x_title: str, y_title: str) -> None:
        self.figure.xaxis.axis_label = x_title
        self.figure.yaxis.axis_label = y_title

    def update(self, probs: Mapping[int, Fraction | float], current: int | None) -> None:
        xs = sorted(probs)
        if xs:
            self.figure.xaxis.ticker = xs if len(xs) <= 16 else list(range(xs[0], xs[-1] + 1, 5))
        self.source.data = {
            "x": xs,
            "p": [float(probs[x]) for x in xs],
            "colour": [GREAT if x == current else GOOD for x in xs],
        }

    def mark(self, value: float | None) -> None:
        """Draw a line where the last roll fell (None hides it)."""
        if value is None:
            self.marker.visible = False
        else:
            self.marker.location = value
            self.marker.visible = True


#: The colour of each outcome or degree, wherever it is drawn (charts, legends, the result panel's bar).
OUTCOME_COLOURS = {
    "critical_failure": CRIT_BAD,
    "failure": BAD,
    "success": GOOD,
    "great": GREAT,
    "extraordinary": EXTRA,
    "critical_success": CRIT_GOOD,
}


class GurpsDistributionChart:
    """The 3d6 distribution, each total coloured by its outcome against the effective skill."""

    WEIGHTS = {
        t: w for t, w in zip(range(3, 19), (1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1), strict=False)
    }

    def __init__(self, height: int = 220) -> None:
        xs = list(range(3, 19))
        self.source = ColumnDataSource(
            {
                "x": xs,
                "p": [self.WEIGHTS[x] / 216 for x in xs],
                "colour": [NEUTRAL] * 16,
                "outcome": [""] * 16,
                "line": [0] * 16,
            }
        )
        self.figure = new_figure(height)
        self.figure.vbar(
            x="x", top="p", width=0.85, source=self.source, fill_color="colour", line_color=HIGHLIGHT, line_width="line"
        )
        self.figure.y_range.end = 0.14
        self.figure.xaxis.ticker = xs
        self.marker = Span(location=0, dimension="height", line_color=HIGHLIGHT, line_width=3, visible=False)
        self.figure.add_layout(self.marker)

    def set_labels(self, x_title: str, y_title: str) -> None:
        self.figure.xaxis.axis_label = x_title
        self.figure.yaxis.axis_label = y_title

    def update(self, by_roll: Mapping[int, str] | None, rolled: int | None = None) -> None:
        data = dict(self.source.data)
        outcomes = [str(by_roll.get(x, "")) if by_roll else "" for x in data["x"]]
        data["outcome"] = outcomes
        data["colour"] = [OUTCOME_COLOURS.get(o, NEUTRAL) for o in outcomes]
        data["line"] = [4 if x == rolled else 0 for x in data["x"]]
        self.source.data = data
        self.mark(rolled)

    def mark(self, value: int | None) -> None:
        if value is None:
            self.marker.visible = False
        else:
            self.marker.location = value
            self.marker.visible = True
