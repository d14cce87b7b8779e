"""Repeated runs and majority voting: every response of a document, and the vote over them.

lm-eval's ``repeats: K`` asks the model K times per document; without a ``filter_list`` it
keeps only the first response (``take_first``). The ``*_vote`` tasks keep all K
(``take_first_k``), so ``process_results`` receives ``[[r1, ..., rK]]`` and the samples file
logs ``filtered_resps`` as ``[[r1, ..., rK]]``. :func:`responses` flattens either shape, so
the same hooks score a one-response run and a voted one, and ``chartprobe score`` reads every
response of a repeated run (:func:`chartprobe.eval_tasks.rescoring.predictions.iter_samples` fills
``Sample.responses``).

The vote is over *parsed* answers, never over raw strings (two chains of thought that reach
the same answer are one vote): the judge's labels (:func:`chartprobe.eval_tasks.metrics.judge.majority`,
a tie is no verdict, as in the paper's §4.5 voting) or a typed answer's normalised form
(:func:`majority_record`, a tie goes to the answer given first, so the vote never depends on
set order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["VOTE_KS", "majority_record", "responses", "votes"]

VOTE_KS = (1, 3, 5, 7, 9)
"""The K of the paper's voting curve (ChartJudgeBench §4.5, Fig. 10)."""


def responses(results: Iterable[Any]) -> list[str]:
    """Every response text in lm-eval's ``results`` (``[r]``, ``[[r1, ..., rK]]``), in order."""
    out: list[str] = []
    for item in results:
        if isinstance(item, (list, tuple)):
            out.extend(responses(item))
        else:
            out.append("" if item is None else str(item))
    return out


def votes(records: Sequence[Mapping[str, Any]], key: str) -> int:
    """How many samples every record has under ``key`` (the K a whole run can vote over; 1 = none)."""
    return min((len(r[key]) for r in records), default=1) or 1


def _answer(record: Mapping[str, Any]) -> Any:
    """What a typed record answered: its normalised answer, else what was extracted, else its outcome."""
    for key in ("normalized", "extracted"):
        if record.get(key) not in (None, ""):
            return record[key]
    return bool(record.get("correct"))


def majority_record(scored: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The record of the majority answer among ``scored`` (one record per response).

    The first response that gave the winning answer is returned, with ``votes`` (K) and
    ``vote_share`` (the winner's share) added, and ``responses_correct`` (each response's own
    outcome, for repeated-inference stability: Chartographer B.3).
    """
    if not scored:
        raise ValueError("majority_record needs at least one scored response")
    answers = [_answer(r) for r in scored]
    winner, count = Counter(answers).most_common(1)[0]  # ties: first seen wins (Counter keeps order)
    rec = dict(scored[answers.index(winner)])
    rec.update(votes=len(scored), vote_share=count / len(scored),
               responses_correct=[bool(r.get("correct")) for r in scored])
    return rec
