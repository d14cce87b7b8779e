"""lm-eval side of chartprobe-families: task discovery, the paper's prompt, end-to-end family metrics."""

from __future__ import annotations

import re

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.rescoring import data
from lm_eval_run import run_lm_eval

GROUP_TASKS = [f"chartprobe_families_{g}" for g in ("bars", "lines", "shares", "distributions", "timelines")]
FAMILY_TASKS = ["chartprobe_families", *GROUP_TASKS, "chartprobe_families_resolution"]
FAMILY_METRICS = ("original_accuracy", "reconstruction_accuracy", "variant_accuracy", "relative_variant_change_pct",
                  "conditional_variant_accuracy", "correct_update_rate", "noisy_update_rate", "stale_prediction_rate")
"""The table names of OA, RA, VA, RVC, CVA, CU, NU, SP (eval_tasks/metrics/names.py)."""
PAPER_PROMPT = ("Please answer the question using the chart image. Question: {q} Please first provide a brief "
                "rationale and then provide the answer. Use the following format: <rationale> ... your "
                "rationale here ... </rationale> <answer> ... your final answer (entity(s) or number) ... </answer>")


def _manager(metadata=None):
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=tasks_path(), include_defaults=False, metadata=metadata)


def test_family_tasks_and_tag_are_discovered():
    names = set(_manager().all_tasks)
    assert set(FAMILY_TASKS) | {"chartprobe_families_groups"} <= names


@pytest.mark.parametrize("metadata,tokens", [({"pretrained": "x"}, 1), ({"base_url": "http://127.0.0.1:1/v1"}, 0)],
                         ids=["local-model", "api-model"])
def test_family_tasks_build_with_the_papers_prompt(release_root, monkeypatch, metadata, tokens):
    monkeypatch.setenv(data.ENV_VAR, str(release_root))
    tasks = _manager(metadata).load(FAMILY_TASKS)["tasks"]
    for name in FAMILY_TASKS:
        task = tasks[name]
        doc = task.test_docs()[0]
        prompt = task.doc_to_text(doc)
        assert prompt.replace("<image>", "", 1) == PAPER_PROMPT.format(q=doc["question"])
        assert prompt.count("<image>") == tokens
        assert task.doc_to_target(doc) == doc["answer"] and len(task.doc_to_image(doc)) == 1


@pytest.mark.slow
def test_lm_eval_reports_family_metrics_with_the_tiny_vlm(tiny_vlm, release_root, tmp_path):
    """Acceptance 4: `lm_eval --tasks chartprobe_families --limit 48`: sources take turns (doc_order), so
    48 documents are the original, reconstruction and a first variant of each of the 16 sources' first family."""
    run, results = run_lm_eval(tiny_vlm, release_root, tmp_path, "chartprobe_families", limit=48, max_gen_toks=24)
    results = results["chartprobe_families"]
    for metric in FAMILY_METRICS:
        assert f"{metric},none" in results, metric
        assert re.search(rf"\|\s*{metric}\s*\|", run.stdout), f"{metric} not in the printed table"
    assert 0.0 <= results["variant_accuracy,none"] <= 1.0 and 0.0 <= results["original_accuracy,none"] <= 1.0
