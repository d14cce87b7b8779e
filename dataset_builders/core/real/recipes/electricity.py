"""Iowa's net electricity generation by source (EIA, public domain), one year each."""

from __future__ import annotations

from collections.abc import Iterator

from ..tables import load_table
from . import Slice, grouped, recipe

_SOURCES = ("Fossil Fuels", "Nuclear Energy", "Renewables")


@recipe("iowa-electricity", kinds=("bar", "hbar", "pie"))
def electricity() -> Iterator[Slice]:
    """Net generation (thousand MWh) of each source in one year: the sources make the whole."""
    table = load_table("iowa-electricity")
    frame = table.frame
    for year in sorted(frame["year"].unique()):
        g = frame[frame["year"] == year]
        cats, values, rows = grouped(g, "source", _SOURCES, _SOURCES, "net_generation", "value")
        yield Slice("iowa-electricity", f"Iowa electricity by source, {str(year)[:4]}", "Net generation",
                    "thousand MWh", "Source", cats, values, rows, "net_generation", "value", 1.0,
                    (("year", str(year)),), table.source, whole=len(cats) == len(_SOURCES))
