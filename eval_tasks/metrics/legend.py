"""LegendBench capability profile (paper §5.1): pure functions over scored records.

A *scored record* is a mapping with the row columns of ``docs/legend_schema.md`` listed in
:data:`RECORD_FIELDS`, plus ``correct`` (bool), ``prediction`` (the raw model output),
``abstained`` (bool: the extracted answer is in the "I don't know" family) and
``parse_failed``. Records may miss optional keys (results files drop None cells), so every
function reads them with defaults. Each metric is computed only over the rows it applies to
(§5.1) and is None when there are none.

- qa_acc: accuracy over all rows. chain_acc: share of diagnostic chains (``chain_id != ""``)
  whose rows present are all correct.
- guide_read / bind / ve / reason: accuracy of rows with that ``capability`` (a chain's
  ``locate`` row, the colour-bar counterpart of binding, counts as bind).
- reason_sup (Reason.|Sup.): accuracy of chain ``reason`` rows whose chain has at least one
  upstream row and all its upstream rows correct.
- cons / resp: over ``preserving`` / ``altering`` variants whose group's base row
  (``expected == "base"``, same ``group_id``) is present: share where base and variant are both
  correct. cr: their harmonic mean.
- ap / ar / af1 over the ``answerability`` variants and their groups' base rows: AP = refusals on
  ``expected == "abstain"`` rows / refusals; AR = the same / abstain rows;
  AF1 = 2TP / (refusals + abstain rows), the harmonic mean of AP and AR, and 0 when a model
  never refuses (AP itself is then undefined).
- parse_fail_rate: share of rows whose answer could not be parsed.

The controlled studies (§6) are in :mod:`chartprobe.eval_tasks.metrics.legend_studies`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

__all__ = [
    "PROFILE",
    "RECORD_FIELDS",
    "STAGES",
    "abstention",
    "abstention_scope",
    "accuracy",
    "chain_accuracy",
    "chains",
    "conditional_reasoning",
    "consistency",
    "cr",
    "harmonic_mean",
    "paired_rate",
    "profile",
    "responsiveness",
    "score_record",
    "stage",
    "stage_accuracy",
]

Record = Mapping[str, Any]
Metric = Callable[[Sequence[Record]], "float | None"]

RECORD_FIELDS = (
    "id", "group_id", "base_id", "chain_id", "chain_role", "task_family", "capability", "template",
    "intervention", "intervention_family", "expected", "chart_kind", "mark_family", "legend_form",
    "encoding_mode", "legend_position", "num_series", "target", "target_legend_index", "visual_rank",
    "study_factor", "study_level", "answer", "answer_type",
)
"""Row columns a scored record keeps (the image and the JSON specs stay in the dataset)."""

STAGES = {"guide_read": "guide_read", "bind": "bind", "ve": "value_extraction", "reason": "reason"}
"""Profile metric name -> the ``capability`` value it scores (§5.1 stage-wise performance)."""


def score_record(doc: Record, prediction: str) -> dict[str, Any]:
    """Score one prediction on a legend row with the typed scorer; keep the metric columns."""
    from ..scoring import score_answer

    s = score_answer(prediction, str(doc.get("answer", "")), str(doc.get("answer_type", "label")))
    return {**{f: doc.get(f) for f in RECORD_FIELDS}, "prediction": prediction, "correct": s.correct,
            "abstained": s.abstained, "parse_failed": s.parse_failed, "normalized": s.normalized}


def accuracy(records: Iterable[Record]) -> float | None:
    """Mean correctness (None for no records); QA accuracy when given every row."""
    vals = [float(bool(r.get("correct"))) for r in records]
    return fmean(vals) if vals else None


def harmonic_mean(a: float | None, b: float | None) -> float | None:
    """2ab/(a+b); 0 when both are 0; None when either is undefined (CR, AF1)."""
    if a is None or b is None:
        return None
    return 0.0 if a + b == 0 else 2 * a * b / (a + b)


def chains(records: Iterable[Record]) -> dict[str, list[Record]]:
    """chain_id -> its rows (rows in no chain are left out)."""
    out: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        if r.get("chain_id"):
            out[str(r["chain_id"])].append(r)
    return dict(out)


def chain_accuracy(records: Iterable[Record]) -> float | None:
    """Share of chains whose every (present) row is correct."""
    vals = [float(all(r.get("correct") for r in rows)) for rows in chains(records).values()]
    return fmean(vals) if vals else None


def stage(record: Record) -> str:
    """The capability a row scores: its ``capability``, with a chain's ``locate`` row as bind."""
    return "bind" if record.get("chain_role") == "locate" else str(record.get("capability") or "")


