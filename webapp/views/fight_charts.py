"""Bokeh charts of the fight screen, built once; ``update`` only rewrites ``source.data``. No Panel import."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bokeh.models import ColumnDataSource, Legend, LegendItem
from bokeh.transform import dodge

from .charts import BAD, GOOD, new_figure

__all__ = ["LifeLeftChart"]


class LifeLeftChart:
    """The winner's life left: P(the hero wins with l life) and P(the monster wins with l life) side by side."""

    def __init__(self, height: int = 240) -> None:
        self.source = ColumnDataSource({"x": [], "hero": [], "monster": []})
        self.figure = new_figure(height)
        hero = self.figure.vbar(
            x=dodge("x", -0.2), top="hero", width=0.38, source=self.source, fill_color=GOOD, line_color=None
        )
        monster = self.figure.vbar(
            x=dodge("x", 0.2), top="monster", width=0.38, source=self.source, fill_color=BAD, line_color=None
        )
        self.legend = Legend(
            items=[LegendItem(label="hero", renderers=[hero]), LegendItem(label="monster", renderers=[monster])],
            orientation="horizontal",
            background_fill_alpha=0,
            border_line_color=None,
        )
        self.figure.add_layout(self.legend, "above")  # over the plot, never over its bars

    def set_labels(self, x_title: str, y_title: str, hero: str, monster: str) -> None:
        self.figure.xaxis.axis_label = x_title
        self.figure.yaxis.axis_label = y_title
        self.legend.items[0].label = {"value": hero}
        self.legend.items[1].label = {"value": monster}

    def update(self, hero_left: Mapping[int, Any] | None, monster_left: Mapping[int, Any] | None) -> None:
        hero_left = hero_left or {}
        monster_left = monster_left or {}
        top = max([*hero_left, *monster_left], default=0)
        xs = list(range(1, top + 1))
        self.source.data = {
            "x": xs,
            "hero": [float(hero_left.get(x, 0)) for x in xs],
            "monster": [float(monster_left.get(x, 0)) for x in xs],
        }
        peak = max([0.0, *self.source.data["hero"], *self.source.data["monster"]])
        self.figure.y_range.end = max(
            0.05, peak * 1.15
        )  # an explicit range (see charts.new_figure): the bars stay inside
        if xs:
            self.figure.xaxis.ticker = xs if len(xs) <= 20 else list(range(0, top + 1, 5))

    def values(self) -> dict[str, list[float]]:
        return {"hero": list(self.source.data["hero"]), "monster": list(self.source.data["monster"])}
