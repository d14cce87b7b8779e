"""``legend_order``: answers rank questions from legend-entry order (LegendBench §6.2 shortcut).

A model that reads "the largest" as "the first legend entry" passes only where legend order
happens to mirror visual rank. This agent does exactly that on every row whose spec draws a
box legend: the largest/smallest item is the first/last legend entry, the top-k are the
first k entries, an item's rank is its legend position; on rows that name a ``target``
label with an integer answer (LegendBench's rank questions) it answers the target's
legend position. Position questions are not rank questions and are left alone: on a pie
the legend lists segments in reading order, so that would be reading, not a shortcut.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from eval_tasks.agents import agent
from eval_tasks.agents._base import Agent

Row = Mapping[str, Any]


def legend_entries(spec_json: str) -> list[str] | None:
    """Legend labels in displayed order for a chart spec with a box legend, else None."""
    from dataset_builders.registry import CHARTS, RegistryError
    from dataset_builders.render import shown_items
    from dataset_builders.spec import ChartSpec, SpecError

    try:
        raw = json.loads(spec_json)
        if not isinstance(raw, dict) or (raw.get("legend") or {}).get("form", "box") != "box":
            return None
        spec = ChartSpec.from_json(spec_json)
        labels = CHARTS.get(spec.kind)().legend_labels(spec)
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


@agent("legend_order")
class LegendOrder(Agent):
    description = "rank/identity answers read from legend-entry order"

    def answer(self, suite, row):
        entries = legend_entries(row.get("spec") or "")
        if entries is None:
            return None
        if row.get("program"):
            return _from_program(json.loads(row["program"]), entries)
        target = row.get("target")
        if target in entries and row.get("answer_type") in ("integer", "count"):
            return str(entries.index(target) + 1)
        return None
