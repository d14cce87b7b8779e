"""lm-eval hooks for the ``chartprobe_smoke`` task: thin wrappers over ``chartprobe.eval_tasks``."""

from __future__ import annotations

from typing import Any

from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.scoring.typed import score_answer


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """Score one generation against the document's typed gold answer.

    Returns the per-document values lm-eval averages: ``accuracy`` (1 if correct),
    ``relaxed_score`` (the scorer's graded score: ±5% numbers, list recall, fuzzy ratio...)
    and ``parse_fail_rate`` (1 if no answer could be extracted).
    """
    score = score_answer(results[0], doc["answer"], doc["answer_type"])
    return {
        "accuracy": float(score.correct),
        "relaxed_score": float(score.score),
        "parse_fail_rate": float(score.parse_failed),
    }


load_release = lazy_images(data.load_release)
"""The release's rows, images decoded when read (``!function smoke_utils.load_release``)."""
