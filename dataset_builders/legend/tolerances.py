"""The ``tolerance`` of a LegendBench numeric row, from its template's rule and its own render.

Templates declare ``tolerance_rule`` (``axis``: read off the value axis; ``colorbar``: read
through the colour bar) and ``reads`` (how many reads a difference adds up). On a chart
with printed values (``add_labels``) every such value is printed, so the answer is exact to
its last printed digit; a pie wedge without printed values has no scale to read, so ±5%.
Rules: :mod:`chartprobe.dataset_builders.core.tolerance`.

A derived value (``reads`` > 1, a difference of two reads) takes the error propagation of its
reads: independent reads each off by up to half a tick step add in quadrature
(``sqrt(reads)`` x half a step, not ``reads`` x). It is then capped below half the distance to
the nearest *single-category misreading* (either mark read at the neighbouring category, or
as the neighbouring series: the template's ``misreadings``), so a reader who took the wrong
bar, point or cell never passes. The row stores how it was reached (``tolerance_derivation``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.charts import CHARTS
from ..core.tolerance import Tolerance, tolerance_for
from .templates._base import LegendTemplate, State

__all__ = ["CAP_SHARE", "derived_tolerance", "effective_rule", "row_tolerance"]

CAP_SHARE = 0.5
"""The cap is this share of the gap to the nearest misreading: an accepted answer is always
closer to the gold than to any single-category misreading of it."""


def effective_rule(tpl: LegendTemplate, st: State) -> str:
    """The rule that applies on ``st``: printed values, no scale (pie), or the template's own."""
    if st.add_labels:
        return "printed"
    if tpl.tolerance_rule == "axis" and not CHARTS.get(st.kind).value_axis:
        return "relative"
    return tpl.tolerance_rule


def derived_tolerance(tpl: LegendTemplate, st: State, params: Mapping[str, Any], answer: str,
                      ticks: Mapping[str, Sequence[float]]) -> tuple[Tolerance, str]:
    """Tolerance of a derived (``reads`` > 1) numeric answer and the sentence deriving it."""
    rule = effective_rule(tpl, st)
    axis = CHARTS.get(st.kind).value_axis or "y"
    gold = float(answer)
    one = tolerance_for(rule, answer, ticks, axis, 1)
    if one.kind == "abs" and rule != "printed":
        base = Tolerance("abs", round(math.sqrt(tpl.reads) * one.value, 12))
        text = f"{rule}: {tpl.reads} reads x ±{one.value:g} (half a tick step) in quadrature = ±{base.value:.4g}"
    else:
        base = one
        text = f"{rule}: {one.to_str()} (a printed value is exact; reads do not widen it)" if rule == "printed" \
            else f"{rule}: {one.to_str()}"
    gaps = [abs(v - gold) for v in tpl.misreadings(st, dict(params)) if abs(v - gold) > 1e-9]
    if not gaps:
        return base, text + "; no single-category misreading to cap"
    cap = CAP_SHARE * min(gaps)
    bound = base.value * abs(gold) if base.kind == "rel" else base.value
    if bound < cap:
        return base, text + f"; under cap {CAP_SHARE:g} x nearest misreading gap {min(gaps):.4g} = {cap:.4g}"
    capped = Tolerance("abs", round(cap, 12))
    return capped, text + (f"; capped at {CAP_SHARE:g} x nearest single-category misreading gap "
                           f"{min(gaps):.4g} = ±{capped.value:.4g}")


def row_tolerance(tpl: LegendTemplate, st: State, answer: str, answer_type: str,
                  ticks: Mapping[str, Sequence[float]], params: Mapping[str, Any] | None = None) -> tuple[str, str]:
    """(``abs:x`` / ``rel:r``, derivation) for a number row; ``("", "")`` for every other type."""
    if answer_type != "number":
        return "", ""
    if tpl.reads > 1 and params is not None:
        tol, text = derived_tolerance(tpl, st, params, answer, ticks)
        return tol.to_str(), text
    rule = effective_rule(tpl, st)
    tol = tolerance_for(rule, answer, ticks, CHARTS.get(st.kind).value_axis or "y", tpl.reads)
    return tol.to_str(), f"{rule}: {tol.to_str()} (one read)"
