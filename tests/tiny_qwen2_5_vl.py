"""A tiny, randomly initialised Qwen2.5-VL built offline: the papers' most used open model family.

Qwen2.5-VL's processor expects ``<|vision_start|><|image_pad|><|vision_end|>`` per image in the
text and expands the ``<|image_pad|>`` into one token per merged patch, a number that depends on
the image's size (patches of 14 px, merged 2 x 2, the image resized to a multiple of 28 between
``min_pixels`` and ``max_pixels``); positions are 3-D (M-RoPE), the vision tower windowed.
``build_tiny_qwen2_5_vl(out_dir)`` writes a real ``Qwen2_5_VLForConditionalGeneration`` with the
locally trained tokenizer of ``tests/tiny_vlm.py`` plus Qwen's vision tokens, and a chat template
in Qwen's shape (ChatML turns, the vision string per image part); it loads with ``AutoProcessor``
+ ``AutoModelForImageTextToText``.
"""

from __future__ import annotations

from pathlib import Path

from qwen_parts import IMAGE_STRING, MERGE, VISION_NAMES, build_qwen, vision_token_ids
from zoo import family

PATCH = 14
SEED = 1618


def _model_config(tokenizer):
    from transformers import Qwen2_5_VLConfig
    from transformers.models.qwen2_5_vl.configuration_qwen2_5_vl import (
        Qwen2_5_VLTextConfig,
        Qwen2_5_VLVisionConfig,
    )

    vision = Qwen2_5_VLVisionConfig(depth=2, hidden_size=32, intermediate_size=64, num_heads=2, patch_size=PATCH,
                                    spatial_merge_size=MERGE, temporal_patch_size=2, window_size=56,
                                    out_hidden_size=64, fullatt_block_indexes=[1])
    # M-RoPE: temporal, height and width sections of the head's half-dimension (16 / 2 = 8)
    text = Qwen2_5_VLTextConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048,
                                rope_parameters={"rope_type": "default", "rope_theta": 10000.0,
                                                 "mrope_section": [2, 3, 3]},
                                bos_token_id=None, eos_token_id=tokenizer.eos_token_id,
                                pad_token_id=tokenizer.pad_token_id)
    ids = vision_token_ids(tokenizer)
    return Qwen2_5_VLConfig(text_config=text, vision_config=vision, tie_word_embeddings=False, **ids)


@family("qwen2_5_vl", image_string=IMAGE_STRING, vision_names=VISION_NAMES)
def build_tiny_qwen2_5_vl(out_dir: str | Path) -> Path:
    """Build the tiny Qwen2.5-VL (model, tokenizer, processor) and ``save_pretrained`` it to ``out_dir``."""
    from transformers import Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil
    from transformers.models.qwen2_vl.video_processing_qwen2_vl import Qwen2VLVideoProcessor

    return build_qwen(out_dir, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor,
                      Qwen2VLImageProcessorPil, Qwen2VLVideoProcessor, _model_config, patch=PATCH, seed=SEED)


if __name__ == "__main__":  # pragma: no cover - manual helper
    import sys

    print(build_tiny_qwen2_5_vl(sys.argv[1] if len(sys.argv) > 1 else "tiny-qwen2.5-vl"))
