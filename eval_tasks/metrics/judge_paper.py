"""ChartJudgeBench's *released* parsing and scoring rules, for the ``chartprobe_judge_*_paper`` tasks.

Our default judge tasks (:mod:`.judge`) read answers with the shared typed extractor and count
an unparsable CRJ verdict as the wrong label. The released evaluation code
(``CSU-JPG/ChartJudgeBench`` at commit 63ea244: ``chartjudge_bench/parsing.py`` and
``chartjudge_bench/scoring.py``) differs, and the paper's tables follow it, so a run meant to be
set beside the paper's numbers needs these rules, reimplemented here and used nowhere else:

- **CPA choice**: the first ``\\boxed{Image A|B}`` anywhere in the output (a ``<think>`` block
  included), else the first ``[Answer]: Image A|B``; case-insensitive, one space between the
  words; anything else is no choice.
  A pair's outcome (correct, consistent-wrong, bias-A, bias-B, parse-fail) and the accuracy over
  all pairs are the same as ours, so :func:`.judge.cpa_summary` scores the records.
- **CRJ verdict**: ``<think>...</think>`` blocks removed, then ``[Answer]: Accept|Reject``; failing
  that, a bare ``Reject`` (case-sensitive) with no ``Accept`` in the text, or the reverse; else
  unparsable.
- **CRJ metrics**: accuracy is correct / all items (an unparsable verdict is simply not correct);
  precision, recall, specificity and F1 are computed over *parsed* verdicts only, and the
  unparsable ones are reported as ``parse_fail_rate``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .judge import majority

__all__ = ["crj_paper_confusion", "crj_paper_metrics", "parse_choice_released", "parse_verdict_released"]

_BOXED = re.compile(r"\\boxed\{(Image\s*[AB])\}", re.IGNORECASE)
_ANSWER_CHOICE = re.compile(r"\[Answer\]:?\s*(Image\s*[AB])", re.IGNORECASE)
_THINK = re.compile(r"(?si)<think>.*?</think>")
_ANSWER_VERDICT = re.compile(r"\[Answer\]:?\s*(Accept|Reject)", re.IGNORECASE)


def parse_choice_released(text: Any) -> str | None:
    """``"A"``/``"B"`` by the released CPA rule (see the module docstring), else None."""
    if not isinstance(text, str) or not text:
        return None
    match = _BOXED.search(text) or _ANSWER_CHOICE.search(text)
    # Released: the match is title-cased and must then read exactly "Image A" or "Image B", so
    # "ImageA" or "Image  A" in a box is no choice (and stops the search: no [Answer] fallback).
    return {"Image A": "A", "Image B": "B"}.get(match.group(1).title()) if match else None


def parse_verdict_released(text: Any) -> str | None:
    """``"accept"``/``"reject"`` by the released CRJ rule (see the module docstring), else None."""
    if not isinstance(text, str) or not text:
        return None
    clean = _THINK.sub("", text)
    match = _ANSWER_VERDICT.search(clean)
    if match:
        return match.group(1).lower()
    # The released fallback is a case-sensitive substring test on the capitalised words.
    if "Reject" in clean and "Accept" not in clean:
        return "reject"
    if "Accept" in clean and "Reject" not in clean:
        return "accept"
    return None


def crj_paper_confusion(records: Iterable[Mapping[str, Any]], k: int = 1) -> dict[str, int]:
    """TP/FP/TN/FN over parsed verdicts (Accept positive); unparsable ones only in ``parse_fail``."""
    m = Counter(tp=0, fp=0, tn=0, fn=0, parse_fail=0)
    for r in records:
        verdict, gold = majority(list(r["verdicts"]), k), str(r["label"]).lower()
        if verdict is None:
            m["parse_fail"] += 1
            continue
        m[{("accept", "accept"): "tp", ("accept", "reject"): "fp",
           ("reject", "reject"): "tn", ("reject", "accept"): "fn"}[(verdict, gold)]] += 1
    return dict(m)


def _ratio(a: float, b: float) -> float:
    return a / b if b else 0.0  # the released scorer's safe division: 0.0 on an empty class


def crj_paper_metrics(records: Iterable[Mapping[str, Any]] | None = None, k: int = 1, *,
                      confusion: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The released CRJ metrics from records (verdicts parsed by :func:`parse_verdict_released`) or counts."""
    m = dict(confusion) if confusion is not None else crj_paper_confusion(records or [], k)
    tp, fp, tn, fn, fail = m["tp"], m["fp"], m["tn"], m["fn"], m.get("parse_fail", 0)
    n = tp + fp + tn + fn + fail
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    return {"accuracy": _ratio(tp + tn, n), "precision": precision, "recall": recall,
            "specificity": _ratio(tn, tn + fp), "f1": _ratio(2 * precision * recall, precision + recall),
            "accept_rate": _ratio(tp + fp, n), "parse_fail_rate": _ratio(fail, n), "confusion": m, "n": n}
