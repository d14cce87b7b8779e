"""ChartJudgeBench's tables (Tables 1, 2, 5 and Fig. 5's numbers) from ``chartprobe-judge`` results.

Each reads one run per task: the released protocol's ``_paper`` task when the results hold it
(the released prompts and parser), else ours; the title says which. The first sample of each
document is read (the paper's single run; voting is its §4.5 study). Through :mod:`...metrics.judge`:

- Table 1: CPA two-pass accuracy (%) per criterion under its dimension, and Avg. (the unweighted
  mean of the seven criteria, as the paper's column), models in groups with an "Average" row.
- Table 2: CRJ accuracy, F1, precision, recall and specificity (%) on ChartEdit and Reproduction.
- Table 5: CPA two-pass accuracy (%) per chart type, Avg. their unweighted mean.
- Fig. 5: the share of parsed CPA answers that pick the first and the second position.
- Fig. 7: CPA one-pass and two-pass accuracy and CRJ accuracy on each task (%), per model; the paper
  sets base models beside their post-trained versions: list them side by side in ``--model-groups``.
- Fig. 8: the CRJ accept rate (%) on ChartEdit and Reproduction per model (its lenience).
"""

from __future__ import annotations

import math

from ...metrics import judge as jm
from .registry import Merged, PaperContext, Records, grouped_rows, paper_table
from .table import Cell, Table, spans_of

__all__ = ["figure_5", "figure_7", "figure_8", "table_1", "table_2", "table_5"]

SUITE = Merged(("judge_paper", "judge"))
"""Both protocols' records (``chartprobe score`` rescores ``_paper`` tasks into ``judge_paper``); each
table takes per task the released protocol's run when there is one (:func:`_run`)."""
CRITERIA = (("Visual Effects", (("color_consistency", "Color"), ("visual_style", "Style"), ("aspect_ratio", "Aspect"))),
            ("Data Fidelity", (("axis_scaling", "Scaling"), ("data_encoding", "Encoding"))),
            ("Layout Structure", (("component_positioning", "Position"), ("text_occlusion", "Occlusion"))))
CPA_TASKS = ("chartprobe_judge_cpa_paper", "chartprobe_judge_cpa")
CRJ_TASKS = {"editing": ("chartprobe_judge_crj_edit_paper", "chartprobe_judge_crj_edit"),
             "reproduction": ("chartprobe_judge_crj_repro_paper", "chartprobe_judge_crj_repro")}
KINDS = {"3d": "3d", "hist": "Hist", "histogram": "Hist", "box": "Box", "boxplot": "Box"}


def _run(records: Records, tasks: tuple[str, ...]) -> tuple[Records, str | None]:
    """The records of the first of ``tasks`` the results hold, and which."""
    for task in tasks:
        rows = [r for r in records if r.get("task") == task]
        if rows:
            return rows, task
    return [], None


def _protocol(ctx: PaperContext, tasks: tuple[str, ...]) -> str:
    used = {_run(rs, tasks)[1] for _, rs in ctx.models(SUITE)} - {None}
    if not used:
        return ""
    if all(t.endswith("_paper") for t in used):
        return " (the released protocol: `_paper` tasks)"
    return " (chartprobe's prompts)" if not any(t.endswith("_paper") for t in used) else " (mixed protocols)"


def _has(tasks: tuple[str, ...]):
    return lambda records: bool(_run(records, tasks)[0])


def _pairs(records: Records, field: str, key: str) -> int:
    return len({r["pair_id"] for r in records if r.get(field) == key})


@paper_table("chartjudgebench", "1")
def table_1(ctx: PaperContext) -> Table | None:
    if not ctx.models(SUITE, _has(CPA_TASKS)):
        return None

    def cells(model: str, records: Records) -> list[Cell]:
        cpa = _run(records, CPA_TASKS)[0]
        acc = jm.cpa_group_accuracy(cpa, "criterion")
        out = [Cell(acc.get(key), _pairs(cpa, "criterion", key) or None, "pct1")
               for _, criteria in CRITERIA for key, _ in criteria]
        return [*out, Cell(jm.paper_avg(acc), jm.cpa_pair_counts(cpa)[0] or None, "pct1")]

    columns = ("Model", *(label for _, criteria in CRITERIA for _, label in criteria), "Avg.")
    spans = (*((dim, len(criteria)) for dim, criteria in CRITERIA), ("", 1))
    return Table("chartjudgebench-1", "ChartJudgeBench Table 1: results on Chart Perception Alignment (accuracy %, "
                 "two-pass)" + _protocol(ctx, CPA_TASKS), columns, grouped_rows(ctx, SUITE, cells, _has(CPA_TASKS)),
                 spans, "n: whole pairs (both orders asked); Avg.: the unweighted mean of the criteria; average rows: "
                 "the mean over the group's models, n = models.")


TABLE_2 = ("accuracy", "f1", "precision", "recall", "specificity")


def _crj_rates(records: Records, *keys: str) -> list[Cell]:
    """CRJ metrics (%) of ChartEdit then Reproduction, ``keys`` per task; n = items."""
    out = []
    for tasks in CRJ_TASKS.values():
        rows = _run(records, tasks)[0]
        m = jm.crj_metrics(rows) if rows else {}
        out += [Cell(m.get(key), m.get("n") or None, "pct1") for key in keys]
    return out


