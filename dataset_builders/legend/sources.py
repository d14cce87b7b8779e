"""ChartBench tables as the chart side of legend base units (``chartprobe build legend --tables DIR``),
or vega_datasets' real tables (``--tables vega_datasets``, :mod:`.vega_tables`).

:func:`tables_params` reads and cross-checks a table folder once, before anything is built
(``tables.read_tables``), and returns the params every config of the release then carries:
the folder and the SHA-256 of every file read, so the recipe in the card names the exact
table set. Rows record it too (``tables_sha256``), so two table sets never share a content
hash. :func:`load_pool` re-reads the folder in each build process (cached) and refuses a
folder that changed since.

A :class:`TablePool` sorts the verified tables by the legend chart kind that draws them and
keeps only those a kind can show as they are: 2 to ``space.SERIES_LIMIT[kind]`` legend items,
one value column for a pie, values the chart kind accepts (no negative stacked area or
wedge). Values are never altered to fit: a table that does not fit is skipped and counted by
reason, like the image types the reader skips. Within a config, ``num_series`` still bounds
the legend items; ``num_points`` does not apply (a table's rows are its points).
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.rng import rng_for
from ..core.spec import SpecError
from .space import SERIES_LIMIT, LegendSpace, table_chart
from .tables import ChartTable, TablesError, TableSet, read_tables
from .vega_tables import VEGA_ROOT, vega_table_set

__all__ = ["TablePool", "load_pool", "pool_from_params", "tables_params"]


def _unfit(table: ChartTable) -> str | None:
    """Why ``table`` cannot be drawn as its kind unchanged (None: it can)."""
    kind = table.kind
    if kind == "pie" and len(table.series) != 1:
        return f"{kind}: {len(table.series)} value columns (a pie draws one)"
    if table.n_items < 2:
        return f"{kind}: fewer than 2 legend items"
    if table.n_items > SERIES_LIMIT[kind]:
        return f"{kind}: more than {SERIES_LIMIT[kind]} legend items"
    try:
        table_chart(kind, table, rng_for(0, "table-check", table.data_path)).validate()
    except SpecError as exc:
        # One reason per kind and field (not per cell), so the card's skip counts aggregate.
        return f"{kind}: values the chart kind refuses ({exc.field.split('[')[0].removeprefix('spec.')})"
    return None


@dataclass(frozen=True, eq=False)
class TablePool:
    """The verified tables each legend chart kind can draw."""

    tables: TableSet
    by_kind: dict[str, tuple[ChartTable, ...]]
    skipped: tuple[tuple[str, int], ...]
    """(reason, count): index entries the reader skipped plus tables no kind can draw as they are."""

    @classmethod
    def of(cls, tables: TableSet) -> TablePool:
        by_kind: dict[str, list[ChartTable]] = {}
        skipped = Counter(dict(tables.skipped))
        for t in tables.tables:
            reason = _unfit(t)
            if reason is None:
                by_kind.setdefault(t.kind, []).append(t)
            else:
                skipped[reason] += 1
        return cls(tables, {k: tuple(v) for k, v in sorted(by_kind.items())}, tuple(sorted(skipped.items())))

    @property
    def digest(self) -> str:
        return self.tables.digest

    def candidates(self, kind: str, num_series: tuple[int, int]) -> tuple[ChartTable, ...]:
        lo, hi = num_series
        return tuple(t for t in self.by_kind.get(kind, ()) if lo <= t.n_items <= hi)

    def nth(self, kind: str, num_series: tuple[int, int], i: int) -> ChartTable:
        """The ``i``-th table of ``kind`` (cyclic): a release of n items per kind uses n tables."""
        pool = self._nonempty(kind, num_series)
        return pool[i % len(pool)]

    def draw(self, kind: str, num_series: tuple[int, int], rng: np.random.Generator) -> ChartTable:
        """A table of ``kind`` drawn with ``rng`` (each redraw of a study may take another)."""
        pool = self._nonempty(kind, num_series)
        return pool[int(rng.integers(len(pool)))]

    def _nonempty(self, kind: str, num_series: tuple[int, int]) -> tuple[ChartTable, ...]:
        pool = self.candidates(kind, num_series)
        if not pool:
            raise TablesError(f"no ChartBench table draws as {kind} with {num_series[0]}-{num_series[1]} legend "
                              f"items (usable tables by kind: {self.describe()})")
        return pool

    def describe(self) -> str:
        return ", ".join(f"{k} {len(v)}" for k, v in self.by_kind.items()) or "none"

    def narrow(self, space: LegendSpace, config: str) -> LegendSpace:
        """``space`` drawing from these tables: its chart kinds cut to those with a fitting table."""
        kinds = tuple(k for k in space.chart_kinds if self.candidates(k, space.num_series))
        if not kinds:
            raise TablesError(f"legend config {config!r}: no ChartBench table fits its chart kinds "
                              f"{list(space.chart_kinds)} with {space.num_series[0]}-{space.num_series[1]} legend "
                              f"items (usable tables by kind: {self.describe()})")
        return dataclasses.replace(space, chart_kinds=kinds, tables=self)


def _read(root: str) -> TableSet:
    """A ChartBench folder's tables, or vega_datasets' (``root`` is :data:`VEGA_ROOT`)."""
    return vega_table_set() if root == VEGA_ROOT else read_tables(root)


def _root(root: str | Path) -> str:
    return VEGA_ROOT if str(root) == VEGA_ROOT else str(Path(root).expanduser().resolve())


@functools.lru_cache(maxsize=4)
def _cached(root: str, sha256: str | None) -> TablePool:
    return TablePool.of(_read(root))


def load_pool(root: str | Path, sha256: str | None = None) -> TablePool:
    """The pool of a table folder, or of vega_datasets' tables (``vega_datasets``), read once per
    process; TablesError if it is not ``sha256``."""
    pool = _cached(_root(root), sha256)
    if sha256 and pool.digest != sha256:
        raise TablesError(f"{root}: the tables changed since the build started (sha256 {pool.digest[:12]}, "
                          f"the recipe says {sha256[:12]}); rebuild")
    return pool


def tables_params(root: str | Path) -> dict[str, str]:
    """Read and check a table folder now (one TablesError line if it is bad); the params naming it."""
    pool = TablePool.of(_read(_root(root)))  # fresh, never a cached read of an earlier folder state
    if not pool.by_kind:
        raise TablesError(f"{root}: no table a legend chart kind can draw ({len(pool.tables.tables)} verified, "
                          f"skipped: {'; '.join(f'{r} x{n}' for r, n in pool.skipped) or 'none'})")
    return {"tables": pool.tables.root, "tables_sha256": pool.digest}


def pool_from_params(params: dict[str, Any]) -> TablePool | None:
    """Pop ``tables``/``tables_sha256`` from a config's params; the pool they name, or None."""
    root, sha = params.pop("tables", None), params.pop("tables_sha256", None)
    return None if root is None else load_pool(root, sha or None)
