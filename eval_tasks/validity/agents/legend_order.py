"""``legend_order``: answers rank questions from legend-entry order (LegendBench §6.2 shortcut).

A model that reads "the largest" as "the first legend entry" passes only where legend order
happens to mirror visual rank. This agent does exactly that on every row whose spec draws a
box legend: the largest/smallest item is the first/last legend entry, the top-k are the
first k entries, an item's rank is its legend position; on rows that name a ``target``
label and ask for a rank (LegendBench's rank questions: ``visual_rank >= 1``, or an
integer answer on rows without that column) it answers the target's legend position.
LegendBench rows carry a template program (``{"template", "params"}``, no ``op``), so they
take the target path. Position questions are not rank questions and are left alone: on a pie
the legend lists segments in reading order, so that would be reading, not a shortcut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]


def legend_entries(spec_json: str) -> list[str] | None:
    """Legend labels in displayed order for a chart spec with a box legend, else None."""
    from chartprobe.dataset_builders.core.charts import CHARTS
    from chartprobe.dataset_builders.core.registry import RegistryError
    from chartprobe.dataset_builders.core.render_overrides import shown_items
    from chartprobe.dataset_builders.core.spec import ChartSpec, SpecError

    try:
        raw = json.loads(spec_json)
        if not isinstance(raw, dict) or (raw.get("legend") or {}).get("form", "box") != "box":
            return None
        spec = ChartSpec.from_json(spec_json)
        explicit = getattr(spec.legend, "entries", None)  # compositional legends list their own entries
        labels = (tuple(e.label for e in explicit) if explicit is not None
                  else CHARTS.get(spec.kind)().legend_labels(spec))
    except (SpecError, RegistryError, KeyError, TypeError, ValueError):  # a scene, not a chart
        return None
    entries = [str(labels[i]) for i in shown_items(spec, len(labels))]
    return entries if len(entries) >= 2 else None


def _from_program(program: Mapping[str, Any], entries: list[str]) -> str | None:
    args = program.get("args", {})
    op = program.get("op")
    if op == "extreme_label":
        return entries[0] if args.get("largest", True) else entries[-1]
    if op == "top_k_labels":
        return json.dumps(entries[: int(args.get("k", 3))], ensure_ascii=False)
    if op == "rank_of" and args.get("label") in entries:
        return str(entries.index(args["label"]) + 1)
    return None


def _program(row: Row) -> dict[str, Any]:
    try:
        program = json.loads(row.get("program") or "{}")
    except (TypeError, ValueError):
        return {}
    return program if isinstance(program, dict) else {}


def _asks_rank(row: Row) -> bool:
    """A rank question about ``target``: LegendBench marks it with a visual rank."""
    if "visual_rank" in row:
        try:
            return int(row["visual_rank"]) >= 1
        except (TypeError, ValueError):
            return False
    return row.get("answer_type") in ("integer", "count")


@agent("legend_order")
class LegendOrder(Agent):
    description = "rank/identity answers read from legend-entry order"

    def answer(self, suite, row):
        entries = legend_entries(row.get("spec") or "")
        if entries is None:
            return None
        program = _program(row)
        if "op" in program:  # a probe program: rank/identity ops answered off the legend
            return _from_program(program, entries)
        target = row.get("target")
        if target in entries and _asks_rank(row):
            return str(entries.index(target) + 1)
        return None
