"""The Chartographer suite: counterfactual chart-question families (``chartprobe-families``).

Scoring and summaries come from :mod:`chartprobe.eval_tasks.metrics.families` (OA, RA, VA, RVC, CVA,
CU/NU/SP, sign-flip test); task metrics mirror ``families_utils``' aggregations. The oracle
re-runs the source template's ``generate_answer`` on each row's stored spec. Beyond the
shared checks, the *stale* agent — every member answered with the original's gold answer —
must not generalize: its CVA is the share of variants whose answer did not change, and like
every shortcut agent it may not beat chance on those variants (per template the higher of the
majority and the uniform answer-space score) by more than 5 points (one-sided 95% bound,
clustered by family), or the family cannot tell updating from memorizing. Regimes never force
an answer to change (Chartographer A.4), so a source with four possible answers keeps about a
quarter of them; a fixed cap would demand the forcing back.

Imported rows (the paper's released families, ``chartprobe build families --released``: ``data_source``
``chartographer:...``) carry no spec: their oracle is the released gold itself, which checks the
import and its answer typing. Summaries also break the family metrics down by ``group`` (source
template group, or the released families' source benchmark: the columns of the paper's Table 1).

``families_paper`` (:class:`FamiliesPaperSuite`) rescores ``chartprobe_families_paper``: the released
extraction (the first ``<answer>`` block, else the whole response; compling-wat/Chartographer @
1f02025c), typed or, with ``--judge``, by the released COMPARE_ANSWER judge; the same metrics on top.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from ..metrics import families as fm
from . import paper_suite, suite
from ._base import Check, RunSet, Suite

Row = Mapping[str, Any]

IMPORTED_PREFIX = "chartographer:"
"""``data_source`` of a row imported from the released families (``dataset_builders/families/released_rows.py``)."""

BINARY_LIMIT = 0.65
"""On a source with two possible answers, neither "repeat the original" (stale) nor "the other
one" (anti-stale) may pass more than 65% of its variants: regimes must not force the flip."""


def is_resolution_row(row: Row) -> bool:
    """A row of the ``resolution`` config: the reconstruction rescaled, id ``<family>-reconstruction-<pct>``
    (``dataset_builders/families/builder.py``), as opposed to the family's own ``<family>-reconstruction``."""
    return str(row.get("id", "")).startswith(f"{row.get('family_id')}-reconstruction-")


