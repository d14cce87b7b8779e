"""Which ChartBench tables each split of a legend release may draw: disjoint shares (issue #17).

The i-th item of a kind draws the kind's i-th table, cyclic (``TablePool.nth``), so without
shares train item 0 and test item 0 would draw the same table. Instead each kind's usable
tables are ordered by the SHA-256 of their ``data_path`` and cut into one contiguous share per
split that draws the kind, sized in proportion to the items that split draws of it over the
whole preset (every config together), at least one table each. A table's place in that order
depends on its own path only, never on the seed or the order the folder lists its tables in.
Every config's split of the same name draws from the same share: the test-only study configs
draw from the test share.

A kind with fewer usable tables than splits that draw it is refused with one
:class:`~.tables.TablesError` line: a table is never reused across splits (within a split the
cyclic reuse stays). Within a share the tables keep the pool's order, so a preset with one
split draws exactly the tables it drew before shares existed.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping

from .sources import TablePool
from .tables import ChartTable, TablesError

__all__ = ["Shares", "apportion", "share_pool", "split_shares"]


def apportion(n: int, weights: Mapping[str, int]) -> dict[str, int]:
    """``n`` tables as one count per name: at least 1 each, the rest in proportion to ``weights``.

    Largest remainder in integer arithmetic (no float rounding can differ between machines);
    ties go to the earlier name. Needs ``n >= len(weights)`` and positive weights.
    """
    names = list(weights)
    spare, total = n - len(names), sum(weights.values())
    counts = {s: 1 + spare * weights[s] // total for s in names}
    by_remainder = sorted(names, key=lambda s: (-(spare * weights[s] % total), names.index(s)))
    for s in by_remainder[:n - sum(counts.values())]:
        counts[s] += 1
    return counts


def _order_key(table: ChartTable) -> str:
    return hashlib.sha256(table.data_path.encode("utf-8")).hexdigest()


Shares = dict[str, dict[str, tuple[ChartTable, ...]]]
"""``split -> kind -> tables`` of that split's share."""


def split_shares(pool: TablePool, demand: Mapping[str, Mapping[str, int]]) -> Shares:
    """The share of each split; TablesError if a kind has fewer tables than splits drawing it.

    ``demand[kind][split]`` is the number of items ``split`` draws of ``kind`` over the whole
    preset (positive); splits are laid out in name order, so the shares never depend on the
    order of the preset file.
    """
    shares: Shares = {}
    for kind, wanted in sorted(demand.items()):
        tables = pool.by_kind.get(kind, ())
        splits = dict(sorted(wanted.items()))
        if not tables or not splits:
            continue
        if len(tables) < len(splits):
            raise TablesError(
                f"ChartBench tables: {len(tables)} usable {kind} table(s) for {len(splits)} splits that draw {kind} "
                f"({', '.join(splits)}); a table is never shared between splits: add {kind} tables, drop {kind} "
                f"from the chart_kinds of those configs, or build fewer splits")
        ordered = sorted(tables, key=_order_key)
        start = 0
        for split, count in apportion(len(tables), splits).items():
            chosen = {id(t) for t in ordered[start:start + count]}
            start += count
            shares.setdefault(split, {})[kind] = tuple(t for t in tables if id(t) in chosen)
    return shares


def share_pool(pool: TablePool, share: Mapping[str, tuple[ChartTable, ...]]) -> TablePool:
    """``pool`` drawing only from ``share`` (its digest and skip counts stay the table set's)."""
    return dataclasses.replace(pool, by_kind={k: share[k] for k in pool.by_kind if k in share})
