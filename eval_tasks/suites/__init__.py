"""Benchmark suites: how one chartprobe benchmark is scored, summarized and validated.

One file per benchmark registers a :class:`~chartprobe.eval_tasks.suites._base.Suite` with
``@suite("<release name>")``; ``chartprobe score``, ``report`` and ``validate`` find it
through :data:`SUITES`, so adding a benchmark to them is one new file here.
"""

from __future__ import annotations

from chartprobe.dataset_builders.core.registry import Registry

__all__ = ["PAPER_SUITES", "SUITES", "paper_suite", "suite", "suite_for_release", "suite_for_task", "suite_names"]

SUITES = Registry("suite", "chartprobe.eval_tasks.suites")
suite = SUITES.register

PAPER_SUITES: dict[str, type] = {}
"""Release name -> the suite that rescores its ``*_paper`` tasks under the paper's released rules
(``judge_paper``, ``families_paper``): registered beside their release's suite with :func:`paper_suite`,
kept out of :data:`SUITES` (which lists releases: ``validate`` and the agents iterate it). Their records
sit under their own suite names, so they never pool with ours of the same rows."""


def paper_suite(release: str):
    """Register a class as ``release``'s released-protocol suite (its ``name``: ``<release>_paper``)."""
    def register(cls: type) -> type:
        cls.name = f"{release}_paper"
        PAPER_SUITES[release] = cls
        return cls
    return register


def _paper_named(name: str) -> type | None:
    SUITES.load()  # the release modules register their paper suites as they load
    return next((cls for cls in PAPER_SUITES.values() if cls.name == name), None)


def suite_for_release(release: str):
    """The suite instance for a release (dataset) name, e.g. ``"probes"``, or for a released
    protocol's suite name, e.g. ``"judge_paper"`` (:data:`PAPER_SUITES`)."""
    if release not in SUITES:
        paper = _paper_named(release)
        if paper is not None:
            return paper()
    return SUITES.get(release)()


def suite_names() -> list[str]:
    """Every suite a results file may hold records of: the releases', then the released protocols'."""
    names = SUITES.names()  # loads the release modules, which register the paper suites
    return [*names, *(cls.name for cls in PAPER_SUITES.values())]


def suite_for_task(task: str):
    """The suite instance that scores lm-eval task ``task``: its release's, or for a ``*_paper`` task
    the released protocol's (:data:`PAPER_SUITES`); None for a task we do not know or cannot rescore."""
    from ._task_index import task_index

    data = task_index().get(task)
    if data is None or data.release not in SUITES:
        return None
    if not data.rescored:
        return PAPER_SUITES[data.release]() if data.protocol == "paper" and data.release in PAPER_SUITES else None
    return SUITES.get(data.release)()
