"""GitHub markdown tables for ``report.md`` and its sections (one place, so every table formats alike)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["fmt_cell", "markdown_table"]


def fmt_cell(v: Any) -> str:
    """A table cell: floats with 3 decimals, None and NaN as an en dash."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    return f"{v:.3f}" if isinstance(v, float) else str(v)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub markdown table (floats with 3 decimals, None as an en dash)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
