"""LoRA SFT on CPU with the tiny test VLMs (training/sft.py, lora.py, cli.py, loop.py).

The issue's acceptance checks: ``chartprobe train --model <tiny> --skills P+G --max-steps 3``
runs, the loss is finite and falls on a fixed batch, the adapter reloads with
``PeftModel.from_pretrained`` and generates; the adapter evaluates through lm-eval's ``peft=``.
Every other architecture trains in ``test_zoo_train.py``; LoRA stays on the language model in
``test_zoo.py``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest
import yaml
from chartprobe.eval_tasks.rescoring import data as eval_data
from chartprobe.training.config import TrainConfig
from chartprobe.training.loop import eval_env
from chartprobe.training.profile import SCHEMA_V1 as SCHEMA  # a v1 file is still read (with intervals from n)
from train_run import first_image, reload_and_generate, train_cli

OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
           "TOKENIZERS_PARALLELISM": "false"}


@pytest.fixture(scope="module")
def probes_root(release_root) -> Path:
    """A CHARTPROBE_DATA folder holding the small chartprobe-probes release: the session's
    ``release_root`` (read only here), which the suite builds once for every file."""
    return release_root


@pytest.fixture(autouse=True)
def _offline(monkeypatch, probes_root):
    for key, value in OFFLINE.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv(eval_data.ENV_VAR, str(probes_root))  # the default --data: $CHARTPROBE_DATA


def test_train_p_g_three_steps_saves_a_reloadable_adapter(tiny_vlm, probes_root, tmp_path):
    out = tmp_path / "run"
    assert train_cli(["--model", str(tiny_vlm), "--skills", "P+G", "--max-steps", "3", "--out", str(out),
                      "--logging-steps", "1"]) == 0
    log = json.loads((out / "train_log.json").read_text())
    assert log["steps"] == 3 and len(log["train_losses"]) == 3
    assert all(math.isfinite(x) for x in log["train_losses"]) and math.isfinite(log["eval_loss"])
    assert log["precision"] == "fp32"
    # Exact config, selection manifest and card next to the adapter.
    cfg = TrainConfig(**yaml.safe_load((out / "train_config.yaml").read_text()))
    assert (cfg.skills, cfg.max_steps, cfg.lora_r, cfg.lora_alpha) == ("P+G", 3, 32, 64)
    manifest = json.loads((out / "selection.json").read_text())
    import datasets
    from chartprobe.dataset_builders.release.labels import as_text

    bar_train = as_text(datasets.load_dataset(str(probes_root / "chartprobe-probes"), "bar", split="train"))
    want = Counter(s for s in bar_train["skill"] if s in ("perception", "grounding"))
    assert manifest["train"]["counts"] == dict(want)  # all bar train P+G rows
    assert all("-CR-" not in i and "-R-" not in i for i in manifest["train"]["ids"] + manifest["validation"]["ids"])
    card = (out / "README.md").read_text()
    assert "base_model: " + str(tiny_vlm) in card and "peft=<this folder>" in card
    assert 'after ChartProbe (§4 "Setup")' in card and "No complex-reasoning question" in card
    assert "--tasks chartprobe_probes_bar,chartprobe_probes_pie,chartprobe_probes_shapes,chartprobe_complex " in card
    adapter_cfg = json.loads((out / "adapter_config.json").read_text())
    assert (adapter_cfg["r"], adapter_cfg["lora_alpha"]) == (32, 64)
    assert reload_and_generate(tiny_vlm, out, first_image(probes_root)) is not None


def test_the_cross_attention_mask_follows_prompt_and_completion(tiny_mllama, probes_root):
    """Every token from a row's <|image|> to its last real token attends to the image; nothing before it."""
    import torch
    from chartprobe.training.cross_attention import keep_in_step
    from transformers import AutoProcessor
    from trl.trainer.sft_trainer import DataCollatorForVisionLanguageModeling

    processor = AutoProcessor.from_pretrained(tiny_mllama)
    image = first_image(probes_root)
    examples = [{"images": [image], "prompt": [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": q}]}],
                 "completion": [{"role": "assistant", "content": [{"type": "text", "text": a}]}]}
                for q, a in [("How many bars?", "7"), ("Which bar is the highest of all the bars shown?", "Peru")]]
    holder = argparse.Namespace(data_collator=DataCollatorForVisionLanguageModeling(processor, completion_only_loss=True))
    assert keep_in_step(holder, processor)
    batch = holder.data_collator([dict(e) for e in examples])
    ids, mask = batch["input_ids"], batch["cross_attention_mask"]
    assert mask.shape[:2] == ids.shape and int((batch["labels"] != -100).sum()) > 0
    for row, attn, row_mask in zip(ids, batch["attention_mask"], mask, strict=True):
        start = int((row == processor.image_token_id).nonzero()[0])
        end = int(attn.nonzero().max()) + 1
        assert torch.all(row_mask[:start] == 0) and torch.all(row_mask[start:end, 0, 0] == 1)


def test_loss_decreases_on_a_tiny_fixed_batch(tiny_vlm, tmp_path):
    # 8 rows and a batch of 8: every step sees the same batch, so the loss must fall.
    out = tmp_path / "fixed"
    assert train_cli(["--model", str(tiny_vlm), "--skills", "P+G", "--volume-matched", "8",
                      "--per-device-batch-size", "8", "--grad-accum", "1", "--learning-rate", "5e-3",
                      "--lora-dropout", "0", "--max-steps", "4", "--logging-steps", "1", "--no-eval-at-end",
                      "--out", str(out)]) == 0
    losses = json.loads((out / "train_log.json").read_text())["train_losses"]
    assert len(losses) == 4 and all(math.isfinite(x) for x in losses)
    assert all(b < a for a, b in itertools.pairwise(losses)), losses
    assert losses[-1] < losses[0] - 0.3, losses


def test_bottleneck_training_on_idefics3_from_a_profile(tiny_idefics3, tmp_path):
    profile = {"schema": SCHEMA, "model": "base", "regions": {"skill": {
        "perception": {"accuracy": 0.1, "n": 9}, "grounding": {"accuracy": 0.7, "n": 9},
        "reasoning": {"accuracy": 0.8, "n": 9}, "complex": {"accuracy": 0.0, "n": 9}}}}
    (tmp_path / "profile.json").write_text(json.dumps(profile))
    out = tmp_path / "bottleneck"
    assert train_cli(["--model", str(tiny_idefics3), "--select", "bottleneck", "--profile",
                      str(tmp_path / "profile.json"), "--budget", "20", "--max-steps", "2", "--out", str(out)]) == 0
    manifest = json.loads((out / "selection.json").read_text())["train"]
    assert manifest["n"] == 20 and manifest["details"]["weak"] == ["perception"]
    assert manifest["counts"]["perception"] >= 0.8 * 20
    assert set(manifest["counts"]) <= {"perception", "grounding", "reasoning"}
    log = json.loads((out / "train_log.json").read_text())
    assert all(m.startswith("model.text_model.") for m in log["trainable_modules"])
    assert "Bottleneck selection" in (out / "README.md").read_text()


@pytest.mark.parametrize("argv,message", [
    (["--skills", "P+CR"], "complex reasoning is never trained on"),
    (["--domains", "cr_bar"], "never trained on"),
    (["--select", "random"], "--budget"),
    (["--select", "bottleneck", "--profile", "/nonexistent/profile.json", "--budget", "4"], "no such profile"),
])
def test_bad_requests_exit_2_with_one_line(argv, message, tiny_vlm, tmp_path, capsys):
    assert train_cli(["--model", str(tiny_vlm), "--out", str(tmp_path / "x"), *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_adapter_evaluates_through_lm_eval_peft(tiny_vlm, probes_root, tmp_path, monkeypatch):
    """The closed loop: 2 training steps, then lm-eval hf-multimodal with peft=<adapter>."""
    from chartprobe.training import loop as training_loop

    # The task YAMLs allow 2048 new tokens (reasoning models); the random tiny VLM would use them all.
    full_argv = training_loop.lm_eval_argv
    monkeypatch.setattr(training_loop, "lm_eval_argv",
                        lambda *a, **k: [*full_argv(*a, **k), "--gen_kwargs", "max_gen_toks=8"])
    out = tmp_path / "loop"
    base = {"schema": SCHEMA, "model": "base", "regions": {"skill": {s: {"accuracy": 0.0, "n": 5}
            for s in ("perception", "grounding", "reasoning")}}, "complex": {}}
    (tmp_path / "base.json").write_text(json.dumps(base))  # reuse a base profile: one lm-eval run
    assert train_cli(["--model", str(tiny_vlm), "--skills", "P", "--max-steps", "2", "--out", str(out),
                      "--eval-tasks", "chartprobe_probes_bar", "--eval-limit", "5", "--eval-device", "cpu",
                      "--eval-model-args", "max_images=1,dtype=float32", "--base-eval",
                      str(tmp_path / "base.json")]) == 0
    (results_file,) = (out / "eval" / "tuned").glob("*/results_*.json")
    results = json.loads(results_file.read_text())
    assert str(results["config"]["model_args"]).count(str(out)) == 1  # peft=<adapter> reached lm-eval
    for skill in ("perception", "grounding", "reasoning"):
        task = f"chartprobe_probes_bar_{skill}"
        assert results["n-samples"][task]["effective"] == 5
        assert 0.0 <= results["results"][task]["accuracy,none"] <= 1.0
    cmp = json.loads((out / "comparison.json").read_text())
    assert set(cmp["regions"]["skill"]) == {"perception", "grounding", "reasoning"}
    assert (out / "comparison.md").read_text().startswith("| region |")
    # lm-eval read the same local release the adapter was trained from.
    assert eval_env(None)[eval_data.ENV_VAR] == str(probes_root)


def test_floating_inputs_reach_the_model_in_its_dtype():
    """Llama 4's processor returns bf16 pixels whatever the model's dtype; the collator's batches are cast,
    integer and boolean tensors left alone."""
    import torch
    from chartprobe.training.input_dtype import cast_inputs

    batch = {"pixel_values": torch.ones(1, 3, 2, 2, dtype=torch.bfloat16),
             "input_ids": torch.ones(1, 4, dtype=torch.long), "pixel_attention_mask": torch.ones(1, 2, 2, dtype=torch.bool), "image_sizes": [(2, 2)]}
    holder = argparse.Namespace(data_collator=lambda examples: dict(batch))
    cast_inputs(holder, torch.float32)
    out = holder.data_collator([])
    assert out["pixel_values"].dtype == torch.float32 and out["input_ids"].dtype == torch.long
    assert out["pixel_attention_mask"].dtype == torch.bool and out["image_sizes"] == [(2, 2)]
