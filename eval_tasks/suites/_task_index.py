"""Which lm-eval task reads which release rows, read from the task YAMLs themselves.

``chartprobe score`` and the reference agents must name rows exactly as lm-eval does
(``samples_<task>_<date>.jsonl``), and a new benchmark's tasks must be picked up without
editing a list here. So the index is built from ``eval_tasks/harness/tasks/*.yaml``: every leaf
task names its release, config, optional row filter (``chartprobe_where``) and test split
in ``dataset_kwargs`` (following ``include:`` chains). Group files and templates without
``.yaml`` are not tasks and are skipped, as lm-eval does.

A task's ``metadata.chartprobe_protocol`` says whose rules it follows: ``chartprobe`` (the
default: our prompts and typed scorer, which ``chartprobe score``, the reference agents and the
Space reproduce) or ``paper`` (``*_paper`` tasks: a paper's released prompts, decoding and
parsing rules, scored by lm-eval's own table only).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["TaskData", "task_index", "tasks_for_rows"]

TASKS_DIR = Path(__file__).resolve().parents[1] / "harness" / "tasks"


class _TaskLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml where built: ~6x faster
    """SafeLoader that keeps lm-eval's ``!function module.name`` tags as plain strings."""


_TaskLoader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


@dataclass(frozen=True)
class TaskData:
    """The rows one lm-eval task evaluates."""

    task: str
    release: str
    config: str
    split: str = "test"
    where: Mapping[str, Any] = field(default_factory=dict)
    protocol: str = "chartprobe"

    @property
    def rescored(self) -> bool:
        """Whether ``chartprobe score`` and the reference agents reproduce this task's scoring."""
        return self.protocol == "chartprobe"

    def selects(self, config: str, split: str, row: Mapping[str, Any]) -> bool:
        """Whether ``row`` of ``config``/``split`` is one of this task's documents."""
        return (config == self.config and split == self.split
                and all(row.get(k) == v for k, v in self.where.items()))


def _load(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(), Loader=_TaskLoader) or {}
    bases = data.pop("include", None) or []
    merged: dict[str, Any] = {}
    for base in [bases] if isinstance(bases, str) else bases:  # later includes win, as in lm-eval
        merged.update(_load(path.parent / base))
    return {**merged, **data}  # the leaf's own keys override the included bodies


@functools.lru_cache(maxsize=4)
def task_index(tasks_dir: str | None = None) -> dict[str, TaskData]:
    """Task name -> :class:`TaskData` for every chartprobe leaf task in ``tasks_dir``."""
    out: dict[str, TaskData] = {}
    for path in sorted(Path(tasks_dir or TASKS_DIR).glob("*.yaml")):
        data = _load(path)
        kwargs = data.get("dataset_kwargs") or {}
        if "task" not in data or "chartprobe_release" not in kwargs:
            continue
        out[data["task"]] = TaskData(
            task=data["task"], release=kwargs["chartprobe_release"],
            config=kwargs.get("chartprobe_config", "default"), split=data.get("test_split", "test"),
            where=dict(kwargs.get("chartprobe_where") or {}),
            protocol=str((data.get("metadata") or {}).get("chartprobe_protocol", "chartprobe")))
    return out


def tasks_for_rows(release: str, config: str, split: str, row: Mapping[str, Any]) -> list[str]:
    """Every task that evaluates ``row`` (a row may feed a per-group task and an 'all' task)."""
    return [t.task for t in task_index().values()
            if t.rescored and t.release == release and t.selects(config, split, row)]
