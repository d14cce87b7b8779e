"""lm-eval's stderr column for our custom aggregations: a cluster bootstrap over the benchmark's unit.

lm-eval 0.4.13 computes a task's stderr in ``evaluator_utils._compute_task_aggregations`` with
``stderr_for_metric(metric=<aggregation function>, bootstrap_iters=...)``
(``lm_eval/api/metrics.py``), which bootstraps only a fixed list of its own functions (median,
F1, BLEU, ...) and knows closed forms for ``mean`` / ``acc_all``; every other aggregation gets
``None`` and the table prints ``N/A``. The harness has no registry or task-config hook for the
stderr of a custom aggregation, and its row bootstrap would be wrong for ours anyway: rows of a
family, a legend base chart or a judge pair are not independent.

So the least invasive fix is to extend that one lookup. :func:`clustered` marks an aggregation
function with a :class:`ClusterSpec` (how to find an item's unit, how to relabel a unit drawn
twice) and calls :func:`install`, which replaces ``stderr_for_metric`` in the two modules that
hold it (``lm_eval.evaluator_utils``, which calls it, and ``lm_eval.api.metrics``, which defines
it) by a wrapper that

- returns a cluster bootstrap (:func:`chartprobe.eval_tasks.metrics.bootstrap.interval`) for a
  marked function, and
- delegates everything else, unchanged, to the original: no built-in metric changes.

It honours ``--bootstrap_iters``: 0 (or less) means no stderr, as lm-eval's own; a positive
value is used up to the spec's ``max_resamples`` (default ``bootstrap.RESAMPLES``), because
lm-eval's default of 100,000 draws, sensible for a mean, would recompute a cross-document
metric 100,000 times (lm-eval itself caps BLEU/chrF/TER at 100 for the same reason). A metric
undefined on every resample (or on one unit only) gets NaN, a number, so the table prints
``nan`` rather than crashing on ``None``; so does a stderr that raises (logged with its
traceback): the run's scores are already computed and must not be lost to it.

Cost: metrics that derive from one computation (CPA's ``cpa_summary``, the family metrics) name it
as their ``summary``: it runs once per draw for all of them, cached by the identity of the per-row
objects lm-eval hands each metric of a task.

:func:`install` is idempotent (every ``!function`` reference re-executes a utils module) and
does nothing where lm-eval is not installed; if a future lm-eval drops ``stderr_for_metric``,
it logs a warning and leaves the harness as it is (the column then says ``N/A`` again).
"""

from __future__ import annotations

import functools
import logging
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..metrics.bootstrap import (
    RESAMPLES,
    from_replicates,
    group_units,
    interval,
    resamples,
)
from ..scoring.logged_once import unwrap

__all__ = ["SPEC_ATTR", "ClusterSpec", "clustered", "install"]

F = TypeVar("F", bound=Callable[..., Any])
SPEC_ATTR = "chartprobe_cluster_bootstrap"
"""Attribute of an aggregation function that holds its :class:`ClusterSpec`."""
_WRAPPER_ATTR = "_chartprobe_wraps_stderr_for_metric"
_MODULES = ("lm_eval.evaluator_utils", "lm_eval.api.metrics")
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ClusterSpec:
    """How lm-eval's stderr of one aggregation is bootstrapped."""

    unit_of: Callable[[Any], Hashable]
    """The independent unit of one per-row item (what ``process_results`` returned)."""
    relabel: Callable[[Any, int], Any] | None = None
    """Renames the ids of a unit's extra draws (see ``bootstrap.interval``); None when the metric
    does not group items by an id."""
    prepare: Callable[[list], list] | None = None
    """Converts the items once before resampling (e.g. tuples -> records), so that the draws do
    not pay for it; ``unit_of``, ``relabel`` and ``statistic`` then take prepared items."""
    summary: Callable[[list], Any] | None = None
    """A computation several aggregations of a task share (e.g. ``cpa_summary``): computed once per
    resample for all of them (cached by the items' identity) and ``statistic`` reads the metric
    from it."""
    statistic: Callable[[Any], float | None] | None = None
    """What each resample gives the metric from: the resample (after ``prepare``), or its ``summary``;
    the same quantity as the aggregation. None: the aggregation itself (no prepare, no summary)."""
    max_resamples: int = RESAMPLES
    """Most bootstrap draws, whatever ``--bootstrap_iters`` asks for."""


