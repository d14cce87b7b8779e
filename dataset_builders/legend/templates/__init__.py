"""LegendBench question templates (T1 parsing, T2 grounding, T3 reasoning), one file each,
registered with ``@legend_template("<name>")``; T4 abstention items come from answerability
interventions on these questions."""

from __future__ import annotations

from ...core.registry import Registry

__all__ = ["LEGEND_TEMPLATES", "legend_template"]

LEGEND_TEMPLATES = Registry("legend template", __name__)
legend_template = LEGEND_TEMPLATES.register
