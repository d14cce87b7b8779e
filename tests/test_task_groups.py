"""The task groups users select: one umbrella that runs every benchmark's test split once, one group
per paper, and the opt-in variants outside both (expanded with lm-eval's own TaskManager)."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest
import warm_python
from chartprobe.eval_tasks.harness.eval_args import check_task_names
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.suites._task_index import task_index

UMBRELLA = "chartprobe-all"
PAPER_GROUPS = {"chartprobe": "probes", "chartographer": "families", "legendbench": "legend",
                "chartjudgebench": "judge"}
OPT_IN_SUFFIXES = ("_vote", "_paper", "_style_shift", "_real")  # opt-in tags, not in the umbrella


@pytest.fixture(scope="module")
def manager():
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=tasks_path(), include_defaults=False)


def _leaves(manager, name: str) -> list[str]:
    """The leaf tasks lm-eval runs for ``name``, through nested groups and tags, from lm-eval's own index
    (its entries' kinds and configs; building the tasks would load their data)."""
    entry = manager.task_index[name]
    kind = entry.kind.name
    if kind == "TASK":
        return [name]
    members = sorted(entry.tags) if kind == "TAG" else entry.cfg["task"]
    return [leaf for m in members for leaf in _leaves(manager, m)]


def _test_configs() -> set[tuple[str, str]]:
    """(benchmark, config) of every test-split task that is not a subset of another config's task."""
    index = task_index()
    out = set()
    for t in index.values():
        if t.release == "smoke" or t.split != "test" or t.task.endswith(OPT_IN_SUFFIXES) or not t.rescored:
            continue
        out.add((t.release, t.config))
    return out


def test_the_umbrella_holds_each_benchmark_test_config_exactly_once(manager):
    leaves = _leaves(manager, UMBRELLA)
    assert len(leaves) == len(set(leaves)), "a task runs twice"
    assert not [t for t in leaves if t.endswith(("_vote", "_val", "_paper")) or "_val_" in t]
    index = task_index()
    assert {index[t].release for t in leaves} == set(PAPER_GROUPS.values())
    assert all(index[t].split == "test" for t in leaves)
    # every (benchmark, test config) once, except the families' per-group configs, which are row subsets
    # of config `all` (lm-eval would generate those documents twice)
    per_config: dict[tuple[str, str], list[str]] = {}
    for t in leaves:
        per_config.setdefault((index[t].release, index[t].config, tuple(sorted(index[t].where.items()))), []).append(t)
    assert all(len(ts) == 1 for ts in per_config.values()), per_config
    covered = {(r, c) for r, c, _ in per_config}
    subsets = {(t.release, t.config) for t in index.values() if t.task.startswith("chartprobe_families_")
               and t.config not in ("all", "resolution")}
    assert covered == _test_configs() - subsets


@pytest.mark.parametrize("group,release", sorted(PAPER_GROUPS.items()))
def test_each_paper_has_a_group_of_its_own_test_tasks(manager, group, release):
    leaves = _leaves(manager, group)
    index = task_index()
    assert leaves and {index[t].release for t in leaves} == {release}
    assert set(leaves) <= set(_leaves(manager, UMBRELLA))
    assert check_task_names(group) == {release}


def test_paper_groups_partition_the_umbrella(manager):
    parts = [t for g in PAPER_GROUPS for t in _leaves(manager, g)]
    assert sorted(parts) == sorted(_leaves(manager, UMBRELLA))


def test_opt_in_variants_keep_their_own_tags(manager):
    for tag, suffix in (("chartprobe_vote", "_vote"), ("chartprobe_paper", "_paper"),
                        ("chartprobe_style_shift", "_style_shift")):
        members = _leaves(manager, tag)
        assert members and all(t.endswith(suffix) for t in members)
    assert all("_val" in t for t in _leaves(manager, "chartprobe_val"))


def test_no_glob_matches_a_group_together_with_its_members(manager):
    """`--tasks 'chartprobe_*'` must not select a group and its own members (lm-eval: "Duplicate task")."""
    groups = [UMBRELLA, *PAPER_GROUPS]
    assert not fnmatch.filter(groups, "chartprobe_*")


def test_every_leaf_task_has_an_alias_in_the_papers_terms(manager):
    assert [n for n in task_index() if not manager.task_index[n].cfg.get("task_alias")] == []
    assert [g for g in (UMBRELLA, *PAPER_GROUPS) if not manager.task_index[g].cfg.get("group_alias")] == []


def test_the_task_folder_readme_lists_every_task_and_group(manager):
    """lm-eval's task guide: a README in the task folder naming each group, tag and task with its citation."""
    from chartprobe.eval_tasks.harness.runner import tasks_path

    text = (Path(tasks_path()) / "README.md").read_text()
    names = [*task_index(), UMBRELLA, *PAPER_GROUPS, "chartprobe_vote", "chartprobe_val", "chartprobe_paper",
             "chartprobe_style_shift"]
    assert [n for n in names if f"`{n}`" not in text] == []
    assert text.count("```bibtex") == len(PAPER_GROUPS)


def _readme_umbrella_command() -> list[str]:
    """The README's one command that evaluates a model on all four benchmarks, as argv."""
    import re
    import shlex

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    blocks = re.findall(r"```(?:bash|sh)?\n(.*?)```", readme, re.DOTALL)
    lines = [ln for b in blocks for ln in b.replace("\\\n", " ").splitlines()]
    (line,) = [ln for ln in lines if ln.strip().startswith("chartprobe eval") and f"--tasks {UMBRELLA}" in ln]
    return shlex.split(line.split("#", 1)[0])


@pytest.mark.slow
def test_the_readme_umbrella_command_runs_every_benchmark_once(tiny_vlm, release_root, tmp_path, manager):
    """The README's command, with the tiny VLM in place of the Hub model and ``--limit 2``."""
    import json
    import os
    import subprocess
    import sys

    from chartprobe.eval_tasks.rescoring import data

    argv = _readme_umbrella_command()
    assert argv[:2] == ["chartprobe", "eval"]
    argv = [a.replace(a.split("pretrained=", 1)[1].split(",", 1)[0], str(tiny_vlm)) if "pretrained=" in a else a
            for a in argv[2:]]
    out = tmp_path / "eval"
    argv = [str(out) if prev == "--output_path" else a for prev, a in zip(["", *argv], argv)]
    cmd = ["-m", "chartprobe", "eval", *argv, "--limit", "2", "--device", "cpu", "--batch_size", "8",
           "--gen_kwargs", "max_gen_toks=8"]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           data.ENV_VAR: str(release_root), "HF_DATASETS_CACHE": str(tmp_path / "cache"),
           "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(cmd, env=env, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    (path,) = out.rglob("results_*.json")
    results = json.loads(path.read_text())
    leaves = _leaves(manager, UMBRELLA)
    assert set(leaves) <= set(results["results"])
    assert all(results["n-samples"][t]["effective"] <= 2 for t in leaves)
    assert not [t for t in results["results"] if t.endswith(("_vote", "_paper")) or "_val" in t]
    # lm-eval's table reads in the papers' terms: every leaf by its alias, ChartProbe's aggregate by its group alias
    assert [t for t in leaves if manager.task_index[t].cfg["task_alias"] not in run.stdout] == []
    assert manager.task_index["chartprobe"].cfg["group_alias"] in run.stdout
    scored = tmp_path / "results.json"
    score = subprocess.run([sys.executable, "-m", "chartprobe", "score", "--predictions", str(out), "--releases",
                            str(release_root), "--out", str(scored)], env=env, capture_output=True, text=True,
                           timeout=600, check=False)
    assert score.returncode == 0, score.stderr[-2000:]
    assert json.loads(scored.read_text())
