"""The ChartJudgeBench suite: CPA chart pairs and CRJ accept/reject items (``chartprobe-judge``).

Scoring and summaries come from :mod:`chartprobe.eval_tasks.metrics.judge`. CPA documents are built the
way ``judge_utils.load_cpa`` builds them — every pair twice, better chart first (gold A) then
worse chart first (gold B) — so agents answer exactly what a model is asked. The oracle is
the construction record: the better chart is the unflawed spec (its flaw was verified on the
renders when the pair was made) and a CRJ item is Accept exactly when its candidate carries
no injected failure. Beyond the shared checks: the first-position agent must get zero
two-pass accuracy, the always-accept agent zero specificity, and CRJ classes must be
balanced (45–55% Accept).

``judge_paper`` (:class:`JudgePaperSuite`) rescores the ``chartprobe_judge_*_paper`` tasks with the
released parsers and CRJ metrics (CSU-JPG/ChartJudgeBench @ 63ea244: :mod:`..metrics.judge_paper`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from chartprobe.dataset_builders.judge.balance import balance_limits

from ..metrics import judge as jm
from ..metrics import judge_paper as jp
from ..scoring.voting import VOTE_KS, votes
from . import paper_suite, suite
from ._base import Check, RunSet, Suite
from ._verdict import verdict

Row = Mapping[str, Any]
ORDERS = (("better_first", "A"), ("worse_first", "B"))


def _crj_correct(record: Mapping[str, Any]) -> bool:
    """The verdict (the majority of a voted record's samples) is the label."""
    return jm.majority(list(record["verdicts"]), len(record["verdicts"])) == str(record["label"]).lower()


def _k(records: Sequence[Mapping[str, Any]]) -> int:
    """The K a run votes over: every sample its records have (1 without repeats)."""
    return votes(records, "choices" if records and "pair_id" in records[0] else "verdicts")


def _curve(records: list[Mapping[str, Any]], task: str) -> dict[str, dict[str, Any]]:
    """The voting curve (§4.5) of a repeated run: its metrics voting over the first K samples."""
    return {str(k): v for k, v in jm.voting_curve(records, task, VOTE_KS).items()}


@suite("judge")
class JudgeSuite(Suite):
    """CPA two-pass metrics and CRJ accept/reject metrics (ChartJudgeBench §4, Table 2)."""

    def documents(self, config: str, rows: Sequence[Row]) -> list[Row]:
        if config != "cpa":
            return list(rows)
        return [{**r, "order": order, "answer": gold, "answer_type": "choice",
                 "id": f"{r['pair_id']}-{order}"} for r in rows for order, gold in ORDERS]

    def doc_key(self, doc: Row) -> str:
        # lm-eval logs CPA documents as the loader builds them: pair_id + order, no row id.
        if "pair_id" in doc and "order" in doc:
            return f"{doc['pair_id']}-{doc['order']}"
        return super().doc_key(doc)

    def presented_images(self, doc: Row) -> list[str]:
        """Image A then image B, as the model is shown them (never "better" then "worse")."""
        if "pair_id" in doc and "order" in doc:
            return ["image_better", "image_worse"] if doc["order"] == "better_first" else ["image_worse", "image_better"]
        return ["image_reference", "image_candidate"]

    def size_is_evidence(self, row: Row) -> bool:
        """An aspect-ratio pair's flaw is the figure's shape: its size is the evidence, not a leak."""
        return row.get("criterion") == "aspect_ratio"

    def pixels_are_evidence(self, row: Row) -> bool:
        """Beside the shape, a CPA pair whose flaw is the whole picture's look (every mark faint,
        thin, heavy or light: ``Strategy.whole_picture``): ink and saturation are that look."""
        if self.size_is_evidence(row):
            return True
        from chartprobe.dataset_builders.judge.flaws import FLAWS

        if "pair_id" not in row or row.get("criterion") not in FLAWS:
            return False
        return any(st.whole_picture for st in FLAWS.get(row["criterion"]).strategies if st.name == row.get("strategy"))

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        return self.score_votes(row, [prediction])

    def score_votes(self, row: Row, responses: Sequence[str]) -> dict[str, Any]:
        """Every response's parsed label in one record (what lm-eval's judge hooks keep), correct
        when the majority label is the gold one (a tie is no verdict: ChartJudgeBench §4.5)."""
        if "pair_id" in row:
            rec = jm.cpa_record(row, list(responses))
            return {**rec, "correct": jm.majority(rec["choices"], len(responses)) == dict(ORDERS)[row["order"]]}
        rec = jm.crj_record(row, list(responses))
        # "crj_task", not "task": results files use "task" for the lm-eval task name.
        return {**rec, "crj_task": row.get("task"), "correct": _crj_correct(rec)}

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        cpa = [r for r in records if "pair_id" in r]
        out: dict[str, Any] = {"n": len(records)}
        if cpa:
            out["cpa"] = jm.cpa_summary(cpa, _k(cpa))
            if _k(cpa) > 1:
                out["cpa"]["voting"] = _curve(cpa, "cpa")
        for task in sorted({r.get("crj_task") for r in records if "item_id" in r}):
            crj = [r for r in records if r.get("crj_task") == task]
            out[f"crj_{task}"] = jm.crj_metrics(crj, _k(crj))
            if _k(crj) > 1:
                out[f"crj_{task}"]["voting"] = _curve(crj, "crj")
        return out

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        records = list(records)
        k = _k(records)
        curve = jm.voting_curve(records, "cpa" if task.config == "cpa" else "crj", VOTE_KS) if k > 1 else {}
        if task.config == "cpa":
            s = jm.cpa_summary(records, k)
            flat = {key: v for key, v in s.items() if isinstance(v, float)}
            flat.update({f"acc_{key}": v for key, v in {**s["per_criterion"], **s["per_dimension"]}.items()})
            flat.update({f"two_pass_accuracy_k{n}": c["two_pass_accuracy"] for n, c in curve.items()})
            return flat
        m = jm.crj_metrics(records, k)
        out = {key: m[key] for key in ("accuracy", "precision", "recall", "specificity", "f1", "accept_rate",
                                       "parse_fail_rate")}
        out.update({f"{name}_k{n}": c[name] for name in ("accuracy", "f1") for n, c in curve.items()})
        return out

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        out = {"CPA two-pass": (summary.get("cpa") or {}).get("two_pass_accuracy")}
        for key, label in (("crj_reproduction", "CRJ repro F1"), ("crj_editing", "CRJ edit F1")):
            out[label] = (summary.get(key) or {}).get("f1")
        return out

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[tuple, float]:
        # Counts per K a draw may vote over: a draw votes over the fewest samples any of its records
        # has (_k), so each unit also counts itself under its own fewest (("cpa_k", K) = 1).
        out: dict[tuple, float] = {}
        cpa = [r for r in unit_records if "pair_id" in r]
        if cpa:
            own = min(len(r["choices"]) for r in cpa)
            out[("cpa_rows",)], out[("cpa_k", own)] = float(len(cpa)), 1.0
            for k in range(1, max(own, 1) + 1):
                out[("cpa_pairs", k)], out[("cpa_correct", k)] = map(float, jm.cpa_pair_counts(cpa, k))
        for r in unit_records:
            if "item_id" in r and r.get("crj_task") is not None:  # the tasks the headline can name
                out[("crj_items", r["crj_task"])] = out.get(("crj_items", r["crj_task"]), 0.0) + 1
        for _, task in [key for key in out if key[0] == "crj_items"]:
            crj = [r for r in unit_records if r.get("crj_task") == task]
            own = min(len(r["verdicts"]) for r in crj)
            out[("crj_k", task, own)] = 1.0
            for k in range(1, max(own, 1) + 1):
                out.update({("crj", task, k, c): float(v) for c, v in jm.crj_confusion(crj, k).items()})
        return out

    def headline_from_stats(self, totals: Mapping[tuple, float]) -> dict[str, float | None]:
        def k_of(*prefix: Any) -> int:  # voting.votes: the fewest samples of a record, 1 for none
            n = len(prefix)
            return min(key[n] for key, v in totals.items() if v and key[:n] == prefix) or 1

        summary: dict[str, Any] = {}
        if totals.get(("cpa_rows",)):
            k = k_of("cpa_k")
            pairs = totals[("cpa_pairs", k)]
            summary["cpa"] = {"two_pass_accuracy": totals[("cpa_correct", k)] / pairs if pairs else float("nan")}
        for key, v in totals.items():
            if key[0] == "crj_items" and v:
                k = k_of("crj_k", key[1])
                confusion = {c: int(totals[("crj", key[1], k, c)]) for c in ("tp", "fp", "tn", "fn")}
                summary[f"crj_{key[1]}"] = jm.crj_metrics(confusion=confusion)
        return self.headline(summary)

    def oracle(self, row: Row) -> str | None:
        if "pair_id" in row:
            return dict(ORDERS)[row["order"]]
        return "Accept" if row["failure"] == "none" else "Reject"

    def closed_answers(self, row: Row) -> tuple[str, ...] | None:
        return ("A", "B") if "pair_id" in row else ("Accept", "Reject")

    def group_key(self, row: Row) -> str:
        return str(row.get("criterion") or row.get("task") or row.get("answer_type"))

    def order_key(self, row: Row) -> tuple[str, ...]:
        """CPA: criterion, then flaw strategy; CRJ: Accept/Reject in turn, then the injected failure
        (``group_key`` is one value per CRJ task: it feeds the blind agent, which must not see labels)."""
        if "pair_id" in row:
            return (str(row.get("criterion")), str(row.get("strategy")))
        return (str(row.get("label")), str(row.get("failure")))

    def order_unit(self, doc: Row) -> str | None:
        """A CPA pair: its two orders are one unit, so ``--limit 2n`` keeps ``n`` whole pairs."""
        return str(doc["pair_id"]) if "pair_id" in doc else None

    def checks(self, runs: RunSet) -> list[Check]:
        out = super().checks(runs)
        for run in runs.by_agent("first_position"):
            if run.config == "cpa":
                s = jm.cpa_summary(run.records)
                out.append(verdict("first-position two-pass accuracy", f"cpa/{run.split}", "first_position",
                                   s["two_pass_accuracy"], s["n_pairs"], op="=", limit=0.0))
                out.append(verdict("first-position bias-A rate", f"cpa/{run.split}", "first_position",
                                   s["bias_a_rate"], s["n_pairs"], op="=", limit=1.0))
        for run in runs.by_agent("always_accept"):
            if not run.records:  # CPA pairs have no accept/reject verdict to give
                continue
            m = jm.crj_metrics(run.records)
            out.append(verdict("always-accept specificity", f"{run.config}/{run.split}", "always_accept",
                               m["specificity"], m["n"], op="=", limit=0.0))
        for (config, split), rows in sorted(runs.rows.items()):
            if config != "cpa" and rows:
                share = fmean(str(r["label"]) == "Accept" for r in rows)
                out.append(verdict("CRJ Accept share (class balance)", f"{config}/{split}", "-", share, len(rows),
                                   op="in", limit=balance_limits(len(rows)), percent=True))
        return out

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """CPA accuracy per criterion / dimension / chart kind (x model) and the judge metrics per model."""
        from . import _plots as rp

        out: list[Path] = []
        cpa = {m: p.get("cpa") or {} for m, p in profiles.items()}
        groups = [rp.panel(title, {m: c.get(key, {}) for m, c in cpa.items()}, transpose=True)
                  for key, title in (("per_criterion", "flaw criterion"), ("per_dimension", "dimension"),
                                     ("per_chart_kind", "chart kind"))]
        if any(g.rows for g in groups):
            out += rp.heatmaps([c for g in groups for c in rp.chunk(g)], folder / "judge_cpa_per_criterion.png",
                               "CPA two-pass accuracy by criterion, dimension and chart kind", "accuracy (0–1)")
        rates = [rp.panel("CPA", {m: {k: c.get(k) for k in ("two_pass_accuracy", "one_pass_accuracy", "bias_a_rate",
                                                              "bias_b_rate", "consistent_wrong_rate", "parse_fail_rate")}
                                  for m, c in cpa.items() if c})]
        for task in sorted({k for p in profiles.values() for k in p if k.startswith("crj_")}):
            rates.append(rp.panel(f"CRJ {task[4:]}", {
                m: {k: (p.get(task) or {}).get(k) for k in ("accuracy", "precision", "recall", "specificity", "f1",
                                                            "accept_rate")} for m, p in profiles.items() if p.get(task)}))
        out += rp.heatmaps(rates, folder / "judge_metrics.png", "Judge metrics per model", "accuracy / rate (0–1)")
        return out


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