@suite("families")
class FamiliesSuite(Suite):
    """Family metrics per §3.4 / A.8 of the Chartographer paper."""

    def score(self, row: Row, prediction: str, judge: Any = None) -> dict[str, Any]:
        """The typed record, or with ``judge`` the LLM judge's (``chartprobe score --judge``:
        :mod:`chartprobe.eval_tasks.answer_judge.scoring_pass`)."""
        record = fm.score_family_record(row, prediction, judge)
        if "scale" in row:  # the resolution config reports accuracy per scale
            record["scale"] = row["scale"]
        record["resolution"] = is_resolution_row(row)
        record["group"] = row.get("group")
        return record

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Family metrics over the families' own members: the resolution ablation's rescaled
        reconstructions are rows of the same families but not extra reconstructions."""
        members = [r for r in records if not r.get("resolution")]
        summary = {**fm.family_summary(members), "n": len(members), "per_group": self._per_group(members)}
        verdicts = [r["judge_verdict"] for r in records if "judge_verdict" in r]
        if verdicts:  # judge-scored: unparsable verdicts counted wrong, and counted here
            summary["judge_parse_fail"] = verdicts.count("unparsable")
        return summary

    @staticmethod
    def _per_group(records: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
        """OA, RA, VA, RVC (and its sign-flip p), CVA and CU/NU/SP per ``group`` (records without one: none)."""
        groups: dict[str, list[Mapping[str, Any]]] = {}
        for r in records:
            if r.get("group"):
                groups.setdefault(str(r["group"]), []).append(r)
        keys = ("OA", "RA", "VA", "RVC", "RVC_p", "RVC_stars", "CVA", "CU", "NU", "SP", "families")
        out = {}
        for group, rs in sorted(groups.items()):
            summary = fm.family_summary(rs)
            out[group] = {k: summary[k] for k in keys}
        return out

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        if task.config == "resolution":
            return {f"acc_{s}": self._scale_accuracy(records, s / 100) for s in (100, 75, 50)}
        outcomes = fm.update_outcomes(records)
        rvc = fm.relative_change(fm.accuracy(records, "variant"), fm.accuracy(records, "original"))
        return {"oa": fm.accuracy(records, "original"), "ra": fm.accuracy(records, "reconstruction"),
                "va": fm.accuracy(records, "variant"), "rvc": rvc,
                "cva": fm.conditional_variant_accuracy(records),
                "cu": outcomes["CU"], "nu": outcomes["NU"], "sp": outcomes["SP"]}

    @staticmethod
    def _scale_accuracy(records: Sequence[Mapping[str, Any]], scale: float) -> float | None:
        vals = [float(r["correct"]) for r in records if abs(float(r["scale"]) - scale) < 1e-6]
        return fmean(vals) if vals else None

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        # RVC is a percentage: its column says so, and the 0-1 overview leaves it out.
        return {("RVC (%)" if key == "RVC" else key): summary.get(key) for key in ("OA", "RA", "VA", "RVC", "CVA", "SP")}

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[str, float]:
        # the unit is a family (a drawn copy is another family): its role and outcome counts
        return fm.family_counts(r for r in unit_records if not r.get("resolution"))

    def headline_from_stats(self, totals: Mapping[str, float]) -> dict[str, float | None]:
        return self.headline(fm.from_family_counts(totals))

    def oracle(self, row: Row) -> str | None:
        if str(row.get("data_source", "")).startswith(IMPORTED_PREFIX):  # no spec: the released gold
            return str(row["answer"])
        from chartprobe.dataset_builders.core.spec import ChartSpec
        from chartprobe.dataset_builders.families.source import FAMILY_SOURCES

        source = FAMILY_SOURCES.get(row["source"])()
        return source.answer(ChartSpec.from_json(row["spec"]), json.loads(row["qa_params"]))

    def reanswer(self, row: Row, spec_json: str) -> str | None:
        if str(row.get("data_source", "")).startswith(IMPORTED_PREFIX):
            return None
        from chartprobe.dataset_builders.core.spec import ChartSpec, SpecError
        from chartprobe.dataset_builders.families.source import FAMILY_SOURCES

        try:
            return FAMILY_SOURCES.get(row["source"])().answer(ChartSpec.from_json(spec_json),
                                                               json.loads(row["qa_params"]))
        except (SpecError, ValueError, KeyError, IndexError, ZeroDivisionError):
            return None

    def claims_visual(self, row: Row) -> bool:
        """ChartMuseum's ``visual`` reasoning type: answerable from the marks, not printed text."""
        return row.get("reasoning_type") == "visual"

    def group_key(self, row: Row) -> str:
        return str(row.get("source") or row.get("answer_type"))

    def checks(self, runs: RunSet) -> list[Check]:
        return super().checks(runs) + self._stale_checks(runs) + self._binary_checks(runs)

    def _stale_checks(self, runs: RunSet) -> list[Check]:
        """The stale agent's CVA against chance on the same variants (``_shortcuts``' rule)."""
        from ._checks import _gap_bound
        from ._shortcuts import SHORTCUT_MARGIN, _chance, chance_levels
        from ._verdict import verdict

        out = []
        for run in runs.by_agent("stale"):
            pairs = [(row, rec) for row, rec in zip(run.rows, run.records) if row.get("role") == "variant"]
            if not pairs:  # `resolution` has no variants: nothing stale to measure
                continue
            rows = [row for row, _ in pairs]
            chance = _chance(self, rows, *chance_levels(self, runs, run.config, run.split))
            # A template whose rows all share one answer has no answer space to guess in: its
            # "chance" of 1 is the shortcut itself (variants that never change), so it counts as 0.
            golds: dict[str, set[str]] = {}
            for row in run.rows:
                golds.setdefault(self.group_key(row), set()).add(str(row["answer"]))
            chance = [c if len(golds[self.group_key(r)]) > 1 else 0.0 for r, c in zip(rows, chance)]
            acc = [self.accuracy(rec) for _, rec in pairs]
            gap, bound = _gap_bound(acc, chance, [self.unit_key(r) for r in rows])
            out.append(verdict("stale-agent CVA (unchanged variants)", run.config, "stale",
                               fm.conditional_variant_accuracy(run.records), len(acc), op="<=",
                               limit=SHORTCUT_MARGIN, signed=True, tested=bound,
                               statistic="gap over chance, 95% lower bound",
                               note=f"chance {fmean(chance):.3f}, gap {gap:+.3f}"))
        return out

    @staticmethod
    def _binary_checks(runs: RunSet) -> list[Check]:
        """Per two-answer source, stale and anti-stale accuracy on its variants <= 0.65 (Wilson)."""
        from ._checks import share_check

        answers: dict[tuple[str, str], set[str]] = {}  # every variant gold, answered or not
        for (config, _), rows in runs.rows.items():
            for row in rows:
                if row.get("role") == "variant":
                    answers.setdefault((config, str(row["source"])), set()).add(str(row["answer"]))
        out = []
        for agent in ("stale", "anti_stale"):
            cells: dict[tuple[str, str], list[bool]] = {}
            for run in runs.by_agent(agent):
                for row, rec in zip(run.rows, run.records):
                    if row.get("role") == "variant":
                        cells.setdefault((run.config, str(row["source"])), []).append(bool(rec["correct"]))
            for (config, source), hits in sorted(cells.items()):
                if len(answers[(config, source)]) == 2:
                    out.append(share_check(f"{agent} accuracy on a two-answer source", f"{config}:{source}",
                                           agent, sum(hits), len(hits), BINARY_LIMIT))
        return out

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """Accuracies (0-1 heatmap), update outcomes (shares), RVC (%) and per-type OA/VA/CVA."""
        from . import _bars as rb
        from . import _plots as rp

        accs = {m: {k: p.get(k) for k in ("OA", "RA", "VA", "CVA", "CVA_R")} for m, p in profiles.items()}
        outcomes = {m: {f"{k} ({name})": p.get(k) for k, name in (("CU", "correct"), ("NU", "noisy"), ("SP", "stale"))}
                    for m, p in profiles.items()}
        rvc = {m: {"RVC (vs OA)": p.get("RVC"), "RVC-R (vs RA)": p.get("RVC_R")} for m, p in profiles.items()}
        types = [rp.panel(key, {m: {t: v.get(key) for t, v in (p.get("per_reasoning_type") or {}).items()}
                                for m, p in profiles.items()}, transpose=True) for key in ("OA", "VA", "CVA")]
        return [*rp.heatmaps([rp.panel("families", accs)], folder / "families_accuracy.png",
                             "Family accuracy: original, reconstruction, variants, conditional",
                             "accuracy (0–1)"),
                *rb.stacked_shares(outcomes, folder / "families_update_outcomes.png",
                                   "Variant updates of originally solved families",
                                   "share of those variants (0–1)"),
                *rb.percent_bars(rvc, folder / "families_rvc.png", "Relative variant change",
                                 "relative change of variant accuracy (%)"),
                *rp.heatmaps(types, folder / "families_reasoning_type.png",
                             "Accuracy per reasoning type (rows) and model (columns)", "accuracy (0–1)")]


@paper_suite("families")
class FamiliesPaperSuite(FamiliesSuite):
    """Chartographer under the released answer extraction (and, with ``--judge``, the released judge)."""

    def score(self, row: Row, prediction: str, judge: Any = None) -> dict[str, Any]:
        record = fm.score_family_record(row, prediction, judge, released=True)
        if "scale" in row:
            record["scale"] = row["scale"]
        record["resolution"] = is_resolution_row(row)
        record["group"] = row.get("group")
        return record
