"""What ``ChartprobeDataset.evaluate()`` runs inside VLMEvalKit: ``chartprobe score`` on its prediction file.

The prediction file is scored exactly as ``chartprobe score --predictions FILE`` scores it (the same
:func:`~chartprobe.eval_tasks.rescoring.rescore.write_scored`): the results JSON is written beside it as
``<model>_<task>_chartprobe.json`` (``chartprobe report`` reads it), and the task's metrics
(lm-eval's table's numbers, headline first) plus its document count are returned to VLMEvalKit.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["evaluate_predictions", "results_path"]


def results_path(eval_file: str | os.PathLike) -> Path:
    """Where the results JSON of prediction file ``eval_file`` goes: beside it, ``<stem>_chartprobe.json``."""
    path = Path(eval_file)
    return path.with_name(f"{path.stem}_chartprobe.json")


def _release_of(eval_file: Path, releases: Mapping[str, str]) -> str | None:
    """The release folder ``releases`` names for the dataset of the file's task (None: not named)."""
    from ...rescoring.vlmevalkit_layout import PREDICTION_NAME
    from ...scoring.sample_types import PredictionsError
    from ...suites._task_index import task_index

    m = PREDICTION_NAME.match(eval_file.name)
    if m is None:
        raise PredictionsError(f"{eval_file} is not named <model>_<task>.xlsx|.tsv (VLMEvalKit)")
    task = task_index().get(m["task"])
    return None if task is None else releases.get(task.release)


def evaluate_predictions(eval_file: str | os.PathLike, releases: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Score VLMEvalKit prediction file ``eval_file``; the gold from the release folder ``releases``
    names for its dataset, else ``CHARTPROBE_DATA``, else the Hub. Returns ``{metric: value, ..., "n": documents}``."""
    from ...rescoring.predictions import read_json
    from ...rescoring.rescore import write_scored
    from .releases import release_root

    eval_file = Path(eval_file)
    release = _release_of(eval_file, releases or {})
    out = results_path(eval_file)
    with contextlib.ExitStack() as stack:
        root = stack.enter_context(release_root(release)) if release is not None else None
        write_scored([eval_file], out, releases=root, progress=False)
    entry = next(iter(read_json(out)["models"].values()))
    metrics: dict[str, Any] = {}
    for task in entry["tasks"].values():  # one task per prediction file
        metrics.update(task["metrics"], n=task["n"])
    return metrics
