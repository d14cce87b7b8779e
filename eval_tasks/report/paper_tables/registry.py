"""The paper tables' shared parts: the records every table reads (:class:`PaperContext`), the registry
of table functions (:func:`paper_table`) and the grouped-rows layout the papers share."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .groups import average_label
from .table import Cell, Row, Table

__all__ = ["PAPERS", "PAPER_TABLES", "Merged", "PaperContext", "Records", "TableFn", "grouped_rows", "mean_cell", "number_key",
           "paper_table"]

Records = list[dict[str, Any]]


class Merged(tuple):
    """Suites whose records a table reads together (it picks the protocol per task itself)."""


@dataclass(frozen=True)
class PaperContext:
    """Every model's test-split records per suite, and the model groups in table order."""

    records: Mapping[str, Mapping[str, Records]]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    studies: tuple[Mapping[str, Any], ...] = ()
    """``study.json`` documents of ``chartprobe train --seeds`` (``report --study``): the fine-tuning tables."""

    def pick(self, model: str, suites: str | Sequence[str]) -> tuple[str | None, Records]:
        """The first of ``suites`` the model has records of (a released protocol's suite, ``judge_paper``,
        before ours when a table prefers it), and those records; with :class:`Merged` suites, the records
        of all of them (tables that tell the protocols apart by task)."""
        if isinstance(suites, Merged):
            names = [n for n in suites if self.records.get(model, {}).get(n)]
            return ("+".join(names) or None), [r for n in names for r in self.records[model][n]]
        for name in (suites,) if isinstance(suites, str) else suites:
            if self.records.get(model, {}).get(name):
                return name, self.records[model][name]
        return None, []

    def grouped(self, suites: str | Sequence[str], keep: Callable[[Records], bool] = bool
                ) -> list[tuple[str, list[tuple[str, Records]]]]:
        """(group, [(model, its records of the first of ``suites`` it has)]) for the models whose records
        ``keep`` accepts."""
        out = []
        for group, models in self.groups:
            members = [(m, rs) for m in models for _, rs in [self.pick(m, suites)] if rs and keep(rs)]
            if members:
                out.append((group, members))
        return out

    def models(self, suites: str | Sequence[str], keep: Callable[[Records], bool] = bool) -> list[tuple[str, Records]]:
        """Every (model, records of the first of ``suites`` it has) in table order."""
        return [pair for _, pairs in self.grouped(suites, keep) for pair in pairs]

    def used(self, suites: Sequence[str]) -> set[str]:
        """Which of ``suites`` the tables read, over every model."""
        return {name for m in self.records for name, _ in [self.pick(m, suites)] if name}


TableFn = Callable[["PaperContext"], "Table | list[Table] | None"]
"""A table function: one table, one per model (the papers' single-model studies), or None."""
PAPER_TABLES: list[tuple[str, str, TableFn]] = []


PAPERS = ("chartographer", "chartjudgebench", "legendbench", "chartprobe")
"""The papers in the order ``paper_tables.md`` lists them (the four benchmarks' usual order)."""


def number_key(number: str) -> tuple[int, int]:
    """Tables by number, then figures (``fig5``)."""
    return (0, int(number)) if number.isdigit() else (1, int("".join(ch for ch in number if ch.isdigit()) or 0))


def paper_table(paper: str, number: str) -> Callable:
    """Register a table function under its paper and number (the paper's order is registration order)."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (known: {', '.join(PAPERS)})")

    def register(fn: TableFn) -> TableFn:
        if any((p, n) == (paper, number) for p, n, _ in PAPER_TABLES):
            raise ValueError(f"{paper} Table {number} registered twice")
        PAPER_TABLES.append((paper, number, fn))
        return fn
    return register


def mean_cell(cells: list[Cell], fmt: str = "3f") -> Cell:
    """The arithmetic mean of the cells that have a value (a group's average row), n = how many."""
    values = [c.value for c in cells if c.value is not None]
    return Cell(sum(values) / len(values) if values else None, len(values) or None, fmt)


def grouped_rows(ctx: PaperContext, suite: str, cells_of: Callable[[str, Records], list[Cell]],
                 keep: Callable[[Records], bool] = bool, *, averages: bool = True) -> list[Row]:
    """Section, model and average rows as the papers lay them out: each group's name, its models, and
    (``averages``) the arithmetic mean of each column over the group's models."""
    rows: list[Row] = []
    for group, members in ctx.grouped(suite, keep):
        rows.append(Row(group, kind="section"))
        per_model = [(m, cells_of(m, rs)) for m, rs in members]
        rows += [Row(m, tuple(cells)) for m, cells in per_model]
        if averages:
            columns = list(zip(*(cells for _, cells in per_model), strict=True))
            rows.append(Row(average_label(group), tuple(mean_cell(list(col), col[0].fmt) for col in columns),
                            kind="average"))
    return rows
