"""``histogram``: one series of counts over contiguous bins (categories are bin labels).

Bars touch (width 1, thin white edges) because bins are contiguous intervals, which is
what tells a histogram apart from a bar chart of unrelated categories.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..spec import AxesSpec, ChartSpec, DataTable, Encoding, LegendSpec, Series, SpecError, StyleSpec
from ..vocab import pick, pick_palette
from . import chart
from ._bars import set_category_ticks
from ._base import DEFAULT_CONFIG, ChartKind, Drawn, SampleConfig
from ._marks import format_value

_BINNINGS = (
    ("Age group", ("18–24", "25–34", "35–44", "45–54", "55–64", "65–74", "75+"), "Respondents"),
    ("Commute time (min)", ("0–10", "10–20", "20–30", "30–40", "40–50", "50–60", "60+"), "Workers"),
    ("Household income (USD k)", ("0–25", "25–50", "50–75", "75–100", "100–125", "125–150"),
     "Households"),
)


@chart("histogram")
class Histogram(ChartKind):
    """Histogram; bin ``c`` is ``mark/0/c``, bins left to right in category order."""

    max_series = 1
    series_range = (1, 1)
    category_range = (4, 7)
    default_legend = "none"
    legend_forms = ("box", "none")

    def validate(self, spec: ChartSpec) -> None:
        """Counts cannot be negative."""
        super().validate(spec)
        for j, v in enumerate(spec.data.series[0].values):
            if v < 0:
                raise SpecError(f"spec.data.series[0].values[{j}]", f"a bin count cannot be negative, got {v}")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """A random binning with distinct counts (integers unless cfg says otherwise)."""
        x_label, bins, unit = pick(rng, _BINNINGS)
        n = int(rng.integers(4, len(bins) + 1))
        for _ in range(50):  # distinct counts keep "the tallest bin" unambiguous
            raw = rng.uniform(20, 400, size=n)
            vals = tuple(float(v) for v in (np.round(raw) if cfg.integer_values else np.round(raw, 1)))
            if len(set(vals)) == n:
                break
        form = cfg.legend_form if cfg.legend_form in self.legend_forms else self.default_legend
        return ChartSpec(
            kind=self.name, data=DataTable(tuple(bins[:n]), (Series(unit, vals, unit.lower()),)),
            encodings=(Encoding(pick_palette(rng, 1)[0]),), legend=LegendSpec(form=form),
            axes=AxesSpec(x_label=x_label, y_label=unit, grid=bool(rng.random() < 0.5)),
            style=dataclasses.replace(StyleSpec(theme=cfg.theme, value_labels=cfg.value_labels),
                                      title=f"{unit} by {x_label.split(' (')[0].lower()}"))

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Adjacent unit-width bars; value labels above each bar."""
        enc = spec.encodings[0]
        vals = np.asarray(spec.data.series[0].values, dtype=float)
        bars = ax.bar(np.arange(len(vals)), vals, width=1.0, color=list(enc.colors or [enc.color]),
                      edgecolor="white", linewidth=0.8, hatch=enc.hatch or None)
        drawn = Drawn(handles=[bars], anchors=[(len(vals) - 0.5, float(vals[-1]))])
        for c, patch in enumerate(bars.patches):
            drawn.marks[f"mark/0/{c}"] = patch
        if spec.style.value_labels:
            texts = ax.bar_label(bars, labels=[format_value(spec, v) for v in vals], padding=2,
                                 fontsize=spec.style.font_size * 0.8)
            for c, t in enumerate(texts):
                drawn.extra[f"value_label/0/{c}"] = t
        set_category_ticks(ax, spec.data.categories)
        return drawn
