"""Cluster bootstrap: a standard error and a percentile interval for any metric over scored items.

Rows of one benchmark unit (a family's original, reconstruction and variants; a legend base
chart's questions, chains and interventions; both orders of a judge pair; the probes of one
chart) share their data, so they are not independent draws: resampling rows would understate
the uncertainty. :func:`interval` resamples whole *units* with replacement (``unit_of(item)``
names an item's unit, e.g. ``Suite.unit_key``), recomputes the metric on each resample and
returns the resamples' standard deviation (the bootstrap standard error) and their
``confidence`` percentile interval.

- Any metric: ``metric(items) -> float | None`` is recomputed as defined (ratios, conditional
  and cross-document metrics included), not averaged from per-unit scores.
- NaN-safe: a resample where the metric is undefined (None, NaN: e.g. CVA when no original is
  solved) is skipped; :attr:`Interval.resamples` counts the defined ones.
- Duplicated units: a metric that groups items by an id (CVA by family, two-pass accuracy by
  pair) would merge two draws of one unit into one; ``relabel(item, copy)`` gives the items of
  the ``copy``-th extra draw their own ids (:func:`relabel_fields` for mapping records).
- Reproducible: a local ``numpy.random.Generator`` seeded by ``seed`` (never the global state),
  and units are taken in sorted order, so the result does not depend on the order of the items.

scipy.stats.bootstrap is not used: it cannot skip undefined resamples (one NaN makes its interval
NaN) and does not tell the statistic which unit was drawn twice.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

__all__ = ["CONFIDENCE", "RESAMPLES", "Interval", "from_replicates", "group_units", "interval", "relabel_fields",
           "resamples"]

T = TypeVar("T")
Metric = Callable[[list[T]], "float | None"]

RESAMPLES = 1000
"""Bootstrap resamples per metric: the default of :func:`interval`, shared by ``chartprobe score`` /
``report`` and by lm-eval's stderr column (:mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`, which also
honours a smaller ``--bootstrap_iters``). 1,000 draws put the Monte-Carlo error of a standard error
near 2% and of a 95% percentile bound near one resample's spacing."""
CONFIDENCE = 0.95
"""Coverage of the percentile interval."""


@dataclass(frozen=True)
class Interval:
    """A metric's bootstrap uncertainty over ``n_units`` resampled units."""

    low: float | None
    """Lower percentile bound ((1 − confidence)/2 of the defined resamples); None when not estimable."""
    high: float | None
    """Upper percentile bound ((1 + confidence)/2); None when not estimable."""
    stderr: float | None
    """Standard deviation of the defined resamples (ddof=1); None with under two units or two
    defined resamples (one unit resampled is always itself: its spread says nothing)."""
    n_units: int
    """Distinct units in the items (the sample size the interval is about)."""
    resamples: int
    """Resamples where the metric was defined (the skipped ones are undefined, not errors)."""


def group_units(items: Iterable[T], unit_of: Callable[[T], Hashable]) -> list[list[T]]:
    """The items grouped by unit, units in sorted order (by ``str`` of the key), items in input order."""
    units: dict[Hashable, list[T]] = {}
    for item in items:
        units.setdefault(unit_of(item), []).append(item)
    return [units[k] for k in sorted(units, key=str)]


def _value(v: Any) -> float:
    """A metric's result as a float; None and non-finite values are NaN (an undefined resample)."""
    if v is None:
        return math.nan
    v = float(v)
    return v if math.isfinite(v) else math.nan


class _Resampler:
    """Builds resamples from unit draws; a unit's relabeled copies are made once and reused, since
    the ``j``-th copy of unit ``k`` is the same in every draw (relabeling dominated the cost)."""

    def __init__(self, units: Sequence[list[T]], relabel: Callable[[T, int], T] | None) -> None:
        self.units, self.relabel = units, relabel
        self._copies: dict[tuple[int, int], list[T]] = {}

    def __call__(self, draw: np.ndarray) -> list[T]:
        out: list[T] = []
        seen: dict[int, int] = {}
        for k in draw.tolist():
            j = seen[k] = seen.get(k, -1) + 1
            out += self.units[k] if j == 0 or self.relabel is None else self._copy(k, j)
        return out

    def _copy(self, k: int, j: int) -> list[T]:
        if (k, j) not in self._copies:
            self._copies[(k, j)] = [self.relabel(item, j) for item in self.units[k]]
        return self._copies[(k, j)]


def resamples(units: Sequence[list[T]], iters: int = RESAMPLES, seed: int = 0,
              relabel: Callable[[T, int], T] | None = None) -> Iterator[list[T]]:
    """``iters`` cluster resamples of ``units`` (:func:`group_units`): each the items of ``len(units)``
    units drawn with replacement. Compute several metrics per resample from one pass over this
    (e.g. a summary dict), then :func:`from_replicates` per metric."""
    if not units or iters <= 0:
        return iter(())
    draws = np.random.default_rng(seed).integers(0, len(units), size=(iters, len(units)))
    return map(_Resampler(units, relabel), draws)


def from_replicates(values: Iterable[Any], n_units: int, confidence: float = CONFIDENCE) -> Interval:
    """The :class:`Interval` of a metric's bootstrap replicates (None / NaN replicates are skipped)."""
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    vals = np.array([_value(v) for v in values], dtype=float)
    vals = vals[~np.isnan(vals)]
    if len(vals) < 2 or n_units < 2:
        return Interval(None, None, None, n_units, len(vals))
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(vals, [tail, 100 - tail])
    return Interval(float(low), float(high), float(np.std(vals, ddof=1)), n_units, len(vals))


def interval(metric: Metric, items: Iterable[T], unit_of: Callable[[T], Hashable], iters: int = RESAMPLES,
             seed: int = 0, relabel: Callable[[T, int], T] | None = None,
             confidence: float = CONFIDENCE) -> Interval:
    """Cluster-bootstrap ``metric`` over ``items``: ``iters`` resamples of whole units with replacement.

    ``unit_of(item)`` is the item's independent unit; ``relabel(item, copy)`` (optional) renames the
    ids of a unit's ``copy``-th (≥ 1) extra draw in one resample, for metrics that group by an id.
    Deterministic for a given ``seed``. ``iters`` ≤ 0 or no items gives an interval of Nones.
    """
    units = group_units(items, unit_of)
    return from_replicates((metric(r) for r in resamples(units, iters, seed, relabel)), len(units), confidence)


def relabel_fields(*fields: str) -> Callable[[Mapping[str, Any], int], dict[str, Any]]:
    """A ``relabel`` for mapping records: the ``copy``-th extra draw gets ``"<id>#<copy>"`` in each of
    ``fields`` it has. A missing, None or empty field stays as it is: empty often means "none"
    (a legend row in no chain has ``chain_id == ""``)."""

    def relabel(record: Mapping[str, Any], copy: int) -> dict[str, Any]:
        return {**record, **{f: f"{record[f]}#{copy}" for f in fields if record.get(f) not in (None, "")}}

    return relabel
