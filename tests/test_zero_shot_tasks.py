"""Every chartprobe lm-eval task declares an empty few-shot pool (issue 47, eval memory).

Without one, lm-eval's ``ConfigurableTask`` builds its few-shot sampler from the test split when
the task is constructed (``list(self.fewshot_docs())``): every document of the split, images
decoded, held for the whole run. Over the quick start's task list that was 1.5 GB of the 2.58 GB
peak of ``chartprobe eval --limit 6`` with a < 1 MB model (1.06 GB with the empty pool).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.suites._task_index import _load, task_index

TASKS = sorted(task_index())


@pytest.mark.parametrize("task", TASKS)
def test_task_declares_an_empty_few_shot_pool(task):
    (path,) = [p for p in Path(tasks_path()).glob("*.yaml") if _load(p).get("task") == task]
    assert _load(path).get("fewshot_config") == {"sampler": "first_n", "samples": []}, path.name


def test_a_constructed_task_holds_no_documents(smoke_release, monkeypatch):
    """lm-eval builds the task without reading one document into its few-shot sampler."""
    from chartprobe.eval_tasks.rescoring import data
    from lm_eval.tasks import TaskManager, get_task_dict

    monkeypatch.setenv(data.ENV_VAR, str(smoke_release.parent))
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    task = get_task_dict(["chartprobe_smoke"], TaskManager(include_path=tasks_path(), include_defaults=False))["chartprobe_smoke"]
    assert len(task.test_docs()) == 20
    assert list(task.fewshot_docs()) == []
