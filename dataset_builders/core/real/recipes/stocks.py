"""Monthly closing prices of five tech stocks, 2000-2010 (the Vega examples' stocks table)."""

from __future__ import annotations

from collections.abc import Iterator

from ...vocab import CATEGORY_POOLS
from ..tables import load_table
from . import Slice, grouped, recipe

_MONTHS = CATEGORY_POOLS["months"]  # Jan .. Dec, in order


@recipe("stocks", kinds=("bar", "hbar"))
def stocks() -> Iterator[Slice]:
    """One symbol's price (USD, whole dollars) in each month of one year."""
    table = load_table("stocks")
    frame = table.frame.copy()  # the cached frame is shared: derive columns on a copy
    parts = frame["date"].str.split(" ", expand=True)  # "Jan 1 2000"
    frame["month"], frame["year"] = parts[0], parts[2].astype(int)
    for symbol in sorted(frame["symbol"].unique()):
        for year in sorted(frame["year"].unique()):
            g = frame[(frame["symbol"] == symbol) & (frame["year"] == year)]
            cats, values, rows = grouped(g, "month", _MONTHS, _MONTHS, "price", "value")
            if cats:
                yield Slice("stocks", f"{symbol} monthly price, {year}", "Price", "USD", "Month", cats, values,
                            rows, "price", "value", 1.0, (("symbol", symbol), ("year", str(year))), table.source)
