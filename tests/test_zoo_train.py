"""``chartprobe train --max-steps 2`` on every family of the model zoo (``tests/zoo.py``): the adapter is
saved with LoRA under the language model only, reloads with PEFT and generates.

LoRA's targets per family are checked without training in ``test_zoo.py``; here the whole run:
TRL's collator (Mllama's cross-attention mask grown with the completion), each family's dtype,
saving and reloading. A family the installed TRL cannot train (``training/architectures.py``: Llama 4
under TRL 1.16) is refused in one line before any model loads.
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


def _refused(path) -> bool:
    from chartprobe.training.architectures import check_trainable
    from chartprobe.training.config import ConfigError

    try:
        check_trainable(str(path))
    except ConfigError:
        return True
    return False


def test_llama4_is_refused_under_the_trl_it_fails_with(zoo_model):
    """Llama 4 is in the zoo for evaluation; TRL 1.16's loss cannot run it (training/architectures.py)."""
    from importlib import metadata

    from chartprobe.training.architectures import UNTRAINABLE
    from packaging.version import Version

    failing = Version(metadata.version("trl")) <= Version(UNTRAINABLE["Llama4ForConditionalGeneration"][0])
    assert _refused(zoo_model("llama4")) is failing and not _refused(zoo_model("llava"))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ZOO))
def test_two_steps_save_a_language_model_adapter_that_reloads_and_generates(name, zoo_model, release_root,
                                                                           tmp_path, capsys):
    import torch
    from chartprobe.training.lora import language_model_prefix
    from safetensors import safe_open
    from transformers import AutoConfig, AutoModelForImageTextToText

    path, out = zoo_model(name), tmp_path / "adapter"
    argv = ["--model", str(path), "--skills", "P+G", "--max-steps", "2", "--out", str(out), "--logging-steps", "1"]
    if _refused(path):
        capsys.readouterr()  # the build's progress bars, if this test built the model
        assert train_cli(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "does not train under TRL" in err[0] and not out.exists()
        return
    assert train_cli(argv) == 0
    log = json.loads((out / "train_log.json").read_text())
    assert log["steps"] == 2 and all(math.isfinite(x) for x in log["train_losses"])
    with safe_open(str(out / "adapter_model.safetensors"), "pt") as f:
        saved = list(f.keys())
    with torch.device("meta"):  # only the module names
        prefix = language_model_prefix(AutoModelForImageTextToText.from_config(AutoConfig.from_pretrained(path)))
    assert saved and all("lora_" in k and f"{prefix}." in k for k in saved), saved[:4]
    assert reload_and_generate(path, out, first_image(release_root)) is not None
