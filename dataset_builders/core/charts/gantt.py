"""``gantt``: a timeline of ranges; each category is a horizontal band from start to end.

Exactly two series: series 0 holds the start and series 1 the end of every band (on the
x axis: ages, weeks, years). ``mark/0/c`` is the start point and ``mark/1/c`` the end point
of band ``c`` (``band/c`` the whole bar); value labels print the start left of the band and
the end right of it. Bands run top to bottom in category order. There is no legend: the
series are the two ends of one mark, not separate things.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import AxesSpec, ChartSpec, DataTable, Encoding, LegendSpec, Series, SpecError, StyleSpec
from ..vocab import pick, pick_palette
from . import chart
from ._base import DEFAULT_CONFIG, ChartKind, DataPoint, Drawn, SampleConfig
from ._marks import format_value

_TIMELINES = (
    ("Time wasters across the lifespan", "Age (years)", (2, 85),
     ("Watching TV", "Video games", "Social media", "Going to concerts", "Board games", "Shopping",
      "Reading comics", "Daydreaming")),
    ("Project schedule", "Week", (1, 52),
     ("Research", "Design", "Prototype", "Testing", "Marketing", "Launch", "Support", "Hiring")),
)


@chart("gantt")
class Gantt(ChartKind):
    """Range bars (start, end) per category; see the module docstring for element ids."""

    min_series = 2
    max_series = 2
    series_range = (2, 2)
    category_range = (3, 8)
    default_legend = "none"
    legend_forms = ("none",)
    value_axis = "x"

    def validate(self, spec: ChartSpec) -> None:
        """Every band must end after it starts."""
        super().validate(spec)
        starts, ends = (s.values for s in spec.data.series)
        for j, (a, b) in enumerate(zip(starts, ends)):
            if b <= a:
                raise SpecError(f"spec.data.series[1].values[{j}]", f"end {b} must be after start {a}")

    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Random bands inside the timeline's span; distinct starts and distinct ends."""
        title, x_label, (lo, hi), pool = pick(rng, _TIMELINES)
        n = int(rng.integers(3, min(len(pool), 8) + 1))
        names = tuple(pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False))
        for _ in range(100):
            starts = rng.integers(lo, hi - 10, size=n)
            ends = np.minimum(starts + rng.integers(3, (hi - lo) // 2, size=n), hi)
            if len(set(starts)) == n and len(set(ends)) == n:
                break
        fmt = (lambda v: float(v)) if cfg.integer_values else (lambda v: float(v) + 0.5)
        series = (Series("Start", tuple(fmt(v) for v in starts)), Series("End", tuple(fmt(v) for v in ends)))
        return ChartSpec(
            kind=self.name, data=DataTable(names, series),
            encodings=tuple(Encoding(c) for c in pick_palette(rng, 2)), legend=LegendSpec(form="none"),
            axes=AxesSpec(x_label=x_label, grid=bool(rng.random() < 0.5)),
            style=StyleSpec(theme=cfg.theme, value_labels=cfg.value_labels, title=title))

    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """One horizontal bar per category from start to end, first category on top."""
        starts = np.asarray(spec.data.series[0].values, dtype=float)
        ends = np.asarray(spec.data.series[1].values, dtype=float)
        enc = spec.encodings[0]
        pos = np.arange(len(starts))
        bars = ax.barh(pos, ends - starts, left=starts, height=0.6,
                       color=list(enc.colors or [enc.color]), hatch=enc.hatch or None)
        drawn = Drawn(handles=[bars, bars])
        size = spec.style.font_size * 0.8
        for c, patch in enumerate(bars.patches):
            drawn.extra[f"band/{c}"] = patch
            for s, (x, ha, dx) in enumerate(((starts[c], "right", -3), (ends[c], "left", 3))):
                drawn.marks[f"mark/{s}/{c}"] = DataPoint(ax, x, pos[c], 6.0)
                if spec.style.value_labels:
                    drawn.extra[f"value_label/{s}/{c}"] = ax.annotate(
                        format_value(spec, x), (x, pos[c]), xytext=(dx, 0), textcoords="offset points",
                        ha=ha, va="center", fontsize=size, annotation_clip=False)
        drawn.anchors = [(float(ends[-1]), float(pos[-1]))] * 2
        ax.set_yticks(pos, labels=list(spec.data.categories))
        ax.invert_yaxis()
        # A bar's base is a sticky edge, so without this the axis starts at the earliest start and
        # that bar's start label lands on its category's tick label (core.readability).
        ax.use_sticky_edges = False
        ax.margins(x=0.08)
        return drawn
