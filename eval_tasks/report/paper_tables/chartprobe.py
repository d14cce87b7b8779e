"""The fine-tuning tables, from ``study.json`` of ``chartprobe train --seeds`` (``report --study``).

ChartProbe (``--skill-sets P,G,SR,P+G,P+G+SR``, benchmark ``probes``):

- Table 1: skill-wise accuracy (%) per domain block (bar, pie, shapes: our CLEVR-like domain) x
  P / G / SR, one row per setting (base first), each fine-tuned cell the mean over seeds with its
  change over the base model as the paper's subscript (↑ gain, ↓ drop), best per column in bold;
- Table 2: complex-reasoning fuzzy accuracy (%) per domain (the held-out CR sets);
- Table 3: transfer (%) on the other lm-eval tasks the study scored (the paper: ChartQA bar / pie).

LegendBench Table 5 (a selection study, benchmark ``legend``): QA Acc, Chain Acc, CR and AF1 (%) of
Base, Random FT and Bottleneck FT, and the transfer tasks beside them.

n in every cell: the seeds the mean is over (the base model is evaluated once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .registry import PaperContext, paper_table
from .table import Cell, Row, Table, spans_of

__all__ = ["legend_table_5", "table_1", "table_2", "table_3"]

SKILLS = (("perception", "P"), ("grounding", "G"), ("reasoning", "SR"))
DOMAINS = ("bar", "pie", "shapes", "hbar")
LEGEND_COLUMNS = ("QA Acc", "Chain Acc", "CR", "AF1")


def _settings(study: Mapping[str, Any]) -> list[tuple[str, str]]:
    from ..study import settings_of

    return settings_of(study)


def _studies(ctx: PaperContext, benchmark: str, design: str | None = None) -> list[Mapping[str, Any]]:
    return [s for s in ctx.studies if s.get("benchmark") == benchmark and (design is None or s.get("design") == design)]


def _key(base: str, studies: Sequence[Mapping[str, Any]], study: Mapping[str, Any]) -> str:
    if len(studies) == 1:
        return base
    slug = "".join(ch if ch.isalnum() else "-" for ch in str(study.get("model") or studies.index(study))).strip("-")
    return f"{base}-{slug.lower()}"


def _who(study: Mapping[str, Any]) -> str:
    seeds = ", ".join(map(str, study.get("seeds") or []))
    return f"{study.get('model') or 'the model'}, seeds {seeds}"


def _cells(study: Mapping[str, Any], stats_of, columns: Sequence[str]) -> list[Row]:
    """One row per setting; fine-tuned cells carry their change over the base row; best per column bold."""
    settings = _settings(study)
    base_key = settings[0][0]
    grid: list[list[Cell]] = []
    for key, _ in settings:
        row = []
        for col in columns:
            stat, base = stats_of(key, col), stats_of(base_key, col)
            if not stat:
                row.append(Cell(None))
                continue
            delta = None if key == base_key or not base else stat["mean"] - base["mean"]
            row.append(Cell(stat["mean"], stat.get("n_seeds"), "pct1", delta=delta))
        grid.append(row)
    for j in range(len(columns)):
        values = [r[j].value for r in grid if r[j].value is not None]
        if len(values) > 1:
            best = max(values)
            for r in grid:
                if r[j].value == best:
                    r[j] = Cell(r[j].value, r[j].n, r[j].fmt, delta=r[j].delta, bold=True)
    return [Row(label, tuple(cells)) for (_, label), cells in zip(settings, grid, strict=True)]


@paper_table("chartprobe", "1")
def table_1(ctx: PaperContext) -> list[Table]:
    studies, out = _studies(ctx, "probes"), []
    for study in studies:
        crossed = study["tables"]["crossed"]
        cells = {c for by in crossed.values() for c in by}
        domains = [d for d in DOMAINS if any(c.startswith(d + "/") for c in cells)]
        if not domains:
            continue
        columns = [f"{d}/{skill}" for d in domains for skill, _ in SKILLS]
        rows = _cells(study, lambda key, col, crossed=crossed: (crossed.get(key) or {}).get(col), columns)
        out.append(Table(_key("chartprobe-1", studies, study), f"ChartProbe Table 1: skill-wise diagnostic accuracy (%) "
                         f"per domain ({_who(study)})", ("Setting", *([label for _, label in SKILLS] * len(domains))),
                         rows, spans_of([d.capitalize() for d in domains], len(SKILLS)),
                         "Fine-tuned rows: mean over seeds, n = seeds; subscripts: the change over the base model "
                         "(↑ gain, ↓ drop); bold: the best of its column."))
    return out


def _order(name: str) -> tuple[int, str]:
    """Columns as the papers order them: LegendBench's four, CR domains bar / pie / shapes, then the rest."""
    for i, known in enumerate(LEGEND_COLUMNS):
        if name == known:
            return i, name
    for i, domain in enumerate(DOMAINS):
        if name == f"CR {domain} (fuzzy)":
            return i, name
    return len(LEGEND_COLUMNS) + len(DOMAINS), name


def _capability_columns(study: Mapping[str, Any], keep) -> list[str]:
    return sorted((name for name in study["tables"]["capability"] if keep(name)), key=_order)


def _capability_table(ctx: PaperContext, benchmark: str, key: str, title: str, keep, label, note: str) -> list[Table]:
    studies, out = _studies(ctx, benchmark), []
    for study in studies:
        capability = study["tables"]["capability"]
        columns = _capability_columns(study, keep)
        if not columns:
            continue
        rows = _cells(study, lambda setting, col, capability=capability: (capability.get(col) or {}).get(setting),
                      columns)
        out.append(Table(_key(key, studies, study), f"{title} ({_who(study)})", ("Setting", *map(label, columns)), rows,
                         (), note))
    return out


def _cr(name: str) -> bool:
    return name.startswith("CR ") and name.endswith(" (fuzzy)")


def _transfer(name: str) -> bool:
    return name.endswith(" (lm-eval)")


@paper_table("chartprobe", "2")
def table_2(ctx: PaperContext) -> list[Table]:
    return _capability_table(ctx, "probes", "chartprobe-2", "ChartProbe Table 2: complex-reasoning accuracy (fuzzy %) "
                             "on the held-out CR sets", _cr, lambda n: n[3:-8].capitalize(),
                             "No setting trains on a complex-reasoning question. Mean over seeds, n = seeds; "
                             "subscripts: the change over the base model; bold: the best of its column.")


@paper_table("chartprobe", "3")
def table_3(ctx: PaperContext) -> list[Table]:
    return _capability_table(ctx, "probes", "chartprobe-3", "ChartProbe Table 3: off-the-shelf transfer (%)", _transfer,
                             lambda n: n[: -len(" (lm-eval)")],
                             "lm-eval's own metric per task the study scored beside the probes (the paper: ChartQA "
                             "bar / pie, fuzzy); mean over seeds, n = seeds; subscripts: the change over the base "
                             "model; bold: the best of its column.")


@paper_table("legendbench", "5")
def legend_table_5(ctx: PaperContext) -> list[Table]:
    return _capability_table(ctx, "legend", "legendbench-5", "LegendBench Table 5: fine-tuning results (%)",
                             lambda n: n in LEGEND_COLUMNS or _transfer(n),
                             lambda n: n[: -len(" (lm-eval)")] if _transfer(n) else n,
                             "Random FT and Bottleneck FT at the same budget; mean over seeds, n = seeds; subscripts: "
                             "the change over the base model; bold: the best of its column.")
