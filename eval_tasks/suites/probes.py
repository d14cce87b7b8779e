"""The ChartProbe suite: probes per skill and held-out complex reasoning (``chartprobe-probes``).

Scoring and summaries come from :mod:`chartprobe.eval_tasks.metrics.probes`; the oracle re-runs each
row's recorded program on its stored spec (re-rendering only for bounding boxes). Besides
the shared checks, pie probes carry a box legend in data order, so the legend-order
shortcut (LegendBench §6.2) gets its own check: answering rank/identity questions from the
legend must not pass them.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from ..metrics import probes as pm
from ..metrics.probes_cells import headline_sums, headline_sums_matrix, suite_summary, summary_from_sums
from ..metrics.style_shift import style_shift_summary
from ..scoring.typed import score_doc
from . import suite
from ._base import Check, RunSet, Suite

Row = Mapping[str, Any]

TREND_ANSWERS = ("increasing", "decreasing", "fluctuating")
"""The closed label set of the ``trend`` program op (P-TREND-PATTERN)."""
MAX_LIST_SPACE = 64
"""A list guesser draws among the gold-sized subsets of the categories when there are at most
this many (top-3 of 7 = 35); beyond that it names one category."""
LEGEND_ORDER_LIMIT = 0.5
"""Legend-order answers may not pass more than half of the rank/identity probes they answer."""


def _scene_vocab() -> dict[str, tuple[str, ...]]:
    from chartprobe.dataset_builders.core.scenes.spec import COLORS, FILLS, SHAPES, SIZES

    return {"shape": tuple(SHAPES), "color": tuple(COLORS), "size": tuple(SIZES), "fill": tuple(FILLS)}


def _template_flag(row: Row, flag: str) -> bool:
    """A class flag of the row's template (False for a template this build does not know)."""
    from chartprobe.dataset_builders.probes.templates import TEMPLATES

    TEMPLATES.load()
    name = row.get("template_id")
    return bool(name in TEMPLATES and getattr(TEMPLATES.get(name), flag, False))


def _program(row: Row) -> dict[str, Any]:
    """The row's answer program as a dict (shared between rows with the same program: read only)."""
    return _parsed_program(row.get("program") or "{}")


@functools.lru_cache(maxsize=1 << 16)
def _parsed_program(text: Any) -> dict[str, Any]:
    # Read for every row by group_key, closed_answers and answer_space, many times per validate.
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return {}


def _mean(values: list[float]) -> float | None:
    return fmean(values) if values else None


