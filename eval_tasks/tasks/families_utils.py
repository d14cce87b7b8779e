"""lm-eval hooks for the Chartographer family tasks: thin wrappers over ``chartprobe.eval_tasks.metrics.families``.

``process_results`` scores one row and returns the same per-row tuple under every metric
name; each aggregation receives the whole list and computes its family metric (cross-
document metrics cannot be per-row means). Undefined values (e.g. CVA when no original is
solved) are NaN so lm-eval's table still prints.
"""

from __future__ import annotations

import math
from typing import Any

from chartprobe.eval_tasks.data import load_release  # noqa: F401 - referenced as `!function families_utils.load_release`
from chartprobe.eval_tasks.judge_equivalence import judge_from_env
from chartprobe.eval_tasks.metrics import families as fm

METRICS = ("oa", "ra", "va", "rvc", "cva", "cu", "nu", "sp", "rvc_p")
"""Metric names of the family tasks (the resolution task has acc_100 / acc_75 / acc_50)."""


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, tuple]:
    """Score with the typed scorer, or the LLM judge when ``CHARTPROBE_JUDGE_*`` is set."""
    item = fm.to_item(fm.score_family_record(doc, results[0], judge_from_env()))
    return {name: item for name in METRICS}


def _num(value: float | None) -> float:
    return math.nan if value is None else float(value)


def oa(items: list[tuple]) -> float:
    """Original accuracy."""
    return _num(fm.accuracy(fm.from_items(items), "original"))


def ra(items: list[tuple]) -> float:
    """Reconstruction accuracy."""
    return _num(fm.accuracy(fm.from_items(items), "reconstruction"))


def va(items: list[tuple]) -> float:
    """Variant accuracy (pooled over every variant)."""
    return _num(fm.accuracy(fm.from_items(items), "variant"))


def rvc(items: list[tuple]) -> float:
    """Relative variant change, 100·(VA−OA)/OA."""
    recs = fm.from_items(items)
    return _num(fm.relative_change(fm.accuracy(recs, "variant"), fm.accuracy(recs, "original")))


def rvc_p(items: list[tuple]) -> float:
    """p-value of the two-sided paired sign-flip permutation test for OA→VA, clustered by source
    template (the tuples carry ``source``; the same test as ``chartprobe score`` / ``report``)."""
    return _num(fm.sign_flip_test(fm.from_items(items)))


def cva(items: list[tuple]) -> float:
    """Conditional variant accuracy (families whose original is correct)."""
    return _num(fm.conditional_variant_accuracy(fm.from_items(items)))


def cu(items: list[tuple]) -> float:
    """Correct-update rate after original success."""
    return _num(fm.update_outcomes(fm.from_items(items))["CU"])


def nu(items: list[tuple]) -> float:
    """Noisy-update rate after original success."""
    return _num(fm.update_outcomes(fm.from_items(items))["NU"])


def sp(items: list[tuple]) -> float:
    """Stale-prediction rate after original success."""
    return _num(fm.update_outcomes(fm.from_items(items))["SP"])


def process_resolution(doc: dict[str, Any], results: list[str]) -> dict[str, float | None]:
    """Resolution ablation: correctness under the row's own scale key, None under the others."""
    correct = float(fm.score_family_record(doc, results[0], judge_from_env())["correct"])
    own = f"acc_{round(doc['scale'] * 100)}"
    return {key: (correct if key == own else None) for key in ("acc_100", "acc_75", "acc_50")}


def mean_defined(values: list[float | None]) -> float:
    """Mean over the rows that have a value (rows of other scales carry None)."""
    vals = [v for v in values if v is not None]
    return sum(vals) / len(vals) if vals else math.nan
