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
- ap / ar / af1 over *every* row scored (§5.1: "the fraction of refusals made on genuinely
  unanswerable questions"): AP = refusals on ``expected == "abstain"`` rows / all refusals, so a
  refusal on any answerable row (a base chart, a ``scale_down`` variant, a chain row) costs
  precision; AR = the same hits / abstain rows; AF1 = their harmonic mean (= 2 hits / (refusals +
  abstain rows)). A model that never refuses scores AP = 0 (the paper's 0.00), and AF1 = 0 when
  there are abstain rows; AR (and so AF1) is None without abstain rows, AP only without rows.
  :func:`abstention_scope` (answerability variants plus their base rows) is the narrower scope
  the visibility study scores each level on; the profile no longer uses it.
- ap_excl_elim / ar_excl_elim / af1_excl_elim: the same over the rows that are *not*
  ``elimination_answerable`` (abstain rows whose hidden entry the visible ones give away, e.g.
  ``hide_target`` or ``keep_distractor`` on a 2-series chart; ``dataset_builders/legend/elimination.py``).
  The headline ap/ar/af1 keep the paper's strict rule (gold "I don't know" on those rows);
  elim_refusal_rate is the share of the elimination-answerable rows refused, n_elim their count.
  These slices are in :func:`profile` (and so in reports), not lm-eval metrics.
- parse_fail_rate: share of rows whose answer could not be parsed.

The controlled studies (§6) are in :mod:`chartprobe.eval_tasks.metrics.legend_studies`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

__all__ = [
    "ABSTENTION_SLICES",
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
    "elimination_answerable",
    "elimination_refusal_rate",
    "from_headline_counts",
    "harmonic_mean",
    "headline_counts",
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
    "study_factor", "study_level", "answer", "answer_type", "elimination_answerable",
)
"""Row columns a scored record keeps (the image and the JSON specs stay in the dataset)."""

STAGES = {"guide_read": "guide_read", "bind": "bind", "ve": "value_extraction", "reason": "reason"}
"""Profile metric name -> the ``capability`` value it scores (§5.1 stage-wise performance)."""


def score_record(doc: Record, prediction: str) -> dict[str, Any]:
    """Score one prediction on a legend row with the typed scorer; keep the metric columns."""
    from ..scoring.typed import score_doc

    s = score_doc(doc, prediction)
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
    """AP, AR, AF1 over exactly ``rows`` (refusal = ``abstained``; positive = ``expected == "abstain"``).

    AP is 0.0 when there are rows but no refusal (a never-refusing model, the paper's 0.00) and None
    only without rows; AR is None without abstain rows; AF1 is their harmonic mean (None when
    either is), which equals 2 hits / (refusals + abstain rows).
    """
    return _abstention_scores(*_abstention_tallies(rows))


def _abstention_tallies(rows: Iterable[Record]) -> tuple[int, int, int, int]:
    """(rows, refusals, abstain rows, refusals on abstain rows): what AP, AR and AF1 are ratios of."""
    n = refusals = positives = hits = 0
    for r in rows:
        refused, unanswerable = bool(r.get("abstained")), r.get("expected") == "abstain"
        n += 1
        refusals += refused
        positives += unanswerable
        hits += refused and unanswerable
    return n, refusals, positives, hits


def _abstention_scores(n: float, refusals: float, positives: float, hits: float) -> dict[str, float | int | None]:
    ap = hits / refusals if refusals else (0.0 if n else None)
    ar = hits / positives if positives else None
    return {"ap": ap, "ar": ar, "af1": harmonic_mean(ap, ar), "refusals": refusals, "unanswerable": positives}


_TALLIES = ("abstain_rows", "refusals", "abstain_expected", "abstain_hits")


def headline_counts(records: Iterable[Record]) -> dict[str, float]:
    """Additive counts behind qa_acc, chain_acc, cr and af1: rows and correct rows, chains and their
    all-correct ones, per variant family (preserving: cons, altering: resp) the variants whose group's
    base row is present and both correct, and the abstention tallies. Chains and counterfactual
    groups lie inside one base chart, so the counts of disjoint sets of base charts add up
    (:func:`from_headline_counts`): a bootstrap over base charts sums them per draw."""
    records = list(records)
    found = chains(records)
    out = {"rows": float(len(records)), "correct": sum(float(bool(r.get("correct"))) for r in records),
           "chains": float(len(found)), "chains_ok": sum(float(all(r.get("correct") for r in rows))
                                                         for rows in found.values())}
    bases = _bases(records)
    for family in ("preserving", "altering"):
        vals = [float(bool(bases[g].get("correct") and r.get("correct"))) for r in records
                if r.get("intervention_family") == family and (g := str(r.get("group_id"))) in bases]
        out[f"{family}_n"], out[f"{family}_ok"] = float(len(vals)), sum(vals)
    return out | dict(zip(_TALLIES, map(float, _abstention_tallies(records))))


def from_headline_counts(t: Mapping[str, float]) -> dict[str, float | None]:
    """qa_acc, chain_acc, cons, resp, cr and af1 from :func:`headline_counts` (summed), as :func:`profile`
    gives them."""
    def share(ok: str, n: str) -> float | None:
        return t[ok] / t[n] if t[n] else None

    cons, resp = share("preserving_ok", "preserving_n"), share("altering_ok", "altering_n")
    return {"qa_acc": share("correct", "rows"), "chain_acc": share("chains_ok", "chains"), "cons": cons,
            "resp": resp, "cr": harmonic_mean(cons, resp),
            "af1": _abstention_scores(*(t[k] for k in _TALLIES))["af1"]}


def elimination_answerable(record: Record) -> bool:
    """Whether a row's hidden evidence is recoverable by elimination (the row column; False if absent)."""
    return bool(record.get("elimination_answerable"))


def elimination_refusal_rate(records: Iterable[Record]) -> float | None:
    """Share of the elimination-answerable rows the model refused (None without such rows)."""
    vals = [float(bool(r.get("abstained"))) for r in records if elimination_answerable(r)]
    return fmean(vals) if vals else None


def parse_failure_rate(records: Iterable[Record]) -> float | None:
    """Share of rows whose prediction could not be parsed for the answer type."""
    vals = [float(bool(r.get("parse_failed"))) for r in records]
    return fmean(vals) if vals else None


def _stage_metric(capability: str) -> Metric:
    def metric(records: Sequence[Record]) -> float | None:
        return stage_accuracy(records, capability)

    metric.__name__ = capability
    return metric


def _abstention_metric(key: str, excl_elim: bool = False) -> Metric:
    def metric(records: Sequence[Record]) -> float | None:
        rows = [r for r in records if not elimination_answerable(r)] if excl_elim else records
        return abstention(rows)[key]

    metric.__name__ = f"{key}_excl_elim" if excl_elim else key
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

ABSTENTION_SLICES: dict[str, Metric] = {
    **{f"{key}_excl_elim": _abstention_metric(key, excl_elim=True) for key in ("ap", "ar", "af1")},
    "elim_refusal_rate": elimination_refusal_rate,
}
"""Abstention without the elimination-answerable rows (reported by :func:`profile`, not lm-eval metrics)."""


def profile(records: Iterable[Record]) -> dict[str, Any]:
    """The whole capability profile of §5.1 in one JSON-able dict (plus row and chain counts), with
    the abstention slices of :data:`ABSTENTION_SLICES` and the elimination-answerable row count."""
    records = list(records)
    return {**{name: fn(records) for name, fn in PROFILE.items()},
            **{name: fn(records) for name, fn in ABSTENTION_SLICES.items()},
            "n": len(records), "n_chains": len(chains(records)),
            "n_elim": sum(map(elimination_answerable, records))}
