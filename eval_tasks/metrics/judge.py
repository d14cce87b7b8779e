"""ChartJudgeBench metrics (paper §4 "Evaluation Protocol", Tables 1-2, Fig. 5, §4.5).

Scored records are plain dicts:

- CPA (one per document = one order of a pair): ``pair_id``, ``order`` (``better_first`` |
  ``worse_first``), ``criterion``, ``dimension``, ``chart_kind`` and ``choices`` (the parsed
  position of each sample: ``"A"``, ``"B"`` or None when unparsable).
- CRJ (one per item): ``item_id``, ``label`` (``Accept`` | ``Reject``) and ``verdicts``
  (``"accept"``, ``"reject"`` or None per sample).

With several samples per document (lm-eval ``repeats``) :func:`majority` votes over the
first K; every metric takes ``k`` (default 1: the first sample only).

CPA two-pass protocol: a pair is *correct* only if both orders pick the better chart. Every
pair falls in exactly one outcome: correct, consistent-wrong (both orders pick the worse
chart), bias-A (both answers are position A), bias-B, or parse-fail (an order unparsable).
Half a pair (one order only: a ``--limit`` cut it) counts in no pair metric.
CRJ: Accept is the positive class; an unparsable verdict counts as the wrong label.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from ..scoring.typed import extract_answer, normalize

__all__ = [
    "CPA_OUTCOMES", "cpa_group_accuracy", "cpa_outcomes", "cpa_pair_counts", "cpa_record", "cpa_summary", "crj_confusion",
    "crj_metrics", "crj_record", "majority", "one_pass_accuracy", "paper_avg", "parse_choice", "parse_verdict",
    "voting_curve",
]

CPA_OUTCOMES = ("correct", "consistent_wrong", "bias_a", "bias_b", "parse_fail")
_IMAGE_WORD = re.compile(r"^\s*(?:the\s+)?(?:image|chart|figure)\s*", re.IGNORECASE)


def _answer_field(text: str) -> str:
    """The paper's ``[Answer]: ...`` field, read by the shared extractor: reasoning blocks
    (``<think>...</think>``) that mention either verdict are dropped first."""
    return extract_answer(text if isinstance(text, str) else "")


def parse_choice(text: str) -> str | None:
    """``"A"``/``"B"`` from a CPA answer ("[Answer]: Image A", "Image B", "(A)"), else None."""
    picked = normalize(_IMAGE_WORD.sub("", _answer_field(text)), "choice")
    return picked if picked in ("A", "B") else None


def parse_verdict(text: str) -> str | None:
    """``"accept"``/``"reject"`` from a CRJ answer ("[Answer]: Reject. [Reason]: ..."), else None."""
    verdict = normalize(_answer_field(text), "choice")
    return verdict if verdict in ("accept", "reject") else None


def cpa_record(doc: Mapping[str, Any], generations: list[str]) -> dict[str, Any]:
    """The scored record of one CPA document (one order of one pair)."""
    return {"pair_id": doc["pair_id"], "order": doc["order"], "criterion": doc["criterion"],
            "dimension": doc["dimension"], "chart_kind": doc["chart_kind"],
            "choices": [parse_choice(g) for g in generations]}


def crj_record(doc: Mapping[str, Any], generations: list[str]) -> dict[str, Any]:
    """The scored record of one CRJ item."""
    return {"item_id": doc["item_id"], "label": doc["label"], "verdicts": [parse_verdict(g) for g in generations]}


def majority(values: list[str | None], k: int = 1) -> str | None:
    """Majority of the parsed values among the first ``k`` samples (a tie or none parsed -> None)."""
    counts = Counter(v for v in values[:k] if v is not None).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return None
    return counts[0][0]


def _gold(order: str) -> str:
    return "A" if order == "better_first" else "B"


def _pairs(records: Iterable[Mapping[str, Any]], k: int) -> dict[str, dict[str, Any]]:
    """Whole pairs only: a ``--limit`` that ends between a pair's two orders leaves half a pair,
    which has no two-pass outcome (it is neither right nor a parse failure)."""
    pairs: dict[str, dict[str, Any]] = defaultdict(dict)
    for r in records:
        pairs[r["pair_id"]][r["order"]] = majority(list(r["choices"]), k)
        pairs[r["pair_id"]]["_meta"] = r
    return {pid: p for pid, p in pairs.items() if "better_first" in p and "worse_first" in p}


def _outcome(p: Mapping[str, Any]) -> str:
    a, b = p.get("better_first"), p.get("worse_first")
    if a is None or b is None:
        return "parse_fail"
    if a == "A" and b == "B":
        return "correct"
    if a == "B" and b == "A":
        return "consistent_wrong"
    return "bias_a" if a == "A" else "bias_b"


def cpa_outcomes(records: Iterable[Mapping[str, Any]], k: int = 1) -> dict[str, float]:
    """Share of pairs per outcome (the five shares sum to 1); ``correct`` is two-pass accuracy."""
    outcomes = Counter(_outcome(p) for p in _pairs(records, k).values())
    n = sum(outcomes.values())
    return {o: (outcomes[o] / n if n else float("nan")) for o in CPA_OUTCOMES}


def cpa_pair_counts(records: Iterable[Mapping[str, Any]], k: int = 1) -> tuple[int, int]:
    """(whole pairs, two-pass correct pairs) voting over ``k`` samples: two-pass accuracy's denominator
    and numerator, which add up over disjoint sets of pairs."""
    pairs = _pairs(records, k).values()
    return len(pairs), sum(_outcome(p) == "correct" for p in pairs)


def one_pass_accuracy(records: Iterable[Mapping[str, Any]], k: int = 1) -> float:
    """Share of single documents (orders) whose answer picks the better chart."""
    hits = [majority(list(r["choices"]), k) == _gold(r["order"]) for r in records]
    return sum(hits) / len(hits) if hits else float("nan")


def first_position_rate(records: Iterable[Mapping[str, Any]], k: int = 1) -> float:
    """Share of parsed answers choosing position A (the paper's Fig. 5 preference)."""
    picks = [c for c in (majority(list(r["choices"]), k) for r in records) if c is not None]
    return sum(c == "A" for c in picks) / len(picks) if picks else float("nan")


def cpa_group_accuracy(records: Iterable[Mapping[str, Any]], field: str, k: int = 1) -> dict[str, float]:
    """Two-pass accuracy per value of ``field`` (criterion, dimension or chart_kind)."""
    groups: dict[str, list[bool]] = defaultdict(list)
    for p in _pairs(records, k).values():
        groups[p["_meta"][field]].append(_outcome(p) == "correct")
    return {g: sum(v) / len(v) for g, v in sorted(groups.items())}


def paper_avg(per_criterion: Mapping[str, float]) -> float | None:
    """ChartJudgeBench's "Avg." column: the unweighted mean of the per-criterion two-pass
    accuracies (seven criteria, each counting once however many pairs it has), where our
    ``two_pass_accuracy`` pools the pairs. None without pairs."""
    return sum(per_criterion.values()) / len(per_criterion) if per_criterion else None


def cpa_summary(records: list[Mapping[str, Any]], k: int = 1) -> dict[str, Any]:
    """Every CPA metric in one JSON-able dict."""
    out = cpa_outcomes(records, k)
    per_criterion = cpa_group_accuracy(records, "criterion", k)
    return {"two_pass_accuracy": out["correct"], "paper_avg": paper_avg(per_criterion), "one_pass_accuracy": one_pass_accuracy(records, k),
            "consistent_wrong_rate": out["consistent_wrong"], "bias_a_rate": out["bias_a"],
            "bias_b_rate": out["bias_b"], "parse_fail_rate": out["parse_fail"],
            "first_position_rate": first_position_rate(records, k),
            "per_criterion": per_criterion,
            "per_dimension": cpa_group_accuracy(records, "dimension", k),
            "per_chart_kind": cpa_group_accuracy(records, "chart_kind", k), "n_pairs": len(_pairs(records, k))}


def crj_confusion(records: Iterable[Mapping[str, Any]], k: int = 1) -> dict[str, int]:
    """TP/FP/TN/FN with Accept positive; an unparsable verdict is the wrong label (and counted in
    ``parse_fail``); ``predicted_accept`` counts parsed Accept verdicts (the accept rate)."""
    m = Counter(tp=0, fp=0, tn=0, fn=0, parse_fail=0, predicted_accept=0)
    for r in records:
        verdict, gold = majority(list(r["verdicts"]), k), r["label"].lower()
        m["predicted_accept"] += verdict == "accept"
        if verdict is None:
            m["parse_fail"] += 1
            verdict = "reject" if gold == "accept" else "accept"
        m[{("accept", "accept"): "tp", ("accept", "reject"): "fp",
           ("reject", "reject"): "tn", ("reject", "accept"): "fn"}[(verdict, gold)]] += 1
    return dict(m)


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0


def crj_metrics(records: Iterable[Mapping[str, Any]] | None = None, k: int = 1, *,
                confusion: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Accuracy, precision, recall, specificity, F1, accept rate (Table 2) from records or counts."""
    m = dict(confusion) if confusion is not None else crj_confusion(records or [], k)
    tp, fp, tn, fn = m["tp"], m["fp"], m["tn"], m["fn"]
    n = tp + fp + tn + fn
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {"accuracy": _ratio(tp + tn, n), "precision": precision, "recall": recall,
            "specificity": _ratio(tn, tn + fp), "f1": _ratio(2 * precision * recall, precision + recall),
            "accept_rate": _ratio(m.get("predicted_accept", tp + fp), n), "parse_fail_rate": _ratio(m.get("parse_fail", 0), n),
            "confusion": m, "n": n}


def voting_curve(records: list[Mapping[str, Any]], task: str,
                 ks: tuple[int, ...] = (1, 3, 5, 7, 9)) -> dict[int, dict[str, Any]]:
    """Metrics under majority voting over K samples (§4.5), for each K the records have samples for."""
    key = "choices" if task == "cpa" else "verdicts"
    have = min((len(r[key]) for r in records), default=0)
    fn = cpa_summary if task == "cpa" else crj_metrics
    return {k: fn(records, k) for k in ks if k <= have}
