"""``chartprobe eval`` (lm-eval's hf-multimodal) end to end on every family of the model zoo, with and
without ``--apply_chat_template``, on a one-image and a two-image task.

Without the chat template chartprobe adds the family's own image string (``tests/zoo.py`` says which)
and says so in one stderr line; with it, nothing is added. Per-image feature counts on both paths are
checked in ``test_zoo.py``; here the logged documents show both images of a judge pair were sent.
"""

from __future__ import annotations

import json
import os

import pytest
import warm_python
from chartprobe.eval_tasks.harness.image_string import PLACEHOLDER
from chartprobe.eval_tasks.rescoring import data
from zoo import load_zoo

ZOO = load_zoo()
TASKS = "chartprobe_probes_bar_perception,chartprobe_judge_cpa"  # one image; two images per document


@pytest.mark.slow
@pytest.mark.parametrize("chat", [False, True], ids=["plain", "chat-template"])
@pytest.mark.parametrize("name", sorted(ZOO))
def test_chartprobe_eval_runs_on_one_and_two_image_tasks(name, chat, zoo_model, release_root, tmp_path):
    model, string = zoo_model(name), ZOO[name].image_string
    out = tmp_path / "results"
    argv = ["--model", "hf-multimodal", "--model_args", f"pretrained={model},dtype=float32,max_images=2",
            "--device", "cpu", "--batch_size", "2", "--tasks", TASKS, "--limit", "2", "--max-gen-toks", "4",
            "--output_path", str(out), "--log_samples", *(["--apply_chat_template"] if chat else [])]
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           data.ENV_VAR: str(release_root), "HF_DATASETS_CACHE": str(tmp_path / "cache"),
           "TOKENIZERS_PARALLELISM": "false"}
    run = warm_python.run(["-m", "chartprobe.cli", "eval", *argv], env=env, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    added = string is not None and not chat
    assert ("added image_string" in run.stderr) is added
    assert not added or f"added image_string={string} " in run.stderr
    results = json.loads(next(out.rglob("results_*.json")).read_text())
    assert set(TASKS.split(",")) <= set(results["results"])
    samples = [json.loads(line) for p in out.rglob("samples_chartprobe_judge_cpa_*.jsonl") for line in p.open()]
    assert len(samples) == 2 and all(s["resps"] for s in samples)
    if not chat:  # the plain path's context: one placeholder per image, both in order, before the question
        contexts = [s["arguments"]["gen_args_0"]["arg_0"] for s in samples]
        assert all(c.count(PLACEHOLDER) == 2 for c in contexts), contexts[0][:400]
