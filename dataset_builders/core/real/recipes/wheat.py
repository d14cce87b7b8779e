"""Playfair's wheat prices (shillings per quarter), every five years from 1565 to 1821."""

from __future__ import annotations

from collections.abc import Iterator

from ..tables import load_table
from . import Slice, grouped, recipe


@recipe("wheat", kinds=("bar", "hbar"))
def wheat() -> Iterator[Slice]:
    """The price of a quarter of wheat in each year of the table (one long series; charts take windows)."""
    table = load_table("wheat")
    frame = table.frame
    years = [str(y) for y in frame["year"]]
    cats, values, rows = grouped(frame, "year", frame["year"].tolist(), years, "wheat", "value")
    yield Slice("wheat", "Price of wheat by year (Playfair)", "Wheat price", "shillings", "Year",
                cats, values, rows, "wheat", "value", 1.0, (), table.source)
