"""The cluster bootstrap of metrics built from additive per-unit statistics, vectorized over draws.

A mean of per-row values, a share of families, a two-pass accuracy, a template macro: each is a
function of *sums over units* (per-unit sums and counts, per cell). A resample that draws unit
``u`` ``c_u`` times (a unit drawn twice counts as two units, as :mod:`.bootstrap` relabels it) has
the totals ``c @ S`` (``S``: units x statistics), so a draw costs a product instead of a pass over
relabelled records. The draws are the ones the record-wise paths take, in the same order:
``rng.integers(0, n, size=(iters, n))``, generated a chunk of rows at a time (numpy's bounded
integers read the generator's 32-bit stream, so chunks continue one stream exactly: tests hold
it), and handed on as count vectors (``np.bincount`` of each draw).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from .bootstrap import CONFIDENCE, Interval, from_replicates

__all__ = ["CHUNK_CELLS", "draw_counts", "draws", "mean_interval", "sparse_stats", "stat_matrix", "sums_interval",
           "totals"]

CHUNK_CELLS = 1 << 22
"""Draw x unit cells per chunk (16 MB of int32 draws, 32 MB of counts): 400 draws of 110k units (1M probe records)
at once would take 350 MB, and more per copy."""


def draws(rng: np.random.Generator, n_units: int, iters: int, chunk_cells: int = CHUNK_CELLS) -> Iterator[np.ndarray]:
    """``rng.integers(0, n_units, size=(iters, n_units))`` a chunk of rows at a time (int32: the same values,
    half the memory traffic of int64)."""
    per = max(1, chunk_cells // max(n_units, 1))
    for done in range(0, iters, per):
        yield rng.integers(0, n_units, size=(min(per, iters - done), n_units), dtype=np.int32)


def draw_counts(rng: np.random.Generator, n_units: int, iters: int,
                chunk_cells: int = CHUNK_CELLS) -> Iterator[np.ndarray]:
    """Chunks of a (draws x ``n_units``) multiplicity matrix: row ``i`` counts how often each unit is in
    draw ``i`` of ``rng.integers(0, n_units, size=(iters, n_units))``; chunks in draw order."""
    for chunk in draws(rng, n_units, iters, chunk_cells):
        yield np.stack([np.bincount(row, minlength=n_units) for row in chunk])  # a row's bins stay in cache


def stat_matrix(per_unit: Sequence[Mapping[Hashable, float]]) -> tuple[list[Hashable], Any]:
    """(statistic keys, sparse units x keys matrix) of per-unit statistic dicts, keys in first-seen order."""
    columns: dict[Hashable, int] = {}
    rows, cols, vals = [], [], []
    for i, stats in enumerate(per_unit):
        for key, v in stats.items():
            rows.append(i)
            cols.append(columns.setdefault(key, len(columns)))
            vals.append(float(v))
    return list(columns), sparse_stats(rows, cols, vals, len(per_unit), len(columns))


def sparse_stats(rows: Sequence[int], cols: Sequence[int], vals: Sequence[float], n_units: int, n_keys: int) -> Any:
    """The units x statistics matrix of (unit, column, value) triplets, repeated ones summed, zeros dropped
    (a zero costs every draw a product)."""
    from scipy.sparse import csr_matrix

    coords = (np.asarray(rows, dtype=np.intp), np.asarray(cols, dtype=np.intp))
    matrix = csr_matrix((np.asarray(vals, dtype=float), coords), shape=(n_units, n_keys))
    matrix.sum_duplicates()
    matrix.eliminate_zeros()
    return matrix


def totals(counts: np.ndarray, matrix: Any) -> np.ndarray:
    """Per draw (row of ``counts``), the statistics summed over its units: ``counts @ matrix``."""
    return np.asarray((matrix.T @ counts.T.astype(float)).T)


def sums_interval(per_unit: Sequence[Mapping[Hashable, float]],
                  statistic: Callable[[Mapping[Hashable, float]], float | None], iters: int, seed: int = 0,
                  confidence: float = CONFIDENCE) -> Interval:
    """:func:`.bootstrap.interval` (same seed, same draws) of a metric that is ``statistic(totals)``, the
    unit statistics ``per_unit`` (units in ``group_units`` order) summed over a draw's units."""
    if not per_unit or iters <= 0:
        return from_replicates((), len(per_unit), confidence)
    keys, matrix = stat_matrix(per_unit)
    rng = np.random.default_rng(seed)
    values = [statistic(dict(zip(keys, row))) for counts in draw_counts(rng, len(per_unit), iters)
              for row in totals(counts, matrix).tolist()]
    return from_replicates(values, len(per_unit), confidence)


def mean_interval(items: Iterable[Any], value: Callable[[Any], float], unit_of: Callable[[Any], Hashable],
                  iters: int, seed: int = 0, confidence: float = CONFIDENCE) -> Interval:
    """:func:`.bootstrap.interval` of the mean of ``value`` over items (``fmean`` per resample): the same
    draws, the same floats up to rounding, from each unit's sum and row count (a draw's totals are two
    gathers over its unit indices, no per-draw pass over items)."""
    items = list(items)
    keys = [unit_of(item) for item in items]
    order = {u: i for i, u in enumerate(sorted(dict.fromkeys(keys), key=str))}  # group_units' unit order
    if not items or iters <= 0:
        return from_replicates((), len(order), confidence)
    idx = np.fromiter((order[k] for k in keys), dtype=np.intp, count=len(keys))
    sums = np.bincount(idx, weights=[value(item) for item in items], minlength=len(order))
    rows = np.bincount(idx, minlength=len(order)).astype(float)
    rng = np.random.default_rng(seed)
    values = np.concatenate([sums.take(d).sum(axis=1) / rows.take(d).sum(axis=1)
                             for d in draws(rng, len(order), iters)])
    return from_replicates(values.tolist(), len(order), confidence)
