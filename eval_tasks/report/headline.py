"""The first sections of ``report.md``: per model, the diagnosis paragraph and its headline tables.

Headline columns keep the order each suite's ``headline()`` gives, which follows its paper's
headline table (LegendBench: QA, Chain, ConsResp, AF1; ChartProbe: per skill then CR; families:
OA, RA, VA, RVC, CVA, SP), never an alphabetical one. Each table names its split, its row count n
and its coverage, so no number stands without its sample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .diagnosis import paragraph
from .markdown import markdown_table

__all__ = ["diagnosis_markdown"]


def _table(name: str, prof: Mapping[str, Any], n: int) -> list[str]:
    cols = list(prof["headline"])
    split = prof.get("split")
    cov = (prof.get("coverage") or {}).get(split)
    row = [name, *(prof["headline"].get(c) for c in cols), split, n, cov]
    return [markdown_table(["benchmark", *cols, "split", "n", "coverage"], [row]), ""]


def diagnosis_markdown(profiles: Mapping[str, Mapping[str, Any]],
                       records: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]]) -> list[str]:
    """One ``## Model: <name>`` section per model: the generated paragraph, then one headline row per suite."""
    out: list[str] = []
    for model, per in profiles.items():
        recs = records.get(model, {})
        out += [f"## Model: {model}", "", paragraph(model, recs), ""]
        for name, prof in per.items():
            out += _table(name, prof, len(recs.get(name, ())))
    return out
