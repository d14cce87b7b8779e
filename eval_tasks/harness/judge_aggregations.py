"""lm-eval aggregations of the judge tasks, ours and the released protocol's, one factory for both.

Every CPA or CRJ metric of a task reads one summary of the whole run: its metrics under
majority voting over all K samples each document has (``"all"``; K = 1 without ``repeats``),
and for each K of the paper's voting curve (:data:`~chartprobe.eval_tasks.scoring.voting.VOTE_KS`) the
run allows, the same metrics voting over the first K. A ``*_vote`` task's ``accuracy_k3`` is
``summary[3]["accuracy"]``. Stderr is a cluster bootstrap over CPA pairs (both orders drawn
together) or CRJ items (:mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`), which caches one summary
per resample by the summary's module and name, so each (task family, scorer) gets its own
summary function with a distinct ``__qualname__``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from chartprobe.eval_tasks.harness.lm_eval_stderr import clustered
from chartprobe.eval_tasks.metrics.bootstrap import relabel_fields
from chartprobe.eval_tasks.scoring.voting import VOTE_KS, votes

__all__ = ["SAMPLES_KEY", "aggregation", "summary_for"]

SAMPLES_KEY = {"cpa": "choices", "crj": "verdicts"}
"""Where a record keeps its parsed samples."""
_UNITS: dict[str, tuple[Callable, Any]] = {
    "cpa": (lambda r: r["pair_id"], relabel_fields("pair_id")),  # a pair drawn twice gets a fresh id
    "crj": (lambda r: r["item_id"], None),  # CRJ metrics count items, never group them
}

Metrics = Callable[[list[dict], int], Mapping[str, Any]]


def summary_for(kind: str, metrics: Metrics, name: str, module: str) -> Callable[[list[dict]], dict]:
    """The summary every ``kind`` (``cpa``/``crj``) metric of a task reads: ``metrics(records, K)``
    for K = all samples (``"all"``) and each curve K the run has samples for."""
    key = SAMPLES_KEY[kind]

    def summary(records: list[dict]) -> dict[Any, Mapping[str, Any]]:
        k_all = votes(records, key)
        out: dict[Any, Mapping[str, Any]] = {k: metrics(records, k) for k in VOTE_KS if k <= k_all}
        out["all"] = out[k_all] if k_all in out else metrics(records, k_all)
        return out

    summary.__name__ = summary.__qualname__ = name
    summary.__module__ = module
    return summary


def aggregation(kind: str, summary: Callable[[list[dict]], dict], pick: Callable[[Mapping[str, Any]], float],
                name: str, doc: str, k: int | str = "all") -> Callable[[list[dict]], float]:
    """An lm-eval aggregation named ``name``: ``pick`` of the summary at ``k`` (NaN when the run
    has fewer samples than ``k``), its stderr a cluster bootstrap over ``kind``'s units."""

    def statistic(s: Mapping[Any, Mapping[str, Any]]) -> float:
        return pick(s[k]) if k in s else math.nan

    unit_of, relabel = _UNITS[kind]

    @clustered(unit_of, relabel, summary=summary, statistic=statistic)
    def aggregate(records: list[dict]) -> float:
        return statistic(summary(records))

    aggregate.__name__ = aggregate.__qualname__ = name
    aggregate.__doc__ = doc
    return aggregate
