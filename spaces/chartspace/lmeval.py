"""lm-eval's own ``results_<date>.json``: the metric table lm-eval printed, per task, for the leaderboard.

lm-eval writes one results file per run next to its ``samples_*.jsonl`` files
(``<output_path>/<model_dir>/results_<date>.json``). Its ``results`` block maps a task to
``"<metric>,<filter>"`` values and ``"<metric>_stderr,<filter>"`` standard errors (the
string ``"N/A"`` where lm-eval has none, ``NaN`` where a metric had no items). This module
reads it into :data:`Metrics` (task -> metric -> (value, stderr)); several files of one
model merge, the newest run winning per task (file names sort by date).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["Metrics", "is_lm_eval_results", "merge_metrics", "metrics_of", "read_lm_eval_results"]

Metrics = dict[str, dict[str, tuple[float | None, float | None]]]
"""task -> metric -> (value, standard error); None where lm-eval gave no number."""

_NOT_METRICS = {"alias", "name", "sample_len", "samples", " "}


def is_lm_eval_results(doc: Any) -> bool:
    """Whether a parsed JSON document is an lm-eval results file (a ``results`` block and the run's
    ``versions`` / ``lm_eval_version``, which nothing else we read carries)."""
    return (isinstance(doc, Mapping) and isinstance(doc.get("results"), Mapping)
            and ("versions" in doc or "lm_eval_version" in doc))


def _number(value: Any) -> float | None:
    """A finite float, else None (lm-eval writes "N/A" and NaN where it has no number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def metrics_of(doc: Mapping[str, Any]) -> Metrics:
    """The per-task metrics of one lm-eval results document (filter suffix dropped when ``none``)."""
    out: Metrics = {}
    for task, entry in (doc.get("results") or {}).items():
        if not isinstance(entry, Mapping):
            continue
        values: dict[str, tuple[float | None, float | None]] = {}
        for key, value in entry.items():
            metric, _, flt = str(key).partition(",")
            if metric in _NOT_METRICS or metric.endswith("_stderr"):
                continue
            name = metric if flt in ("", "none") else f"{metric} ({flt})"
            stderr = entry.get(f"{metric}_stderr,{flt}") if flt else entry.get(f"{metric}_stderr")
            values[name] = (_number(value), _number(stderr))
        out[str(task)] = values
    return out


def merge_metrics(parts: Iterable[Metrics]) -> Metrics:
    """Merge several runs' metrics; a later part replaces a task an earlier one had."""
    out: Metrics = {}
    for part in parts:
        out.update(part)
    return out


def read_lm_eval_results(paths: Iterable[Path]) -> Metrics:
    """The merged metrics of lm-eval results files, oldest first (so the newest run wins); a file
    that is not lm-eval's is a :class:`~chartspace.predictions.PredictionsError`."""
    from chartspace.errors import PredictionsError, read_json_file

    parts = []
    for path in sorted(paths, key=lambda p: p.name):
        doc = read_json_file(path)
        if not is_lm_eval_results(doc):
            raise PredictionsError(f"{path.name}: not an lm-eval results file (no 'results' and 'versions')")
        parts.append(metrics_of(doc))
    return merge_metrics(parts)
