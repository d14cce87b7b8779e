"""LegendBench's parameterised space: a YAML-listed set of allowed values per dimension, and
the sampler that draws one base unit ``(s, l)`` from it.

A preset config's ``params`` is a :class:`LegendSpace`: each key lists the values a
dimension may take (``chart_kinds``, ``legend_forms``, ``encoding_modes``, ``channels``,
``themes``, ``add_labels``, ``legend_positions``, ``trajectories``) or an inclusive range
(``num_series``, ``num_points``). Fixing every dimension but one yields a matched study set
(paper §4.5). Chart side: synthetic ``Entity | Metric`` series with trajectory templates
(linear, exponential, S-curve, event-driven) for line and area marks and chart-specific
values elsewhere. Legend side: the label -> encoding mapping and its presentation.

With ``--tables`` (``sources``), ``LegendSpace.tables`` holds ChartBench data tables and the
chart side's labels, metric, x values and values come from one of them instead (``table``):
the legend labels are the table's series (a pie's: its rows), its values are drawn as they
are, and everything else (legend, encodings, theme, interventions, questions) is sampled as
for synthetic data. Such a unit never takes the compositional mode: a table's series are one
semantic dimension, and a 2 x 2 Region x Product legend would rename them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.render import sample_spec
from ..core.spec import ChartSpec, Encoding, StyleSpec
from ..release.preset import PresetError
from .layouts import layout_data, table_layout
from .unit import ENTRY_FIELD, Factor, LegendSide, item_labels, legend_names_field, neutral_chart
from .values import sample_values
from .vocab import (
    COLORS,
    ENTITIES,
    HATCH_NAMES,
    LINE_STYLE_NAMES,
    MARKER_NAMES,
    METRICS,
    NEUTRAL_COLOR,
    PRODUCTS,
    REGIONS,
)

__all__ = ["CHANNELS_OF_FAMILY", "CHANNEL_POOLS", "MARK_FAMILY", "SERIES_LIMIT", "LegendSpace", "Unit",
           "channel_schemes", "encodings_for", "sample_unit", "table_chart"]

MARK_FAMILY = {"scatter": "point", "line": "line", "radar": "line", "grouped_bar": "area", "pie": "area",
               "area": "area", "heatmap": "area"}
"""Chart kinds by mark family (paper §4.1)."""
CHANNELS_OF_FAMILY = {"point": ("color", "marker"), "line": ("color", "marker", "line_style"),
                      "area": ("color", "texture")}
"""Identity channels each mark family can show (paper §6.1)."""
SERIES_LIMIT = {"scatter": 4, "line": 5, "radar": 3, "grouped_bar": 4, "pie": 6, "area": 3, "heatmap": 5}
_DIRECT_KINDS = ("scatter", "line", "radar", "grouped_bar", "area", "pie")
_COMPOSITIONAL_KINDS = ("scatter", "line", "grouped_bar")
"""Kinds with enough series (4) for a 2 x 2 compositional encoding."""
_SCALE_KINDS = ("heatmap",)
"""Kinds whose legend is a continuous colour bar."""
CHANNEL_POOLS = {"color": list(COLORS.values()), "marker": list(MARKER_NAMES), "line_style": list(LINE_STYLE_NAMES),
                 "texture": list(HATCH_NAMES)}
"""The values each identity channel draws from."""


@dataclass(frozen=True)
class LegendSpace:
    """Allowed values of every dimension (a preset config's ``params``)."""

    chart_kinds: tuple[str, ...] = tuple(MARK_FAMILY)
    legend_forms: tuple[str, ...] = ("box", "direct", "colorbar")
    encoding_modes: tuple[str, ...] = ("single", "double", "compositional")
    channels: tuple[tuple[str, ...], ...] | None = None
    """Allowed channel schemes (e.g. ``[[color], [color, marker]]``); None = all the mark allows."""
    num_series: tuple[int, int] = (2, 5)
    num_points: tuple[int, int] = (4, 8)
    themes: tuple[str, ...] = ("default", "classic", "minimal", "dark")
    add_labels: tuple[bool, ...] = (False, True)
    legend_positions: tuple[str, ...] = ("upper right", "upper left", "lower right", "center right",
                                         "outside right", "outside bottom")
    trajectories: tuple[str, ...] = ("linear", "exponential", "s_curve", "event", "cyclic")
    legend_columns: tuple[int, ...] = (1, 2)
    extra: dict[str, Any] = field(default_factory=dict)
    """Other parameters of the config (``study``, snapshot knobs), left to the builder."""
    tables: Any = None
    """A ``sources.TablePool`` when the chart side comes from ChartBench tables (``--tables``)."""

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> LegendSpace:
        """Build from a preset's params; unknown keys go to ``extra``, bad values raise PresetError."""
        names = {f.name for f in dataclasses.fields(cls)} - {"extra", "tables"}
        known = {k: v for k, v in params.items() if k in names}
        extra = {k: v for k, v in params.items() if k not in names}
        for key, value in known.items():
            if not isinstance(value, (list, tuple)) or not value:
                raise PresetError(f"legend params.{key}: expected a non-empty list, got {value!r}")
        if "channels" in known:
            known["channels"] = tuple(tuple(c) for c in known["channels"])
        space = cls(**{k: tuple(v) for k, v in known.items() if k != "channels"},
                    **({"channels": known["channels"]} if "channels" in known else {}), extra=extra)
        bad = [k for k in space.chart_kinds if k not in MARK_FAMILY]
        if bad:
            raise PresetError(f"legend params.chart_kinds: unknown kind {bad[0]!r}; choose from {sorted(MARK_FAMILY)}")
        return space


@dataclass(frozen=True)
class Unit:
    """A sampled base unit before questions: chart side, legend side and its design values."""

    chart: ChartSpec
    legend: LegendSide
    kind: str
    mark_family: str
    encoding_mode: str
    channels: tuple[str, ...]
    add_labels: bool
    theme: str
    trajectory: str
    data_source: str = "synthetic"
    """Where the chart side's data came from: ``synthetic`` or ``chartbench:<data_path>``."""
    tables_sha256: str = ""
    """The digest of the table set it was drawn from ('' for synthetic data)."""

    @property
    def num_series(self) -> int:
        return len(self.legend.labels) if self.legend.form != "colorbar" else len(self.chart.data.series)

    @property
    def num_points(self) -> int:
        """Points per series (a pie has one value per wedge)."""
        return 1 if legend_names_field(self.kind) == "categories" else len(self.chart.data.categories)


def channel_schemes(family: str, mode: str) -> list[tuple[str, ...]]:
    """Channel schemes of a mode on a mark family: single = one channel, double/compositional = colour + one."""
    chans = CHANNELS_OF_FAMILY[family]
    if mode == "single":
        return [(c,) for c in chans]
    return [("color", c) for c in chans if c != "color"]


def _pick(rng: np.random.Generator, seq: Any) -> Any:
    return seq[int(rng.integers(len(seq)))]


def sample_unit(space: LegendSpace, rng: np.random.Generator, kind: str | None = None,
                mode: str | None = None, channels: tuple[str, ...] | None = None,
                form: str | None = None, n_series: int | None = None, table: Any = None) -> Unit:
    """Draw one base unit; keyword arguments pin a dimension (what a study holds fixed).

    ``table`` (a ``tables.ChartTable``) pins the chart side's data; without it, a space with
    ``tables`` draws one of the kind's tables, and a space without draws synthetic values.
    """
    kind = kind or (table.kind if table is not None else _pick(rng, space.chart_kinds))
    if table is None and space.tables is not None:
        table = space.tables.draw(kind, space.num_series, rng)
    family = MARK_FAMILY[kind]
    if kind in _SCALE_KINDS:  # the continuous guide: one colour scale, no identity channels
        form, mode, channels = "colorbar", "single", ("color",)
    if mode == "compositional" and (kind not in _COMPOSITIONAL_KINDS or table is not None):
        mode = None  # a stratified draw asked for a mode this kind (or a table) cannot show: draw another
    if mode == "compositional":
        form = "box"  # factor entries need a legend box
    form = form or _pick(rng, [f for f in space.legend_forms if f != "colorbar" and
                               (f == "box" or kind in _DIRECT_KINDS)] or ["box"])
    modes = [m for m in space.encoding_modes if m != "compositional" or (form == "box" and table is None and
                                                                        kind in _COMPOSITIONAL_KINDS)]
    mode = mode or _pick(rng, modes or ["single"])
    if channels is None:
        # A table fixes the number of legend items: only schemes with a distinct value for each.
        fits = [s for s in channel_schemes(family, mode)
                if table is None or all(len(CHANNEL_POOLS[c]) >= table.n_items for c in s)]
        schemes = [s for s in fits if space.channels is None or s in space.channels]
        channels = _pick(rng, schemes or fits or channel_schemes(family, mode))
    lo, hi = space.num_series
    if mode == "compositional":
        n_series = 4
    # Every identity channel needs a distinct value per series (4 line styles, 7 markers...).
    limit = min([SERIES_LIMIT[kind], *(len(CHANNEL_POOLS[c]) for c in channels)])
    # A range above the kind's limit (5-6 series in a study over scatter and bars) takes the limit.
    n = min(n_series or int(rng.integers(min(max(2, lo), limit), min(hi, limit) + 1)), limit)
    n_points = int(rng.integers(space.num_points[0], space.num_points[1] + 1))
    theme, add_labels = _pick(rng, space.themes), bool(_pick(rng, space.add_labels))
    trajectory = _pick(rng, space.trajectories)
    if table is not None:
        full, trajectory = table_chart(kind, table, rng, theme, add_labels), "chartbench"
    else:
        full = _chart(kind, rng, n, n_points, trajectory, theme, add_labels)
    encodings = encodings_for(kind, family, mode, channels, len(full.encodings), rng)
    full = full.replace(encodings=encodings)
    legend = _legend(kind, form, mode, channels, full, encodings, space, rng)
    source = ("synthetic", "") if table is None else (
        f"{table.origin}:{table.data_path}", space.tables.digest if space.tables is not None else "")
    return Unit(chart=neutral_chart(full), legend=legend, kind=kind, mark_family=family,
                encoding_mode=mode, channels=tuple(channels), add_labels=add_labels, theme=theme,
                trajectory=trajectory, data_source=source[0], tables_sha256=source[1])


def table_chart(kind: str, table: Any, rng: np.random.Generator, theme: str = "default",
                add_labels: bool = False) -> ChartSpec:
    """The full spec (names included) of a kind drawing a ChartBench table's values as they are."""
    base = sample_spec(kind, rng)
    lay = table_layout(kind, legend_names_field(kind), table, base.axes)
    style = StyleSpec(theme=theme, value_labels=add_labels, title=lay.title)
    return ChartSpec(kind=kind, data=lay.data, encodings=(Encoding(NEUTRAL_COLOR),) * lay.n_items, axes=lay.axes,
                     style=style)


def _chart(kind: str, rng: np.random.Generator, n: int, n_points: int, trajectory: str, theme: str,
           add_labels: bool) -> ChartSpec:
    """The full spec (names included) of a kind with our Entity | Metric data."""
    base = sample_spec(kind, rng)
    metric = _pick(rng, METRICS)
    entities = [ENTITIES[int(i)] for i in rng.choice(len(ENTITIES), size=n, replace=False)]
    start = int(rng.integers(2008, 2016))
    years = tuple(str(start + i) for i in range(n_points))
    values = sample_values(kind, rng, n, n_points, trajectory)
    lay = layout_data(kind, legend_names_field(kind), metric, entities, values, years, rng, base.axes)
    style = StyleSpec(theme=theme, value_labels=add_labels, title=lay.title)
    return ChartSpec(kind=kind, data=lay.data, encodings=(Encoding(NEUTRAL_COLOR),) * lay.n_items, axes=lay.axes,
                     style=style)


def encodings_for(kind: str, family: str, mode: str, channels: tuple[str, ...], n: int,
                  rng: np.random.Generator) -> tuple[Encoding, ...]:
    """Per-item encodings: distinct values on every identity channel, neutral elsewhere."""
    if kind in _SCALE_KINDS:  # one item: the colour scale's hue
        return (Encoding(_pick(rng, list(COLORS.values()))),)
    pools = CHANNEL_POOLS
    if mode == "compositional":  # 2 x 2: colour = first factor level, the other channel = second
        levels = [(i // 2, i % 2) for i in range(n)]
        drawn = {c: [pools[c][int(j)] for j in rng.permutation(len(pools[c]))[:2]] for c in channels}
        values = [{channels[0]: drawn[channels[0]][a], channels[1]: drawn[channels[1]][b]} for a, b in levels]
    else:
        drawn = {c: [pools[c][int(j)] for j in rng.permutation(len(pools[c]))[:n]] for c in channels}
        values = [{c: drawn[c][i] for c in channels} for i in range(n)]
    # Points always show a marker; lines only when the marker is an identity channel.
    default_marker = "o" if family == "point" or (family == "line" and "marker" in channels) else ""
    return tuple(Encoding(color=v.get("color", NEUTRAL_COLOR), marker=v.get("marker", default_marker),
                          line_style=v.get("line_style", "solid"), hatch=v.get("texture", ""))
                 for v in values)


def _legend(kind: str, form: str, mode: str, channels: tuple[str, ...], full: ChartSpec,
            encodings: tuple[Encoding, ...], space: LegendSpace, rng: np.random.Generator) -> LegendSide:
    position = _pick(rng, space.legend_positions)
    columns = int(_pick(rng, space.legend_columns)) if form == "box" else 1
    if form == "colorbar":
        # Half the bars run downwards, so which end holds the high values must be read (T1
        # orientation). A child stream draws it: the parent's draws, hence every other chart, are
        # the same as before the direction existed.
        direction = ("up", "down")[int(rng.spawn(1)[0].integers(2))]
        return LegendSide(labels=("%",), form="colorbar", title=f"{full.style.title.split(' by ')[0]} (%)",
                          direction=direction)
    names = list(full.data.categories) if legend_names_field(kind) == "categories" else [s.name for s in full.data.series]
    if mode != "compositional":
        return LegendSide(labels=tuple(names), form=form, position=position, columns=columns)
    regions = [REGIONS[int(i)] for i in rng.choice(len(REGIONS), size=2, replace=False)]
    products = [PRODUCTS[int(i)] for i in rng.choice(len(PRODUCTS), size=2, replace=False)]
    factors = []
    for f, (name, levels) in enumerate((("Region", regions), ("Product", products))):
        chan = channels[f]
        item_levels = tuple((i // 2) if f == 0 else (i % 2) for i in range(len(encodings)))
        values = tuple(getattr(encodings[item_levels.index(k)], ENTRY_FIELD[chan]) for k in range(2))
        factors.append(Factor(name=name, channel=chan, levels=tuple(levels), values=values,
                              item_levels=item_levels))
    legend = LegendSide(labels=(), form="box", position=position, columns=columns, factors=tuple(factors))
    return legend.replace(labels=item_labels(legend))
