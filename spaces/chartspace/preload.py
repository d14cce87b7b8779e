"""Every run in the server's ``--predictions`` folder, loaded once at start.

Each entry :func:`chartspace.predictions.allowed_entries` offers (a model folder of samples
files, or a ``chartprobe score`` results file) is loaded the way the Predictions tab loads
it; the set is every session's starting state, so the leaderboard lists every model at once.
An entry that does not load is reported on stderr and skipped: one bad folder must not keep
the Space from serving the others.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from chartspace.errors import PredictionsError
from chartspace.predictions import PredictionSet, allowed_entries, load_allowed

__all__ = ["preload"]


def preload(root: Path | None, workdir: Path) -> PredictionSet:
    """A :class:`PredictionSet` of every run under ``root`` (empty when there is no root)."""
    preds = PredictionSet()
    for choice in allowed_entries(root):
        with tempfile.TemporaryDirectory(prefix="preload-", dir=workdir) as scratch:
            try:
                runs = load_allowed(root, choice, Path(scratch))
            except (PredictionsError, OSError, ValueError) as exc:  # reported, the others still load
                print(f"chartspace: skipped {choice}: {exc}", file=sys.stderr)
                continue
        for run in runs:
            preds = preds.with_run(run)
    if root is not None:
        print(f"chartspace: preloaded {len(preds.runs)} model(s) from {root}", file=sys.stderr)
    return preds
