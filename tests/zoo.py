"""The model zoo: every VLM family the tests build tiny and random, offline, by name.

Each ``tests/tiny_<family>.py`` builds one architecture from its real config and processor classes
(no download, no remote code) and registers its builder here with :func:`family`; the tests that
must hold for every architecture (lm-eval with and without the chat template, LoRA training,
image features for every image) are parametrized over :data:`ZOO`. Families that transformers
ships only as remote code are left out, with the reason in :data:`LEFT_OUT`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Family:
    """One tiny architecture: how to build it and what the harness must do for it."""

    name: str
    build: Callable[[Path], Path]
    image_string: str | None
    """What ``chartprobe eval`` adds as ``image_string`` on lm-eval's plain path (None: lm-eval's default,
    the config's image token, is already what the processor expands)."""
    vision_names: tuple[str, ...] = ("q_proj", "k_proj", "v_proj")
    """LoRA target names that, given by name alone, would reach the vision tower too."""
    cross_attention: bool = False
    """Image features reach the text through cross-attention (Mllama), not as tokens in the sequence."""
    shared_budget: bool = False
    """Several images in one prompt get fewer tokens each than one alone (LLaVA-OneVision drops the tiles)."""


ZOO: dict[str, Family] = {}

LEFT_OUT = {
    "Kimi-VL": "remote code only (transformers' kimi_k25 is Kimi-K2.5, not the Kimi-VL the papers run)",
    "DeepSeek-VL2": "remote code only (transformers ships DeepSeek-VL 1 and its hybrid, other architectures)",
    "Molmo": "remote code only (Molmo 1); transformers' molmo2 is a later model, not yet in the zoo",
    "MiMo-VL": "a Qwen2.5-VL checkpoint: the qwen2_5_vl family covers it",
    "Phi-4-multimodal": "native (phi4_multimodal), not yet in the zoo: a causal-LM class with audio, "
                        "not loaded by AutoModelForImageTextToText",
}
"""Families the papers evaluate that the zoo does not build, and why."""


Builder = Callable[[Path], Path]


def family(name: str, *, image_string: str | None, vision_names: tuple[str, ...] = ("q_proj", "k_proj", "v_proj"),
           cross_attention: bool = False, shared_budget: bool = False) -> Callable[[Builder], Builder]:
    """Register ``build(out_dir) -> out_dir`` as the zoo's ``name``."""

    def register(build: Builder) -> Builder:
        if name in ZOO:
            raise ValueError(f"zoo family {name!r} registered twice")
        ZOO[name] = Family(name, build, image_string, vision_names, cross_attention, shared_budget)
        return build

    return register


def load_zoo() -> dict[str, Family]:
    """Import every ``tests/tiny_*.py`` (each registers itself) and return :data:`ZOO`."""
    for path in sorted(Path(__file__).parent.glob("tiny_*.py")):
        importlib.import_module(path.stem)
    return ZOO
