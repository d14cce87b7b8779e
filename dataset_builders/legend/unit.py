"""LegendBench's base unit factorised: the chart side ``s`` and the legend side ``l``.

``s`` is a :class:`ChartSpec` holding the data and the marks with *no* legend: the names the
legend carries (series names, or wedge names for pies) are neutral placeholders and its
legend form is ``none``. ``l`` (:class:`LegendSide`) holds the label -> encoding mapping and
how it is presented. :func:`compose` joins them into the renderable spec. An instance-level
intervention returns a new ``l`` and never touches ``s``, so "only the legend changed" is a
plain equality test on ``s``.

Identity is declared by the legend: the marks of legend item ``i`` (series ``i``, or wedge
``i``) belong to ``labels[i]``. Swapping two labels therefore re-binds the marks without
moving a pixel of the plot. With a colour bar the legend declares a value scale instead:
``scale = (a, b)`` maps the drawn field ``v`` to the legend's values ``a*v + b`` (the
heatmap normalises its colours to the data range, so cell colours are unchanged).
Compositional legends declare one factor per channel (e.g. colour = region, marker =
product); an item's label is the join of its factor levels.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

from ..core.charts import CHARTS
from ..core.spec import (
    ChartSpec,
    LegendEntry,
    LegendSpec,
    SpecError,
    _from_plain,
    _to_plain,
)

__all__ = ["ENTRY_FIELD", "Factor", "LegendSide", "compose", "item_labels", "legend_names_field", "neutral_chart",
           "side_from_json", "side_to_json"]

NEUTRAL = "item {}"
"""Placeholder names of legend-named items in ``s`` (never shown: ``s`` has no legend)."""


@dataclass(frozen=True)
class Factor:
    """One semantic dimension of a compositional legend, shown through one channel."""

    name: str
    """What the dimension is (``Region``), used in questions."""
    channel: str
    """color | marker | line_style | texture."""
    levels: tuple[str, ...]
    """Level labels as the legend declares them (``North``, ``South``)."""
    values: tuple[str, ...]
    """The channel value the legend shows for each level (hex colour, marker code, ...)."""
    item_levels: tuple[int, ...]
    """Per legend item: the index of the level whose value the item's marks carry."""


@dataclass(frozen=True)
class LegendSide:
    """The legend specification ``l``: mapping plus presentation."""

    labels: tuple[str, ...]
    """One label per legend item (compositional: derived from ``factors``)."""
    form: str = "box"
    order: tuple[int, ...] | None = None
    position: str = "upper right"
    font_scale: float = 1.0
    columns: int = 1
    visible: tuple[bool, ...] | None = None
    """Per displayed entry (items, or factor levels in compositional legends)."""
    title: str = ""
    scale: tuple[float, float] = (1.0, 0.0)
    """Colour bar: legend value = scale[0] * drawn value + scale[1]."""
    direction: str = "up"
    """Colour bar: ``up`` (high values at the top) or ``down`` (an inverted bar)."""
    factors: tuple[Factor, ...] = ()

    def replace(self, **changes: Any) -> LegendSide:
        """``dataclasses.replace`` shortcut."""
        return dataclasses.replace(self, **changes)

    @property
    def n_entries(self) -> int:
        """Entries the legend displays when nothing is hidden."""
        return sum(len(f.levels) for f in self.factors) if self.factors else len(self.labels)


def item_labels(legend: LegendSide) -> tuple[str, ...]:
    """The label of every legend item under the legend's current mapping."""
    if not legend.factors:
        return legend.labels
    n = len(legend.factors[0].item_levels)
    return tuple(" ".join(f.levels[f.item_levels[i]] for f in legend.factors) for i in range(n))


def legend_names_field(kind: str) -> str | None:
    """Which names of ``kind`` the legend carries: 'series', 'categories', or None (a scale)."""
    cls = CHARTS.get(kind)
    if cls.default_legend == "colorbar":
        return None
    return cls.legend_items


def neutral_chart(spec: ChartSpec) -> ChartSpec:
    """The chart side ``s`` of a full spec: legend-carried names neutralised, no legend."""
    field = legend_names_field(spec.kind)
    data = spec.data
    if field == "series":
        series = tuple(dataclasses.replace(s, name=NEUTRAL.format(i + 1)) for i, s in enumerate(data.series))
        data = dataclasses.replace(data, series=series)
    elif field == "categories":
        data = dataclasses.replace(data, categories=tuple(NEUTRAL.format(i + 1) for i in range(len(data.categories))))
    return spec.replace(data=data, legend=LegendSpec(form="none"))


def compose(chart: ChartSpec, legend: LegendSide) -> ChartSpec:
    """The renderable spec of ``(s, l)``: names from the legend, values through its scale."""
    field = legend_names_field(chart.kind)
    labels = item_labels(legend)
    data = chart.data
    if field == "series":
        data = dataclasses.replace(data, series=tuple(
            dataclasses.replace(s, name=labels[i]) for i, s in enumerate(data.series)))
    elif field == "categories":
        data = dataclasses.replace(data, categories=tuple(labels))
    elif legend.scale != (1.0, 0.0):
        a, b = legend.scale
        data = dataclasses.replace(data, series=tuple(
            dataclasses.replace(s, values=tuple(round(a * v + b, 6) for v in s.values)) for s in data.series))
    spec = chart.replace(data=data, legend=LegendSpec(
        form=legend.form, order=legend.order, position=legend.position, font_scale=legend.font_scale,
        columns=legend.columns, visible=legend.visible, title=legend.title, direction=legend.direction,
        entries=_entries(chart, legend) if legend.factors else None))
    return spec.validate()


ENTRY_FIELD = {"color": "color", "marker": "marker", "line_style": "line_style", "texture": "hatch"}
"""The field showing each channel on a LegendEntry or an Encoding (texture is a hatch)."""


def _entries(chart: ChartSpec, legend: LegendSide) -> tuple[LegendEntry, ...]:
    """Explicit entries of a compositional legend: each factor's levels, in factor order."""
    patch = "hatch" in CHARTS.get(chart.kind).encoding_channels
    out = []
    for f in legend.factors:
        for value, label in zip(f.values, f.levels):
            # Non-colour factors are drawn on a neutral handle: white patches, grey lines.
            entry = {"color": "#ffffff" if patch and f.channel != "color" else "#555555",
                     "line_style": "" if patch else "solid"}
            entry[ENTRY_FIELD[f.channel]] = value
            if f.channel == "marker":
                entry["line_style"] = ""
            out.append(LegendEntry(label=label, patch=patch, **entry))
    return tuple(out)


def side_to_json(legend: LegendSide) -> str:
    """Canonical JSON of a legend side."""
    return json.dumps(_to_plain(legend), sort_keys=True, separators=(",", ":"))


def side_from_json(text: str) -> LegendSide:
    """Inverse of :func:`side_to_json`; raises SpecError naming the bad field."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecError("legend_spec", f"invalid JSON: {exc}") from None
    return _from_plain(LegendSide, raw, "legend_spec")

