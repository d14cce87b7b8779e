"""ChartJudgeBench flaw criteria: one module per criterion, each registered with ``@flaw``."""

from __future__ import annotations

from ...core.registry import Registry

__all__ = ["FLAWS", "flaw"]

FLAWS = Registry("flaw", __name__)
flaw = FLAWS.register
