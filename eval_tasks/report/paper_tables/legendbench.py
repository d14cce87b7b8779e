"""LegendBench's tables (Tables 4, 6, 7) from ``chartprobe-legend`` results, through :mod:`...metrics.legend`.

- Table 4: the capability profile per model (§5.1): QA and Chain accuracy, Guide reading, Binding,
  Value extraction, Reasoning and Reason.|Sup., Consistency, Responsiveness and CR, AP, AR and AF1,
  in percent with two decimals, over the snapshot rows (every row when a run has no snapshot
  rows), models in their groups with group averages.
- Table 6: parsing, grounding and reasoning accuracy per identity channel, by mark family, of the
  channel study (``channel_study`` config); one table per model (the paper's is Qwen3.5-27B's).
- Table 7: AP, AR and AF1 per legend-visibility condition of the visibility study; one per model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...metrics import legend as lm
from ...metrics import legend_studies as ls
from .registry import PaperContext, Records, grouped_rows, paper_table
from .table import Cell, Row, Table

__all__ = ["table_4", "table_6", "table_7"]

SUITE = "legend"
MARKS = (("point", "Point marks"), ("line", "Line marks"), ("area", "Area marks"))
VISIBILITY = {"mask_full": "Mask_Full", "keep_target": "Keep_Target", "hide_target": "Hide_Target",
              "keep_distractor": "Keep_Distractor"}


def _snapshot(records: Records) -> Records:
    rows = [r for r in records if not r.get("study_factor")]
    return rows or list(records)


def _stage_rows(records: Records, capability: str) -> int:
    return sum(1 for r in records if lm.stage(r) == capability)


def _supported(records: Records) -> int:
    """Reason rows of chains whose upstream rows are all correct (Reason.|Sup.'s n)."""
    n = 0
    for rows in lm.chains(records).values():
        upstream = [r for r in rows if r.get("chain_role") != "reason"]
        if upstream and all(r.get("correct") for r in upstream):
            n += sum(1 for r in rows if r.get("chain_role") == "reason")
    return n


def _paired(records: Records, family: str) -> int:
    bases = {str(r.get("group_id")) for r in records if r.get("expected") == "base"}
    return sum(1 for r in records if r.get("intervention_family") == family and str(r.get("group_id")) in bases)


def _profile_cells(model: str, records: Records) -> list[Cell]:
    rows = _snapshot(records)
    p = lm.profile(rows)
    scope = lm.abstention_scope(rows)
    abst = lm.abstention(scope)
    pairs = (_paired(rows, "preserving"), _paired(rows, "altering"))
    counts: list[tuple[str, int | None]] = [
        ("qa_acc", len(rows)), ("chain_acc", p["n_chains"]), ("guide_read", _stage_rows(rows, "guide_read")),
        ("bind", _stage_rows(rows, "bind")), ("ve", _stage_rows(rows, "value_extraction")),
        ("reason", _stage_rows(rows, "reason")), ("reason_sup", _supported(rows)), ("cons", pairs[0]),
        ("resp", pairs[1]), ("cr", sum(pairs)), ("ap", abst["refusals"]), ("ar", abst["unanswerable"]),
        ("af1", len(scope))]
    return [Cell(p[key], n or None, "pct2") for key, n in counts]


@paper_table("legendbench", "4")
def table_4(ctx: PaperContext) -> Table | None:
    if not ctx.models(SUITE):
        return None
    columns = ("Model", "QA Acc.", "Chain Acc.", "Guide Read.", "Bind.", "VE", "Reason.", "Reason.|Sup.", "Cons.",
               "Resp.", "CR", "AP", "AR", "AF1")
    spans = (("Overall", 2), ("Parsing", 1), ("Grounding", 2), ("Reasoning", 2), ("Counterfactual", 3),
             ("Abstention", 3))
    return Table("legendbench-4", "LegendBench Table 4: overall diagnostic capability profiles", columns,
                 grouped_rows(ctx, SUITE, _profile_cells), spans,
                 "Percent. n: rows (QA, stages), chains (Chain Acc.), reason rows with a correct upstream chain "
                 "(Reason.|Sup.), variants paired with their base (Cons., Resp., CR), refusals (AP), unanswerable "
                 "rows (AR), rows in scope (AF1); average rows: the mean over the group's models, n = models.")


def _slug(model: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in model).strip("-").lower()


def _per_model(ctx: PaperContext, factor: str, build: Callable[[str, Records], Table | None]) -> list[Table]:
    tables = []
    for model, records in ctx.models(SUITE, lambda rs: any(r.get("study_factor") == factor for r in rs)):
        table = build(model, records)
        if table is not None:
            tables.append(table)
    return tables


def _channel_table(model: str, records: Records) -> Table | None:
    cells: dict[str, Any] = ls.summary(records).get("channel_study") or {}
    rows: list[Row] = []
    for family, label in MARKS:
        levels = sorted(k.split("/", 1)[1] for k in cells if k.split("/", 1)[0] == family)
        if not levels:
            continue
        rows.append(Row(label, kind="section"))
        for level in levels:
            c = cells[f"{family}/{level}"]
            n = c.get("n")
            rows.append(Row(level.replace("_", " ").capitalize(),
                            tuple(Cell(c.get(k), n, "2f") for k in ("guide_read", "grounding", "reason"))))
    if not rows:
        return None
    return Table(f"legendbench-6-{_slug(model)}", f"LegendBench Table 6: parsing, grounding and reasoning accuracy of "
                 f"{model} when only the series-identity channel varies", ("Channel", "Parsing", "Grounding",
                                                                            "Reasoning"),
                 rows, (), "n: the channel study's rows of that mark family and channel.")


@paper_table("legendbench", "6")
def table_6(ctx: PaperContext) -> list[Table]:
    return _per_model(ctx, "channel", _channel_table)


def _visibility_table(model: str, records: Records) -> Table | None:
    levels = ls.summary(records).get("visibility_study") or {}
    rows = []
    for key in sorted(levels, key=lambda k: (list(VISIBILITY).index(k) if k in VISIBILITY else len(VISIBILITY), k)):
        a = levels[key]
        rows.append(Row(VISIBILITY.get(key, key), (Cell(a.get("ap"), a.get("refusals") or None, "2f"),
                                                    Cell(a.get("ar"), a.get("unanswerable") or None, "2f"),
                                                    Cell(a.get("af1"), None, "2f"))))
    if not rows:
        return None
    return Table(f"legendbench-7-{_slug(model)}", f"LegendBench Table 7: abstention of {model} when only legend "
                 "visibility varies", ("Condition", "AP", "AR", "AF1"), rows, (),
                 "n: refusals (AP) and unanswerable rows (AR) of that condition with their base rows.")


@paper_table("legendbench", "7")
def table_7(ctx: PaperContext) -> list[Table]:
    return _per_model(ctx, "visibility", _visibility_table)

