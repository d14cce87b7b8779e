"""LoRA on the language model only: target regex, wrapping, and the frozen-vision check.

Short target names are not enough for VLMs: SigLIP/Idefics3 and CLIP vision towers also
have ``q_proj``/``k_proj``/``v_proj`` layers, so ``target_modules=["q_proj", ...]`` would
adapt the vision encoder as well. We find the language model's module path (the module
``get_decoder()`` returns: ``model.language_model`` in LLaVA, ``model.text_model`` in
Idefics3) and match only projections below it with a regex, which PEFT applies with
``re.fullmatch`` to every module name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

# Attribute names of the language model in VLMs whose get_decoder() is missing or unusable.
_FALLBACK_LM_NAMES = ("language_model", "text_model", "llm", "language")


def language_model_prefix(model: Any) -> str:
    """Dotted module name of the VLM's language model (decoder stack)."""
    decoder = None
    try:
        decoder = model.get_decoder()
    except (AttributeError, NotImplementedError, TypeError):
        pass
    names = {id(m): n for n, m in model.named_modules()}
    if decoder is not None and names.get(id(decoder)):
        return names[id(decoder)]
    for name, _ in model.named_modules():
        if name.rsplit(".", 1)[-1] in _FALLBACK_LM_NAMES:
            return name
    raise ValueError(f"cannot locate the language model inside {type(model).__name__}")


def target_regex(prefix: str, projections: Iterable[str]) -> str:
    """Regex (for PEFT's fullmatch) of the given projections anywhere below ``prefix``."""
    names = "|".join(re.escape(p) for p in projections)
    return rf"{re.escape(prefix)}\..*\.(?:{names})"


def lora_config(cfg: Any, model: Any):
    """``peft.LoraConfig`` of a :class:`~chartprobe.training.config.TrainConfig` for ``model``."""
    from peft import LoraConfig

    regex = target_regex(language_model_prefix(model), cfg.lora_targets)
    return LoraConfig(r=cfg.lora_r, lora_alpha=cfg.lora_alpha, lora_dropout=cfg.lora_dropout,
                      target_modules=regex, bias="none", task_type="CAUSAL_LM")


def trainable_modules(peft_model: Any) -> list[str]:
    """Names of the modules that carry trainable parameters (the adapted projections)."""
    mods = {n.split(".lora_")[0] for n, p in peft_model.named_parameters() if p.requires_grad}
    return sorted(m.removeprefix("base_model.model.") for m in mods)


def check_language_model_only(peft_model: Any, prefix: str) -> None:
    """Raise unless every trainable parameter is a LoRA weight inside the language model."""
    bad = [n for n, p in peft_model.named_parameters() if p.requires_grad
           and ("lora_" not in n or f"{prefix}." not in n.removeprefix("base_model.model."))]
    if bad:
        raise RuntimeError(f"{len(bad)} trainable parameters outside the language model's LoRA, e.g. {bad[:3]}")
    if not any(p.requires_grad for p in peft_model.parameters()):
        raise RuntimeError("LoRA matched no module: check --lora-targets against the model's layer names")


def apply_lora(cfg: Any, model: Any) -> tuple[Any, list[str]]:
    """Wrap ``model`` with LoRA on its language model; return (peft model, trainable modules)."""
    from peft import get_peft_model

    prefix = language_model_prefix(model)
    peft_model = get_peft_model(model, lora_config(cfg, model))
    check_language_model_only(peft_model, prefix)
    return peft_model, trainable_modules(peft_model)
