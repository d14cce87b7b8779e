"""ChartJudgeBench lm-eval tasks: frozen prompts, two-image documents, two-pass docs, end to end."""

from __future__ import annotations

import glob
import hashlib
import importlib.util
import json
from pathlib import Path

import pytest
from chartprobe.eval_tasks.harness.runner import tasks_path
from chartprobe.eval_tasks.rescoring import data
from lm_eval_run import run_lm_eval

TASKS = ["chartprobe_judge_cpa", "chartprobe_judge_crj_repro", "chartprobe_judge_crj_edit"]
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def _judge_utils():
    spec = importlib.util.spec_from_file_location("chartprobe_judge_utils", Path(tasks_path()) / "judge_utils.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_prompts_are_frozen_and_follow_the_paper():
    utils = _judge_utils()
    for name, digest in utils.PROMPT_SHA256.items():
        assert hashlib.sha256((utils.PROMPT_DIR / f"{name}.txt").read_bytes()).hexdigest() == digest
    assert utils.prompt("judge_cpa").startswith("You are a professional Data Visualization Expert and Critic.")
    assert "{SIMPLIFIED_QUERY}" in utils.prompt("judge_crj_reproduction")
    assert "Instruction Adherence" in utils.prompt("judge_crj_editing")


def test_a_changed_prompt_is_refused(tmp_path, monkeypatch):
    utils = _judge_utils()
    (tmp_path / "judge_cpa.txt").write_text(utils.prompt("judge_cpa") + " Prefer Image A.")
    monkeypatch.setattr(utils, "PROMPT_DIR", tmp_path)
    with pytest.raises(utils.PromptChangedError, match="judge_cpa"):
        utils.prompt("judge_cpa")


def test_judge_tasks_and_tag_are_discovered():
    from lm_eval.tasks import TaskManager

    names = TaskManager(include_path=tasks_path(), include_defaults=False).all_tasks
    assert set(TASKS) | {"chartprobe_judge"} <= set(names)


@pytest.mark.parametrize(("metadata", "tokens"), [({"pretrained": "x"}, 2), ({"base_url": "http://127.0.0.1:1/v1"}, 0)],
                         ids=["local-model", "api-model"])
def test_documents_carry_two_images_and_cpa_asks_each_pair_in_both_orders(release_root, monkeypatch,
                                                                          metadata, tokens):
    from lm_eval.tasks import TaskManager

    monkeypatch.setenv(data.ENV_VAR, str(release_root))
    manager = TaskManager(include_path=tasks_path(), include_defaults=False, metadata=metadata)
    tasks = manager.load(TASKS)["tasks"]
    for name in TASKS:
        task = tasks[name]
        docs = list(task.test_docs())
        for doc in docs[:4]:
            assert len(task.doc_to_image(doc)) == 2
            assert task.doc_to_text(doc).count("<image>") == tokens
            assert task.doc_to_target(doc) in {"A", "B", "Accept", "Reject"}
    cpa = list(tasks["chartprobe_judge_cpa"].test_docs())
    assert len(cpa) == 28  # 14 pairs x 2 orders, consecutive
    for first, second in zip(cpa[::2], cpa[1::2]):
        assert first["pair_id"] == second["pair_id"]
        assert (first["order"], first["answer"], second["order"], second["answer"]) == \
            ("better_first", "A", "worse_first", "B")
        assert first["image_a"] == second["image_b"] and first["image_b"] == second["image_a"]
    edit = next(iter(tasks["chartprobe_judge_crj_edit"].test_docs()))
    assert edit["instruction"] in tasks["chartprobe_judge_crj_edit"].doc_to_text(edit)


@pytest.mark.slow
def test_lm_eval_runs_the_three_judge_tasks_with_two_images(tiny_vlm, release_root, tmp_path):
    _, results = run_lm_eval(tiny_vlm, release_root, tmp_path, ",".join(TASKS), limit=4, max_images=2,
                             max_gen_toks=8, log_samples=True)
    cpa = results["chartprobe_judge_cpa"]
    outcomes = ["two_pass_accuracy", "consistent_wrong_rate", "bias_a_rate", "bias_b_rate", "parse_fail_rate"]
    assert sum(cpa[f"{m},none"] for m in outcomes) == pytest.approx(1.0)
    assert {"one_pass_accuracy,none", "acc_aspect_ratio,none", "acc_visual_effects,none"} <= set(cpa)
    for task in TASKS[1:]:
        for metric in ("accuracy", "precision", "recall", "specificity", "f1", "accept_rate", "parse_fail_rate"):
            assert 0.0 <= results[task][f"{metric},none"] <= 1.0, (task, metric)
    (samples,) = glob.glob(str(tmp_path / "results" / "**" / "samples_chartprobe_judge_cpa_*.jsonl"), recursive=True)
    docs = [json.loads(line) for line in Path(samples).read_text().splitlines()]
    assert len(docs) == 4 and all(d["arguments"]["gen_args_0"]["arg_0"].count("<image>") == 2 for d in docs)
