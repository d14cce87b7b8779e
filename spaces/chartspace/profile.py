"""The capability profile of the loaded models: ``chartprobe report`` run on their results.

The report module (``chartprobe.eval_tasks.report.build``) draws the same plots and comparison tables the
CLI writes; with two or more models loaded every plot and table compares them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from chartspace.predictions import PredictionSet

__all__ = ["build_profile"]

_PLOTS_SECTION = re.compile(r"\n## Plots\n.*\Z", re.DOTALL)


def build_profile(preds: PredictionSet, out: Path) -> tuple[list[Path], str]:
    """(plot PNGs, report markdown without its image links) for every loaded model; the
    runs' results documents (kept in memory) are written into ``out`` for the report."""
    from chartprobe.eval_tasks.report.build import build_report

    runs = [run for run in preds.runs.values() if run.results]  # an lm-eval table alone has no records
    if not runs:
        return [], "Load predictions first: the profile is drawn from them."
    paths = []
    for i, run in enumerate(runs):
        path = out / f"results-{i}.json"
        path.write_text(json.dumps(run.results, default=str))
        paths.append(path)
    report = build_report(paths, out)
    text = (out / "report.md").read_text()
    # The report also writes PDF/SVG copies for papers; the page shows the PNGs.
    pngs = [out / name for name in report["plots"] if str(name).endswith(".png")]
    return pngs, _PLOTS_SECTION.sub("\n", text)
