"""``chartprobe train --max-steps 2`` on every family of the model zoo (``tests/zoo.py``): the adapter is
saved with LoRA under the language model only, reloads with PEFT and generates.

LoRA's targets per family are checked without training in ``test_zoo.py``; here the whole run:
TRL's collator (Mllama's cross-attention mask grown with the completion), each family's dtype,
saving and reloading.
"""

from __future__ import annotations

import json
import math

import pytest
from chartprobe.eval_tasks.rescoring import data
from train_run import first_image, reload_and_generate, train_cli
from zoo import load_zoo

ZOO = load_zoo()


@pytest.fixture(autouse=True)
def _offline(monkeypatch, release_root):
    for key in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(key, "1")
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    monkeypatch.setenv(data.ENV_VAR, str(release_root))  # the default --data: $CHARTPROBE_DATA


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ZOO))
def test_two_steps_save_a_language_model_adapter_that_reloads_and_generates(name, zoo_model, release_root,
                                                                           tmp_path):
    import torch
    from chartprobe.training.lora import language_model_prefix
    from safetensors import safe_open
    from transformers import AutoConfig, AutoModelForImageTextToText

    path, out = zoo_model(name), tmp_path / "adapter"
    assert train_cli(["--model", str(path), "--skills", "P+G", "--max-steps", "2", "--out", str(out),
                      "--logging-steps", "1"]) == 0
    log = json.loads((out / "train_log.json").read_text())
    assert log["steps"] == 2 and all(math.isfinite(x) for x in log["train_losses"])
    with safe_open(str(out / "adapter_model.safetensors"), "pt") as f:
        saved = list(f.keys())
    with torch.device("meta"):  # only the module names
        prefix = language_model_prefix(AutoModelForImageTextToText.from_config(AutoConfig.from_pretrained(path)))
    assert saved and all("lora_" in k and f"{prefix}." in k for k in saved), saved[:4]
    assert reload_and_generate(path, out, first_image(release_root)) is not None
