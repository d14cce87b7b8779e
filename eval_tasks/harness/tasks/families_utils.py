"""lm-eval hooks for the Chartographer family tasks: thin wrappers over ``chartprobe.eval_tasks.metrics.families``.

``process_results`` scores one row and returns the same per-row tuple under every metric
name; each aggregation receives the whole list and computes its family metric (cross-
document metrics cannot be per-row means). Undefined values (e.g. CVA when no original is
solved) are NaN so lm-eval's table still prints. The table shows readable names
(``original_accuracy`` for the paper's OA, ..., :mod:`chartprobe.eval_tasks.metrics.names`); the
metric code and the summaries keep the paper's keys.

Stderr: lm-eval's column shows a bootstrap over whole families (the rows of a family share its
chart and question), :mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`; a family drawn twice counts as
two families. ``relative_variant_change_p`` (``rvc_p``) is a p-value, and its stderr (how much p moves when other families are
drawn) recomputes the sign-flip test on every draw: at most :data:`RVC_P_DRAWS` draws of a
:data:`RVC_P_INNER`-flip test, never the exact enumeration (2^16 flips take ~2 s per call with
16 templates; the Monte-Carlo error of a 999-flip p, ≤ 0.016, is small beside the spread).
"""

from __future__ import annotations

import math
import operator
from typing import Any

from chartprobe.eval_tasks.answer_judge.equivalence import judge_from_env
from chartprobe.eval_tasks.harness.lazy_images import lazy_images
from chartprobe.eval_tasks.harness.lm_eval_stderr import clustered
from chartprobe.eval_tasks.metrics import families as fm
from chartprobe.eval_tasks.metrics.bootstrap import relabel_fields
from chartprobe.eval_tasks.metrics.names import readable
from chartprobe.eval_tasks.rescoring import data
from chartprobe.eval_tasks.scoring.logged_once import share
from chartprobe.eval_tasks.scoring.voting import majority_record, responses

KEYS = ("oa", "ra", "va", "rvc", "cva", "cu", "nu", "sp", "rvc_p", "unsure")
"""The paper's short keys of the family metrics (what :func:`_family_numbers` returns)."""
METRICS = tuple(map(readable, KEYS))
"""Table names of the family tasks' metrics (``original_accuracy``, ...; the resolution task has
acc_100 / acc_75 / acc_50): the YAML's metric list and the aggregation functions below."""


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, tuple]:
    """Score with the typed scorer, or the LLM judge when ``CHARTPROBE_JUDGE_*`` is set; a repeated
    run that kept every sample (``repeats`` with a ``take_first_k`` filter) scores the majority
    normalised answer (:func:`chartprobe.eval_tasks.scoring.voting.majority_record`), as ``chartprobe score`` does."""
    judge = judge_from_env()
    scored = [fm.score_family_record(doc, r, judge) for r in responses(results)]
    item = fm.to_item(scored[0] if len(scored) == 1 else majority_record(scored))
    return share(item, METRICS)  # logged once per line, not once per metric


RVC_P_INNER = 999
"""Sign flips of the test inside each bootstrap draw of ``rvc_p``'s stderr (the p itself uses
``fm.SIGN_FLIP_RESAMPLES`` and exact enumeration)."""
RVC_P_DRAWS = 200
"""Most bootstrap draws for ``rvc_p``'s stderr: ~45 ms each on the full release (448 families)."""


def _num(value: float | None) -> float:
    return math.nan if value is None else float(value)


def _family_of(record: dict[str, Any]) -> str:
    return record["family_id"]


def _family_numbers(records: list[dict[str, Any]]) -> dict[str, float | None]:
    """Every family metric but ``rvc_p`` in one pass (CU/NU/SP share one ``update_outcomes``)."""
    oa, ra, va = (fm.accuracy(records, role) for role in ("original", "reconstruction", "variant"))
    updates = fm.update_outcomes(records)
    return {"oa": oa, "ra": ra, "va": va, "rvc": fm.relative_change(va, oa),
            "cva": fm.conditional_variant_accuracy(records),
            "cu": updates["CU"], "nu": updates["NU"], "sp": updates["SP"],
            "unsure": sum(1 for r in records if r.get("unsure")) / len(records) if records else None}


def _family_metric(name: str, doc: str):
    """The aggregation of ``name`` over the per-row tuples (NaN when undefined); its stderr reads
    ``name`` from one :func:`_family_numbers` per bootstrap draw over families, shared by all."""
    pick = operator.itemgetter(name)

    @clustered(_family_of, relabel_fields("family_id"), prepare=fm.from_items, summary=_family_numbers,
               statistic=pick)
    def aggregate(items: list[tuple]) -> float:
        return _num(pick(_family_numbers(fm.from_items(items))))

    aggregate.__name__, aggregate.__doc__ = readable(name), doc
    return aggregate


original_accuracy = _family_metric("oa", "OA: original accuracy.")
reconstruction_accuracy = _family_metric("ra", "RA: reconstruction accuracy.")
variant_accuracy = _family_metric("va", "VA: variant accuracy (pooled over every variant).")
relative_variant_change_pct = _family_metric("rvc", "RVC: relative variant change, 100·(VA−OA)/OA, in percent.")
conditional_variant_accuracy = _family_metric("cva", "CVA: conditional variant accuracy (families whose original "
                                              "is correct).")
correct_update_rate = _family_metric("cu", "CU: correct-update rate after original success.")
noisy_update_rate = _family_metric("nu", "NU: noisy-update rate after original success.")
stale_prediction_rate = _family_metric("sp", "SP: stale-prediction rate after original success.")
unsure_rate = _family_metric("unsure", "Share of rows the typed scorer left unsure (a sentence gold it cannot "
                             "decide): counted not correct in every other metric, resolved by the LLM judge.")


def _rvc_p_draw(records: list[dict[str, Any]]) -> float | None:
    """``rvc_p`` inside one bootstrap draw: the same test with fewer, always resampled, flips."""
    return fm.sign_flip_test(records, RVC_P_INNER, exact_max=0)


@clustered(_family_of, relabel_fields("family_id"), prepare=fm.from_items, statistic=_rvc_p_draw,
           max_resamples=RVC_P_DRAWS)
def relative_variant_change_p(items: list[tuple]) -> float:
    """p-value of the two-sided paired sign-flip permutation test for OA→VA, clustered by source
    template (the tuples carry ``source``; the same test as ``chartprobe score`` / ``report``)."""
    return _num(fm.sign_flip_test(fm.from_items(items)))


def process_resolution(doc: dict[str, Any], results: list[str]) -> dict[str, tuple[str, float | None]]:
    """Resolution ablation: ``(family_id, correctness)`` under the row's own scale key, ``(family_id,
    None)`` under the others (the family is the stderr's unit)."""
    correct = float(fm.score_family_record(doc, results[0], judge_from_env())["correct"])
    own = f"acc_{round(doc['scale'] * 100)}"
    return {key: (doc["family_id"], correct if key == own else None) for key in ("acc_100", "acc_75", "acc_50")}


@clustered(lambda item: item[0])
def mean_defined(items: list[tuple[str, float | None]]) -> float:
    """Mean over the rows that have a value (rows of other scales carry None); stderr over families."""
    vals = [v for _, v in items if v is not None]
    return sum(vals) / len(vals) if vals else math.nan


load_release = lazy_images(data.load_release)
"""The release's rows, images decoded when read (``!function families_utils.load_release``)."""
