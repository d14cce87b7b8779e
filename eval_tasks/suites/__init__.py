"""Benchmark suites: how one chartprobe benchmark is scored, summarized and validated.

One file per benchmark registers a :class:`~chartprobe.eval_tasks.suites._base.Suite` with
``@suite("<release name>")``; ``chartprobe score``, ``report`` and ``validate`` find it
through :data:`SUITES`, so adding a benchmark to them is one new file here.
"""

from __future__ import annotations

from chartprobe.dataset_builders.core.registry import Registry

__all__ = ["SUITES", "suite", "suite_for_release", "suite_for_task", "suite_names"]

SUITES = Registry("suite", "chartprobe.eval_tasks.suites")
suite = SUITES.register


def suite_for_release(release: str):
    """The suite instance for a release (dataset) name, e.g. ``"probes"``, or for a released
    protocol's suite name, e.g. ``"judge_paper"`` (:mod:`._paper`)."""
    if release not in SUITES:
        from ._paper import paper_suite_named

        paper = paper_suite_named(release)
        if paper is not None:
            return paper()
    return SUITES.get(release)()


def suite_names() -> list[str]:
    """Every suite a results file may hold records of: the releases', then the released protocols'."""
    from ._paper import PAPER_SUITES

    return [*SUITES.names(), *(cls.name for cls in PAPER_SUITES.values())]


def suite_for_task(task: str):
    """The suite instance that scores lm-eval task ``task``: its release's, or for a ``*_paper`` task
    the released protocol's (:mod:`._paper`); None for a task we do not know or cannot rescore."""
    from ._paper import PAPER_SUITES
    from ._task_index import task_index

    data = task_index().get(task)
    if data is None or data.release not in SUITES:
        return None
    if not data.rescored:
        return PAPER_SUITES[data.release]() if data.protocol == "paper" and data.release in PAPER_SUITES else None
    return SUITES.get(data.release)()
