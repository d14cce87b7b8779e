"""How LegendBench lays its ``Entity | Metric`` data out on each chart kind.

Where the legend carries the names decides the layout (``unit.legend_names_field``):
wedges (a pie: one series, the legend names the categories), a field (a heatmap: rows are
entities, the legend is the colour scale), or series (everything else: the legend names the
series). The x axis of a series layout is years, numeric positions (scatter) or spokes (radar).

:func:`table_layout` lays a ChartBench table (``tables.ChartTable``) out the same way with its
own names: its series name the legend items (a pie's rows name its wedges), its x values the
categories (a radar's spokes), its labels the axes and title; its values are kept as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.spec import AxesSpec, DataTable, Series
from .vocab import RADAR_AXES

__all__ = ["Layout", "layout_data", "table_layout"]

UNIT = "%"


@dataclass(frozen=True)
class Layout:
    """A kind's data table, axes, title and number of legend items."""

    data: DataTable
    axes: AxesSpec
    title: str
    n_items: int


@dataclass(frozen=True)
class _Ctx:
    metric: str
    entities: list[str]
    values: list[tuple[float, ...]]
    years: tuple[str, ...]
    rng: np.random.Generator
    base_axes: AxesSpec


def _wedges(ctx: _Ctx, kind: str) -> Layout:
    data = DataTable(categories=tuple(f"{e} | {ctx.metric}" for e in ctx.entities),
                     series=(Series(ctx.metric, ctx.values[0], UNIT),))
    return Layout(data, AxesSpec(), f"{ctx.metric} by company", len(ctx.entities))


def _field(ctx: _Ctx, kind: str) -> Layout:
    data = DataTable(categories=ctx.years, series=tuple(Series(e, v, UNIT) for e, v in zip(ctx.entities, ctx.values)))
    return Layout(data, AxesSpec(x_label="Year"), f"{ctx.metric} by company and year", 1)


def _years(ctx: _Ctx, n: int) -> tuple[str, tuple[str, ...], tuple[float, ...] | None]:
    return "Year", ctx.years, None


def _numeric(ctx: _Ctx, n: int) -> tuple[str, tuple[str, ...], tuple[float, ...] | None]:
    xs = tuple(float(x) for x in sorted(ctx.rng.choice(np.arange(5, 100), size=n, replace=False)))
    return "Index score", ctx.years, xs  # categories name the points; x carries the position


def _spokes(ctx: _Ctx, n: int) -> tuple[str, tuple[str, ...], tuple[float, ...] | None]:
    return "", tuple(RADAR_AXES[:n]), None


X_AXES: dict[str, Callable] = {"scatter": _numeric, "radar": _spokes}
"""Kinds whose x axis is not a run of years."""


RADIAL_KINDS = frozenset({"radar"})
"""Kinds whose value axis runs along the spokes: matplotlib draws its label across the spoke at
9 o'clock, on top of that spoke's name, so it is left out (the title names the metric)."""


def _axes(base: AxesSpec, x_label: str, y_label: str, kind: str) -> AxesSpec:
    y_label = "" if kind in RADIAL_KINDS else y_label
    return dataclasses.replace(base, x_label=x_label, y_label=y_label, tick_format="{x:g}",
                               x_limits=None, y_limits=None, x_scale="linear", y_scale="linear")


def _series(ctx: _Ctx, kind: str) -> Layout:
    x_label, cats, xs = X_AXES.get(kind, _years)(ctx, len(ctx.years))
    series = tuple(Series(f"{e} | {ctx.metric}", v, UNIT) for e, v in zip(ctx.entities, ctx.values))
    axes = _axes(ctx.base_axes, x_label, f"{ctx.metric} ({UNIT})", kind)
    return Layout(DataTable(categories=cats, series=series, x_values=xs), axes, ctx.metric, len(series))


_LAYOUTS: dict[str | None, Callable[[_Ctx, str], Layout]] = {"categories": _wedges, None: _field, "series": _series}


def layout_data(kind: str, names_field: str | None, metric: str, entities: list[str],
                values: list[tuple[float, ...]], years: tuple[str, ...], rng: np.random.Generator,
                base_axes: AxesSpec) -> Layout:
    """The layout of ``kind`` given which names its legend carries."""
    return _LAYOUTS[names_field](_Ctx(metric, entities, values, years, rng, base_axes), kind)


def _table_wedges(kind: str, table: Any, base_axes: AxesSpec) -> Layout:
    data = DataTable(categories=table.x_values, series=(Series(table.y_label, table.values[0]),))
    return Layout(data, AxesSpec(), table.y_label, len(table.x_values))


TABLE_X_LABEL = {"radar": ""}
"""Kinds whose x values are not drawn along a labelled axis (a radar's spokes)."""


def _table_series(kind: str, table: Any, base_axes: AxesSpec) -> Layout:
    series = tuple(Series(name, values) for name, values in zip(table.series, table.values))
    axes = _axes(base_axes, TABLE_X_LABEL.get(kind, table.x_label), table.y_label, kind)
    return Layout(DataTable(categories=table.x_values, series=series), axes, table.y_label, len(series))


_TABLE_LAYOUTS: dict[str | None, Callable[[str, Any, AxesSpec], Layout]] = {
    "categories": _table_wedges, "series": _table_series}


def table_layout(kind: str, names_field: str | None, table: Any, base_axes: AxesSpec) -> Layout:
    """The layout of ``kind`` drawing a ChartBench table (a colour-bar kind takes none)."""
    if names_field not in _TABLE_LAYOUTS:
        raise ValueError(f"{kind}: a ChartBench table cannot be drawn on a colour-bar chart")
    return _TABLE_LAYOUTS[names_field](kind, table, base_axes)
