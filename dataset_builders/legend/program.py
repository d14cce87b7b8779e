"""Recompute a LegendBench row's gold answer from its stored chart side, legend side and program.

Every row of ``chartprobe-legend`` stores ``chart_spec`` (``s``), ``legend_spec`` (``l``)
and ``program`` (template name, parameters, channels, whether values are printed). Running
the template again on that state gives the gold answer, "I don't know" included: this is
what the validity checks and the oracle agent use, never the ``answer`` column.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..core.spec import ChartSpec
from .templates import LEGEND_TEMPLATES
from .templates._base import State
from .unit import side_from_json

__all__ = ["answer_row", "program_json", "state_of_row"]


def program_json(template: str, params: dict[str, Any], channels: tuple[str, ...], add_labels: bool) -> str:
    """The ``program`` column: enough to re-instantiate the question on any legend state."""
    return json.dumps({"template": template, "params": params, "channels": list(channels),
                       "add_labels": add_labels}, sort_keys=True)


def state_of_row(row: Mapping[str, Any]) -> tuple[State, dict[str, Any], Any]:
    """(state, params, template instance) of a stored row."""
    program = json.loads(row["program"])
    st = State(chart=ChartSpec.from_json(row["chart_spec"]), legend=side_from_json(row["legend_spec"]),
               channels=tuple(program["channels"]), add_labels=bool(program["add_labels"]))
    return st, program["params"], LEGEND_TEMPLATES.get(program["template"])()


def answer_row(row: Mapping[str, Any]) -> str:
    """The gold answer recomputed from the row's ``chart_spec``, ``legend_spec`` and ``program``."""
    st, params, template = state_of_row(row)
    gold = template.gold(st, params)
    if gold is None:
        raise ValueError(f"row {row.get('id')}: template {template.name} is ill-posed on its stored state")
    return gold[0]
