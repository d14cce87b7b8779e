"""The papers' released protocols as suites: ``chartprobe score`` rescores ``*_paper`` tasks with them.

A ``*_paper`` task asks the same rows as ours with a paper's released prompts, decoding and
parsing (``metadata.chartprobe_protocol: paper``). Its numbers used to be lm-eval's table only;
now ``score`` rescores its saved predictions with the released rules, under a suite of its own
named ``<release>_paper`` (``judge_paper``, ``families_paper``), so results, ``report`` (one more
row per model, named as such) and ``report --paper-tables`` read them, and they never pool with
our protocol's records of the same rows.

- ``judge_paper`` (ChartJudgeBench, ``CSU-JPG/ChartJudgeBench`` at 63ea244): CPA choices and CRJ
  verdicts by the released parsers; CPA's two-pass outcomes as ours; CRJ metrics over parsed
  verdicts only, unparsable ones reported apart (:mod:`..metrics.judge_paper`).
- ``families_paper`` (Chartographer, ``compling-wat/Chartographer`` at 1f02025c): the released
  extraction (the first ``<answer>`` block, else the whole response), scored by the typed scorer,
  or with ``--judge`` by the released COMPARE_ANSWER judge; the family metrics on top.

The registry maps a release to its paper suite; these suites are not in :data:`~. SUITES` (that one
lists releases, which ``validate`` and the agents iterate).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..metrics import judge as jm
from ..metrics import judge_paper as jp
from .families import FamiliesSuite, is_resolution_row
from .judge import ORDERS, JudgeSuite, _k

__all__ = ["PAPER_SUITES", "FamiliesPaperSuite", "JudgePaperSuite", "paper_suite", "paper_suite_named"]

Row = Mapping[str, Any]
PAPER_SUITES: dict[str, type] = {}
"""Release name -> the suite that scores its ``*_paper`` tasks."""


def paper_suite(release: str):
    """Register a class as the released-protocol suite of ``release`` (its ``name`` is ``<release>_paper``)."""
    def register(cls: type) -> type:
        cls.name = f"{release}_paper"
        PAPER_SUITES[release] = cls
        return cls
    return register


def paper_suite_named(name: str) -> type | None:
    """The paper suite class called ``name`` (``judge_paper``), if any."""
    return next((cls for cls in PAPER_SUITES.values() if cls.name == name), None)


@paper_suite("judge")
class JudgePaperSuite(JudgeSuite):
    """ChartJudgeBench under the released parsing and scoring rules."""

    def score_votes(self, row: Row, responses: Sequence[str]) -> dict[str, Any]:
        if "pair_id" in row:
            rec = {**jm.cpa_record(row, []), "choices": [jp.parse_choice_released(g) for g in responses]}
            return {**rec, "correct": jm.majority(rec["choices"], len(responses)) == dict(ORDERS)[row["order"]]}
        rec = {**jm.crj_record(row, []), "verdicts": [jp.parse_verdict_released(g) for g in responses]}
        verdict = jm.majority(rec["verdicts"], len(responses))
        return {**rec, "crj_task": row.get("task"), "correct": verdict == str(rec["label"]).lower()}

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        cpa = [r for r in records if "pair_id" in r]
        out: dict[str, Any] = {"n": len(records), "protocol": "paper"}
        if cpa:
            out["cpa"] = jm.cpa_summary(cpa, _k(cpa))
        for task in sorted({r.get("crj_task") for r in records if "item_id" in r}):
            crj = [r for r in records if r.get("crj_task") == task]
            out[f"crj_{task}"] = jp.crj_paper_metrics(crj, _k(crj))
        return out

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        records = list(records)
        if task.config == "cpa":
            s = jm.cpa_summary(records, _k(records))
            flat = {key: v for key, v in s.items() if isinstance(v, float)}
            flat.update({f"acc_{key}": v for key, v in {**s["per_criterion"], **s["per_dimension"]}.items()})
            return flat
        m = jp.crj_paper_metrics(records, _k(records))
        return {key: m[key] for key in ("accuracy", "precision", "recall", "specificity", "f1", "accept_rate",
                                        "parse_fail_rate")}

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> None:
        """None: the released CRJ metrics are not our additive confusion counts; draws recompute."""
        return


@paper_suite("families")
class FamiliesPaperSuite(FamiliesSuite):
    """Chartographer under the released answer extraction (and, with ``--judge``, the released judge)."""

    def score(self, row: Row, prediction: str, judge: Any = None) -> dict[str, Any]:
        from ..metrics import families as fm

        record = fm.score_family_record(row, prediction, judge, released=True)
        if "scale" in row:
            record["scale"] = row["scale"]
        record["resolution"] = is_resolution_row(row)
        record["group"] = row.get("group")
        return record
