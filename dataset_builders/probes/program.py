"""Recompute a ChartProbe row's gold answer from its stored ``spec`` and ``program``.

Every row of ``chartprobe-probes`` stores the recorded :class:`Program` (op, arguments, fields
read) beside its spec. Running it again on the row's domain view gives the gold answer: this
is what the oracle agent and the tests use, never the ``answer`` column. The ops are defined
beside the templates that use them, so the template registry is loaded first.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.programs import Program, answer_of
from .domains import PROBE_DOMAINS
from .templates import TEMPLATES

__all__ = ["answer_row"]


def answer_row(row: Mapping[str, Any]) -> str | None:
    """The gold answer of a stored probe row (``None`` if its program is degenerate on its spec)."""
    TEMPLATES.load()
    domain = PROBE_DOMAINS[row["domain"]]
    spec = domain.spec_from_json(row["spec"])
    # a style-shift row was drawn by its own engine (its spec may carry a style only that engine has)
    boxes = domain.boxes(spec, row.get("engine")) if row["answer_type"] == "bbox" else {}
    return answer_of(Program.from_json(row["program"]), domain.view(spec, boxes), row["answer_type"])
