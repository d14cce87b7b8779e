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

Averages. Every skill, task and CR score is a *template macro average*: the mean over
templates of each template's mean, a template in each domain counting as its own cell
(:func:`template_macro`). The pooled mean over items, the *micro* average, moves with the
template mix of the release (P-COUNT-ABOVE-AVG was 3% of bar perception, pie reasoning drew
another mix than bar), so it is kept only as the secondary ``*_micro`` numbers:

- per skill: ``per_skill`` (macro) and ``per_skill_micro``; per domain and skill:
  ``per_domain_skill`` and ``per_domain_skill_micro`` (``chartprobe report``);
- per lm-eval probe task: ``accuracy`` (macro) and ``accuracy_micro``; ``paper_accuracy`` is
  macro too;
- complex reasoning: ``cr_fuzzy`` / task ``fuzzy`` and ``accuracy`` (macro), with
  ``cr_fuzzy_micro`` / ``fuzzy_micro`` and ``accuracy_micro``.

In lm-eval each ``chartprobe_probes_<domain>_<skill>`` task is one cell of the profile, so
``process_results`` hands each macro metric a :func:`template_item` ``(domain, template_id,
value)`` and its aggregation (:func:`macro_of_items`) averages per template first; the micro
metrics are plain floats under lm-eval's ``mean`` (which also gives them a standard error).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from math import fsum
from statistics import fmean
from typing import Any

from ..scoring.typed import score_answer, score_doc

__all__ = [
    "CR_SKILL",
    "chart_trace",
    "cr_fuzzy_accuracy",
    "fuzzy_ratio",
    "item_accuracy",
    "list_f1",
    "macro_of_items",
    "paper_accuracy",
    "paper_per_domain_skill",
    "paper_per_skill",
    "parse_failure_rate",
    "per_skill_accuracy",
    "per_skill_accuracy_micro",
    "per_template_accuracy",
    "probe_summary",
    "score_record",
    "template_item",
    "template_macro",
    "template_macros",
]


def item_accuracy(answer_type: str, score: float, correct: bool) -> float:
    """The binary verdict of every answer type (a list must be the exact set)."""
    return float(correct)


def paper_accuracy(answer_type: str, score: float, correct: bool) -> float:
    """ChartProbe's protocol: recall for list answers, the binary verdict for everything else."""
    return float(score) if answer_type == "list" else float(correct)


def list_f1(prediction: str, gold: str) -> float:
    """Set F1 of a list prediction against the gold list (order-free, aliases applied)."""
    from ..scoring.parsing import list_items

    g = set(list_items(gold))
    p = set(list_items(prediction, keep=frozenset(g)))
    hit = len(p & g)
    return 0.0 if not hit else 2 * hit / (len(p) + len(g))


def fuzzy_ratio(prediction: str, gold: str) -> float:
    """The paper's complex-reasoning score: RapidFuzz ``fuzz.ratio`` / 100 between the extracted
    answer and the gold, both normalized (graded, unlike the typed scorer's correct/wrong/unsure)."""
    from rapidfuzz import fuzz

    from ..scoring.parsing import LEAD_IN, norm_text

    extracted = LEAD_IN.sub("", score_answer(prediction, gold, "text").normalized, count=1).strip()
    return fuzz.ratio(extracted, norm_text(gold)) / 100.0


def score_record(doc: Mapping[str, Any], prediction: str) -> dict[str, Any]:
    """Score one prediction against a dataset row and return the scored record."""
    s = score_doc(doc, prediction)
    rec = {"id": doc.get("id"), "chart_id": doc.get("chart_id"), "template_id": doc.get("template_id"),
           "skill": doc.get("skill"), "domain": doc.get("domain"), "answer_type": doc["answer_type"],
           "score": s.score, "correct": s.correct, "parse_failed": s.parse_failed,
           "accuracy": item_accuracy(doc["answer_type"], s.score, s.correct),
           "paper_accuracy": paper_accuracy(doc["answer_type"], s.score, s.correct)}
    if doc["answer_type"] == "list":
        from ..scoring.typed import extract_answer

        rec["list_f1"] = list_f1(extract_answer(prediction), str(doc["answer"]))
    if doc.get("held_out"):
        rec["fuzzy"] = fuzzy_ratio(prediction, str(doc["answer"]))
    return rec


def _group_mean(records: Iterable[Mapping[str, Any]], key: str, value: str) -> dict[str, float]:
    groups: dict[str, list[float]] = defaultdict(list)
    for r in records:
        groups[r[key]].append(float(r[value]))
    return {k: fmean(v) for k, v in sorted(groups.items())}


def template_item(record: Mapping[str, Any], value: str = "accuracy") -> tuple[str, str, float]:
    """``(domain, template_id, value)``: what a macro metric carries from lm-eval's
    ``process_results`` to its aggregation."""
    return (str(record.get("domain") or ""), str(record.get("template_id") or ""), float(record[value]))


def macro_of_items(items: Iterable[Sequence[Any]]) -> float | None:
    """Mean over (domain, template) cells of the cells' mean value (None when empty)."""
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    for domain, template_id, value in items:
        cells[(domain, template_id)].append(float(value))
    return fmean(fmean(v) for v in cells.values()) if cells else None