def clustered(unit_of: Callable[[Any], Hashable], relabel: Callable[[Any, int], Any] | None = None, *,
              prepare: Callable[[list], list] | None = None, summary: Callable[[list], Any] | None = None,
              statistic: Callable[[Any], float | None] | None = None,
              max_resamples: int = RESAMPLES) -> Callable[[F], F]:
    """Decorator: lm-eval's stderr of this aggregation is a cluster bootstrap over ``unit_of(item)``
    (the fields are those of :class:`ClusterSpec`).

    Installs the ``stderr_for_metric`` wrapper (:func:`install`) as a side effect, so importing a
    utils module that uses it is all lm-eval needs.
    """
    if (prepare is not None or summary is not None) and statistic is None:
        raise ValueError("clustered: a prepare or summary step needs the statistic that reads its output")
    spec = ClusterSpec(unit_of, relabel, prepare, summary, statistic, max_resamples)

    def mark(fn: F) -> F:
        @functools.wraps(fn)
        def aggregate(items: list) -> Any:  # items may be references to another metric's record
            return fn(unwrap(items))

        setattr(aggregate, SPEC_ATTR, spec)
        install()
        return aggregate  # type: ignore[return-value]

    return mark


_SUMMARIES: dict[tuple, tuple[list, int, list]] = {}
"""The last task's per-resample summaries: key -> (its items, kept alive so their ids stay
unique; number of units; summaries). lm-eval aggregates a task's metrics one after another, each
with its own list of the same per-row objects, so one entry serves them all."""


def _summaries(spec: ClusterSpec, items: list, iters: int) -> tuple[int, list]:
    # Keyed by name, not object: every `!function` reference re-executes a utils module, so the
    # metrics of one task hold different (identical) summary functions.
    key = (spec.summary.__module__, spec.summary.__qualname__, iters, tuple(map(id, items)))
    if key not in _SUMMARIES:
        data = spec.prepare(items) if spec.prepare else items
        units = group_units(data, spec.unit_of)
        _SUMMARIES.clear()
        _SUMMARIES[key] = (items, len(units), [spec.summary(r) for r in resamples(units, iters, 0, spec.relabel)])
    _, n_units, out = _SUMMARIES[key]
    return n_units, out


def _cluster_stderr(metric: Callable, spec: ClusterSpec, iters: int) -> Callable[[list], float]:
    def stderr(items: list) -> float:
        items = unwrap(items)  # the same record objects for every metric: one summary cache entry
        try:
            if spec.summary is not None:
                n_units, summaries = _summaries(spec, items, iters)
                se = from_replicates(map(spec.statistic, summaries), n_units).stderr
            else:
                data = spec.prepare(items) if spec.prepare else items
                se = interval(spec.statistic or metric, data, spec.unit_of, iters=iters, relabel=spec.relabel).stderr
        except Exception:  # the run's scores are already computed: a stderr bug must not lose them
            log.warning("cluster-bootstrap stderr of %s failed; reporting NaN", metric.__name__, exc_info=True)
            return math.nan
        return math.nan if se is None else se

    return stderr


def _wrap(original: Callable) -> Callable:
    @functools.wraps(original)
    def stderr_for_metric(metric: Callable, bootstrap_iters: int) -> Callable[[list], float] | None:
        spec = getattr(metric, SPEC_ATTR, None)
        if not isinstance(spec, ClusterSpec) or bootstrap_iters <= 0:
            return original(metric, bootstrap_iters)
        return _cluster_stderr(metric, spec, min(bootstrap_iters, spec.max_resamples))

    # after functools.wraps, which copies the original's docstring
    stderr_for_metric.__doc__ = ("lm-eval's ``stderr_for_metric``, plus a cluster bootstrap (up to ``max_resamples`` "
                                 "draws) for aggregations marked by ``chartprobe.eval_tasks.harness.lm_eval_stderr.clustered``.")
    setattr(stderr_for_metric, _WRAPPER_ATTR, True)
    return stderr_for_metric


def install() -> bool:
    """Wrap lm-eval's ``stderr_for_metric`` where it is looked up (idempotent).

    Returns False when lm-eval is not installed (nothing to do), True otherwise.
    """
    import importlib

    try:
        modules = [importlib.import_module(name) for name in _MODULES]
    except ImportError:
        return False
    for module in modules:
        current = getattr(module, "stderr_for_metric", None)
        if current is None:
            log.warning("%s has no stderr_for_metric: chartprobe aggregations keep an N/A stderr", module.__name__)
        elif not getattr(current, _WRAPPER_ATTR, False):
            module.stderr_for_metric = _wrap(current)
    return True
