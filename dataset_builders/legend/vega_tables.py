"""vega_datasets' real tables as legend charts (``params: {tables: vega_datasets}``).

The same offline copies the probes' ``real_*`` configs read (:mod:`..core.real`), cut here into
multi-series tables a legend chart can show as they are: several named series over one x axis
(a line, area or grouped-bar chart, whose legend names the series) or one series of parts of a
whole (a pie, whose legend names the wedges). Each becomes a :class:`~.table_types.ChartTable`
with ``origin`` ``vega_datasets``, so a row's ``data_source`` reads
``vega_datasets:<table>/<selection>``; :data:`HOW` says, per table, how each value was computed
(the test recomputes rows from the files by hand with it). The table set's digest covers every
file read and the package version, so a release names the exact data.

Values are whole numbers (``round``), as the probes' real values are.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator
from typing import Any

from ..core.vocab import CATEGORY_POOLS
from .table_types import ChartTable, TableSet

__all__ = ["HOW", "VEGA_ROOT", "vega_table_set"]

VEGA_ROOT = "vega_datasets"
"""The ``tables`` param value that selects these tables instead of a ChartBench folder."""

MONTHS = CATEGORY_POOLS["months"]  # Jan .. Dec, in order

HOW = {
    "stocks": "price of each symbol on the first of each month of the year",
    "seattle-weather": "total precipitation (mm) of each month, one series per year",
    "iowa-electricity": "net generation of each source in each year",
    "us-employment": "jobs (thousands) of each goods-producing sector in each month of the year",
    "barley": "yield of each variety at the site, one series per year",
    "cars": "number of car models of each origin (of one model year, or all)",
}
"""How each table's values were made, by table name (the card repeats it)."""

_SECTORS = {"mining_and_logging": "Mining & logging", "construction": "Construction", "manufacturing": "Manufacturing"}


def _table(origin_path: str, image_type: str, kind: str, x_label: str, y_label: str, x_values: Any,
           series: Any, values: Any) -> ChartTable:
    return ChartTable(origin_path, image_type, kind, x_label, y_label, tuple(str(x) for x in x_values),
                      tuple(series), tuple(tuple(float(round(v)) for v in row) for row in values), origin=VEGA_ROOT)


def _stocks(frame: Any) -> Iterator[ChartTable]:
    parts = frame["date"].str.split(" ", expand=True)
    frame = frame.assign(month=parts[0], year=parts[2].astype(int))
    symbols = sorted(frame["symbol"].unique())
    for year in sorted(frame["year"].unique()):
        g = frame[frame["year"] == year]
        price = {(s, m): p for s, m, p in zip(g["symbol"], g["month"], g["price"])}
        if len(price) == len(symbols) * 12:  # years every symbol trades all year (GOOG listed in Aug 2004)
            yield _table(f"stocks/year={year}", "line_multi", "line", "Month", "Price (USD)", MONTHS, symbols,
                         [[price[s, m] for m in MONTHS] for s in symbols])


def _weather(frame: Any) -> Iterator[ChartTable]:
    parts = frame["date"].str.split("/", expand=True)
    frame = frame.assign(year=parts[0], month=parts[1].astype(int))
    years = sorted(frame["year"].unique())
    sums = frame.groupby(["year", "month"])["precipitation"].sum()
    yield _table("seattle-weather/precipitation", "line_multi", "line", "Month", "Precipitation (mm)", MONTHS,
                 years, [[sums[y, m] for m in range(1, 13)] for y in years])


def _iowa(frame: Any) -> Iterator[ChartTable]:
    sources = ("Fossil Fuels", "Nuclear Energy", "Renewables")
    years = sorted(frame["year"].unique())
    value = {(s, y): v for s, y, v in zip(frame["source"], frame["year"], frame["net_generation"])}
    labels = [str(y)[:4] for y in years]
    rows = [[value[s, y] for y in years] for s in sources]
    yield _table("iowa-electricity/all", "line_multi", "line", "Year", "Net generation (thousand MWh)", labels,
                 sources, rows)
    yield _table("iowa-electricity/all", "area_stack", "area", "Year", "Net generation (thousand MWh)", labels,
                 sources, rows)
    for start in range(0, len(years) - 5, 6):  # six-year windows: 18 bars a chart
        window = slice(start, start + 6)
        yield _table(f"iowa-electricity/{labels[start]}-{labels[window][-1]}", "vertical_multi", "grouped_bar",
                     "Year", "Net generation (thousand MWh)", labels[window], sources, [r[window] for r in rows])


def _employment(frame: Any) -> Iterator[ChartTable]:
    frame = frame.assign(year=frame["month"].str[:4])
    for year in sorted(frame["year"].unique()):
        g = frame[frame["year"] == year]
        rows = [list(g[c]) for c in _SECTORS]
        for kind, image in (("line", "line_multi"), ("area", "area_stack")):
            yield _table(f"us-employment/goods/{year}", image, kind, "Month", "Jobs (thousands)", MONTHS,
                         _SECTORS.values(), rows)


def _barley(frame: Any) -> Iterator[ChartTable]:
    for site in sorted(frame["site"].unique()):
        g = frame[frame["site"] == site]
        varieties = sorted(g["variety"].unique())
        years = sorted(g["year"].unique())
        value = {(y, v): x for y, v, x in zip(g["year"], g["variety"], g["yield"])}
        yield _table(f"barley/site={site}", "vertical_multi", "grouped_bar", "Variety", "Yield (bu/acre)",
                     varieties, [str(y) for y in years], [[value[y, v] for v in varieties] for y in years])


def _cars(frame: Any) -> Iterator[ChartTable]:
    origins = ("USA", "Europe", "Japan")
    counts = frame.groupby("Origin").size()
    yield _table("cars/all", "pie", "pie", "Origin", "Car models", origins, ["Car models"],
                 [[counts[o] for o in origins]])
    for year in sorted(frame["Year"].unique()):
        counts = frame[frame["Year"] == year].groupby("Origin").size()
        if all(o in counts for o in origins):
            yield _table(f"cars/year={str(year)[:4]}", "pie", "pie", "Origin", "Car models", origins,
                         ["Car models"], [[counts[o] for o in origins]])


_CUTS = {"stocks": _stocks, "seattle-weather": _weather, "iowa-electricity": _iowa,
         "us-employment": _employment, "barley": _barley, "cars": _cars}


@functools.lru_cache(maxsize=1)
def vega_table_set() -> TableSet:
    """Every table above, with a digest over the package version and each file's sha256."""
    import vega_datasets

    from ..core.real.tables import load_table

    tables: list[ChartTable] = []
    digest = hashlib.sha256(f"vega_datasets {vega_datasets.__version__}\n".encode())
    for name, cut in _CUTS.items():
        source = load_table(name)
        digest.update(f"{name} {source.source.sha256}\n".encode())
        tables += cut(source.frame.copy())  # the cached frame is shared: derive columns on a copy
    return TableSet(root=VEGA_ROOT, tables=tuple(tables), entries=len(tables), skipped=(), statements=(),
                    digest=digest.hexdigest())
