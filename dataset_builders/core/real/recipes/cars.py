"""The cars table (StatLib, 1970-1982 models): how many models came from each origin."""

from __future__ import annotations

from collections.abc import Iterator

from ..tables import load_table
from . import Slice, grouped, recipe

_ORIGINS = ("USA", "Europe", "Japan")


@recipe("cars", kinds=("bar", "hbar", "pie"))
def cars() -> Iterator[Slice]:
    """Number of models of each origin, per model year and over all years (a whole each)."""
    table = load_table("cars")
    frame = table.frame
    cats, values, rows = grouped(frame, "Origin", _ORIGINS, _ORIGINS, "Origin", "count")
    yield Slice("cars", "Car models by origin, 1970-1982", "Models", "models", "Origin", cats, values, rows,
                "Origin", "count", 1.0, (), table.source, whole=True)
    for year in sorted(frame["Year"].unique()):
        g = frame[frame["Year"] == year]
        cats, values, rows = grouped(g, "Origin", _ORIGINS, _ORIGINS, "Origin", "count")
        yield Slice("cars", f"Car models by origin, {str(year)[:4]}", "Models", "models", "Origin", cats, values,
                    rows, "Origin", "count", 1.0, (("Year", str(year)),), table.source, whole=len(cats) == 3)
