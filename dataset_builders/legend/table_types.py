"""The value types of ChartBench's data tables: a verified table, a folder of them, the error.

Their own module so that the reader (``tables``) and the statement checker (``statements``)
both import them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ChartTable", "TableSet", "TablesError"]


class TablesError(ValueError):
    """A table folder that cannot be read or a table its own statements contradict (one line)."""


@dataclass(frozen=True)
class ChartTable:
    """One verified ChartBench data table."""

    data_path: str
    """As the index names it, relative to the dataset root, without ``./``."""
    image_type: str
    kind: str
    """The legend chart kind it is drawn as (:data:`IMAGE_KINDS`)."""
    x_label: str
    y_label: str
    x_values: tuple[str, ...]
    series: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]
    """``values[i][j]``: series ``i`` at ``x_values[j]``."""
    origin: str = "chartbench"
    """Where the table comes from: the prefix of a row's ``data_source`` (``<origin>:<data_path>``)."""

    def value(self, series: str, x: str) -> float:
        return self.values[self.series.index(series)][self.x_values.index(x)]

    @property
    def n_items(self) -> int:
        """Legend items it gives: wedges of a pie (its x values), else its series."""
        return len(self.x_values) if self.kind == "pie" else len(self.series)


@dataclass(frozen=True)
class TableSet:
    """Every verified table of a folder, what was skipped and the digest of every file read."""

    root: str
    tables: tuple[ChartTable, ...]
    entries: int
    """Index entries seen."""
    skipped: tuple[tuple[str, int], ...]
    """(reason, index entries) not read."""
    statements: tuple[tuple[str, int], ...]
    """(outcome, count): statements checked against the tables, or not readable against them."""
    digest: str
    """SHA-256 over the relative path and bytes of every file read: the table set's identity."""
