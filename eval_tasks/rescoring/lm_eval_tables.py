"""lm-eval's own numbers for the tasks chartprobe does not rescore: transfer tasks and ``*_paper`` tasks.

A run may hold tasks beside ours: lm-eval's ``chartqa`` (the transfer check both ChartProbe and
LegendBench report), any other lm-eval task, or a released-protocol ``chartprobe_*_paper`` task
(scored by the paper's rules in lm-eval's table only). ``chartprobe score`` cannot rescore them
from the release gold, so it carries lm-eval's table for them (the run's ``results_*.json``),
and ``report`` and the training loop's comparison show those numbers beside ours, labelled as
lm-eval's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lm_eval_only", "lm_eval_section", "metric_label"]


def metric_label(key: str) -> str | None:
    """``"relaxed_accuracy,none"`` -> ``"relaxed_accuracy"``; another filter is kept in brackets
    (``"exact_match (flexible-extract)"``); stderr entries and lm-eval's ``alias`` give None."""
    name, _, filt = key.partition(",")
    if not filt or name.endswith("_stderr") or name == "alias":
        return None
    return name if filt == "none" else f"{name} ({filt})"


def lm_eval_only(results_doc: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Task -> {metric: value} of lm-eval's table, for every task of the run that no chartprobe
    suite rescores (a foreign task or a ``*_paper`` task); finite numbers only."""
    from ..suites._task_index import task_index

    index = task_index()
    out: dict[str, dict[str, float]] = {}
    for task, metrics in sorted((results_doc.get("results") or {}).items()):
        if not isinstance(metrics, Mapping) or (task in index and index[task].rescored):
            continue
        if task == "chartprobe" or (task.startswith("chartprobe_") and task not in index):
            continue  # our own groups and tags: their members are scored (or listed) themselves
        table = {}
        for key, value in metrics.items():
            label = metric_label(key)
            if label and isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                table[label] = float(value)
        if table:
            out[task] = table
    return out


def lm_eval_section(per_model: Mapping[str, Mapping[str, Mapping[str, float]]],
                    table: Callable[[Sequence[str], Sequence[Sequence[str]]], str]) -> list[str]:
    """Report lines: one row per (task, metric), one column per model (empty when no run had any)."""
    models = sorted(m for m, tasks in per_model.items() if tasks)
    if not models:
        return []
    keys = sorted({(t, k) for m in models for t, metrics in per_model[m].items() for k in metrics})
    rows = [[task, metric, *(_fmt(per_model[m].get(task, {}).get(metric)) for m in models)] for task, metric in keys]
    intro = ("lm-eval's own table for tasks `chartprobe score` does not rescore from the release gold: "
             "other lm-eval tasks (e.g. `chartqa`, the papers' transfer check) and `*_paper` tasks.")
    return ["## Tasks scored by lm-eval only (transfer and released-protocol tasks)", "", intro, "",
            table(["task", "metric", *models], rows), ""]


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"
