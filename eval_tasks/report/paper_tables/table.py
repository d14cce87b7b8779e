"""A paper's table as data, and its markdown and LaTeX (booktabs) renderings.

A table has an optional spanning header (the paper's dataset or group names over their metric
columns), the column header, and rows of three kinds: ``section`` (a model group's name over its
models), ``data`` (one model or one dataset) and ``average`` (a group's mean, ruled off above in
LaTeX). Every cell carries its value, how it prints (the paper's precision and signs) and its
``n``: what the number was computed over (families, rows, variants, or models for an average),
printed in parentheses after the value so nobody reads a 3-family cell as a 300-family one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["FORMATS", "Cell", "Row", "Table", "spans_of"]


FORMATS: dict[str, Callable[[float], str]] = {
    "3f": "{:.3f}".format, "2f": "{:.2f}".format, "signed1": "{:+.1f}".format, "signed_pct": "{:+.1f}%".format,
    "count": lambda v: f"{round(v):,}", "pct1": lambda v: f"{100 * v:.1f}", "pct2": lambda v: f"{100 * v:.2f}"}
"""How a value prints: 3 decimals (accuracies), a signed one-decimal number (RVC), a signed percent
(Table 8's RVC columns), a count with thousands commas, a 0-1 rate as a percentage with one or two
decimals (LegendBench prints 52.43), two decimals (LegendBench's studies print 0.94)."""


@dataclass(frozen=True)
class Cell:
    """One number: ``value`` (None prints as an en dash), ``fmt`` (a :data:`FORMATS` key), ``n``
    (what it was computed over), ``stars`` (significance, printed before the value as the paper does)."""

    value: float | None
    n: int | None = None
    fmt: str = "3f"
    stars: str = ""
    delta: float | None = None
    """Change over a baseline, printed as a subscript (ChartProbe: ↑ gain, ↓ drop), in the value's unit."""
    bold: bool = False
    """The best of its column (ChartProbe's bold)."""

    def text(self) -> str:
        """The value as the paper prints it (no n)."""
        if self.value is None or (isinstance(self.value, float) and math.isnan(self.value)):
            return "–"
        return self.stars + FORMATS[self.fmt](self.value)

    def change(self) -> str:
        """The delta as the paper's subscript: ``↑3.2``, ``↓1.0``, ``0.0`` (empty without one)."""
        if self.delta is None:
            return ""
        shown = FORMATS[self.fmt](abs(self.delta)).lstrip("+")
        return shown if float(shown.replace(",", "").rstrip("%")) == 0 else ("↑" if self.delta > 0 else "↓") + shown

    def to_json(self) -> dict[str, Any]:
        out = {"value": self.value, "text": self.text(), "n": self.n}
        if self.delta is not None:
            out["delta"] = self.delta
        return out


@dataclass(frozen=True)
class Row:
    """A labelled row: ``kind`` is ``data``, ``average`` or ``section`` (a label over no cells)."""

    label: str
    cells: tuple[Cell, ...] = ()
    kind: str = "data"


@dataclass
class Table:
    """One table of a paper, filled from our results."""

    key: str
    """``<benchmark>-<number>``, e.g. ``chartographer-1`` (file names and report.json)."""
    title: str
    columns: tuple[str, ...]
    """The column header, the row-label column first."""
    rows: list[Row] = field(default_factory=list)
    spans: tuple[tuple[str, int], ...] = ()
    """The spanning header over the value columns: (label, how many columns), left to right."""
    note: str = ""
    """What ``n`` counts in this table, and any difference from the paper's table."""

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "columns": list(self.columns),
                "spans": [list(s) for s in self.spans], "note": self.note,
                "rows": [{"label": r.label, "kind": r.kind, "cells": [c.to_json() for c in r.cells]}
                         for r in self.rows]}

    def to_markdown(self) -> str:
        """GitHub markdown: the title, the table (cells as ``value (n)``), the note."""
        width = len(self.columns)
        lines = [f"**{self.title}**", ""]
        if self.spans:
            head = [""] + [label for label, span in self.spans for label in [label] + [""] * (span - 1)]
            lines += ["| " + " | ".join(head) + " |", "|" + "---|" * width,
                      "| " + " | ".join(self.columns) + " |"]
        else:
            lines += ["| " + " | ".join(self.columns) + " |", "|" + "---|" * width]
        for row in self.rows:
            if row.kind == "section":
                cells = [f"*{row.label}*"] + [""] * (width - 1)
            else:
                label = f"**{row.label}**" if row.kind == "average" else row.label
                cells = [label] + [_md_cell(c) for c in row.cells]
            lines.append("| " + " | ".join(cells) + " |")
        if self.note:
            lines += ["", self.note]
        return "\n".join(lines)

    def to_latex(self) -> str:
        """A ``booktabs`` tabular in a ``table`` float: spans as ``\\multicolumn`` with ``\\cmidrule``,
        sections in italics, averages ruled off; each cell ``value`` with its n in small type."""
        width = len(self.columns)
        lines = [r"\begin{table}[t]", r"\centering", r"\small", rf"\caption{{{_tex(self.title)}}}",
                 rf"\begin{{tabular}}{{l{'r' * (width - 1)}}}", r"\toprule"]
        if self.spans:
            head, rules, col = [""], [], 2
            for label, span in self.spans:
                head.append(rf"\multicolumn{{{span}}}{{c}}{{{_tex(label)}}}" if span > 1 else _tex(label))
                rules.append(rf"\cmidrule(lr){{{col}-{col + span - 1}}}")
                col += span
            lines += [" & ".join(head) + r" \\", " ".join(rules)]
        lines += [" & ".join(_tex(c) for c in self.columns) + r" \\", r"\midrule"]
        for i, row in enumerate(self.rows):
            if row.kind == "section":
                if i:
                    lines.append(r"\midrule")
                lines.append(rf"\multicolumn{{{width}}}{{l}}{{\textit{{{_tex(row.label)}}}}} \\")
                continue
            if row.kind == "average":
                lines.append(r"\cmidrule(lr){1-" + str(width) + "}")
            lines.append(" & ".join([_tex(row.label)] + [_tex_cell(c) for c in row.cells]) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        if self.note:
            lines.append(rf"\par\smallskip\footnotesize {_tex(self.note)}")
        lines.append(r"\end{table}")
        return "\n".join(lines) + "\n"


def _md_cell(c: Cell) -> str:
    body = f"**{c.text()}**" if c.bold else c.text()
    if c.change():
        body += f"<sub>{c.change()}</sub>"
    return body if c.n is None else f"{body} ({c.n:,})"


_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
        "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "–": "--", "−": "$-$"}


def _tex(text: str) -> str:
    """Plain text as LaTeX (its special characters escaped)."""
    return "".join(_TEX.get(ch, ch) for ch in str(text))


def _tex_cell(c: Cell) -> str:
    body = c.text()
    stars = c.stars if c.value is not None else ""
    if stars:
        body = rf"$^{{{'*' * len(stars)}}}${_tex(body[len(stars):])}"
    else:
        body = _tex(body)
    if c.bold:
        body = rf"\textbf{{{body}}}"
    if c.change():
        arrow = {"↑": r"$\uparrow$", "↓": r"$\downarrow$"}
        body += rf"\textsubscript{{{''.join(arrow.get(ch, _tex(ch)) for ch in c.change())}}}"
    return body if c.n is None else rf"{body}\,{{\scriptsize({c.n:,})}}"


def spans_of(labels: Sequence[str], per: int) -> tuple[tuple[str, int], ...]:
    """Equal spans: each label over ``per`` columns."""
    return tuple((label, per) for label in labels)
