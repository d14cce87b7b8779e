"""Index only the ``--include_path`` tasks when a run asks for nothing else.

lm-eval's command line indexes every built-in task on each start (about 14,700 names: 8-12 s on our
2-core machines, longer than a tiny model's whole evaluation) although a chartprobe run needs only
the 75 names under its ``--include_path``. When every ``--tasks`` entry names a task, group or tag
defined there, a pattern starting ``chartprobe`` (which only ours can match) or a YAML file of one task
(a transfer task of training's evaluations), :func:`own_index`
makes lm-eval's ``TaskManager`` skip the built-in tree for the duration of the call
(``include_defaults=False``, its own switch); any other name (``chartqa``, a YAML path) keeps the
full index.
"""

from __future__ import annotations

import contextlib
import fnmatch
from collections.abc import Iterator, Sequence
from pathlib import Path

from .image_guard import _values


def own_task_names(include_path: str) -> set[str]:
    """Every task, group and tag name defined under ``include_path`` (lm-eval's own index of it)."""
    from lm_eval.tasks import TaskManager

    return set(TaskManager(include_path=include_path, include_defaults=False).all_tasks)


OWN_PREFIX = "chartprobe"
"""Our namespace: no built-in lm-eval task starts with it, so a pattern whose literal start does can only
match ours (``chart*`` could match the built-in ``chartqa``, and keeps the full index)."""


def _single_task_file(entry: str) -> bool:
    """Whether ``entry`` is a task YAML file defining one task (``task: <name>``): lm-eval builds it from the
    file itself, without looking any name up (a group's ``task:`` list would need the index)."""
    path = Path(entry)
    if path.suffix not in (".yaml", ".yml") or not path.is_file():
        return False
    from lm_eval.tasks._yaml_loader import load_yaml

    try:
        config = load_yaml(path, resolve_func=False)
    except Exception:  # noqa: BLE001  (lm-eval reports a broken file; the full index changes nothing)
        return False
    return isinstance(config.get("task"), str) and "group" not in config


def _ours(entry: str, names: set[str]) -> bool:
    if _single_task_file(entry):
        return True
    wildcard = next((i for i, c in enumerate(entry) if c in "*?["), None)
    if wildcard is None:
        return entry in names
    return entry[:wildcard].startswith(OWN_PREFIX) and bool(fnmatch.filter(names, entry))


def asks_only_for(argv: Sequence[str], names: set[str]) -> bool:
    """Whether every ``--tasks`` entry of ``argv`` is one of ``names`` or a pattern that can match only ours."""
    requested = [t.strip() for t in (_values(argv).get("--tasks") or "").split(",") if t.strip()]
    return bool(requested) and all(_ours(t, names) for t in requested)


def include_path_of(argv: Sequence[str]) -> str | None:
    """The ``--include_path`` value of an lm-eval command line (lm-eval takes one), or None."""
    for i, arg in enumerate(argv):
        if arg == "--include_path" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--include_path="):
            return arg.partition("=")[2]
    return None


@contextlib.contextmanager
def own_index(argv: Sequence[str]) -> Iterator[bool]:
    """Within the block, lm-eval's ``TaskManager`` indexes only ``argv``'s ``--include_path`` if ``argv``
    asks for nothing else; yields whether it does."""
    from lm_eval import tasks

    include_path = include_path_of(argv)
    if include_path is None or not asks_only_for(argv, own_task_names(include_path)):
        yield False
        return
    full = tasks.TaskManager

    class OwnTasksOnly(full):
        def __init__(self, *args, **kwargs):
            kwargs.setdefault("include_defaults", False)
            super().__init__(*args, **kwargs)

    tasks.TaskManager = OwnTasksOnly  # read by lm-eval's CLI (config.evaluate_config) when it runs
    try:
        yield True
    finally:
        tasks.TaskManager = full


def lm_eval_cli(argv: Sequence[str]) -> None:
    """lm-eval's own command line on ``argv`` (``sys.argv`` set for the call), indexing only its
    ``--include_path`` tasks when ``argv`` asks for nothing else.

    ``python -m chartprobe.eval_tasks.harness.own_index ARGS`` runs it in a fresh process (training's
    evaluations); lm-eval's exit status is then the process's."""
    import sys

    from lm_eval.__main__ import cli_evaluate

    saved = sys.argv
    sys.argv = ["lm_eval", *argv]
    try:
        with own_index(argv):
            cli_evaluate()
    finally:
        sys.argv = saved


if __name__ == "__main__":
    import sys

    lm_eval_cli(sys.argv[1:])
