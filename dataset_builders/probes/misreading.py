"""The tolerance of a derived probe value, capped below every one-category misreading.

A probe whose answer is computed from two read marks (R-ARITH-DIFF's |a - b|, R-ARITH-RATIO's
a / b) inherits ±5% relative by default. Where two bars stand close, ±5% of the answer can be more
than the change a wrong read makes: a difference of 26 accepts 25, which is what reading the bar
next to ``a`` gives. So the tolerance is capped at half the smallest change in the answer that
reading either mark as its neighbour (the category before or after it in data order) would cause:
no single-category misreading of either mark passes. Rows store the result as ``abs:<x>`` (and
keep ``rel:0.05`` where the cap is looser).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..core.programs import Program, run
from ..core.tolerance import Tolerance

__all__ = ["derived_tolerance", "misread_answers"]


def misread_answers(program: Program, view: Any) -> list[float]:
    """The answers ``program`` gives when one of its read labels (two or more of them) is
    replaced by a neighbouring category of the chart; empty for a single-read program."""
    read = {k: v for k, v in program.args.items() if isinstance(v, str) and v in view.labels}
    if len(read) < 2:
        return []
    out = []
    for key, label in read.items():
        i = view.labels.index(label)
        for j in (i - 1, i + 1):
            if 0 <= j < view.n and view.labels[j] not in read.values():
                value = run(dataclasses.replace(program, args={**program.args, key: view.labels[j]}), view)
                if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                    out.append(float(value))
    return out


def derived_tolerance(program: Program, view: Any, gold: float, tolerance: Tolerance) -> Tolerance:
    """``tolerance`` (the template's rule), tightened to half the gap to the nearest misread answer."""
    gaps = [abs(v - gold) for v in misread_answers(program, view) if abs(v - gold) > 0]
    if not gaps:
        return tolerance
    cap = min(gaps) / 2
    bound = tolerance.value * abs(gold) if tolerance.kind == "rel" else tolerance.value
    # a hair under half the gap, so a misread answer exactly halfway is never inside the bound
    return tolerance if bound < cap else Tolerance("abs", float(f"{cap * (1 - 1e-9):.6g}"))

