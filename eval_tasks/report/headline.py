"""The first sections of ``report.md``: per model, the diagnosis paragraph and its headline tables.

Headline columns keep the order each suite's ``headline()`` gives, which follows its paper's
headline table (LegendBench: QA, Chain, ConsResp, AF1; ChartProbe: per skill then CR; families:
OA, RA, VA, RVC, CVA, SP), never an alphabetical one. Each table names its split, its row count n
and its coverage, and every number carries its 95% interval (:mod:`.intervals`), so no number
stands without its sample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .diagnosis import paragraph
from .intervals import cell, headline_intervals
from .markdown import markdown_table

__all__ = ["INTERVAL_NOTE", "PAPER_ORDER", "diagnosis_markdown", "paper_columns"]

INTERVAL_NOTE = ("Brackets: 95% cluster-bootstrap interval (charts, families, pairs resampled whole; "
                 "the headline recomputed on each draw).")

PAPER_ORDER = {"probes": ("perception", "grounding", "reasoning", "complex", "CR fuzzy", "parse fail")}
"""Column prefixes in the paper's order where a suite's headline() follows its data (ChartProbe's
P, G, SR, then complex reasoning); other suites' headline() is already in their paper's order."""


def paper_columns(suite: str, cols: Sequence[str]) -> list[str]:
    """``cols`` in ``suite``'s paper order (stable: unknown columns keep their place after the known ones)."""
    order = PAPER_ORDER.get(suite)
    if not order:
        return list(cols)
    rank = {c: next((i for i, p in enumerate(order) if c.startswith(p)), len(order)) for c in cols}
    # the macro column before its "(micro)" twin, each skill's pair together
    return sorted(cols, key=lambda c: (rank[c], c.endswith("(micro)")))


def _table(name: str, prof: Mapping[str, Any], records: Sequence[Mapping[str, Any]]) -> list[str]:
    from ..suites import suite_for_release

    cols = paper_columns(name, list(prof["headline"]))
    split = prof.get("split")
    cov = (prof.get("coverage") or {}).get(split)
    cis = headline_intervals(suite_for_release(name), records) if records else {}
    row = [name, *(cell(prof["headline"].get(c), cis.get(c)) for c in cols), split, len(records), cov]
    return [markdown_table(["benchmark", *cols, "split", "n", "coverage"], [row]), ""]


def diagnosis_markdown(profiles: Mapping[str, Mapping[str, Any]],
                       records: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]],
                       progress: bool = True) -> list[str]:
    """One ``## Model: <name>`` section per model: the generated paragraph, then one headline row per suite
    (``progress``: a stderr bar over models; off where the caller shows its own)."""
    from tqdm.auto import tqdm

    out: list[str] = []
    # the bootstrap intervals take a moment per model: a stderr bar, hidden when stderr is not a terminal
    for model, per in tqdm(profiles.items(), desc="report: diagnosis", unit="model", disable=None if progress else True,
                           leave=False):
        recs = records.get(model, {})
        out += [f"## Model: {model}", "", paragraph(model, recs), ""]
        for name, prof in per.items():
            out += _table(name, prof, recs.get(name, ()))
        out += [INTERVAL_NOTE, ""]
    return out
