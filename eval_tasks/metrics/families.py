"""Chartographer family metrics (paper §3.4, A.8, B.1, Table 1): pure functions over scored records.

A *scored record* is a mapping with ``family_id``, ``role`` (original | reconstruction |
variant), ``correct`` (bool: judged answer equivalence) and ``normalized`` (the normalized
extracted prediction, for stale-prediction detection); ``reasoning_type`` is optional.

- OA / RA / VA: accuracy on originals, reconstructions, variants (VA pools every variant).
- RVC = 100·(VA−OA)/OA; RVC-R = 100·(VA−RA)/RA.
- CVA: VA over the variants of families whose original is correct (D_{m,d} in A.8); CVA-R
  conditions on the reconstruction instead (B.1).
- OA–RA agreement and the O±R± table (Tables 8-9).
- CU / NU / SP over D_{m,d}: correct update; stale = wrong and normalized prediction equal to
  the original's normalized prediction; noisy = wrong and different (§3.4, A.7).
- Two-sided paired sign-flip permutation test for OA→VA (Table 1 stars), clustered by source
  template: families drawn from one template are resampled together (see :func:`sign_flip_test`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from statistics import fmean
from typing import Any

import numpy as np

__all__ = [
    "CLUSTER_FIELD",
    "ITEM_FIELDS",
    "accuracy",
    "agreement",
    "conditional_variant_accuracy",
    "family_counts",
    "family_summary",
    "from_family_counts",
    "from_items",
    "judge_query",
    "o_r_table",
    "paper_accuracy",
    "paper_extract",
    "per_reasoning_type",
    "relative_change",
    "score_family_record",
    "sign_flip_clusters",
    "sign_flip_test",
    "stars",
    "to_item",
    "update_outcomes",
]

Record = Mapping[str, Any]
CLUSTER_FIELD = "source"
"""The row field naming a family's source template: the sign-flip test's unit of resampling."""
ITEM_FIELDS = ("family_id", "role", "variant_seed", "correct", "normalized", "original_answer",
               "reasoning_type", "judge", CLUSTER_FIELD, "unsure")
"""Field order of the per-row tuples lm-eval's ``process_results`` hands to the aggregations."""
_OPTIONAL_ITEM_FIELDS = frozenset({CLUSTER_FIELD, "unsure"})
"""Fields :func:`from_items` leaves out when None, so a record without them round-trips unchanged."""


def score_family_record(doc: Record, prediction: str, judge: Any = None, *, released: bool = False) -> dict[str, Any]:
    """Score one prediction on a family row: typed scorer, or an LLM judge when given.

    ``released``: the answer is Chartographer's released extraction (:func:`paper_extract`), as
    ``chartprobe_families_paper`` scores it: that text is what the judge is asked about, and what
    the typed scorer reads when no judge is set (ours otherwise: :func:`~chartprobe.eval_tasks.scoring.typed.extract_answer`).

    ``normalized`` always comes from the typed normalizer (exact comparison of normalized
    extracted answers decides stale vs noisy, as in A.7); the judge (anything with
    ``decide(question, target, prediction)`` returning a
    :class:`~chartprobe.eval_tasks.answer_judge.client.JudgeDecision`) only decides ``correct``, and the
    record then says which judge and what it answered (``judge_verdict``: yes, no, unparsable
    -- counted wrong -- or empty, when nothing was extracted to ask about).
    """
    from ..scoring.typed import score_doc

    paper = paper_extract(prediction)
    s = score_doc(doc, paper if released else prediction)
    asked = paper if released else s.extracted
    correct, judge_id, verdict = s.correct, "typed", None
    if judge is not None:
        decision = judge.decide(*judge_query(doc, asked))
        correct, judge_id, verdict = decision.correct, decision.judge_id, decision.verdict
    rec = {"family_id": doc["family_id"], "role": doc["role"], "variant_seed": doc.get("variant_seed"),
           "correct": bool(correct), "normalized": s.normalized, "original_answer": doc.get("original_answer"),
           "reasoning_type": doc.get("reasoning_type"), "judge": judge_id, "parse_failed": s.parse_failed,
           CLUSTER_FIELD: doc.get(CLUSTER_FIELD)}
    if verdict is not None:
        rec["judge_verdict"] = verdict
    if s.unsure and judge is None:  # the typed scorer could not tell: not correct, and counted apart
        rec["unsure"] = True
    # Chartographer's extraction as released, beside ours: the first <answer> block, else the
    # whole response (our extractor takes the last line), judged the same way.
    if released:
        paper_ok = correct
    elif judge is None:
        from ..scoring.typed import score_answer

        paper_ok = score_answer(paper, str(doc.get("answer", "")), str(doc.get("answer_type") or "label"),
                                tolerance=str(doc.get("tolerance") or "") or None).correct
    elif paper == asked:
        paper_ok = correct
    else:
        paper_ok = judge.decide(*judge_query(doc, paper)).correct
    rec["paper_extracted"], rec["paper_correct"] = paper, bool(paper_ok)
    return rec


