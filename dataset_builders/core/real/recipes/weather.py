"""Seattle weather (NOAA, 2012-2015): monthly precipitation, and days of each weather type."""

from __future__ import annotations

from collections.abc import Iterator

from ...vocab import CATEGORY_POOLS
from ..tables import load_table
from . import Slice, grouped, recipe

_MONTHS = CATEGORY_POOLS["months"]  # Jan .. Dec, in order
_TYPES = ("sun", "fog", "drizzle", "rain", "snow")


def _by_year():
    table = load_table("seattle-weather")
    frame = table.frame.copy()  # the cached frame is shared: derive columns on a copy
    parts = frame["date"].str.split("/", expand=True)
    frame["year"], frame["month_no"] = parts[0].astype(int), parts[1].astype(int)
    for year in sorted(frame["year"].unique()):
        yield table, int(year), frame[frame["year"] == year]


@recipe("seattle-precipitation", kinds=("bar", "hbar"))
def precipitation() -> Iterator[Slice]:
    """Total precipitation (mm) of each month of one year."""
    for table, year, g in _by_year():
        cats, values, rows = grouped(g, "month_no", range(1, 13), _MONTHS, "precipitation", "sum")
        yield Slice("seattle-precipitation", f"Seattle precipitation by month, {year}", "Precipitation", "mm",
                    "Month", cats, values, rows, "precipitation", "sum", 1.0, (("year", str(year)),), table.source)


@recipe("seattle-weather-days", kinds=("bar", "hbar", "pie"))
def weather_days() -> Iterator[Slice]:
    """Days of each weather type in one year (the types partition the year's days)."""
    for table, year, g in _by_year():
        cats, values, rows = grouped(g, "weather", _TYPES, tuple(t.capitalize() for t in _TYPES), "weather", "count")
        yield Slice("seattle-weather-days", f"Seattle days by weather, {year}", "Days", "days", "Weather",
                    cats, values, rows, "weather", "count", 1.0, (("year", str(year)),), table.source,
                    whole=len(cats) == len(_TYPES))