def template_macro(records: Iterable[Mapping[str, Any]], value: str = "accuracy") -> float | None:
    """Template macro average of ``value`` over ``records`` (None when there are none)."""
    return template_macros(records, (value,))[value]


def template_macros(records: Iterable[Mapping[str, Any]], values: Sequence[str]) -> dict[str, float | None]:
    """:func:`template_macro` of each of ``values``, in one pass over ``records``.

    ``macro_of_items`` over ``template_item``s, the same floats (what lm-eval's aggregation
    computes), without a tuple per record: ``score`` and ``report`` take these macros for every
    task, skill, domain and model, millions of records at scale.
    """
    groups: dict[tuple[Any, Any], list[Mapping[str, Any]]] = {}  # records by cell, once for every value
    for r in records:
        key = (r.get("domain") or "", r.get("template_id") or "")
        group = groups.get(key)
        if group is None:
            groups[key] = [r]
        else:
            group.append(r)
    out: dict[str, float | None] = {}
    for value in values:
        merged: dict[tuple[str, str], list[float]] = {}  # keys as template_item spells them: str() of each
        for (domain, template_id), rs in groups.items():
            cell = [float(r[value]) for r in rs if value in r]
            if cell:
                merged.setdefault((str(domain), str(template_id)), []).extend(cell)
        # fmean(x) is fsum(x) / len(x) (correctly rounded, so order-free): the same floats as
        # macro_of_items, without statistics.fmean's per-call overhead on ~50 small cells.
        means = [fsum(v) / len(v) for v in merged.values()]
        out[value] = fsum(means) / len(means) if means else None
    return out


def _group_macros(records: Iterable[Mapping[str, Any]], key: str, values: Sequence[str]) -> dict[str, dict[str, float]]:
    """value -> group -> template macro of ``value`` over the records of that ``key`` group."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        groups[r[key]].append(r)
    macros = {k: template_macros(v, values) for k, v in sorted(groups.items())}
    return {value: {k: m[value] for k, m in macros.items()} for value in values}


def _group_macro(records: Iterable[Mapping[str, Any]], key: str, value: str) -> dict[str, float]:
    return _group_macros(records, key, (value,))[value]


def per_skill_accuracy(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Item accuracy per skill (perception, grounding, reasoning, complex), macro-averaged
    over the skill's templates: the headline, independent of the release's template mix."""
    return _group_macro(records, "skill", "accuracy")


def per_skill_accuracy_micro(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Mean item accuracy per skill pooled over its items (secondary: follows the template mix)."""
    return _group_mean(records, "skill", "accuracy")


def per_template_accuracy(records: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Mean item accuracy per template id."""
    return _group_mean(records, "template_id", "accuracy")


def cr_fuzzy_accuracy(records: Iterable[Mapping[str, Any]], micro: bool = False) -> float | None:
    """RapidFuzz ratio over complex-reasoning records, macro-averaged over CR templates
    (``micro``: pooled over items); None if there are none."""
    if not micro:
        return template_macro(records, "fuzzy")
    vals = [float(r["fuzzy"]) for r in records if "fuzzy" in r]
    return fmean(vals) if vals else None


CR_SKILL = "complex"
"""The skill name of ChartProbe's held-out complex-reasoning (CR) probes."""


def _pooled(values: Sequence[float]) -> float | None:
    return fsum(values) / len(values) if values else None


def paper_per_skill(records: Iterable[Mapping[str, Any]]) -> dict[str, float | None]:
    """ChartProbe's rule as the paper scores it: every item of a skill pooled (no template
    macro), a list answer credited with its recall (``paper_accuracy``). ``CR_SKILL`` is CR pooled."""
    groups: dict[str, list[float]] = defaultdict(list)
    for r in records:
        values = groups[r["skill"]]  # a skill whose records lack the value reads None
        if "paper_accuracy" in r:
            values.append(float(r["paper_accuracy"]))
    return {k: _pooled(v) for k, v in sorted(groups.items())}


def paper_per_domain_skill(records: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, float | None]]:
    """:func:`paper_per_skill` within each domain (bar SR as the paper reports it)."""
    groups: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in records:
        groups[r.get("domain") or "?"].append(r)
    return {d: paper_per_skill(rs) for d, rs in sorted(groups.items())}


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
    """Everything above in one JSON-able dict (macro averages, ``*_micro`` pooled ones)."""
    lists = [float(r["list_f1"]) for r in records if "list_f1" in r]
    per_skill = _group_macros(records, "skill", ("accuracy", "paper_accuracy"))  # per_skill_accuracy + paper
    paper = paper_per_skill(records)
    return {"per_skill": per_skill["accuracy"], "per_skill_micro": per_skill_accuracy_micro(records),
            "per_template": per_template_accuracy(records),
            "per_skill_paper": per_skill["paper_accuracy"],
            "list_f1": fmean(lists) if lists else None,
            "cr_fuzzy": cr_fuzzy_accuracy(records), "cr_fuzzy_micro": cr_fuzzy_accuracy(records, micro=True),
            "parse_failure_rate": parse_failure_rate(records), "n": len(records),
            "paper_per_skill": paper, "paper_cr": paper.get(CR_SKILL)}
