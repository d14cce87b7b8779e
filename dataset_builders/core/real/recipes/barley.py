"""Barley yields (Immer et al. 1934, via Fisher): ten varieties at one site in one year."""

from __future__ import annotations

from collections.abc import Iterator

from ..tables import load_table
from . import Slice, grouped, recipe


@recipe("barley", kinds=("bar", "hbar"))
def barley() -> Iterator[Slice]:
    """Yield of each variety (bushels per acre) at one site in one year: a ranking, not a whole."""
    table = load_table("barley")
    frame = table.frame
    for site in sorted(frame["site"].unique()):
        for year in sorted(frame["year"].unique()):
            g = frame[(frame["site"] == site) & (frame["year"] == year)]
            varieties = sorted(g["variety"].unique())
            cats, values, rows = grouped(g, "variety", varieties, varieties, "yield", "value")
            yield Slice("barley", f"Barley yield by variety, {site} {year}", "Yield", "bu/acre", "Variety",
                        cats, values, rows, "yield", "value", 1.0, (("site", site), ("year", str(year))),
                        table.source)
