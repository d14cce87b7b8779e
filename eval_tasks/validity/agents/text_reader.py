"""``text_reader``: answers a "read the marks" question from the text printed on the chart.

For every row whose question claims to need visual reading (ChartProbe perception,
Chartographer ``visual`` questions: ``Suite.claims_visual``), the agent looks only at the
printed text — title, tick labels, legend and, above all, value labels. Where the chart
prints its values, it recomputes the answer from the printed numbers (parsed back from
the labels exactly as drawn, so rounding in the format costs it); where nothing printed
gives the values away it has no answer, nor where the values do not decide the answer (a count of
the marks, the number of colours: ``Suite.value_free``). A question that says "judge only the bar heights"
on a chart that prints every bar's value is answered by reading, and this agent finds it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from . import agent
from ._base import Agent

Row = Mapping[str, Any]

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def printed_value(text: str) -> float | None:
    """The number a value label shows ("42%" -> 42.0, "1,200" -> 1200.0; None if none)."""
    m = _NUMBER.search(text.replace(",", ""))
    return float(m.group()) if m else None


def printed_spec(spec_json: str) -> str | None:
    """The spec with every value replaced by what its value label prints (None: no labels)."""
    from chartprobe.dataset_builders.core.charts._marks import format_value
    from chartprobe.dataset_builders.core.spec import ChartSpec, SpecError

    try:
        raw = json.loads(spec_json)
        if not (raw.get("style") or {}).get("value_labels"):
            return None
        spec = ChartSpec.from_json(spec_json)
    except (SpecError, TypeError, ValueError, KeyError):
        return None
    for s in raw["data"]["series"]:
        values = [printed_value(format_value(spec, float(v))) for v in s["values"]]
        if any(v is None for v in values):
            return None
        s["values"] = values
    return json.dumps(raw, sort_keys=True)


@agent("text_reader")
class TextReader(Agent):
    description = "visual-reading questions answered from printed value labels alone"

    def answer(self, suite, row):
        spec = suite.spec_json(row)
        if not spec or not suite.claims_visual(row) or suite.value_free(row):
            return None  # value-free: the printed values do not decide it (re-answering would only echo the truth)
        printed = printed_spec(spec)
        return None if printed is None else suite.reanswer(row, printed)