@suite("probes")
class ProbesSuite(Suite):
    """Per-skill accuracy (P, G, SR), CR fuzzy accuracy, per-domain profiles."""

    def accuracy(self, record: Mapping[str, Any]) -> float:
        return float(record["accuracy"])

    def score_key(self, row: Row) -> Any:
        """What ``score_record``'s accuracy reads: the gold, its type, vocabulary and tolerance."""
        return (str(row.get("answer", "")), row.get("answer_type"), row.get("answer_aliases") or None,
                row.get("tolerance") or None)

    def score_accuracy(self, row: Row, prediction: str) -> float:
        # score_record's accuracy without its list F1 and fuzzy ratio (a quarter of its time)
        s = score_doc(row, prediction)
        return pm.item_accuracy(row["answer_type"], s.score, s.correct)

    def score(self, row: Row, prediction: str) -> dict[str, Any]:
        rec = pm.score_record(row, prediction)
        if row.get("style"):  # style_shift rows: which drawing was asked (metrics/style_shift.py)
            rec["style"] = row["style"]
        return rec

    def summarize(self, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        # pm.probe_summary plus per-domain skill macros and means, read from cells in one pass
        # (tests/test_probes_macro.py holds it to the record-wise functions).
        records = list(records)
        out = suite_summary(records)
        shift = style_shift_summary(records)
        if shift is not None:
            out["style_shift"] = shift
        return out

    def answer_unit(self, row: Row) -> str | None:
        """A style-shift row asks its chart's question once, however many drawings show it."""
        if row.get("style"):
            return f"{row.get('chart_id')}:{row.get('template_id')}"
        return super().answer_unit(row)

    def task_metrics(self, task: Any, records: Sequence[Mapping[str, Any]]) -> dict[str, float | None]:
        # Mirrors eval_tasks/harness/tasks/probes_utils.py: process_probe / process_cr, the headline metrics
        # macro over templates (pm.template_macro), the *_micro ones pooled over documents.
        fails = _mean([float(r["parse_failed"]) for r in records])
        cr = task.config.startswith("cr_")
        macro = pm.template_macros(records, ("accuracy", "fuzzy") if cr else ("accuracy", "paper_accuracy"))
        acc = {"accuracy": macro["accuracy"], "accuracy_micro": _mean([float(r["accuracy"]) for r in records])}
        if cr:
            return {"fuzzy": macro["fuzzy"], "fuzzy_micro": _mean([float(r["fuzzy"]) for r in records if "fuzzy" in r]),
                    **acc, "parse_fail_rate": fails}
        if task.config.startswith("style_shift_"):  # probes_utils.process_style
            shift = style_shift_summary(records, iters=0) or {}
            return {**acc, "style_gap": shift.get("worst_style_gap"), "style_consistency": shift.get("consistency"),
                    "parse_fail_rate": fails}
        return {**acc, "paper_accuracy": macro["paper_accuracy"], "parse_fail_rate": fails}

    def headline(self, summary: Mapping[str, Any]) -> dict[str, float | None]:
        # macro over templates (headline) and pooled over items (micro), side by side
        out = {f"{k} acc": v for k, v in summary.get("per_skill", {}).items()}
        out.update({f"{k} acc (micro)": v for k, v in summary.get("per_skill_micro", {}).items()})
        out["CR fuzzy"] = summary.get("cr_fuzzy")
        out["CR fuzzy (micro)"] = summary.get("cr_fuzzy_micro")
        out["parse fail"] = summary.get("parse_failure_rate")
        return out

    def headline_stats(self, unit_records: Sequence[Mapping[str, Any]]) -> dict[tuple, float]:
        # per-cell sums and counts: the template macros, micros and rates are ratios of them
        return headline_sums(unit_records)

    def headline_stats_matrix(self, units: Sequence[Sequence[Mapping[str, Any]]]) -> tuple[list[tuple], Any]:
        return headline_sums_matrix(units)

    def headline_from_stats(self, totals: Mapping[tuple, float]) -> dict[str, float | None]:
        return self.headline(summary_from_sums(totals))

    def oracle(self, row: Row) -> str | None:
        from chartprobe.dataset_builders.probes.program import answer_row

        return answer_row(row)

    def reanswer(self, row: Row, spec_json: str) -> str | None:
        from chartprobe.dataset_builders.core.programs import Program, answer_of
        from chartprobe.dataset_builders.core.spec import SpecError
        from chartprobe.dataset_builders.probes.domains import PROBE_DOMAINS
        from chartprobe.dataset_builders.probes.templates import TEMPLATES

        if row["answer_type"] == "bbox":  # a box needs a render, not a recomputation
            return None
        TEMPLATES.load()
        domain = PROBE_DOMAINS[row["domain"]]
        try:
            view = domain.view(domain.spec_from_json(spec_json), {})
            return answer_of(Program.from_json(row["program"]), view, row["answer_type"])
        except (SpecError, ValueError, KeyError, ZeroDivisionError):
            return None  # the changed spec is not a valid chart of this domain

    def claims_visual(self, row: Row) -> bool:
        """Perception probes: "judge only the bar heights", never read a value or a name."""
        return row.get("skill") == "perception"

    def value_free(self, row: Row) -> bool:
        """The row's template says its answer ignores the values (``Template.value_free``)."""
        return _template_flag(row, "value_free")

    def pixels_are_evidence(self, row: Row) -> bool:
        """The row's template asks about the whole picture's geometry (``Template.whole_picture``)."""
        return _template_flag(row, "whole_picture")

    def group_key(self, row: Row) -> str:
        """Template, split by the scene attribute asked about when there is one: "which fill is
        most common?" and "which colour..." are one template but different answer sets, and
        the question naming the attribute is not a leak."""
        attr = _program(row).get("args", {}).get("attr")
        return f"{row.get('template_id')}/{attr}" if attr else str(row.get("template_id"))

    def order_key(self, row: Row) -> tuple[str, ...]:
        """Template first, then its attribute: a template asked about four attributes takes one
        turn, not four, so a limit of #templates still reaches every template."""
        return (str(row.get("template_id")), self.group_key(row))

    def closed_answers(self, row: Row) -> tuple[str, ...] | None:
        if _program(row).get("op") == "trend":
            return TREND_ANSWERS
        return super().closed_answers(row)

    def answer_space(self, row: Row, pool: Sequence[str]) -> Sequence[str]:
        closed = self.closed_answers(row)
        if closed:
            return closed
        spec = json.loads(row.get("spec") or "{}")
        categories = [str(c) for c in (spec.get("data") or {}).get("categories", [])]
        kind = row["answer_type"]
        if kind in ("integer", "count"):  # positions, ranks and counts never exceed the marks
            return [str(i) for i in range(int(row.get("n_marks") or len(categories) or 1) + 1)]
        if kind in ("label", "year") and str(row["answer"]) in categories:  # a year-labelled bar is a category
            return categories
        attr = _program(row).get("args", {}).get("attr")
        if kind == "label" and attr in _scene_vocab():
            return _scene_vocab()[attr]
        if kind == "list" and categories:  # a guesser names as many categories as the gold has
            k = max(1, len(json.loads(str(row["answer"]) or "[]")))
            if math.comb(len(categories), k) <= MAX_LIST_SPACE:
                return [json.dumps(list(c), ensure_ascii=False) for c in itertools.combinations(categories, k)]
            return [json.dumps([c], ensure_ascii=False) for c in categories]
        return sorted(set(pool)) or [str(row["answer"])]

    def checks(self, runs: RunSet) -> list[Check]:
        from ._checks import share_check

        out = super().checks(runs)
        # A question counts once however many drawings show it (``answer_unit``: a style-shift
        # chart's question in six styles), scored by its mean over them: one pie whose legend
        # happened to run in wedge order, drawn six ways, read as 12 of 12 rows (seed 5).
        pooled: dict[str, dict[Any, list[float]]] = {}
        for run in runs.by_agent("legend_order"):
            units = pooled.setdefault(run.config, {})
            for i, (row, rec) in enumerate(zip(run.rows, run.records)):
                unit = self.answer_unit(row)
                units.setdefault((run.split, i) if unit is None else unit, []).append(self.accuracy(rec))
        for config, units in sorted(pooled.items()):
            hits = sum(fmean(accs) for accs in units.values())
            out.append(share_check("legend-order shortcut accuracy", config, "legend_order",
                                   hits, len(units), LEGEND_ORDER_LIMIT))
        return out + self._order_checks(runs)

    @staticmethod
    def _order_checks(runs: RunSet) -> list[Check]:
        """Value orders exchangeable on every chart config (charts asked a trend probe aside)."""
        from chartprobe.dataset_builders.probes.templates import TEMPLATES

        from ._orders import order_checks

        trend = {name for name, cls in TEMPLATES.items() if cls.needs_trend}
        out = []
        for config in sorted({c for c, _ in runs.rows}):
            charts: dict[str, list[float]] = {}
            trend_charts = set()
            for (c, _), rows in runs.rows.items():
                for r in rows if c == config else ():
                    values = (json.loads(r["spec"]).get("data") or {}).get("series") or [{}]
                    if "values" in values[0]:
                        charts[r["chart_id"]] = values[0]["values"]
                    if r.get("template_id") in trend:
                        trend_charts.add(r["chart_id"])
            out += order_checks(config, [v for k, v in sorted(charts.items()) if k not in trend_charts])
        return out

    def plots(self, profiles: Mapping[str, Mapping[str, Any]], folder: Path) -> list[Path]:
        """Per skill (macro and micro) x model, domain x model per skill, template x model."""
        from . import _plots as rp

        skills = [rp.panel("mean over templates", {m: p.get("per_skill", {}) for m, p in profiles.items()}),
                  rp.panel("pooled over items", {m: p.get("per_skill_micro", {}) for m, p in profiles.items()})]
        names = list(dict.fromkeys(s for p in profiles.values() for per in p.get("per_domain_skill", {}).values()
                                   for s in per))
        domains = [rp.panel(skill, {m: {d: per.get(skill) for d, per in p.get("per_domain_skill", {}).items()}
                                    for m, p in profiles.items()}, transpose=True) for skill in names]
        templates = rp.panel("template", {m: p.get("per_template", {}) for m, p in profiles.items()}, transpose=True)
        return [*rp.heatmaps(skills, folder / "probes_per_skill.png", "Probe accuracy per skill", "accuracy (0–1)"),
                *rp.heatmaps(domains, folder / "probes_domain_skill.png",
                             "Accuracy per domain (rows) and model, one panel per skill (mean over templates)",
                             "accuracy (0–1)"),
                *rp.heatmaps(rp.chunk(templates), folder / "probes_per_template.png", "Accuracy per template",
                             "accuracy (0–1)")]
