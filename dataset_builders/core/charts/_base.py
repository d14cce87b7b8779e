"""The chart-kind contract shared by every ``charts/<kind>.py``.

A chart kind is registered with ``@chart("name")`` on a subclass of :class:`ChartKind`.
It knows how to *sample* a random spec of its kind, which *legend items* it has,
how to *validate* kind-specific constraints, and how to *draw* a spec on a matplotlib
Axes. Drawing imports matplotlib lazily so that sampling and validating specs (done by
every builder process) never pays for it.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..layout import Margins
from ..spec import ChartSpec, SpecError
from ._marks import DataBox, DataPoint, format_value
from ._sampling import sample_spec_parts

__all__ = ["DEFAULT_CONFIG", "ChartKind", "DataBox", "DataPoint", "Drawn", "SampleConfig", "format_value"]


@dataclass(frozen=True)
class SampleConfig:
    """Knobs for sampling a random spec of any kind (kinds clamp to what they support)."""

    n_categories: tuple[int, int] = (3, 7)
    """Inclusive range of the number of categories / x points / wedges."""
    n_series: tuple[int, int] = (1, 3)
    """Inclusive range of the number of series (single-series kinds use 1)."""
    value_range: tuple[float, float] = (5.0, 100.0)
    integer_values: bool = True
    """Round values to integers (exact answers read off value labels stay exact)."""
    legend_form: str | None = None
    """Force a legend form; None = the kind's default."""
    theme: str = "default"
    value_labels: bool = False
    distinct_values: bool = True
    """Re-draw until all values of a series differ (avoids ambiguous extremes)."""


@dataclass
class Drawn:
    """What ``ChartKind.draw`` hands back to the renderer.

    ``marks`` maps element ids (``mark/<series>/<category>``) to one artist or a list of
    artists; ``handles`` holds one legend handle per legend item (item order);
    ``anchors`` holds, per legend item, the data point (x, y) a direct label should sit
    next to; ``mappable`` is the ScalarMappable for a colorbar legend.
    """

    marks: dict[str, Any] = field(default_factory=dict)
    handles: list[Any] = field(default_factory=list)
    anchors: list[tuple[float, float]] = field(default_factory=list)
    mappable: Any = None
    anchor_ha: list[str] = field(default_factory=list)
    """Optional per-item horizontal alignment of direct labels ('left' = text right of anchor)."""
    anchor_offset: float = 5.0
    """Gap in points between an anchor and its direct label (wider to clear value labels)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Other measurable artists (e.g. ``value_label/<s>/<c>``)."""


DEFAULT_CONFIG = SampleConfig()
"""The SampleConfig used when a caller passes none."""


class ChartKind(abc.ABC):
    """Base class of every chart kind. Subclasses override the hooks below."""

    name: str
    """Set by the @chart decorator (the registered name)."""
    legend_items: str = "series"
    """'series' if legend entries are the series, 'categories' if they are the categories."""
    default_legend: str = "box"
    legend_forms: tuple[str, ...] = ("box", "direct", "none")
    max_series: int = 6
    min_series: int = 1
    polar: bool = False
    margins: Margins | None = Margins()
    """Space around the axes, in font sizes, before the text fitted grows it (:mod:`..layout`);
    None: the kind is laid out by matplotlib's constrained layout."""
    value_axis: str = "y"
    """Axis carrying the values ('x' for horizontal bars, '' for none): tick_format and log
    scale apply to it."""
    series_range: tuple[int, int] = (1, 1)
    """Inclusive number of series this kind samples (clamped with SampleConfig.n_series)."""
    category_range: tuple[int, int] = (3, 8)
    """Inclusive number of categories this kind samples (clamped with n_categories)."""
    encoding_channels: tuple[str, ...] = ()
    """Non-colour channels the mark family shows: 'marker', 'line_style', 'hatch'."""
    pools: tuple[str, ...] | None = None
    """Category pools that suit the kind (None = any); e.g. time pools for line charts."""

    def legend_labels(self, spec: ChartSpec) -> tuple[str, ...]:
        """Names of the legend items, in item order (encodings are indexed the same way)."""
        if self.legend_items == "categories":
            return tuple(spec.data.categories)
        return tuple(s.name for s in spec.data.series)

    def validate(self, spec: ChartSpec) -> None:
        """Kind-specific checks; raise SpecError naming the field."""
        if spec.legend.form not in self.legend_forms:
            raise SpecError("spec.legend.form",
                            f"{spec.legend.form!r} not supported by {self.name}; use one of {self.legend_forms}")
        if len(spec.data.series) > self.max_series:
            raise SpecError("spec.data.series", f"{self.name} supports at most {self.max_series} series")
        if len(spec.data.series) < self.min_series:
            raise SpecError("spec.data.series", f"{self.name} needs at least {self.min_series} series")
        self._validate_scales(spec)

    def _validate_scales(self, spec: ChartSpec) -> None:
        """Log scales need positive values; a categorical axis (positions 0..n-1) cannot be log."""
        if not self.value_axis:
            return
        cat_axis = "y" if self.value_axis == "x" else "x"
        if getattr(spec.axes, f"{cat_axis}_scale") == "log":
            xs = spec.data.x_values
            if xs is None or cat_axis == "y":
                raise SpecError(f"spec.axes.{cat_axis}_scale", "a categorical axis cannot be log-scaled")
            for j, x in enumerate(xs):
                if x <= 0:
                    raise SpecError(f"spec.data.x_values[{j}]", f"{x} must be > 0 on a log x axis")
        if getattr(spec.axes, f"{self.value_axis}_scale") == "log":
            for i, s in enumerate(spec.data.series):
                for j, v in enumerate(s.values):
                    if v <= 0:
                        raise SpecError(f"spec.data.series[{i}].values[{j}]",
                                        f"{v} must be > 0 on a log {self.value_axis} axis")

    def sample_base(self, rng: np.random.Generator, cfg: SampleConfig, **overrides: Any) -> ChartSpec:
        """A spec with this kind's defaults drawn from ``rng``; ``overrides`` tune the sampler
        (``walk=True`` for trending values, ``x_values=True`` for numeric x)."""
        return sample_spec_parts(self, rng, cfg, **overrides)

    def apply_axes(self, spec: ChartSpec, ax: Any) -> None:
        """Honour AxesSpec on a Cartesian (or polar radial) axes; called by the renderer after draw.

        Kinds without value axes (pie) override this with a no-op.
        """
        from matplotlib.ticker import FuncFormatter

        a = spec.axes
        ax.set_xlabel(a.x_label)
        ax.set_ylabel(a.y_label)
        if a.x_scale == "log":
            ax.set_xscale("log")
        if a.y_scale == "log":
            ax.set_yscale("log")
        if a.x_limits is not None:
            ax.set_xlim(*a.x_limits)
        if a.y_limits is not None:
            ax.set_ylim(*a.y_limits)
        if self.value_axis:
            fmt = a.tick_format
            axis = ax.xaxis if self.value_axis == "x" else ax.yaxis
            axis.set_major_formatter(FuncFormatter(lambda x, _pos: fmt.format(x=x)))
        ax.grid(a.grid)
        if a.grid:
            ax.set_axisbelow(True)

    @abc.abstractmethod
    def sample(self, rng: np.random.Generator, cfg: SampleConfig = DEFAULT_CONFIG) -> ChartSpec:
        """Return a random valid spec of this kind drawn only from ``rng``."""

    @abc.abstractmethod
    def draw(self, spec: ChartSpec, fig: Any, ax: Any) -> Drawn:
        """Draw ``spec`` on ``ax`` (already created by the renderer) and return what was drawn."""
