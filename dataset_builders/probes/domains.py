"""The four ChartProbe domains: single-series bar, hbar and pie charts, and shape scenes.

A domain turns ``(rng, tier)`` into a spec, renders it, and wraps it in the *view* the
templates read (``ChartView`` or ``SceneView``). Charts follow the paper's training
pool: single series, stratified by mark count into three complexity tiers (simple 3–5,
medium 6–10, complex 11–24; pies stop at 12 segments, where wedges and legend entries
stay legible), realistic category names and units, varied palettes and themes. Values
are distinct integers so that rankings and extremes are well-posed.
"""

from __future__ import annotations

import abc
import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.charts import CHARTS
from ..core.fields import THEMES
from ..core.spec import (
    AxesSpec,
    ChartSpec,
    DataTable,
    Encoding,
    LegendSpec,
    Series,
    StyleSpec,
)
from ..core.vocab import CATEGORY_POOLS, NAMED_COLORS, TOPICS, pick, pick_categories

__all__ = ["PROBE_DOMAINS", "TIERS", "ChartDomain", "ProbeDomain", "SceneDomain"]

TIERS = ("simple", "medium", "complex")
_BAR_TIERS = {"simple": (3, 5), "medium": (6, 10), "complex": (11, 24)}
_SCENE_TIERS = {"simple": (3, 5), "medium": (6, 8), "complex": (9, 12)}
_COLOR_NAMES = tuple(n for n in NAMED_COLORS if n != "black")  # black vanishes on the dark theme
_PIE_TIERS = {"simple": (3, 5), "medium": (6, 8), "complex": (9, len(_COLOR_NAMES))}
"""Wedge counts per tier: at most one wedge per named colour, so no two wedges share one (12
wedges over 10 colours drew two adjacent reds, and "which colour is X?" had two answers)."""
_SINGULAR = {"countries": "country", "products": "product", "years": "year", "cities": "city",
             "departments": "department", "months": "month", "quarters": "quarter"}


def sample_regime_values(rng: np.random.Generator, n: int, lo: float, hi: float,
                         order: str = "shuffled") -> tuple[float, ...]:
    """``n`` distinct integers in [lo, hi] under a random spread, in ``order``.

    The spread is wide or narrow (half each: "is the tallest more than twice the shortest?"
    is then yes or no alike). ``order`` is ``shuffled`` (a uniformly random order: no
    position predicts a rank), ``ascending`` or ``descending`` (trend charts only, see
    :mod:`.orders`); sorted values are spaced evenly with jitter so neighbours stay visibly
    different when the range allows it.
    """
    lo_i, hi_i = int(lo), int(hi)
    if rng.random() < 0.5:  # narrow: max stays below 1.6x min
        lo_i = max(lo_i, int(hi_i / 1.6) + 1)
    pool = np.arange(lo_i, hi_i + 1)
    if n > len(pool):  # too narrow for n distinct values: fall back to the full range
        pool = np.arange(int(lo), hi_i + 1)
    if order == "shuffled":
        return tuple(float(v) for v in rng.choice(pool, size=n, replace=False))
    # Evenly spaced picks with jitter: neighbours differ by about the range / n.
    edges = np.linspace(0, len(pool), n + 1)
    idx = [int(rng.integers(int(np.ceil(a)), max(int(np.ceil(a)) + 1, int(np.floor(b)))))
           for a, b in itertools.pairwise(edges)]
    vals = sorted({int(pool[min(i, len(pool) - 1)]) for i in idx})
    while len(vals) < n:  # rounding collisions on tiny ranges: top up with unused values
        vals = sorted(set(vals) | {int(v) for v in rng.choice(pool, size=n - len(vals), replace=False)})
    vals = vals[:n] if order == "ascending" else vals[:n][::-1]
    return tuple(float(v) for v in vals)


@dataclass(frozen=True)
class ProbeDomain(abc.ABC):
    """How one domain samples, renders and views its items."""

    name: str
    template_domain: str
    """Which templates apply: 'chart' or 'shapes' (plus the template's own kinds list)."""

    @abc.abstractmethod
    def sample(self, rng: np.random.Generator, tier: str, order: str = "shuffled") -> Any:
        """A random spec in ``tier`` drawn only from ``rng`` (``order``: value order, charts only)."""

    @abc.abstractmethod
    def render(self, spec: Any, engine: str | None = None) -> Any:
        """A ``Rendered`` (PNG bytes and element boxes), from ``engine`` (None: the native one)."""

    def boxes(self, spec: Any, engine: str | None = None) -> dict:
        """The normalized element boxes of ``spec`` as ``engine`` draws it (``render(...).boxes``)."""
        return self.render(spec, engine).boxes

    @abc.abstractmethod
    def view(self, spec: Any, boxes: dict) -> Any:
        """The view the templates read."""

    @staticmethod
    @abc.abstractmethod
    def spec_from_json(text: str) -> Any:
        """Parse a stored spec."""


