"""lm-eval hooks for the chartprobe tasks: thin wrappers over ``eval_tasks``."""

from __future__ import annotations

from typing import Any

from eval_tasks.data import load_release  # noqa: F401 - referenced as `!function utils.load_release`
from eval_tasks.scoring import score_answer


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


def process_probe(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """ChartProbe probe: paper accuracy (recall for lists, exact/±5%/IoU otherwise) + parse failures."""
    from eval_tasks.metrics.probes import score_record

    rec = score_record(doc, results[0])
    return {"accuracy": rec["accuracy"], "parse_fail_rate": float(rec["parse_failed"])}


def process_cr(doc: dict[str, Any], results: list[str]) -> dict[str, float]:
    """Held-out complex reasoning: RapidFuzz ratio (paper) and strict accuracy by answer type."""
    from eval_tasks.metrics.probes import score_record

    rec = score_record({**doc, "held_out": True}, results[0])
    return {"fuzzy": rec["fuzzy"], "accuracy": float(rec["correct"]), "parse_fail_rate": float(rec["parse_failed"])}