_ANSWER_BLOCK = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)


def paper_extract(prediction: str) -> str:
    """Chartographer's released answer extraction (A.7, ``src/common/answers.py``): the text of the
    first ``<answer>...</answer>`` block, a block left open running to the end (the released code
    searches the response with ``"</answer>"`` appended); the whole response (stripped) when there
    is no ``<answer>`` at all. Case-insensitive; a non-string is read as ``str()`` of it."""
    text = prediction if isinstance(prediction, str) else ("" if prediction is None else str(prediction))
    m = _ANSWER_BLOCK.search(text + "</answer>")
    return (m.group(1) if m else text).strip()


def paper_accuracy(records: Iterable[Record], role: str) -> float | None:
    """Accuracy of ``role`` under the paper's extraction (``paper_correct``); None when no record
    of that role carries it (records rebuilt from lm-eval items do not)."""
    vals = [bool(r["paper_correct"]) for r in records if r["role"] == role and "paper_correct" in r]
    return fmean(vals) if vals else None


def judge_query(doc: Record, extracted: str) -> tuple[str, str, str]:
    """What the judge is asked about a row: (question, gold answer, extracted prediction), as the
    released ``evaluate_predictions.py`` builds it (the question and answer columns, as strings)."""
    return str(doc.get("question", "")), str(doc.get("answer", "")), extracted


def to_item(record: Record) -> tuple:
    """A scored record as the flat tuple lm-eval carries between process_results and aggregation."""
    return tuple(record.get(f) for f in ITEM_FIELDS)


def from_items(items: Iterable[tuple]) -> list[dict[str, Any]]:
    """Inverse of :func:`to_item` for a whole list (an absent optional field, e.g. ``source``, stays absent).

    Items may be :class:`~chartprobe.eval_tasks.scoring.logged_once.LoggedOnce` references (every metric of a
    family task but the first holds one): they stand for the item they name.
    """
    from ..scoring.logged_once import unwrap

    return [{k: v for k, v in zip(ITEM_FIELDS, item) if v is not None or k not in _OPTIONAL_ITEM_FIELDS}
            for item in unwrap(items)]


