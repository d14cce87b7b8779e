"""Check an lm-eval samples file before anything is scored: the project's reader, the suites' keys.

Lines are read with ``chartprobe.eval_tasks.rescoring.predictions.iter_samples`` (what ``chartprobe
score`` reads), and each document must carry the identity its task's suite keys it by
(``Suite.doc_key``: the row ``id``, or a CPA document's ``pair_id`` + ``order``), so every
file our lm-eval tasks write passes and a file of another harness task is recognised (and
skipped by the caller) from its task name, without reading it through.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["SamplesCheck", "check_samples_file"]


@dataclass(frozen=True)
class SamplesCheck:
    """What a samples file holds: its lm-eval task, and how many samples (None: not a chartprobe task)."""

    task: str
    samples: int | None

    @property
    def is_chartprobe(self) -> bool:
        """Whether a chartprobe suite scores this task."""
        return self.samples is not None


def _task_of(path: Path) -> str:
    from chartprobe.eval_tasks.rescoring.predictions import _SAMPLES_NAME, sample_files
    from chartprobe.eval_tasks.rescoring.predictions import PredictionsError as HarnessError

    from chartspace.errors import PredictionsError

    try:
        sample_files([path])
    except HarnessError:
        raise PredictionsError(f"{path.name}: the name must be samples_<task>_<date>.jsonl, as lm-eval "
                               "--log_samples writes it") from None
    return _SAMPLES_NAME.match(path.name)["task"]


def check_samples_file(path: Path) -> SamplesCheck:
    """Schema-check one samples file line by line (an empty file is allowed: a task with no rows
    in a small release). Problems raise ``PredictionsError`` naming the file (never the
    server's path) and the line."""
    from chartprobe.eval_tasks.rescoring.predictions import PredictionsError as HarnessError
    from chartprobe.eval_tasks.rescoring.predictions import iter_samples
    from chartprobe.eval_tasks.suites import SUITES, suite_for_task

    from chartspace.errors import PredictionsError

    task = _task_of(path)
    suite = suite_for_task(task)
    if suite is None or suite.name not in SUITES:  # unknown, or a released protocol's (*_paper): named apart
        return SamplesCheck(task, None)
    n = 0
    try:
        for n, sample in enumerate(iter_samples(path), 1):
            if suite.doc_key(sample.doc) in ("None", ""):
                raise PredictionsError(f"{path.name} line {n}: the doc has no 'id' nor the fields task {task} "
                                       f"keys its documents by (not a chartprobe task's document)")
    except HarnessError as exc:
        raise PredictionsError(str(exc).replace(str(path), path.name)) from None
    except UnicodeDecodeError:
        raise PredictionsError(f"{path.name} is not UTF-8 text") from None
    return SamplesCheck(task, n)
