"""``chartprobe report --paper-tables``: each paper's own tables, in its layout, from our results.

One function per table, registered with :func:`paper_table` under its paper and number, in the
paper's order; each reads the test-split records of every model (:class:`PaperContext`) and
returns a :class:`~.table.Table`, or None when the results hold nothing it could fill (a table
of a benchmark nobody ran is left out, not printed empty). Model groups (proprietary /
open-source) come from a small file (:mod:`.groups`). The report folder gets
``paper_tables.md`` (every table), ``paper_tables/<paper>-<n>.md`` and ``.tex`` (booktabs), and
``report.json`` their numbers with each cell's n.

Registered so far: Chartographer Tables 1, 2, 3, 8, 9 and 15 (:mod:`.chartographer`), ChartJudgeBench
Tables 1, 2, 5 and Fig. 5 (:mod:`.chartjudgebench`), LegendBench Tables 4 to 7 (:mod:`.legendbench`; Table 5
from a fine-tuning study), ChartProbe Tables 1 to 3 (:mod:`.chartprobe`, from fine-tuning studies).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .groups import PaperTablesError, average_label, model_groups, read_model_groups
from .registry import PAPER_TABLES, PAPERS, Merged, PaperContext, Records, number_key, paper_table
from .table import Cell, Row, Table

__all__ = ["PAPER_TABLES", "Cell", "Merged", "PaperContext", "PaperTablesError", "Row", "Table", "average_label",
           "paper_table", "paper_table_files", "paper_tables", "read_model_groups"]


def _load() -> None:
    from . import chartjudgebench, chartographer, chartprobe, legendbench  # noqa: F401  (register their tables)


def paper_tables(records: Mapping[str, Mapping[str, Records]], declared: Mapping[str, list[str]] | None = None,
                 studies: Sequence[Mapping[str, Any]] = ()) -> list[Table]:
    """Every registered table the records (and fine-tuning studies) can fill, in paper and table order."""
    _load()
    groups = tuple((g, tuple(ms)) for g, ms in model_groups(records, dict(declared or {})))
    ctx = PaperContext(records, groups, tuple(studies))
    out: list[Table] = []
    for _, _, fn in sorted(PAPER_TABLES, key=lambda t: (PAPERS.index(t[0]), number_key(t[1]))):
        made = fn(ctx)
        out += made if isinstance(made, list) else [made] if made is not None else []
    return out


def paper_table_files(tables: list[Table], out: Path) -> dict[Path, str]:
    """``paper_tables.md`` and one ``.md`` and ``.tex`` per table under ``out``."""
    files: dict[Path, str] = {}
    if not tables:
        return files
    head = ["# Paper tables", "",
            ("Each paper's tables in its own layout, filled from these results (test split). A cell's "
            "parenthesised number is its n; what n counts is said under each table.")]
    files[out / "paper_tables.md"] = "\n\n".join(["\n".join(head), *(t.to_markdown() for t in tables)]) + "\n"
    for t in tables:
        files[out / "paper_tables" / f"{t.key}.md"] = t.to_markdown() + "\n"
        files[out / "paper_tables" / f"{t.key}.tex"] = t.to_latex()
    return files
