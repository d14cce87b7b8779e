"""Readable metric names (issue #18): lm-eval's table, score's table and the docs agree on one registry."""

from __future__ import annotations

from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.metrics.names import (
    NAMES,
    PREFIXES,
    describe,
    docs_page,
    paper_key,
    readable,
    readable_keys,
)
from chartprobe.eval_tasks.suites import suite_for_release
from chartprobe.eval_tasks.suites._task_index import task_index

ROOT = Path(__file__).resolve().parents[1]
TASKS = sorted(task_index())


def _metric_list(task: str) -> list[dict]:
    from lm_eval.tasks._yaml_loader import load_yaml  # lm-eval's own loader: includes and !function resolved

    return load_yaml(Path(tasks_path()) / f"{task}.yaml")["metric_list"]


@pytest.mark.parametrize("key", sorted(NAMES))
def test_every_key_has_one_readable_name_and_back(key):
    name = readable(key)
    assert name != key and name.isidentifier()  # an lm-eval aggregation is a module attribute of that name
    assert paper_key(name) == key and readable(name) == name  # a table name is its own table name
    assert describe(name) == describe(key) and describe(key)["readable"] == name


def test_names_are_unique_and_slices_keep_their_suffix():
    assert len({n.readable for n in NAMES.values()}) == len(NAMES)
    for head in PREFIXES:
        assert readable(f"{head}_mask_full") == f"{NAMES[head].readable}_mask_full"
        assert paper_key(f"{NAMES[head].readable}_mask_full") == f"{head}_mask_full"
    # names that are readable already pass through both ways, unregistered prefixes included
    for plain in ("accuracy", "two_pass_accuracy", "acc_100", "parse_fail_rate", "cr_bar", "aligned_acc"):
        assert readable(plain) == plain and paper_key(plain) == plain
    assert list(readable_keys({"ve": 1, "accuracy": 2, "ap_keep_target": 3})) == [
        "value_extraction", "accuracy", "abstention_precision_keep_target"]


@pytest.mark.parametrize("task", TASKS)
def test_no_task_prints_a_short_key(task):
    names = [m["metric"] for m in _metric_list(task)]
    assert names == [readable(n) for n in names], f"{task}: {names}"
    if task_index()[task].release in ("families", "legend") and not task.endswith("_resolution"):
        for m in _metric_list(task):  # `!function <utils>.<table name>`: the aggregation is named as it prints
            assert m["aggregation"].__name__ == m["metric"], (task, m)


@pytest.mark.parametrize("task", [t for t in TASKS if task_index()[t].release in ("families", "legend")])
def test_score_table_names_are_lm_evals(task):
    """``chartprobe score``'s per-task table uses lm-eval's names (families' p-value is lm-eval's only)."""
    data = task_index()[task]
    suite = suite_for_release(data.release)
    table = suite.task_table(data, [])
    assert set(table) <= {m["metric"] for m in _metric_list(task)}, task
    assert all(readable(k) == k for k in table)


def test_docs_page_is_the_registry():
    assert (ROOT / "docs" / "metrics.md").read_text() == docs_page(), \
        "docs/metrics.md is stale: python -m chartprobe.eval_tasks.metrics.names > docs/metrics.md"
