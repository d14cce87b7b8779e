"""lmms-eval hooks of the chartprobe tasks: each lm-eval task's own documents, images and system turn.

The lmms-eval task tree (``eval_tasks/harness/lmms/tasks/``, ``chartprobe lmms-tasks-path``) is generated from
the lm-eval one (:mod:`chartprobe.eval_tasks.harness.lmms.convert`). Prompts (``doc_to_text``), scoring
(``process_results``) and every aggregation are the lm-eval tasks' own functions, named by absolute
``!function chartprobe.eval_tasks.harness.tasks.<utils>.<name>`` paths. What lmms-eval cannot take from the
lm-eval YAML is looked up here, per task, from that YAML at run time:

- ``docs__<task>``: lmms-eval has no ``custom_dataset`` hook (it always calls
  ``datasets.load_dataset(dataset_path, ...)``, then ``process_docs``). So each lmms task loads a
  one-line stub (``harness/lmms/tasks/_stub.jsonl``) and its ``process_docs`` replaces it with what the
  lm-eval task's ``custom_dataset`` returns: the same rows in the same order (``doc_id``), the same
  columns and prompts, the same ``CHARTPROBE_DATA`` switch, CPA's two orders per pair.
  The documents carry no ``<image>`` placeholder (``chartprobe_image_token=""``, as for API models):
  lmms-eval's models place the images themselves, before the text.
- ``visuals__<task>``: the lm-eval task's ``doc_to_image`` columns, in order (both judge images).
- ``messages__<task>``: only for tasks with a ``description`` (the CRJ ``_paper`` tasks send the
  released prompt as the system turn): a system turn, then the images and the text. lmms-eval's
  chat models otherwise drop a task's description.

lmms-eval resolves ``!function a.b.c`` by ``getattr(import_module("a.b"), "c")``, hence the module
``__getattr__``. Importing this module (lmms-eval does, for ``process_docs``, before it aggregates)
also gives lmms-eval's stderr column the cluster bootstrap lm-eval's has
(:mod:`chartprobe.eval_tasks.harness.lm_eval_stderr`): lmms-eval kept lm-eval's ``stderr_for_metric`` lookup,
so the same wrapper extends it; without it every cross-document metric reads ``N/A``.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["install_stderr", "lm_eval_config", "load_docs", "messages", "visuals"]

_UTILS_PACKAGE = "chartprobe.eval_tasks.harness.tasks"
NO_PLACEHOLDER = {"chartprobe_image_token": ""}
"""Loader metadata: prompts without ``<image>`` (lmms-eval's models insert the image tokens)."""


@functools.cache
def lm_eval_config(task: str) -> dict[str, Any]:
    """The lm-eval YAML of leaf task ``task`` with its ``include:`` chain merged (``!function`` kept as text)."""
    from ...suites._task_index import TASKS_DIR, _load

    for path in sorted(TASKS_DIR.glob("*.yaml")):
        data = _load(path)
        if data.get("task") == task:
            return data
    raise KeyError(f"no lm-eval chartprobe task named {task!r} in {TASKS_DIR}")


def resolve_function(tag: str) -> Callable:
    """``"!function judge_utils.load_cpa"`` (a utils module beside the lm-eval YAMLs) -> the function."""
    module, _, name = tag.removeprefix("!function").strip().rpartition(".")
    return getattr(importlib.import_module(f"{_UTILS_PACKAGE}.{module}"), name)


def load_docs(task: str, split: str | None = None):
    """The documents of lm-eval task ``task`` (its ``test_split``), as its ``custom_dataset`` loads them."""
    config = lm_eval_config(task)
    loader = resolve_function(config["custom_dataset"])
    docs = loader(**(config.get("dataset_kwargs") or {}), **NO_PLACEHOLDER)
    return docs[split or config.get("test_split", "test")]


def visuals(task: str, doc: dict[str, Any]) -> list:
    """The images of one document, in the lm-eval task's ``doc_to_image`` order."""
    return [doc[column] for column in lm_eval_config(task)["doc_to_image"]]


def messages(task: str, doc: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """lmms-eval chat messages: the task's ``description`` as system turn (if not empty), then images + text."""
    config = lm_eval_config(task)
    description = config.get("description") or ""
    system = str(doc[description]) if description in doc else description  # a column, as lm-eval reads it
    user = [{"type": "image", "url": image} for image in visuals(task, doc)] + [{"type": "text", "text": text}]
    turns = [{"role": "system", "content": [{"type": "text", "text": system}]}] if system else []
    return [*turns, {"role": "user", "content": user}]


def _render(task: str, doc: dict[str, Any]) -> str:
    """The task's ``doc_to_text`` for ``doc``, as lmms-eval renders it (a column name, else Jinja)."""
    from lmms_eval.utils import apply_template

    template = lm_eval_config(task)["doc_to_text"]
    return str(doc[template]) if template in doc else apply_template(template, doc)


_HOOKS: dict[str, Callable[[str], Callable]] = {
    "docs": lambda task: lambda dataset: load_docs(task),  # the stub dataset is replaced whole
    "visuals": lambda task: functools.partial(visuals, task),
    "messages": lambda task: lambda doc, **_: messages(task, doc, _render(task, doc)),
}


def install_stderr() -> bool:
    """Wrap lmms-eval's ``stderr_for_metric`` as lm-eval's is wrapped (idempotent; False without lmms-eval)."""
    from .. import lm_eval_stderr

    try:
        modules = [importlib.import_module(name) for name in ("lmms_eval.evaluator_utils", "lmms_eval.api.metrics")]
    except ImportError:
        return False
    for module in modules:
        current = getattr(module, "stderr_for_metric", None)
        if current is not None and not getattr(current, lm_eval_stderr._WRAPPER_ATTR, False):
            module.stderr_for_metric = lm_eval_stderr._wrap(current)
    return True


install_stderr()


def __getattr__(name: str) -> Callable:
    kind, sep, task = name.partition("__")
    if not sep or kind not in _HOOKS or not task.startswith("chartprobe"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _HOOKS[kind](task)
