"""lm-eval and validity side of chartprobe-legend (issue 5, acceptance 2-4): the tasks build with
the frozen prompt, ``lm_eval --tasks chartprobe_legend --limit`` prints the capability profile
with the tiny VLM, and ``chartprobe validate`` passes: oracle 100%, legend-order shortcut
~100% aligned / ~0% conflict."""

from __future__ import annotations

import json
import re

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.metrics.names import readable
from chartprobe.eval_tasks.rescoring import data
from lm_eval_run import run_lm_eval

LEGEND_TASKS = ["chartprobe_legend", "chartprobe_legend_channel", "chartprobe_legend_order",
                "chartprobe_legend_visibility"]
PAPER_PROFILE = ("qa_acc", "chain_acc", "guide_read", "bind", "ve", "reason", "reason_sup", "cons", "resp", "cr",
           "ap", "ar", "af1")
PROFILE = tuple(map(readable, PAPER_PROFILE))  # lm-eval prints the table names (metric_names.py)


def _manager(metadata=None):
    from lm_eval.tasks import TaskManager

    return TaskManager(include_path=tasks_path(), include_defaults=False, metadata=metadata)


@pytest.mark.parametrize("metadata,tokens", [({"pretrained": "x"}, 1), ({"base_url": "http://127.0.0.1:1/v1"}, 0)],
                         ids=["local-model", "api-model"])
def test_legend_tasks_build_with_the_abstention_prompt(release_root, monkeypatch, metadata, tokens):
    monkeypatch.setenv(data.ENV_VAR, str(release_root))
    tasks = _manager(metadata).load(LEGEND_TASKS)["tasks"]
    for name in LEGEND_TASKS:
        task = tasks[name]
        docs = task.test_docs()
        assert len(docs) > 0
        prompt = task.doc_to_text(docs[0])
        assert docs[0]["question"] in prompt and "I don't know" in prompt
        assert prompt.count("<image>") == tokens
        assert task.doc_to_target(docs[0]) == docs[0]["answer"] and len(task.doc_to_image(docs[0])) == 1


@pytest.mark.slow
def test_lm_eval_prints_the_legend_profile_with_the_tiny_vlm(tiny_vlm, release_root, tmp_path):
    """Acceptance 4: `lm_eval --tasks chartprobe_legend --limit 40` prints every profile metric."""
    run, results = run_lm_eval(tiny_vlm, release_root, tmp_path, "chartprobe_legend,chartprobe_legend_order",
                               limit=40)
    for metric in PROFILE:
        assert f"{metric},none" in results["chartprobe_legend"], metric
        assert re.search(rf"\|\s*{metric}\s*\|", run.stdout), f"{metric} not in the printed table"
    for metric in ("aligned_acc", "conflict_acc", "follow_legend"):
        assert f"{metric},none" in results["chartprobe_legend_order"], metric
    qa = results["chartprobe_legend"]["qa_accuracy,none"]
    assert 0.0 <= qa <= 1.0


def test_validate_passes_with_oracle_and_legend_order_shortcut(release_root, tmp_path, capsys):
    from chartprobe.cli import main

    assert main(["validate", str(release_root / "chartprobe-legend"), "--out", str(tmp_path)]) == 0, \
        capsys.readouterr().out
    doc = json.loads((tmp_path / "validity.json").read_text())[0]
    checks = doc["checks"]
    oracle = [c for c in checks if c["agent"] == "oracle"]
    assert oracle and all(c["status"] == "pass" and c["value"] == 1.0 for c in oracle if c["value"] is not None)
    order = {c["check"]: c["value"] for c in checks if c["agent"] == "legend_order" and "order_study" in c["scope"]}
    aligned = [v for k, v in order.items() if "aligned" in k]
    conflict = [v for k, v in order.items() if "conflict" in k]
    assert aligned and conflict, order
    assert min(aligned) >= 0.99 and max(conflict) <= 0.01
