"""Model architectures ``chartprobe train`` knows cannot train under the installed TRL, refused up front.

Llama 4 (``Llama4ForConditionalGeneration``) evaluates through lm-eval, but TRL 1.16's SFT loss cannot
run it: the fused LM-head forward takes ``model.base_model`` for the text backbone, which in Llama 4's
flat layout is the whole model ("'Llama4CausalLMOutputWithPast' object has no attribute
'last_hidden_state'"), and its MoE auxiliary loss reads a ``num_experts`` that Llama 4's config calls
``num_local_experts``. Found with the tiny Llama 4 of ``tests/tiny_llama4.py``. A refusal names the
TRL versions it was seen with, so a newer TRL is tried (and the model zoo's training test says
whether it then trains).
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

from .config import ConfigError

UNTRAINABLE = {
    "Llama4ForConditionalGeneration": (
        "1.16.0", ("its fused LM-head loss takes model.base_model for the text backbone, which Llama 4's "
                   "layout lacks, and its MoE auxiliary loss reads num_experts (Llama 4: num_local_experts)")),
}
"""Architecture -> (the newest TRL version it failed with, why)."""


def architectures_of(model: str) -> list[str]:
    """The ``architectures`` of a model folder's ``config.json`` (or a Hub model's, from the cache or fetched:
    a few KB that training downloads anyway); [] if unknown."""
    config = Path(model).expanduser() / "config.json"
    if not config.is_file():
        from huggingface_hub import hf_hub_download

        try:
            config = Path(hf_hub_download(model, "config.json"))
        except Exception:  # noqa: BLE001  (not a repo id, offline, gated: the model's own load reports it)
            return []
    try:
        return list(json.loads(config.read_text()).get("architectures") or [])
    except (OSError, ValueError, AttributeError):
        return []


def check_trainable(model: str) -> None:
    """Raise :class:`ConfigError` (one line) if ``model`` is an architecture the installed TRL cannot train."""
    try:
        installed = metadata.version("trl")
    except metadata.PackageNotFoundError:
        return  # the train extra is missing: reported where TRL is imported
    from packaging.version import Version  # a requirement of TRL and transformers

    trl = Version(installed)
    for name in architectures_of(model):
        failed_with, why = UNTRAINABLE.get(name, (None, ""))
        if failed_with and trl <= Version(failed_with):
            raise ConfigError(f"--model {model}: {name} does not train under TRL {trl} ({why}); it evaluates "
                              "with `chartprobe eval`")