def _by_family(records: Iterable[Record]) -> dict[str, dict[str, list[Record]]]:
    fams: dict[str, dict[str, list[Record]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        fams[r["family_id"]][r["role"]].append(r)
    return fams


def accuracy(records: Iterable[Record], role: str) -> float | None:
    """Mean correctness over the records of ``role`` (None when there are none)."""
    vals = [float(r["correct"]) for r in records if r["role"] == role]
    return fmean(vals) if vals else None


def relative_change(variant_acc: float | None, base_acc: float | None) -> float | None:
    """RVC = 100·(VA − base)/base, with base OA (RVC) or RA (RVC-R); None if base is 0/None."""
    if variant_acc is None or not base_acc:
        return None
    return 100.0 * (variant_acc - base_acc) / base_acc


def conditional_variant_accuracy(records: Iterable[Record], control: str = "original") -> float | None:
    """VA over variants of families whose ``control`` (original, or reconstruction for CVA-R) is correct."""
    vals = [float(v["correct"]) for fam in _by_family(records).values()
            if fam[control] and fam[control][0]["correct"] for v in fam["variant"]]
    return fmean(vals) if vals else None


def o_r_table(records: Iterable[Record]) -> dict[str, int]:
    """Counts of families by (original correct, reconstruction correct): O−R−, O−R+, O+R−, O+R+."""
    table = {"O-R-": 0, "O-R+": 0, "O+R-": 0, "O+R+": 0}
    for fam in _by_family(records).values():
        if fam["original"] and fam["reconstruction"]:
            o, r = fam["original"][0]["correct"], fam["reconstruction"][0]["correct"]
            table[f"O{'+' if o else '-'}R{'+' if r else '-'}"] += 1
    return table


def agreement(table: Mapping[str, int]) -> float | None:
    """OA–RA agreement: share of families where original and reconstruction agree."""
    n = sum(table.values())
    return (table["O-R-"] + table["O+R+"]) / n if n else None


def update_outcomes(records: Iterable[Record]) -> dict[str, float | int | None]:
    """CU / NU / SP rates over the variants of originally solved families (plus their count n)."""
    counts = {"CU": 0, "NU": 0, "SP": 0}
    for fam in _by_family(records).values():
        if not (fam["original"] and fam["original"][0]["correct"]):
            continue
        before = fam["original"][0]["normalized"]
        for v in fam["variant"]:
            outcome = "CU" if v["correct"] else ("SP" if v["normalized"] == before else "NU")
            counts[outcome] += 1
    n = sum(counts.values())
    return {**{k: (c / n if n else None) for k, c in counts.items()}, "n": n}


ROLES = ("original", "reconstruction", "variant")


def family_counts(records: Iterable[Record]) -> dict[str, float]:
    """Additive counts behind OA, RA, VA, CVA and CU/NU/SP: per role its rows (``n_<role>``) and correct
    rows (``ok_<role>``); per outcome (CU, NU, SP) the variants of originally solved families, and
    ``ok_solved`` their summed correctness (CVA's numerator). Every metric is a family-wise count, so
    the counts of disjoint sets of families add up (:func:`from_family_counts`): a bootstrap over
    families sums them per draw."""
    out = {f"{k}_{role}": 0.0 for role in ROLES for k in ("n", "ok")}
    out.update(dict.fromkeys(("CU", "NU", "SP", "ok_solved"), 0.0))
    for fam in _by_family(records).values():
        for role in ROLES:
            out[f"n_{role}"] += len(fam[role])
            out[f"ok_{role}"] += sum(float(r["correct"]) for r in fam[role])
        if fam["original"] and fam["original"][0]["correct"]:  # as conditional_variant_accuracy, update_outcomes
            before = fam["original"][0]["normalized"]
            for v in fam["variant"]:
                out["ok_solved"] += float(v["correct"])
                out["CU" if v["correct"] else ("SP" if v["normalized"] == before else "NU")] += 1
    return out


def from_family_counts(t: Mapping[str, float]) -> dict[str, float | None]:
    """OA, RA, VA, RVC, RVC_R, CVA, CU, NU and SP from :func:`family_counts` (summed), as the
    record-wise functions give them."""
    oa, ra, va = (t[f"ok_{role}"] / t[f"n_{role}"] if t[f"n_{role}"] else None for role in ROLES)
    solved = t["CU"] + t["NU"] + t["SP"]
    return {"OA": oa, "RA": ra, "VA": va, "RVC": relative_change(va, oa), "RVC_R": relative_change(va, ra),
            "CVA": t["ok_solved"] / solved if solved else None,
            **{k: t[k] / solved if solved else None for k in ("CU", "NU", "SP")}}


SIGN_FLIP_RESAMPLES = 9_999
"""Resamples of the sign-flip test (the paper's count), shared by lm-eval's ``rvc_p``, ``chartprobe
score`` and ``report`` so that they print one p-value."""
SIGN_FLIP_EXACT_MAX = 16
"""Up to this many clusters the test enumerates all 2^n sign patterns (65,536 at most, < 1 s): an exact
p-value, which a resampled one (floored at 1/(resamples + 1)) cannot give for small n."""


def _cluster_key(fam: Mapping[str, list[Record]], family_id: str, field: str | None) -> tuple[str, str]:
    """A family's cluster: its ``field`` value (source template) on any member, else the family itself."""
    if field is not None:
        for members in fam.values():
            for r in members:
                if r.get(field) is not None:
                    return ("cluster", str(r[field]))
    return ("family", family_id)


def sign_flip_test(records: Iterable[Record], n_resamples: int = SIGN_FLIP_RESAMPLES,
                   seed: int = 0, cluster: str | None = CLUSTER_FIELD,
                   exact_max: int = SIGN_FLIP_EXACT_MAX) -> float | None:
    """Two-sided paired sign-flip permutation p-value for OA→VA, clustered by source template.

    Per family d_f = (mean variant correctness) − (original correctness). Families of one
    source template (``cluster``, the row's ``source``) are draws of one generator and one
    question wording, so their d_f are not independent (the full release has 28 per template):
    the unit of resampling is the template. Per cluster c the *total* T_c = Σ_{f∈c} d_f gets one
    random sign, and the statistic is Σ_c s_c·T_c (the paper's over-families statistic with
    every family of a cluster flipped together). Totals, not cluster means, because with all
    signs +1 the statistic is N·(mean d_f), i.e. the same OA→VA change that RVC reports, with
    each template weighted by its number of families; flipping means would test an
    equal-weight-per-template average instead. Under H0 each T_c is symmetric about 0 and the
    clusters are independent; nothing is assumed about families within a cluster.

    Records without the field (or ``cluster=None``) count each family as its own cluster,
    which is the unclustered test over families. Exact for n ≤ ``SIGN_FLIP_EXACT_MAX``
    clusters (or when 2^n ≤ ``n_resamples``), so with 16 templates p can reach 2/2^16.
    ``exact_max`` lowers that bound where a resampled p is enough and 2^16 evaluations (~2 s) per
    call are not (the bootstrap stderr of ``rvc_p`` recomputes the test on every resample).
    """
    from scipy.stats import permutation_test

    totals: dict[tuple[str, str], float] = defaultdict(float)
    for fid, fam in _by_family(records).items():
        if fam["original"] and fam["variant"]:
            d = fmean(float(v["correct"]) for v in fam["variant"]) - float(fam["original"][0]["correct"])
            totals[_cluster_key(fam, fid, cluster)] += d
    if not totals:
        return None
    # Rounded: a cluster whose families cancel (+0.3, -0.3) must total exactly 0, not 5e-17.
    t = np.round(np.asarray(list(totals.values())), 9)
    if not t.any() or len(t) < 2:
        # One cluster: flipping its sign gives the same |sum|, so the exact two-sided p is 1
        # (scipy refuses a one-observation sample).
        return 1.0
    exact = 2 ** len(t) if len(t) <= exact_max else 0
    res = permutation_test((t,), lambda x, axis: np.sum(x, axis=axis), permutation_type="samples",
                           vectorized=True, alternative="two-sided", n_resamples=max(n_resamples, exact),
                           random_state=np.random.default_rng(seed))
    return float(res.pvalue)


def sign_flip_clusters(records: Iterable[Record], cluster: str | None = CLUSTER_FIELD) -> int:
    """How many clusters (source templates; families without one count alone) the test resamples."""
    return len({_cluster_key(fam, fid, cluster) for fid, fam in _by_family(records).items()
                if fam["original"] and fam["variant"]})


def stars(p: float | None) -> str:
    """Table 1's significance stars: * p<.05, ** p<.01, *** p<.001."""
    if p is None:
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def per_reasoning_type(records: Iterable[Record]) -> dict[str, dict[str, float | None]]:
    """OA, VA and CVA per reasoning type (§5.3, Table 15)."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        groups[r.get("reasoning_type") or "unknown"].append(r)
    return {t: {"OA": accuracy(rs, "original"), "VA": accuracy(rs, "variant"),
                "CVA": conditional_variant_accuracy(rs)} for t, rs in sorted(groups.items())}


def family_summary(records: Iterable[Record], n_resamples: int = SIGN_FLIP_RESAMPLES) -> dict[str, Any]:
    """Every family metric in one JSON-able dict (what ``chartprobe report`` prints)."""
    records = list(records)
    oa, ra, va = (accuracy(records, role) for role in ("original", "reconstruction", "variant"))
    table = o_r_table(records)
    p = sign_flip_test(records, n_resamples)
    return {"OA": oa, "RA": ra, "VA": va, "RVC": relative_change(va, oa), "RVC_p": p, "RVC_stars": stars(p),
            "RVC_R": relative_change(va, ra), "CVA": conditional_variant_accuracy(records),
            "CVA_R": conditional_variant_accuracy(records, "reconstruction"),
            "OA_RA_agreement": agreement(table), "O_R_table": table, **update_outcomes(records),
            "per_reasoning_type": per_reasoning_type(records), "families": len(_by_family(records)),
            "RVC_p_clusters": sign_flip_clusters(records),
            # Rows the typed scorer left unsure (a sentence gold it cannot decide; issue 42): counted
            # as not correct above and reported here, so --judge can resolve them.
            "unsure": sum(1 for r in records if r.get("unsure")),
            **{f"paper_{k}": paper_accuracy(records, role)
               for k, role in (("OA", "original"), ("RA", "reconstruction"), ("VA", "variant"))}}