@paper_table("chartjudgebench", "2")
def table_2(ctx: PaperContext) -> Table | None:
    every = tuple(t for tasks in CRJ_TASKS.values() for t in tasks)
    if not ctx.models(SUITE, _has(every)):
        return None
    return Table("chartjudgebench-2", "ChartJudgeBench Table 2: CRJ performance on ChartEdit and Reproduction (%)"
                 + _protocol(ctx, every), ("Model", *(["Acc.", "F1", "Prec.", "Recall", "Spec."] * 2)),
                 grouped_rows(ctx, SUITE, lambda m, rs: _crj_rates(rs, *TABLE_2), _has(every)),
                 spans_of(["ChartEdit Task", "Reproduction Task"], 5),
                 "Accept is the positive class; an unparsable verdict counts as the wrong label. n: items; average "
                 "rows: the mean over the group's models, n = models.")


def _kind_label(kind: str) -> str:
    return KINDS.get(kind, kind.replace("_", " ").capitalize())


@paper_table("chartjudgebench", "5")
def table_5(ctx: PaperContext) -> Table | None:
    models = ctx.models(SUITE, _has(CPA_TASKS))
    if not models:
        return None
    kinds = sorted({str(r.get("chart_kind")) for _, rs in models for r in _run(rs, CPA_TASKS)[0] if r.get("chart_kind")})

    def cells(model: str, records: Records) -> list[Cell]:
        cpa = _run(records, CPA_TASKS)[0]
        acc = jm.cpa_group_accuracy(cpa, "chart_kind")
        out = [Cell(acc.get(k), _pairs(cpa, "chart_kind", k) or None, "pct1") for k in kinds]
        return [*out, Cell(jm.paper_avg(acc), jm.cpa_pair_counts(cpa)[0] or None, "pct1")]

    return Table("chartjudgebench-5", "ChartJudgeBench Table 5: Chart Perception Alignment by chart type (accuracy %, "
                 "two-pass)" + _protocol(ctx, CPA_TASKS), ("Model", *map(_kind_label, kinds), "Avg."),
                 grouped_rows(ctx, SUITE, cells, _has(CPA_TASKS)), (),
                 "n: whole pairs; Avg.: the unweighted mean over chart types; average rows: the mean over the "
                 "group's models, n = models.")


@paper_table("chartjudgebench", "fig5")
def figure_5(ctx: PaperContext) -> Table | None:
    if not ctx.models(SUITE, _has(CPA_TASKS)):
        return None

    def cells(model: str, records: Records) -> list[Cell]:
        cpa = _run(records, CPA_TASKS)[0]
        first = jm.first_position_rate(cpa)
        parsed = sum(1 for r in cpa if jm.majority(list(r["choices"])) is not None) or None
        value = None if math.isnan(first) else first  # NaN: nothing parsed
        return [Cell(value, parsed, "pct1"), Cell(None if value is None else 1 - value, parsed, "pct1")]

    return Table("chartjudgebench-fig5", "ChartJudgeBench Fig. 5: positional preference in CPA (% of parsed answers)"
                 + _protocol(ctx, CPA_TASKS), ("Model", "First position", "Second position"),
                 grouped_rows(ctx, SUITE, cells, _has(CPA_TASKS)), (),
                 "Each order of a pair counts once (the better chart is first in half of them, so an unbiased judge "
                 "reads 50/50). n: parsed answers; average rows: the mean over the group's models, n = models.")


@paper_table("chartjudgebench", "fig7")
def figure_7(ctx: PaperContext) -> Table | None:
    every = (*CPA_TASKS, *(t for tasks in CRJ_TASKS.values() for t in tasks))
    if not ctx.models(SUITE, _has(every)):
        return None

    def cells(model: str, records: Records) -> list[Cell]:
        cpa = _run(records, CPA_TASKS)[0]
        pairs = jm.cpa_pair_counts(cpa)[0] if cpa else 0
        one = jm.one_pass_accuracy(cpa) if cpa else None
        two = jm.cpa_outcomes(cpa)["correct"] if pairs else None
        return [Cell(None if one is None or math.isnan(one) else one, len(cpa) or None, "pct1"),
                Cell(two, pairs or None, "pct1"), *_crj_rates(records, "accuracy")]

    return Table("chartjudgebench-fig7", "ChartJudgeBench Fig. 7: CPA and CRJ accuracy per model (%)"
                 + _protocol(ctx, every), ("Model", "CPA one-pass", "CPA two-pass", "CRJ ChartEdit", "CRJ Reproduction"),
                 grouped_rows(ctx, SUITE, cells, _has(every)), (),
                 "n: documents (one-pass: each order of a pair), whole pairs (two-pass), items (CRJ); the paper "
                 "compares base models with their post-trained versions: name them next to each other in "
                 "--model-groups.")


@paper_table("chartjudgebench", "fig8")
def figure_8(ctx: PaperContext) -> Table | None:
    every = tuple(t for tasks in CRJ_TASKS.values() for t in tasks)
    if not ctx.models(SUITE, _has(every)):
        return None
    return Table("chartjudgebench-fig8", "ChartJudgeBench Fig. 8: CRJ accept rate per model (%)" + _protocol(ctx, every),
                 ("Model", "ChartEdit", "Reproduction"),
                 grouped_rows(ctx, SUITE, lambda m, rs: _crj_rates(rs, "accept_rate"), _has(every)), (),
                 "The share of items a judge accepts (half of each task should be accepted); n: items.")
