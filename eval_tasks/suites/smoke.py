"""The smoke suite (``chartprobe-smoke``): one value-reading question per bar chart.

Scores exactly like ``eval_tasks/harness/tasks/probes_utils.py::process_results``: accuracy (typed
verdict), relaxed score (±5% graded score) and parse failures. The oracle reads the named
category's value from the stored spec.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from statistics import fmean
from typing import Any

from ..scoring.typed import score_answer
from . import suite
from ._base import Suite

Row = Mapping[str, Any]


@suite("smoke")
class SmokeSuite(Suite):
    """Accuracy, relaxed score and parse-failure rate."""

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        s = score_answer(prediction, row["answer"], row["answer_type"])
        return {"id": row.get("id"), "answer_type": row["answer_type"], "correct": s.correct,
                "score": s.score, "parse_failed": s.parse_failed}

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        return {**self.task_metrics(None, records), "n": len(records)}

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        if not records:
            return {"accuracy": None, "relaxed_score": None, "parse_fail_rate": None}
        return {"accuracy": fmean(float(r["correct"]) for r in records),
                "relaxed_score": fmean(float(r["score"]) for r in records),
                "parse_fail_rate": fmean(float(r["parse_failed"]) for r in records)}

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        return {"smoke acc": summary.get("accuracy"), "smoke relaxed": summary.get("relaxed_score")}

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        return {"n": float(len(unit_records)), "correct": sum(float(r["correct"]) for r in unit_records),
                "score": sum(float(r["score"]) for r in unit_records)}

    def headline_from_stats(self, totals: Mapping[str, float]) -> dict[str, float | None]:
        n = totals.get("n")
        return self.headline({"accuracy": totals["correct"] / n, "relaxed_score": totals["score"] / n} if n else {})

    def oracle(self, row: Row) -> str | None:
        from chartprobe.dataset_builders.core.spec import ChartSpec

        spec = ChartSpec.from_json(row["spec"])
        values = spec.data.series[0].values
        return f"{values[list(spec.data.categories).index(row['target'])]:g}"
