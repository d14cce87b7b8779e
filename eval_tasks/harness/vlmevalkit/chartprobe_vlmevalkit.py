"""chartprobe's datasets in VLMEvalKit: ``ChartprobeDataset``, scored by chartprobe, not a generic matcher.

Written by ``chartprobe export vlmevalkit`` beside the ``chartprobe_<task>.tsv`` files it exported
(formats of open-compass/VLMEvalKit@e8e78f05f3080fe28154f2130321f17951c3be94). Each TSV is one
chartprobe task; VLMEvalKit's dataset name is the task name. Run VLMEvalKit with this class
registered (VLMEvalKit has no plug-in hook, so this file registers it, then runs ``run.py``)::

    export LMUData=/path/to/the/export      # where the TSVs are (or copy them into $LMUData)
    python chartprobe_vlmevalkit.py --data chartprobe_probes_bar_perception --model Qwen2-VL-2B-Instruct

Any ``run.py`` argument works; ``VLMEVALKIT_RUN`` names ``run.py`` when it is not in the
VLMEvalKit checkout ``vlmeval`` was installed from. In your own launcher, call :func:`register`
before VLMEvalKit builds a dataset (a config JSON can then say ``"class": "ChartprobeDataset"``).

``evaluate()`` scores the prediction file with ``chartprobe score`` (chartprobe must be
installed where VLMEvalKit runs; it is imported only then): typed answer extraction and matching
against the gold of the release, the benchmark's own metrics. It writes chartprobe's results
JSON beside the predictions (``<model>_<task>_chartprobe.json``, what ``chartprobe report``
reads) and returns the task's metrics. The gold is read from the release in :data:`RELEASES`
(the releases exported into this folder), from ``CHARTPROBE_DATA`` when that is set (a folder
of ``chartprobe-<name>/`` releases), else from the Hub release at its pinned revision.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

from vlmeval.dataset.image_base import ImageBaseDataset
from vlmeval.smp import LMUDataRoot

RELEASES = {}  # dataset -> the release folder its gold is read from (set by `chartprobe export vlmevalkit`)

PREFIX = "chartprobe_"


class ChartprobeDataset(ImageBaseDataset):
    """Every ``chartprobe_<task>.tsv`` in ``$LMUData``: VLMEvalKit's prompt (images, then ``question``),
    chartprobe's scoring."""

    TYPE = "ChartProbe"  # not 'VQA': models rewrite VQA prompts, and the prompt is the task's own
    MODALITY = "IMAGE"

    @classmethod
    def supported_datasets(cls):
        return sorted(p.stem for p in Path(LMUDataRoot()).glob(f"{PREFIX}*.tsv") if not p.stem.endswith("_local"))

    def load_data(self, dataset):
        import pandas as pd

        # every cell as text: pandas would make "1.50" a number, and the predictions keep these cells
        return pd.read_csv(Path(LMUDataRoot()) / f"{dataset}.tsv", sep="\t", dtype=str, na_filter=False)

    def evaluate(self, eval_file, **judge_kwargs):
        from chartprobe.eval_tasks.harness.vlmevalkit.evaluate import evaluate_predictions

        return evaluate_predictions(eval_file, releases=None if os.environ.get("CHARTPROBE_DATA") else RELEASES)

    @classmethod
    def report_primary_metric(cls, metrics):
        """The task's headline: its first metric (what lm-eval's table lists first)."""
        for key, value in (metrics or {}).items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return {str(key): value}
        return {}


def register() -> None:
    """Make VLMEvalKit build ``chartprobe_*`` datasets with :class:`ChartprobeDataset`."""
    import vlmeval.dataset as registry

    if ChartprobeDataset not in registry.DATASET_CLASSES:
        registry.DATASET_CLASSES.append(ChartprobeDataset)
        registry.SUPPORTED_DATASETS.extend(ChartprobeDataset.supported_datasets())
    registry.ChartprobeDataset = ChartprobeDataset


def main(argv=None) -> None:
    """:func:`register`, then VLMEvalKit's ``run.py`` with ``argv``."""
    import vlmeval

    register()
    run = Path(os.environ.get("VLMEVALKIT_RUN") or Path(vlmeval.__file__).resolve().parents[1] / "run.py")
    if not run.is_file():
        sys.exit(f"chartprobe_vlmevalkit: no VLMEvalKit run.py at {run}; set VLMEVALKIT_RUN=/path/to/run.py")
    sys.argv = [str(run), *(sys.argv[1:] if argv is None else argv)]
    runpy.run_path(str(run), run_name="__main__")


if __name__ == "__main__":
    main()
