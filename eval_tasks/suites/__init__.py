"""Benchmark suites: how one chartprobe benchmark is scored, summarized and validated.

One file per benchmark registers a :class:`~chartprobe.eval_tasks.suites._base.Suite` with
``@suite("<release name>")``; ``chartprobe score``, ``report`` and ``validate`` find it
through :data:`SUITES`, so adding a benchmark to them is one new file here.
"""

from __future__ import annotations

from chartprobe.dataset_builders.core.registry import Registry

__all__ = ["SUITES", "suite", "suite_for_release", "suite_for_task"]

SUITES = Registry("suite", "chartprobe.eval_tasks.suites")
suite = SUITES.register


def suite_for_release(release: str):
    """The suite instance for a release (dataset) name, e.g. ``"probes"``."""
    return SUITES.get(release)()


def suite_for_task(task: str):
    """The suite instance that scores lm-eval task ``task`` (None for a task we do not know, and for a
    ``*_paper`` task: lm-eval's table is its score, under the released rules)."""
    from ._task_index import task_index

    data = task_index().get(task)
    if data is None or not data.rescored or data.release not in SUITES:
        return None
    return SUITES.get(data.release)()
