"""LegendBench instance-level interventions on the legend side ``l``, one file each,
registered with ``@intervention("<name>")``: mapping-preserving, mapping-altering and
answerability families (paper Table 3)."""

from __future__ import annotations

from ...core.registry import Registry

__all__ = ["INTERVENTIONS", "intervention"]

INTERVENTIONS = Registry("intervention", __name__)
intervention = INTERVENTIONS.register
