"""Recipes: one real table each, registered with ``@recipe("<name>")``, each yielding the
:class:`Slice` s of that table a single-series chart can show.

A slice is a titled list of (category, value) pairs with its provenance: the table's
:class:`~..tables.TableSource`, the measure, the aggregation, the filter that fixed the other
columns, and for each category the source rows aggregated into its value. The value is
``round(agg(rows[measure]) * scale)``: an integer, as every ChartProbe value is, and anyone can
recompute it from the table and the provenance alone. A recipe also names the chart kinds its
slices fit: time series and rankings -> bar and hbar; parts of a whole -> pie (and bars).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ...registry import Registry

__all__ = ["AGGREGATIONS", "RECIPES", "Slice", "aggregate", "grouped", "recipe", "slices_of"]


@dataclass(frozen=True)
class Slice:
    """One chart's worth of a real table: categories in their natural order, integer values."""

    recipe: str
    title: str
    series: str
    """Name of the measured series (legend text, value-axis label)."""
    unit: str
    category_label: str
    """Axis label of the categories (``Variety``, ``Month``...)."""
    categories: tuple[str, ...]
    values: tuple[float, ...]
    rows: tuple[tuple[int, ...], ...]
    """For each category, the ``_row`` positions of the source records aggregated into its value."""
    measure: str
    agg: str
    """``value`` (one record), ``sum``, ``mean`` or ``count``."""
    scale: float
    filter: tuple[tuple[str, str], ...]
    """The columns held fixed, as (column, value) text pairs (for the provenance record)."""
    source: Any
    """The table's :class:`~chartprobe.dataset_builders.core.real.tables.TableSource`."""
    whole: bool = False
    """The categories partition a total (a pie may show them)."""
    columns: tuple[str, ...] | None = None
    """A wide table: category *i*'s value is read from column ``columns[i]`` (``measure`` then
    names the group of columns); None: every value reads ``measure``."""

    def window(self, start: int, n: int) -> Slice:
        """``n`` consecutive categories from ``start`` (a bar chart of part of a series)."""
        end = start + n
        return Slice(self.recipe, self.title, self.series, self.unit, self.category_label,
                     self.categories[start:end], self.values[start:end], self.rows[start:end],
                     self.measure, self.agg, self.scale, self.filter, self.source,
                     whole=self.whole and start == 0 and end >= len(self.categories),
                     columns=None if self.columns is None else self.columns[start:end])

    def provenance(self) -> dict[str, Any]:
        """The row-level record stored beside a chart: table, digest, how each value was made."""
        return {"table": self.source.to_dict(), "recipe": self.recipe, "measure": self.measure,
                "agg": self.agg, "scale": self.scale, "filter": dict(self.filter),
                "categories": [{"label": c, "value": v, "rows": list(r), "measure": m}
                               for c, v, r, m in zip(self.categories, self.values, self.rows, self.measures())]}

    def measures(self) -> tuple[str, ...]:
        """The column each category's value was read from."""
        return self.columns or (self.measure,) * len(self.categories)


RECIPES = Registry("real-table recipe", __name__)


def recipe(name: str, kinds: Sequence[str]) -> Callable[[Callable[[], Iterator[Slice]]], Any]:
    """Register a function yielding the slices of one real table; ``kinds``: the chart kinds
    they fit (kept on the function as ``.kinds``)."""

    def wrap(fn: Callable[[], Iterator[Slice]]) -> Any:
        fn.kinds = tuple(kinds)
        return RECIPES.register(name)(fn)

    return wrap


AGGREGATIONS: dict[str, Callable[[list[float]], float]] = {
    "value": lambda v: v[0], "sum": math.fsum, "count": len, "mean": lambda v: math.fsum(v) / len(v)}
"""How a category's records become one number (``value``: its only record)."""


def aggregate(values: Sequence[float], agg: str, scale: float = 1.0) -> float:
    """``round(agg(values) * scale)`` as a float (``count`` counts the records)."""
    return float(round(AGGREGATIONS[agg](list(values)) * scale))


def grouped(frame: Any, by: str, keys: Sequence[Any], labels: Sequence[str], measure: str, agg: str,
            scale: float = 1.0) -> tuple[tuple[str, ...], tuple[float, ...], tuple[tuple[int, ...], ...]]:
    """(labels, values, rows) of the records of ``frame`` whose ``by`` equals each key in turn
    (keys with no record are left out)."""
    out = [(label, frame[frame[by] == key]) for key, label in zip(keys, labels)]
    out = [(label, g) for label, g in out if len(g)]
    return (tuple(label for label, _ in out),
            tuple(aggregate(g[measure].tolist(), agg, scale) for _, g in out),
            tuple(tuple(int(r) for r in g["_row"]) for _, g in out))


def slices_of(kind: str) -> list[Slice]:
    """Every slice of every registered recipe that fits ``kind`` (registry order, then the recipe's)."""
    return [s for _, r in RECIPES.items() if kind in r.kinds for s in r()]
