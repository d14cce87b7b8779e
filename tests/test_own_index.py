"""``chartprobe eval`` indexes only chartprobe's tasks when nothing else is asked for
(``eval_tasks/harness/own_index.py``): lm-eval's ~14,700 built-in names cost seconds on every start."""

from __future__ import annotations

import pytest
from chartprobe.eval_tasks.harness.own_index import asks_only_for, own_index, own_task_names
from chartprobe.eval_tasks.harness.runner import tasks_path


@pytest.fixture(scope="module")
def ours() -> set[str]:
    return own_task_names(tasks_path())


def test_our_index_has_every_task_group_and_tag_of_the_task_index(ours):
    from chartprobe.eval_tasks.suites._task_index import task_index

    assert set(task_index()) <= ours and {"chartprobe", "chartprobe-all", "chartjudgebench", "legendbench"} <= ours


@pytest.mark.parametrize(("tasks", "only_ours"), [
    ("chartprobe_judge_cpa", True), ("chartprobe_probes_bar_perception,legendbench", True),
    ("chartprobe_*", True), ("chartprobe_judge_c?a", True),
    ("chartprobe,chartqa", False),      # a built-in task: the full index
    ("chart*", False),                  # would match the built-in chartqa too
    ("*", False), ("chartprobe_nothing_*", False), ("tasks/my.yaml", False)])
def test_only_runs_asking_for_ours_alone_skip_the_built_in_index(tasks, only_ours, ours):
    assert asks_only_for(["run", "--model", "hf", "--tasks", tasks], ours) is only_ours
    assert asks_only_for(["--model", "hf", f"--tasks={tasks}"], ours) is only_ours


def test_a_one_task_yaml_needs_no_index_but_a_group_file_does(ours, tmp_path):
    one = tmp_path / "transfer.yaml"
    one.write_text("task: transfer_fixture\ndataset_path: parquet\noutput_type: generate_until\n")
    group = tmp_path / "group.yaml"
    group.write_text("group: mine\ntask: [chartqa, chartprobe_judge_cpa]\n")
    assert asks_only_for(["--tasks", f"chartprobe_legend,{one}"], ours)
    assert not asks_only_for(["--tasks", f"chartprobe_legend,{group}"], ours)
    assert not asks_only_for(["--tasks", str(tmp_path / "absent.yaml")], ours)


def test_no_tasks_flag_keeps_the_full_index(ours):
    assert not asks_only_for(["ls", "tasks"], ours)


def test_the_task_manager_skips_the_built_in_tree_only_inside_the_block():
    from lm_eval import tasks

    full = tasks.TaskManager
    with own_index(["--tasks", "chartprobe_judge_cpa", "--include_path", tasks_path()]) as skipped:
        assert skipped and tasks.TaskManager is not full
        manager = tasks.TaskManager(include_path=tasks_path())
        assert "chartprobe_judge_cpa" in manager.all_tasks and "chartqa" not in manager.all_tasks
    assert tasks.TaskManager is full
    with own_index(["--tasks", "chartprobe_judge_cpa,chartqa", "--include_path", tasks_path()]) as skipped:
        assert not skipped and tasks.TaskManager is full
    with own_index(["--tasks", "chartprobe_judge_cpa"]) as skipped:  # no include path: nothing of ours known
        assert not skipped and tasks.TaskManager is full
