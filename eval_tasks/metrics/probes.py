"""ChartProbe metrics (paper §"Atomic skill evaluation" and "Complex-reasoning evaluation").

A *scored record* is a mapping with at least ``template_id``, ``skill``, ``answer_type``,
``score``, ``correct`` and ``parse_failed`` (what :func:`score_record` returns); CR
records add ``fuzzy``. Item accuracy is the binary verdict of every type (exact match,
±5%, IoU ≥ 0.5, and for lists the exact set): the paper credits a list with its recall,
which an answer naming every category of the chart maximizes (1.0 on every list probe),
and even set F1 gives that answer 0.67 on "which bars are above average?" against a
chance level of 0.2-0.5 — so neither can be the headline. Both stay as named metrics:
``paper_accuracy`` (the paper's protocol, recall for lists) and ``list_f1``. Complex reasoning is
reported as the mean RapidFuzz ratio (``fuzzy``) and, strictly, by answer type.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from statistics import fmean
from typing import Any

from ..scoring import score_answer

__all__ = [
    "chart_trace",
    "cr_fuzzy_accuracy",
    "item_accuracy",
    "list_f1",
    "paper_accuracy",
    "parse_failure_rate",
    "per_skill_accuracy",
    "per_template_accuracy",
    "probe_summary",
    "score_record",
]


def item_accuracy(answer_type: str, score: float, correct: bool) -> float:
    """The binary verdict of every answer type (a list must be the exact set)."""
    return float(correct)


def paper_accuracy(answer_type: str, score: float, correct: bool) -> float:
    """ChartProbe's protocol: recall for list answers, the binary verdict for everything else."""
    return float(score) if answer_type == "list" else float(correct)


def list_f1(prediction: str, gold: str) -> float:
    """Set F1 of a list prediction against the gold list (order-free, aliases applied)."""
    from ..answer_parsing import list_items

    g = set(list_items(gold))
    p = set(list_items(prediction, keep=frozenset(g)))
    hit = len(p & g)
    return 0.0 if not hit else 2 * hit / (len(p) + len(g))


def score_record(doc: Mapping[str, Any], prediction: str) -> dict[str, Any]:
    """Score one prediction against a dataset row and return the scored record."""
    s = score_answer(prediction, doc["answer"], doc["answer_type"])
    rec = {"id": doc.get("id"), "chart_id": doc.get("chart_id"), "template_id": doc.get("template_id"),
           "skill": doc.get("skill"), "domain": doc.get("domain"), "answer_type": doc["answer_type"],
           "score": s.score, "correct": s.correct, "parse_failed": s.parse_failed,
           "accuracy": item_accuracy(doc["answer_type"], s.score, s.correct),
           "paper_accuracy": paper_accuracy(doc["answer_type"], s.score, s.correct)}
    if doc["answer_type"] == "list":
        from ..scoring import extract_answer

        rec["list_f1"] = list_f1(extract_answer(prediction), str(doc["answer"]))
    if doc.get("held_out"):
        rec["fuzzy"] = score_answer(prediction, doc["answer"], "text").score
    return rec


def _group_mean(records: Iterable[Mapping[str, Any]], key: str, value: str) -> dict[str, float]:
    groups: dict[str, list[float]] = defaultdict(list)
    for r in records:
        groups[r[key]].append(float(r[value]))
    return {k: fmean(v) for k, v in sorted(groups.items())}


def per_skill_accuracy(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Mean item accuracy per skill (perception, grounding, reasoning, complex)."""
    return _group_mean(records, "skill", "accuracy")


def per_template_accuracy(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Mean item accuracy per template id."""
    return _group_mean(records, "template_id", "accuracy")


def cr_fuzzy_accuracy(records: Iterable[Mapping[str, Any]]) -> float | None:
    """Mean RapidFuzz ratio over complex-reasoning records (None if there are none)."""
    vals = [float(r["fuzzy"]) for r in records if "fuzzy" in r]
    return fmean(vals) if vals else None


def parse_failure_rate(records: Iterable[Mapping[str, Any]]) -> float | None:
    """Share of records whose answer could not be parsed for their answer type."""
    vals = [float(r["parse_failed"]) for r in records]
    return fmean(vals) if vals else None


def chart_trace(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, bool]]:
    """Per chart, which probes pass (the paper's per-sample traces, Tables 8-10)."""
    trace: dict[str, dict[str, bool]] = defaultdict(dict)
    for r in records:
        trace[r["chart_id"]][r["template_id"]] = bool(r["accuracy"] >= 1.0)
    return dict(trace)


def probe_summary(records: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Everything above in one JSON-able dict."""
    lists = [float(r["list_f1"]) for r in records if "list_f1" in r]
    return {"per_skill": per_skill_accuracy(records), "per_template": per_template_accuracy(records),
            "per_skill_paper": _group_mean(records, "skill", "paper_accuracy"),
            "list_f1": fmean(lists) if lists else None,
            "cr_fuzzy": cr_fuzzy_accuracy(records), "parse_failure_rate": parse_failure_rate(records),
            "n": len(records)}