@dataclass(frozen=True)
class ChartDomain(ProbeDomain):
    """Single-series charts of one kind."""

    tiers: tuple[tuple[str, tuple[int, int]], ...] = tuple(_BAR_TIERS.items())

    def sample(self, rng: np.random.Generator, tier: str, order: str = "shuffled") -> ChartSpec:
        """A single-series chart of this kind with a mark count in ``tier``'s range."""
        lo, hi = dict(self.tiers)[tier]
        n = int(rng.integers(lo, hi + 1))
        # Only pools with at least n names, so the complex tier really gets up to 24 marks.
        pools = tuple(p for p in _SINGULAR if len(CATEGORY_POOLS[p]) >= n)
        topic = pick(rng, [t for t in TOPICS if set(t.pools) & set(pools)])
        pool, cats = pick_categories(rng, topic, n, pools)
        values = sample_regime_values(rng, n, *(topic.value_range or (5.0, 100.0)), order=order)
        series = Series(pick(rng, topic.series), values, topic.unit)
        return ChartSpec(
            kind=self.name, data=DataTable(tuple(cats), (series,)),
            encodings=self._encodings(rng, n), legend=self._legend(rng),
            axes=self._axes(pool, series, topic), style=self._style(rng, topic, pool, n))

    def dress(self, rng: np.random.Generator, categories: tuple[str, ...], series: Series,
              category_label: str, title: str) -> ChartSpec:
        """A chart of this kind over given data (a real table's), in a palette, legend and theme
        drawn from ``rng`` exactly as a sampled chart's are."""
        n = len(categories)
        value = f"{series.name} ({series.unit})" if series.unit else series.name
        axes = (AxesSpec(x_label=value, y_label=category_label) if CHARTS.get(self.name).value_axis == "x"
                else AxesSpec(x_label=category_label, y_label=value))
        theme = pick(rng, tuple(t for t in THEMES if t != "scraped"))
        style = StyleSpec(theme=theme, width=round(6.4 + 0.18 * max(0, n - 10), 2),
                          value_labels=bool(rng.random() < 0.3), title=title)
        return ChartSpec(kind=self.name, data=DataTable(tuple(categories), (series,)),
                         encodings=self._encodings(rng, n), legend=self._legend(rng), axes=axes, style=style)

    def _encodings(self, rng: np.random.Generator, n: int) -> tuple[Encoding, ...]:
        names = rng.permutation(len(_COLOR_NAMES))
        if CHARTS.get(self.name).legend_items == "categories":  # pie: one colour per wedge
            return tuple(Encoding(NAMED_COLORS[_COLOR_NAMES[int(names[i % len(names)])]])
                         for i in range(n))
        base = Encoding(NAMED_COLORS[_COLOR_NAMES[int(names[0])]])
        if rng.random() < 0.5:  # seaborn-style palette over a few colours: colour probes vary
            k = int(rng.integers(2, min(6, n) + 1))
            palette = [NAMED_COLORS[_COLOR_NAMES[int(i)]] for i in names[:k]]
            colors = [palette[i % k] for i in range(n)]
            order = rng.permutation(n)
            return (dataclasses.replace(base, colors=tuple(colors[int(i)] for i in order)),)
        return (base,)

    def _legend(self, rng: np.random.Generator) -> LegendSpec:
        kind = CHARTS.get(self.name)
        return LegendSpec(form=kind.default_legend, position="outside right")

    def _axes(self, pool: str, series: Series, topic: Any) -> AxesSpec:
        cat = _SINGULAR[pool].title()
        value = f"{series.name} ({topic.unit})"
        if CHARTS.get(self.name).value_axis == "x":
            return AxesSpec(x_label=value, y_label=cat, tick_format=topic.tick_format)
        return AxesSpec(x_label=cat, y_label=value, tick_format=topic.tick_format)

    def _style(self, rng: np.random.Generator, topic: Any, pool: str, n: int) -> StyleSpec:
        theme = pick(rng, tuple(t for t in THEMES if t != "scraped"))
        width = 6.4 + 0.18 * max(0, n - 10)  # keep 24 slanted labels legible
        return StyleSpec(theme=theme, width=round(width, 2), value_labels=bool(rng.random() < 0.3),
                         title=topic.title.format(cat=_SINGULAR[pool]))

    def render(self, spec: ChartSpec, engine: str | None = None):
        """PNG and element boxes from the matplotlib renderer, or the engine named."""
        from ..core.specs import render_spec

        return render_spec(spec, engine=engine)

    def boxes(self, spec: ChartSpec, engine: str | None = None) -> dict:
        """As :meth:`render`'s boxes; the native renderer measures them without painting a pixel
        (``render(pixels=False)``: the same draws, about two thirds of the time)."""
        if engine not in (None, "matplotlib"):
            return self.render(spec, engine).boxes
        from ..core.render import render

        return render(spec, pixels=False).boxes

    def view(self, spec: ChartSpec, boxes: dict) -> Any:
        """A ChartView over the spec and its boxes."""
        from ..core.chartview import ChartView

        return ChartView(spec, boxes)

    @staticmethod
    def spec_from_json(text: str) -> ChartSpec:
        return ChartSpec.from_json(text)


@dataclass(frozen=True)
class SceneDomain(ProbeDomain):
    """CLEVR-like 2D shape scenes (the paper's non-chart transfer domain)."""

    def sample(self, rng: np.random.Generator, tier: str, order: str = "shuffled") -> Any:
        from ..core.scenes import sample_scene

        return sample_scene(rng, n_objects=_SCENE_TIERS[tier])

    def render(self, spec: Any, engine: str | None = None):
        from ..core.specs import render_spec

        return render_spec(spec, engine=engine)

    def view(self, spec: Any, boxes: dict) -> Any:
        from ..core.scenes import SceneView

        return SceneView(spec, boxes)

    @staticmethod
    def spec_from_json(text: str) -> Any:
        from ..core.scenes import SceneSpec

        return SceneSpec.from_json(text)


PROBE_DOMAINS: dict[str, ProbeDomain] = {
    "bar": ChartDomain("bar", "chart"),
    "hbar": ChartDomain("hbar", "chart"),
    "pie": ChartDomain("pie", "chart", tiers=tuple(_PIE_TIERS.items())),
    "shapes": SceneDomain("shapes", "shapes"),
}