def stage_accuracy(records: Iterable[Record], capability: str) -> float | None:
    """Accuracy of the rows of one capability (guide_read, bind, value_extraction, reason)."""
    return accuracy(r for r in records if stage(r) == capability)


def conditional_reasoning(records: Iterable[Record]) -> float | None:
    """Reason.|Sup.: accuracy of chain reason rows whose upstream rows are all correct."""
    vals = []
    for rows in chains(records).values():
        upstream = [r for r in rows if r.get("chain_role") != "reason"]
        if upstream and all(r.get("correct") for r in upstream):
            vals += [float(bool(r.get("correct"))) for r in rows if r.get("chain_role") == "reason"]
    return fmean(vals) if vals else None


def _bases(records: Iterable[Record]) -> dict[str, Record]:
    return {str(r.get("group_id")): r for r in records if r.get("expected") == "base"}


def paired_rate(records: Sequence[Record], family: str) -> float | None:
    """Share of ``family`` variants that are correct together with their group's base row."""
    bases = _bases(records)
    vals = [float(bool(bases[g].get("correct") and r.get("correct"))) for r in records
            if r.get("intervention_family") == family and (g := str(r.get("group_id"))) in bases]
    return fmean(vals) if vals else None


def consistency(records: Sequence[Record]) -> float | None:
    """Cons.: base and mapping-preserving variant both correct (the same correct answer)."""
    return paired_rate(records, "preserving")


def responsiveness(records: Sequence[Record]) -> float | None:
    """Resp.: base and mapping-altering variant both correct (the answer updated to the new gold)."""
    return paired_rate(records, "altering")


def cr(records: Sequence[Record]) -> float | None:
    """CR: harmonic mean of consistency and responsiveness."""
    return harmonic_mean(consistency(records), responsiveness(records))


def abstention_scope(records: Sequence[Record], variants: Callable[[Record], bool] | None = None) -> list[Record]:
    """The rows abstention is scored on: the selected variants plus their groups' base rows.

    ``variants`` selects the variant rows (default: ``intervention_family == "answerability"``).
    """
    pick = variants or (lambda r: r.get("intervention_family") == "answerability")
    chosen = [r for r in records if r.get("expected") != "base" and pick(r)]
    groups = {str(r.get("group_id")) for r in chosen}
    return [r for r in records if r.get("expected") == "base" and str(r.get("group_id")) in groups] + chosen


def abstention(rows: Iterable[Record]) -> dict[str, float | int | None]:
    """AP, AR, AF1 over exactly ``rows`` (refusal = ``abstained``; positive = ``expected == "abstain"``)."""
    refusals = positives = hits = 0
    for r in rows:
        refused, unanswerable = bool(r.get("abstained")), r.get("expected") == "abstain"
        refusals += refused
        positives += unanswerable
        hits += refused and unanswerable
    denom = refusals + positives
    return {"ap": hits / refusals if refusals else None, "ar": hits / positives if positives else None,
            "af1": 2 * hits / denom if denom else None, "refusals": refusals, "unanswerable": positives}


def parse_failure_rate(records: Iterable[Record]) -> float | None:
    """Share of rows whose prediction could not be parsed for the answer type."""
    vals = [float(bool(r.get("parse_failed"))) for r in records]
    return fmean(vals) if vals else None


def _stage_metric(capability: str) -> Metric:
    def metric(records: Sequence[Record]) -> float | None:
        return stage_accuracy(records, capability)

    metric.__name__ = capability
    return metric


def _abstention_metric(key: str) -> Metric:
    def metric(records: Sequence[Record]) -> float | None:
        return abstention(abstention_scope(records))[key]

    metric.__name__ = key
    return metric


PROFILE: dict[str, Metric] = {
    "qa_acc": accuracy,
    "chain_acc": chain_accuracy,
    **{name: _stage_metric(cap) for name, cap in STAGES.items()},
    "reason_sup": conditional_reasoning,
    "cons": consistency,
    "resp": responsiveness,
    "cr": cr,
    **{key: _abstention_metric(key) for key in ("ap", "ar", "af1")},
    "parse_fail_rate": parse_failure_rate,
}
"""The capability profile, metric name -> function (the lm-eval metric names)."""


def profile(records: Iterable[Record]) -> dict[str, Any]:
    """The whole capability profile of §5.1 in one JSON-able dict (plus row and chain counts)."""
    records = list(records)
    return {**{name: fn(records) for name, fn in PROFILE.items()},
            "n": len(records), "n_chains": len(chains(records))}
